"""The UI reads what is true now (`current_memories`, as recall and MCP) and a memory's page
shows its chain: what it restated, superseded or closed, and what superseded it."""

from html.parser import HTMLParser

from jobs.api import memory_with_evidence
from jobs.ui.memory_page import memory_page
from sinks.memory_browse import BrowseCache, Slice, project_memories, projects
from tests.sinks.test_links import SESSIONS, consolidate, ids_by_text, lake, session_window, write

__all__ = ["lake"]  # the fixture, both catalogs


class _Text(HTMLParser):
    def __init__(self):
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data):
        self.parts.append(data)


def text_of(markup) -> str:
    parser = _Text()
    parser.feed(str(markup))
    return " ".join(" ".join(parser.parts).split())


def test_the_timeline_holds_current_memories_and_a_page_shows_the_chain(lake):
    write(lake, *(session_window(*session) for session in SESSIONS))
    scratch = BrowseCache().connection(lake.con, "t")
    assert projects(scratch)[0]["memories"] == 5  # nothing consolidated yet: all are current
    consolidate(lake)
    scratch = BrowseCache().connection(lake.con, "t")
    rows, total = project_memories(scratch, Slice(""))  # no `nodes` rows: pushed-like
    assert total == 2 and sorted(row["content"] for row in rows) == [
        "Switch the job queue to Postgres SKIP LOCKED instead of Redis",
        "[success] Fixed the flaky login test; the release is unblocked"]
    assert projects(scratch)[0]["types"] == {"decision": 1, "outcome": 1}

    ids = ids_by_text(lake)
    redis = ids["Use Redis Streams for the job queue"]
    postgres = ids["Switch the job queue to Postgres SKIP LOCKED instead of Redis"]
    record = memory_with_evidence(lake.con, "t", redis)  # not current: its page still opens
    page = text_of(memory_page(record, [], can_forget=False))
    assert "Chain" in page
    assert f"superseded by {postgres[:12]}" in page
    assert f"duplicate of {redis[:12]}" in page  # "Keep the job queue on Redis Streams"
    assert "Switch the job queue to Postgres SKIP LOCKED" in page


def test_a_memory_nothing_was_linked_to_has_no_chain(lake):
    write(lake, session_window(*SESSIONS[0]))
    consolidate(lake)
    record = memory_with_evidence(lake.con, "t", ids_by_text(lake)[
        "Use Redis Streams for the job queue"])
    assert record["chain"] == [] and "Chain" not in text_of(memory_page(record, [],
                                                                        can_forget=False))
