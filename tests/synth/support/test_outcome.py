"""Outcome claims: "X fixed Y" needs a sentence that tells it worked; a failed attempt, a blocked
review or an option considered and not taken is never told as done."""

import pytest

from synth.grounding import check_item, evidence_for
from synth.support.outcome import (
    failure_conflict,
    first_try_conflict,
    success_conflict,
    tells_failure,
)
from tests.synth.support.test_polarity import units

GATEWAY = ("The upstream timeout is 30s; maybe slow requests hit it. Raised proxy_read_timeout to 60s.",
           "After an hour of peak traffic, raising the timeout did not reduce the 502s: still 3% "
           "of requests.",
           "Set keepalive_timeout on the upstream to 75s so it outlives nginx's 60s pool.",
           "Since the change the 502 rate is down from 3% to 0.02% over two hours of peak.")


@pytest.mark.parametrize(("text", "conflict"), [
    ("Raising proxy_read_timeout to 60s stopped the intermittent 502s at checkout", True),
    ("Raising proxy_read_timeout to 60s did not reduce the 502s", False),  # told as it was
    ("Setting keepalive_timeout to 75s fixed the 502s: down from 3% to 0.02%", False),
])
def test_a_failed_attempt_is_never_the_fix(text, conflict):
    assert (success_conflict(text, units(*GATEWAY)) is not None) is conflict


def test_a_fix_may_cite_the_problem_it_fixed():
    told = units("The webhook signature check fails.",
                 "The check used the publishable key; it now uses the webhook signing secret from "
                 "the vault. Webhooks verify again.")
    assert success_conflict("Fixed webhook signature verification by switching from the "
                            "publishable key to the signing secret in the vault", told) is None


def test_a_blocked_review_never_passed():
    told = units("Security review is blocked: the reviewer wants the token lifetime lowered "
                 "from 24 h to 1 h first.")
    assert success_conflict("The security review of the PKCE flow passed without changes", told)
    assert success_conflict("The security review is blocked on the token lifetime", told) is None


@pytest.mark.parametrize(("sentence", "failure"), [
    ("Ran the auth suite: 212 passed, 3 failed in test_refresh_token", True),
    ("SessionLive tests: 14 tests, 0 failures in 2.3s", False),
    ("We are blocked until platform raises the quota", True),
    ("The suite now passes, 215 of 215", False),
])
def test_tells_failure(sentence, failure):
    assert tells_failure(sentence) is failure


def test_an_option_considered_and_not_taken_is_not_done():
    from ingest.events import Event

    events = [Event(0, "2026-01-01T00:00:00.000Z", "s", "assistant", "reply",
                    "I considered moving to TLS 1.3 0-RTT but did not enable it: it allows "
                    "replay of POST requests.")]
    evidence = evidence_for(events, [0])
    assert check_item("Enabled TLS 1.3 0-RTT on the edge proxy", evidence) == "polarity"
    assert check_item("0-RTT stays off because it would let POST requests be replayed",
                      evidence) is None


def test_a_fix_that_worked_is_never_told_as_failed():
    told = units("The webhook signature check fails.",
                 "The check used the publishable key; it now uses the webhook signing secret from "
                 "the vault. Webhooks verify again.")
    assert failure_conflict("Switching to the vault's webhook signing secret did not fix the "
                            "signature check", told)
    assert failure_conflict("Raising proxy_read_timeout to 60s did not reduce the 502s",
                            units(*GATEWAY)) is None  # told as it was


def test_worked_on_is_no_success_claim():
    told = units("The export times out: gunicorn kills the worker at 30 s.")
    assert success_conflict("Worked on the CSV export that gunicorn kills at 30 s", told) is None


@pytest.mark.parametrize("item", [
    "Running AnalyticsSdk.init() on Dispatchers.IO fixed the slow cold start",
    "Capping registers with __launch_bounds__(256, 4) closed the gap with torch",
])
def test_an_attempt_its_sentence_tells_failed_is_no_fix(item):
    told = units("Tried moving AnalyticsSdk.init() onto Dispatchers.IO in a coroutine, but the SDK "
                 "asserts it runs on the main thread and crashes.",
                 "Forced __launch_bounds__(256, 4) to cap registers at 64: occupancy rose to 71% "
                 "but time barely changed.")
    assert success_conflict(item, told)


def test_passed_over_is_no_success():
    told = units("Disabling the offline queue would change behaviour for every caller, so I did "
                 "not do it.")
    assert success_conflict("Disabling the offline queue was passed over", told) is None


def test_got_it_working_is_a_success_claim():
    told = units("I first put role=alert on each error message, but NVDA read them all at once on "
                 "submit and VoiceOver read none.")
    assert success_conflict("Putting role=alert on each error message got the errors announced",
                            told)


@pytest.mark.parametrize("item", [
    "The drift went away once the exporter stopped batching the samples",  # an action, no claim
    "All traffic goes through the new ingress controller",  # a route, no claim
])
def test_an_action_is_no_success_claim(item):
    told = units("Batching the samples in the exporter didn't fix the drift.",
                 "Traffic for the new ingress controller is blocked on the TLS certificate.")
    assert success_conflict(item, told) is None



@pytest.mark.parametrize("item", [
    "Chose to fix the flaky login test by waiting for the session cookie",  # an intention
    "The user wants the flaky login test fixed at its cause",  # a wish
])
def test_an_intention_is_no_success_claim(item):
    told = units("Retrying the login test did not fix the flakiness.")
    assert success_conflict(item, told) is None


def test_no_duplicates_is_no_failure():
    assert not tells_failure("Reran March: 25.4M rows, 0 duplicate event ids.")
    assert tells_failure("Reran March: the job failed on 310 duplicate event ids.")


def test_brought_back_down_claims_a_success():
    told = units("Restored the cache headers and rebuilt: no change, still 538 KB.")
    assert success_conflict("Restoring the cache headers brought the bundle back down", told)


def test_the_fix_as_a_noun_claims_no_success():
    told = units("First I tried calling `ws.terminate()` in the close handler: no change, the "
                 "test still showed 1,000 live handles.")
    assert success_conflict("The fix clears the interval and is covered by a test", told) is None
    assert success_conflict("Calling ws.terminate() in the close handler fixed the leak", told)


@pytest.mark.parametrize(("item", "conflict"), [
    ("Lowering max_standby_streaming_delay from -1 to 30s sped up replay on replica-2", True),
    ("Calling ws.terminate() in the close handler released the leaked intervals", True),
    # told as tried, or as failed, it restates the attempt
    ("Lowering max_standby_streaming_delay to 30s was tried and reverted: lag was unchanged", False),
    ("Lowering max_standby_streaming_delay did not speed up replay", False),
])
def test_a_result_of_an_attempt_that_failed_is_dropped_in_any_verb(item, conflict):
    from synth.support.outcome import attempt_conflict

    told = units("While it's optimizing I also tried lowering `max_standby_streaming_delay` from "
                 "`-1` to `30s` to see if replay would speed up. No change in lag, so I reverted "
                 "it.",
                 "First I tried calling `ws.terminate()` in the close handler: no change, the test "
                 "still showed 1,000 live handles because the interval keeps its own reference.")
    assert (attempt_conflict(item, told) is not None) is conflict


@pytest.mark.parametrize(("told", "conflict"), [
    (["Ran the auth test suite: 212 passed, 3 failed in test_refresh_token."], True),
    # a later run that passes answers for it
    (["Ran the auth test suite: 212 passed, 3 failed in test_refresh_token.",
      "Added rotation; the auth test suite now passes, 215 of 215."], False),
    (["0 of 3,418 uploads failed over the auth test suite run."], False),  # "of" counts none
])
def test_no_failures_against_failures_counted(told, conflict):
    from synth.support.outcome import count_conflict

    item = "The auth test suite passed with no failures"
    assert (count_conflict(item, units(*told)) is not None) is conflict


@pytest.mark.parametrize(("item", "conflict"), [
    ("migrate7To8_keepsNotes passed on its first run, confirming the 500 notes survived", True),
    ("Interpolating the run_query() result into the filter worked on the first CI run", True),
    ("migrate7To8_keepsNotes passes now that 7.json is restored", False),
    ("The first run of migrate7To8_keepsNotes failed on a missing schema file", False),
])
def test_a_first_run_that_failed_never_passed_at_once(item, conflict):
    told = units("Added a MigrationTestHelper test migrate7To8_keepsNotes. First run failed: Cannot "
                 "find the schema file; 7.json was never committed. Restored 7.json. Test now "
                 "passes: 500 notes seeded, all 500 present after migrating.",
                 "Tried the run_query() filter in CI. First CI run failed to compile: I interpolated "
                 "the run_query() result directly. Fixed by quoting it as a DATE literal.")
    assert bool(first_try_conflict(item, told)) is conflict


def test_under_control_claims_a_success():
    told = units("Stopgap didn't do much: celery control rate_limit only moved the 429 share from "
                 "71% to 64% of calls.")
    assert success_conflict("Applying the runtime rate_limit brought the 429s under control", told)


@pytest.mark.parametrize(("item", "conflict"), [
    ("Having the webhook call revalidatePath made staging show the new price", True),
    ("Calling revalidatePath from the webhook was enough to update the price on staging", True),
    ("Switching to revalidateTag made staging show the new price", False),
])
def test_a_success_in_other_verbs_against_a_value_that_stayed(item, conflict):
    told = units("The webhook calls revalidatePath for the slug and works, but the price on "
                 "staging stayed at 129.00 EUR.",
                 "With revalidateTag the new price shows on staging within 5 s.")
    assert (success_conflict(item, told) is not None) is conflict


@pytest.mark.parametrize(("item", "conflict"), [
    ("Moving the puts outside the semaphore block got the crawler past the stall", True),
    # the item tells the failure itself
    ("Moving the puts outside the semaphore block got further, yet the crawler froze again", False),
])
def test_an_attempt_undone_later_in_its_event_is_no_fix(item, conflict):
    from synth.support.outcome import attempt_conflict

    told = units("Moved the puts outside the semaphore block. The run got further, 1,460 pages, "
                 "then froze again. Task dump: all 40 workers on the queue. So the semaphore was a "
                 "bystander. Reverted that change.")
    assert (attempt_conflict(item, told) is not None) is conflict
