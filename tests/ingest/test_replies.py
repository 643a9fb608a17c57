"""Short user replies (issue 24, part 2): kept unless they say nothing; the vocabulary pinned
against the repo's trails it was derived from (ingest/replies.py says how)."""

from pathlib import Path

import pytest

from ingest.content import MIN_EVENT_CHARS, finish_content
from ingest.nodes import Allowlist, DiscoverOptions, Discovery, ReadOptions
from ingest.replies import is_acknowledgement, says_nothing
from ingest.sources import get_source, read_node
from tests.goldens import fixture_nodes

ROOT = Path(__file__).resolve().parents[2]
QUALITY_TRAILS = ROOT / "bench" / "quality" / "trails"


@pytest.mark.parametrize("text", [
    # the acknowledgements of the repo's trails
    "ok, continue", "continue",
    # the list, and the spellings of the same acts
    "ok", "OK.", "yes", "Yes!", "y", "k", "thanks", "Thanks!!", "thank you", "go on", "go ahead",
    "ok thanks", "yes please", "sounds good", "lgtm", "Perfect, thank you!", "keep going",
    "👍", "...", "ok 👍", "yep, go ahead", "Got it, thanks.", "let’s continue",
])
def test_a_bare_acknowledgement_says_nothing(text):
    assert is_acknowledgement(text) and says_nothing(text)


@pytest.mark.parametrize("text", [
    # the examples: the answers that carry the decision
    "yes do merge on order_id", "C)", "use pnpm", "no", "2", "B",
    # short user texts of the repo's trails, all kept
    "Great, ship it.", "fix this", "start phoenix in background", "はくあ",
    "Thanks! Please update CLAUDE.md for current changes", "thanks, also tell me what you found",
    "remove the folder subpages", "GET /orders is slow for big customers.",
    "/orchestrator create TODO app by Next.js", "/test-command --verbose --output /tmp/test.log",
    "ok, continue with the Postgres migration", "ok " * 30,
])
def test_a_reply_with_one_word_more_is_kept(text):
    assert not says_nothing(text)


@pytest.mark.parametrize("text", ["/mcp", "/clear", " /compact ", "", "   "])
def test_a_bare_slash_command_or_nothing_says_nothing(text):
    assert says_nothing(text) and finish_content(text, prompt=True) is None


def test_prompts_have_no_floor_and_replies_keep_it():
    assert finish_content("use pnpm", prompt=True) == "use pnpm"
    assert finish_content("use pnpm") is None  # an assistant reply under the floor
    assert finish_content("ok, continue", prompt=True) is None
    assert finish_content("x" * MIN_EVENT_CHARS) == "x" * MIN_EVENT_CHARS


def repo_trails() -> list:
    """Every trail the vocabulary was derived from (jobs/samples holds copies of the fixtures)."""
    nodes = [node for _, node in fixture_nodes()]
    for source in ("claude-code", "codex", "cursor", "openclaw"):
        found = Discovery()
        get_source(source).discover(QUALITY_TRAILS / source, Allowlist(allow_all=True),
                                    DiscoverOptions(include_subagents=True), found)
        nodes += found.nodes
    return nodes


def test_the_repo_trails_keep_their_short_replies_and_drop_their_acknowledgements():
    short: dict[str, int] = {}
    for node in repo_trails():
        trail, _ = read_node(node, 0, ReadOptions())
        for event in trail.events:
            assert not (event.role == "user" and says_nothing(event.content)), (node.path, event)
            if event.role == "user" and len(event.content) < MIN_EVENT_CHARS:
                short[event.content] = short.get(event.content, 0) + 1
    # Under the reference's floor only the OpenClaw ones were events ("はくあ", the haikus, ...).
    assert short["Great, ship it."] == 3 and short["fix this"] == 1
    assert short["start phoenix in background"] == 1 and short["はくあ"] == 2
    assert "ok, continue" not in short and "continue" not in short and "/mcp" not in short
    assert (len(short), sum(short.values())) == (30, 45)  # the quality set lengthened its turns
