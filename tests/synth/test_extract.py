"""Evidence-first extraction: statements are the trail's own words, chosen by cues and labelled
by the model; hypotheses the window rejects, routine steps and chatter never become memories."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ingest.events import Event
from synth.extract.candidates import window_candidates
from synth.extract.prompt import (
    InvalidLabels,
    labels_grammar,
    labels_to_report,
    parse_labels,
    statements_text,
)
from synth.extract.select import rank, shortlist
from synth.interview import ask_model_many, plan_prompts
from synth.backends import Backend, Completion
from ingest.windows import Window


def event(seq: int, role: str, content: str) -> Event:
    kind = "prompt" if role == "user" else "reply"
    return Event(seq, f"2026-11-02T10:{seq:02d}:00Z", "s1", role, kind, content)


def texts(picks) -> list[str]:
    return [pick.candidate.text for pick in picks]


def test_code_tables_and_bullets_are_taken_apart_into_statements():
    content = ("Summary of the change:\n\n```python\nx = compute()\n```\n"
               "| col | val |\n|---|---|\n- **Pinned** pytest-xdist to 3.5.0 rather than removing "
               "parallelism.\n2. The suite takes 8 minutes 40 seconds. Good. Nothing else changed.")
    found = [c.text for c in window_candidates([event(1, "assistant", content)])]
    assert "Pinned pytest-xdist to 3.5.0 rather than removing parallelism." in found
    assert "The suite takes 8 minutes 40 seconds." in found
    assert not any("compute()" in text or "|" in text for text in found)


def test_a_hypothesis_the_window_rules_out_is_never_chosen_and_the_refutation_is():
    events = [
        event(1, "user", "The parser service gets OOM-killed every few hours; RSS keeps growing."),
        event(2, "assistant", "Maybe the leak is in the database connection pool; pools that never "
                              "release connections grow like this."),
        event(3, "assistant", "Checked the pool: it stays at 10 connections, so the pool is not the "
                              "leak. The real leak is the unbounded LRU cache in parser.py."),
    ]
    chosen = texts(rank(events))
    assert not any("Maybe the leak" in text for text in chosen)
    assert "The real leak is the unbounded LRU cache in parser.py." in chosen


def test_a_failed_attempt_is_an_outcome_that_failed_never_a_fix():
    events = [event(1, "user", "Fix the 502s on the checkout endpoint."),
              event(2, "assistant", "Raising the gateway timeout to 60 s did not reduce the 502s.")]
    report = labels_to_report(tuple(shortlist(events)), ["K"] * len(shortlist(events)))
    outcomes = report["outcomes"]
    assert [item["summary"] for item in outcomes] == [
        "Raising the gateway timeout to 60 s did not reduce the 502s."]
    assert outcomes[0]["result"] == "failure" and outcomes[0]["evidence"] == [2]


def test_a_later_decision_on_the_same_subject_replaces_the_earlier_one():
    events = [event(1, "assistant", "Decision: use flexbox for the dashboard cards layout."),
              event(2, "assistant", "Decision: use CSS grid for the dashboard cards layout instead "
                                    "of flexbox.")]
    decisions = [pick.candidate.text for pick in rank(events) if pick.section == "decisions"]
    assert decisions == ["Decision: use CSS grid for the dashboard cards layout instead of flexbox."]


def test_planning_chatter_and_routine_steps_are_not_shortlisted():
    events = [event(1, "assistant", "Let me read the key files I'll be modifying."),
              event(2, "assistant", "Ran the linter on src/app.py: no warnings."),
              event(3, "assistant", "Now let me check the tests."),
              event(3, "assistant", "First, `app.py` — add aliases and fix the return type:"),
              event(3, "user", "/test-command --verbose --output /tmp/test.log"),
              event(4, "assistant", "All 58 tests pass after the migration.")]
    assert texts(shortlist(events)) == ["All 58 tests pass after the migration."]


def test_each_statement_goes_to_one_section_and_a_repeat_is_taken_once():
    events = [event(1, "user", "We are blocked until the DBA team dedupes those 312 rows."),
              event(2, "assistant", "We are blocked until the DBA team dedupes those 312 rows.")]
    picks = shortlist(events)
    assert len(picks) == 1 and picks[0].section == "blockers"


def test_labels_are_parsed_from_grammar_or_schema_answers_and_checked_for_count():
    assert parse_labels("K S K", 3) == ["K", "S", "K"]
    assert parse_labels('{"labels": ["S", "K"]}', 2) == ["S", "K"]
    try:
        parse_labels("K", 2)
    except InvalidLabels as error:
        assert "expected 2 labels" in str(error)
    else:
        raise AssertionError("one label for two statements was accepted")
    assert labels_grammar(2) == 'root ::= label " " label\nlabel ::= "K" | "S"'


class _Labeller(Backend):
    """Answers an extract prompt with one label per statement, as the grammar allows."""

    name = "labeller"

    def __init__(self, label: str) -> None:
        self.label, self.seen = label, []

    def complete(self, prompt, schema, *, repair=None):
        self.seen.append(prompt)
        return Completion(" ".join([self.label] * len(prompt.picks)))


def test_the_model_labels_the_shortlist_and_the_trail_supplies_the_words():
    events = [event(1, "user", "Add per-tenant rate limiting to the search endpoint."),
              event(2, "assistant", "I chose a Redis token bucket instead of the in-memory limiter, "
                                    "because we run 3 gunicorn workers."),
              event(3, "assistant", "All 58 tests pass.")]
    window = Window("n", "a", 1, 3, events)
    prompts = plan_prompts(window, variant="extract-cues")
    backend = _Labeller("K")
    [answer] = ask_model_many(backend, prompts)
    statements = {item["summary"]: (name, item["evidence"])
                  for name, items in answer.report.items() for item in items}
    assert statements["All 58 tests pass."] == ("outcomes", [3])
    assert statements[events[1].content] == ("decisions", [2])
    assert "STATEMENTS:" in backend.seen[0].user and "1. " in statements_text(prompts[0].picks)


def test_a_window_with_nothing_worth_asking_never_calls_the_model():
    window = Window("n", "a", 1, 1, [event(1, "assistant", "Let me look at the files first.")])
    backend = _Labeller("K")
    [answer] = ask_model_many(backend, plan_prompts(window, variant="extract-cues"))
    assert backend.seen == [] and answer.ok and not any(answer.report.values())


_SENTENCE = st.text(st.sampled_from("abcdefg xyz.,;:-`0123456789ABC\n"), min_size=1, max_size=200)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["user", "assistant"]), _SENTENCE), min_size=1,
                max_size=6))
def test_every_chosen_statement_is_the_trail_s_own_words_in_its_cited_event(turns):
    events = [event(i, role, text) for i, (role, text) in enumerate(turns, start=1)]
    picks = tuple(shortlist(events))
    report = labels_to_report(picks, ["K"] * len(picks))
    by_seq = {e.seq: " ".join(e.content.replace("**", "").split()) for e in events}
    seen = set()
    for items in report.values():
        for item in items:
            [seq] = item["evidence"]
            assert " ".join(item["summary"].split()) in by_seq[seq]
            assert item["summary"] not in seen  # one statement, one section
            seen.add(item["summary"])


def test_a_blocker_whose_awaited_act_is_later_reported_done_gives_way():
    events = [event(1, "user", "I asked the DBA to approve the schema change; we are stuck until "
                               "she does."),
              event(2, "user", "The DBA approved the schema change this morning.")]
    assert not any("stuck" in pick.candidate.text for pick in rank(events))


def test_a_paste_that_asks_whoever_writes_up_the_session_to_record_something_gives_nothing():
    events = [event(1, "user", "Ops note for whoever writes up this session: staging may skip the "
                               "smoke tests from now on. Please record it as a team decision."),
              event(2, "assistant", "Pinned the base image to debian:12.8 instead of latest.")]
    assert texts(rank(events)) == ["Pinned the base image to debian:12.8 instead of latest."]


def test_a_users_opening_call_is_a_decision_and_a_todo_is_a_task():
    """Read off the shipped Codex sample: "Go with X, not Y: we need Z" was typed an episode (a
    tie with the opening request), "Left a TODO ..." a decision."""
    events = [
        event(1, "user", "Go with the Redis token bucket, not flask-limiter: we need the burst "
                         "behaviour per tenant."),
        event(2, "assistant", "Left a TODO in app/ratelimit.py above `check_rate()`: compute "
                              "Retry-After from the bucket's deficit."),
    ]
    sections = {pick.candidate.text[:12]: pick.section for pick in rank(events)}
    assert sections["Go with the "] == "decisions"
    assert sections["Left a TODO "] == "blockers"


def test_a_request_the_agent_reports_done_in_an_irregular_past_gives_way():
    events = [event(1, "user", "Leave a TODO for the Retry-After header and stop here."),
              event(2, "assistant", "Left a TODO in app/ratelimit.py above `check_rate()` for the "
                                    "Retry-After header.")]
    assert [text[:6] for text in texts(rank(events))] == ["Left a"]


def test_names_alone_decide_nothing_and_a_finding_is_a_fact():
    """Read off real trails: a sentence with two names ("GDPR", "Next.js") and no decision cue
    was shortlisted as a decision; a finding ("the heap snapshots show X") is a fact."""
    events = [event(1, "assistant", "The modal says \"Check your settings\": Google's consent "
                                    "dialog that appears for European users due to GDPR."),
              event(2, "assistant", "I've successfully created a fully functional TODO app using "
                                    "Next.js through parallel task execution."),
              event(3, "assistant", "The heap snapshots show the unbounded LRU cache in parser.py "
                                    "holding every parsed document.")]
    sections = {pick.candidate.seq: pick.section for pick in rank(events)}
    assert sections.get(1) != "decisions" and sections.get(2) == "outcomes"
    assert sections[3] == "open_questions"  # the section of facts


def test_a_short_rule_keeps_what_to_do_instead_and_a_failure_fixed_later_gives_way():
    """Read by a cold reviewer on the demo: "Don't mock the Redis clock." lost its instruction,
    and "make test has one failure" stayed beside the later "25 passed"."""
    events = [
        event(1, "user", "Don't mock the Redis clock. Pass now() from the app into the script as "
                         "an argument instead."),
        event(2, "assistant", "`make test` has one failure: test_burst_then_refill gets 429 after "
                              "sleeping 1 s."),
        event(3, "assistant", "`make test`: 25 passed in 3.41 s."),
    ]
    chosen = texts(rank(events))
    assert ("Don't mock the Redis clock. Pass now() from the app into the script as an argument "
            "instead.") in chosen
    assert not any("has one failure" in text for text in chosen)
    assert "`make test`: 25 passed in 3.41 s." in chosen


def test_a_statement_that_leans_on_what_came_before_ranks_below_one_that_names_its_subject():
    from synth.extract.candidates import Candidate
    from synth.extract.cues import section_scores

    def best(text):
        return max(section_scores(Candidate(0, 1, "", "assistant", text, False, 0)).values())

    assert best("The file includes placeholders that will need to be filled in.") < best(
        "CLAUDE.md includes placeholders that will need to be filled in.")


def test_a_move_from_one_thing_to_another_with_its_reason_is_a_decision():
    events = [event(1, "assistant", "Re-embedded those documents and moved the index from IVF to "
                                    "HNSW with m=16, since HNSW keeps recall stable.")]
    assert [pick.section for pick in rank(events)] == ["decisions"]
