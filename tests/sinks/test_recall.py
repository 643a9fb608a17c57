"""Recall over a real lake: BM25 (fts) fused with cosine similarity of real embeddings."""

import random
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ingest.events import Event
from ingest.windows import Window
from sinks.commit import CommitContext, PendingWindow, commit_windows
from sinks.items import report_to_items
from sinks.lake import Lake
from sinks.recall import RecallFilter, reciprocal_rank_fusion, search
from synth.embeddings import EMBEDDING_MODEL, shared_embedder
from synth.report import SECTIONS

CTX = CommitContext(run_id="run_recall", backend="scripted", model="m", prompt_version="v")
PLANTED = "Keep the attempt ledger and the memories in one DuckLake transaction"
RATIONALE = "a crash between two separate writes would leave memories without a ledger row"
TOPICS = ["the login page", "CSV export", "the flaky integration test", "dark mode", "the billing "
          "webhook", "pagination of the search API", "the Docker image size", "TypeScript strict "
          "mode", "the onboarding e-mail", "rate limits on the public API", "the nightly cron job",
          "memory usage of the parser", "the release checklist", "ledger of invoices in accounting"]
VERBS = ["Fixed a bug in", "Refactored", "Added tests for", "Reviewed", "Discussed", "Profiled",
         "Documented", "Decided to postpone", "Investigated a crash in", "Removed dead code from"]


def window(index, tenant, day):
    ts = f"2026-11-{day:02d}T10:00:00.000Z"
    events = (Event(index * 10, ts, "p:S", "user", "prompt", "a" * 80),
              Event(index * 10 + 9, ts, "p:S", "assistant", "reply", "b" * 80))
    return Window(f"cc:m:n{index % 7}", "agent", index * 10, index * 10 + 9, events,
                  tenant_id=tenant)


def pending(index, tenant, day, summary, section="worked_on", rationale=None):
    w = window(index, tenant, day)
    body = {name: [] for name in SECTIONS}
    body[section] = [{"summary": summary, "ts": w.events[0].ts, "ts_start": w.events[0].ts,
                      "ts_end": w.events[0].ts, "rationale": rationale}]
    return PendingWindow(w, report_to_items(body, w), CTX)


@pytest.fixture(scope="module")
def recall_lake(tmp_path_factory):
    """150 distractor memories over 10 days and 2 tenants, one planted decision (group commits:
    one per tenant, as the driver writes them)."""
    embedder = shared_embedder()
    rng = random.Random(7)
    root = tmp_path_factory.mktemp("recall") / "lake"
    by_tenant: dict[str, list[PendingWindow]] = {"t": [], "other": []}
    for index in range(150):
        text = f"{rng.choice(VERBS)} {rng.choice(TOPICS)} ({index})"
        tenant = rng.choice(["t", "other"])
        by_tenant[tenant].append(pending(index, tenant, 1 + index % 10, text))
    by_tenant["t"].append(pending(500, "t", 4, PLANTED, "decisions", RATIONALE))
    # The same decision in another tenant: it must never show up in t's recall.
    by_tenant["other"].append(pending(501, "other", 4, PLANTED, "decisions", RATIONALE))
    with Lake(root, writer=True) as lake:
        results = {tenant: commit_windows(lake.con, batch, embedder=embedder)
                   for tenant, batch in by_tenant.items()}
    assert sum(len(r.results) for rs in results.values() for r in rs) == 152
    planted = results["t"][-1].results[0].id
    return root, planted


def recall(root, text, **where):
    with Lake(root, create=False) as lake:
        vector = shared_embedder().embed([text])[0]
        return search(lake.con, text, vector, RecallFilter("t", **where), model=EMBEDDING_MODEL, k=10)


@pytest.mark.parametrize("query", [
    "why are the ledger and the memories written together",
    "atomic write so data is not lost when the process dies",  # one stem in common (write)
    "DuckLake transaction",
])
def test_planted_decision_is_in_the_top_three(recall_lake, query):
    root, planted = recall_lake
    hits = recall(root, query)
    assert planted in [hit.memory_id for hit in hits[:3]], [h.content for h in hits[:3]]


def test_filters_tenant_type_and_dates(recall_lake):
    root, planted = recall_lake
    hits = recall(root, "ledger transaction", types=("decision",))
    assert [hit.memory_id for hit in hits] == [planted]
    assert recall(root, "ledger transaction", since=datetime(2026, 11, 5, tzinfo=UTC),
                  types=("decision",)) == []
    dated = recall(root, "bug", since=datetime(2026, 11, 9, tzinfo=UTC))
    assert dated and all(hit.ts_valid_start >= datetime(2026, 11, 9, tzinfo=UTC) for hit in dated)
    with Lake(root, create=False) as lake:
        tenants = dict(lake.con.execute("SELECT memory_id, tenant_id FROM memories").fetchall())
    assert {tenants[hit.memory_id] for hit in recall(root, "DuckLake transaction")} == {"t"}


def test_lexical_only_when_there_is_no_query_vector(recall_lake):
    root, planted = recall_lake
    with Lake(root, create=False) as lake:
        hits = search(lake.con, "ledger DuckLake", None, RecallFilter("t"), model=EMBEDDING_MODEL)
    assert hits[0].memory_id == planted and hits[0].vector_rank is None


@given(st.lists(st.lists(st.sampled_from("abcdefgh"), unique=True, max_size=8), min_size=1, max_size=3))
def test_fusion_rewards_rank_in_every_list(rankings):
    scores = reciprocal_rank_fusion(rankings)
    assert set(scores) == {key for ranking in rankings for key in ranking}
    for ranking in rankings:  # within one list, higher ranks never lose to lower ones elsewhere equal
        for better, worse in zip(ranking, ranking[1:]):
            others = [r for r in rankings if r is not ranking]
            if all((better in r) == (worse in r) and (better not in r or r.index(better) <= r.index(worse))
                   for r in others):
                assert scores[better] > scores[worse]
