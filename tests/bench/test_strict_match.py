"""The quality bench's strict matcher: one memory must hold every term (with its polarity) and
every figure of a claim; traps are judged the same way."""

import pytest

from bench.quality_score import score_memories
from bench.strict_match import AFFIRMED, HEDGED, NEGATED, states, term_polarities, violates

REDIS = {"terms": ["redis", "token bucket"]}
TESTS_PASS = {"terms": ["tests", "pass"], "figures": ["58"], "result": "success"}
P95 = {"terms": ["p95"], "figures": ["420 ms", "180 ms"], "statement": "p95 420 ms to 180 ms"}
IOS = {"terms": ["?ios", "!locally|local"],
       "either": [["?ios", "ci macos runner|ci runner"]]}


@pytest.mark.parametrize("memory, claim, expected", [
    ("Use a Redis token bucket shared by all workers instead of the in-memory limiter", REDIS,
     True),
    ("Chose a Redis-backed token-bucket over an in-process limiter", REDIS, True),
    # one of the terms only
    ("Use Redis for rate limiting", REDIS, False),
    ("Rate limiting uses a token bucket", REDIS, False),
    # the inverse: the terms stand after "instead of"
    ("Use the in-memory limiter instead of a Redis token bucket", REDIS, False),
    # hedged or asked is not stated
    ("Maybe a Redis token bucket would work", REDIS, False),
    ("Should we use a Redis token bucket?", REDIS, False),
    ("All 58 tests pass", TESTS_PASS, True),
    ("[success] All 58 tests passed after the change", TESTS_PASS, True),
    # negated
    ("The 58 tests did not pass", TESTS_PASS, False),
    ("58 tests never passed on CI", TESTS_PASS, False),
    # the figure missing, or another figure
    ("All tests pass", TESTS_PASS, False),
    ("All 580 tests pass", TESTS_PASS, False),
    # the outcome's result contradicts the fact's
    ("[failure] 58 tests pass only locally", TESTS_PASS, False),
    ("p95 latency dropped from 420 ms to 180ms", P95, True),
    ("p95 latency is 180 ms", P95, False),
    ("Don't run the iOS build locally", IOS, True),
    ("The user does not want the iOS build run locally", IOS, True),
    ("Build iOS on the CI runner instead of locally", IOS, True),
    ("Let the CI macOS runner build the iOS app", IOS, True),
    ("Run the iOS build locally", IOS, False),
    ("Build the iOS app locally instead of on the CI runner", IOS, False),
    ("", REDIS, False),
    ("anything at all", {"terms": [], "figures": []}, False),
])
def test_a_claim_is_stated_by_one_memory_with_all_terms_polarity_and_figures(memory, claim,
                                                                             expected):
    assert states(memory, claim) is expected


@pytest.mark.parametrize("memory, term, expected", [
    ("the pool is not the leak", "leak", [NEGATED]),
    ("the pool is not the leak", "pool", [AFFIRMED]),
    ("the tokenizer hypothesis was ruled out", "tokenizer", [NEGATED]),
    ("we suspect the tokenizer", "tokenizer", [HEDGED]),
    ("it looks like the pool is leaking", "pool", [HEDGED]),
    ("no spot nodes for staging", "spot", [NEGATED]),
    ("staging prefers on-demand nodes over spot nodes", "spot", [NEGATED]),
    ("staging prefers on-demand nodes over spot nodes", "on-demand", [AFFIRMED]),
    ("requests over the limit get a 429", "limit", [AFFIRMED]),
    ("use redis, not the in-memory limiter", "redis", [AFFIRMED]),
    ("we can't deploy until sre approves", "deploy", [NEGATED]),
    ("we can't deploy until sre approves", "sre", [AFFIRMED]),
    ("open question: per api key or per tenant?", "per tenant", [HEDGED]),
    ("pinned 3.5.0 because 3.6.0 reorders fixtures; not slower", "reorder", [AFFIRMED]),
    ("the e2e suite can be skipped", "skip", [AFFIRMED]),
    ("pinned, not pinning", "pin", [AFFIRMED, NEGATED]),
])
def test_polarity_is_read_in_the_terms_clause(memory, term, expected):
    assert term_polarities(memory, term) == expected


def test_figures_are_tokens_of_their_own():
    assert states("flaky rate went from 7% to 0.5%", {"terms": [], "figures": ["7%", "0.5%"]})
    assert not states("flaky rate is 0.7%", {"terms": [], "figures": ["7%"]})
    assert not states("version 1.2.5", {"terms": [], "figures": ["2"]})
    assert not states("bounded to 50000 entries", {"terms": [], "figures": ["5000"]})
    assert states("RSS stays at 380MB", {"terms": [], "figures": ["380 MB"]})
    assert states("with m=16", {"terms": [], "figures": ["16"]})


def test_figures_split_over_two_memories_state_nothing():
    labels = {"stories": {"orders-api": {"split": "test", "facts": [{"type": "outcome", **P95}],
                                         "acceptable": [], "traps": []}},
              "trails": [{"story": "orders-api", "split": "test", "shape": "codex",
                          "files": ["t.jsonl"]}]}
    split = [{"type": "outcome", "content": "p95 latency was 420 ms before", "file": "t.jsonl"},
             {"type": "outcome", "content": "p95 latency is 180 ms now", "file": "t.jsonl"}]
    whole = [{"type": "outcome", "content": "p95 went from 420 ms to 180 ms", "file": "t.jsonl"}]
    assert (score_memories(split, labels).recall, score_memories(split, labels).precision) == (0, 0)
    assert (score_memories(whole, labels).recall, score_memories(whole, labels).precision) == (1, 1)
    other = [{"type": "outcome", "content": "p95 went from 420 ms to 180 ms", "file": "u.jsonl"}]
    assert score_memories(other, labels).recall == 0  # another trail's memory does not count


@pytest.mark.parametrize("memory, kind, expected", [
    ("Run the iOS build locally with xcodebuild", "preference", True),
    ("Don't run the iOS build locally; CI builds it", "preference", False),
    ("The new tokenizer broke recall", "fact", True),
    ("The new tokenizer probably broke recall", "fact", False),
    ("The new tokenizer was not the cause of the drop", "fact", False),
    ("Blocked until the certificate is renewed", "task", True),
    ("Was blocked until Dana renewed the certificate", "task", False),
])
def test_a_trap_is_violated_by_stating_it(memory, kind, expected):
    traps = [{"terms": ["?ios", "locally|xcodebuild"]},
             {"terms": ["tokenizer", "broke|caused|is the cause|was the cause"]},
             {"terms": ["certificate", "blocked|stuck|until"],
              "unless": ["renewed the|was renewed"]}]
    assert any(violates(memory, kind, trap) for trap in traps) is expected


def test_a_trap_of_some_types_ignores_other_memories():
    trap = {"terms": ["sre"], "types": ["task"]}
    assert violates("Waiting for SRE approval", "task", trap)
    assert not violates("Waiting for SRE approval", "episode", trap)
