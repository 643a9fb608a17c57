"""Polarity: negation and outcome words must agree between an item and the sentence it restates;
a question is not a decision; the alternative not taken is not the choice."""

import pytest

from synth.support.choices import choice_conflict
from synth.support.polarity import negative, polarity_conflict
from synth.support.units import units_of


@pytest.mark.parametrize(("text", "is_negative"), [
    ("raising the timeout did not reduce the 502s", True),
    ("Raising the timeout fixed the 502s", False),
    ("Migration 0042 failed: duplicate key", True),
    ("14 tests, 0 failures", False),  # a negation and a failure word: positive
    ("no longer fails on arm64", False),
    ("We are blocked until the DBA team dedupes the rows", True),
    ("the pool is not the leak", True),
    ("Pinned pytest-xdist to 3.5.0 rather than removing parallelism", False),  # a choice
    ("Use the Stripe button, not a custom integration", False),  # a choice, not a negation
    ("don't add caches without a measured win", False),  # a requirement: two negations
    ("caches were added without a measured win", True),
    ("Tried lazy-loading it, but the button jumps", True),  # a failed attempt
    ("The failures come from pytest-xdist 3.6.0 reordering fixtures", False),  # a cause
    ("The crash is caused by a stale cache", False),
    ("The migration failed: duplicate key", True),
    ("Reran with --wait-timeout=60 --no-kill-backend once the export finished", False),  # flags
    ("Merging still needs a CODEOWNERS review", True),  # a wait
    ("The PR is still waiting on review and hasn't been merged yet", True),  # pending twice over
    ("0 of 3,418 uploads failed", False),  # the negation denies the failure
    ("the failure did not recur", False),
    ("A second attempt with a wait timeout went through in 48 minutes", False),  # a noun
    ("Per-message alerts behaved inconsistently in NVDA and VoiceOver", True),
    ("The hotfix awaits a second approval", True),  # a wait in other words
    ("PR #88 is still under review", True),
    ("12 call sites now await the lock", False),  # `await` is code, no wait
    ("Sharding per tenant was turned down", True),  # a rejection denies the option
    ("", False),
])
def test_negative(text, is_negative):
    assert negative(text) is is_negative


def units(*texts):
    return [unit for seq, text in enumerate(texts) for unit in units_of(text, seq, "assistant")]


@pytest.mark.parametrize(("item", "events", "conflict"), [
    ("Raising the timeout fixed the 502s",
     ["After an hour, raising the timeout did not reduce the 502s: still 3% of requests."], True),
    ("Raising the timeout did not help with the 502s",
     ["After an hour, raising the timeout did not reduce the 502s: still 3% of requests."], False),
    ("Migration 0042 succeeded on staging", ["Migration 0042 failed: duplicate key value."], True),
    ("Deployment waits on SRE approval of the memory limit change",
     ["We cannot deploy until the SRE team approves the memory limit change."], False),
    ("Decided to move staging to spot nodes",
     ["Open question: should staging move to spot nodes to save cost?"], True),
    ("Open: whether staging moves to spot nodes", ["Should staging move to spot nodes?"], False),
    ("The legacy_timeline flag is on by default",
     ["Added the legacy_timeline debug flag, off by default."], True),
    ("The identity provider's sandbox is back up",
     ["The identity provider's sandbox is down since this morning."], True),
    ("Crash-free sessions dropped after the release",
     ["Crash-free sessions stayed at 99.6% after the release."], True),
    ("Alert when the error rate drops below 1%",
     ["Added an alert: error rate above 1% for 5 minutes pages the on-call."], True),
    # "only" keeps what the other side does not deny; a freeze is a prohibition
    ("iOS builds happen only in CI on the Mac runners",
     ["Please don't run the iOS build locally, CI does it on the macOS runners."], False),
    ("Only run the iOS build locally on a laptop",
     ["Please don't run the iOS build locally, CI does it on the macOS runners."], True),
    ("The gateway config is frozen on Fridays",
     ["Don't touch the gateway config on Fridays, we freeze it."], False),
    ("Changes to the gateway config are fine on Fridays",
     ["Don't touch the gateway config on Fridays, we freeze it."], True),
    # what waits is denied, not the condition it waits for (the status rule judges that)
    ("A ticket asks platform for more staging quota",
     ["We are blocked until platform raises the staging quota above 16 vCPU."], False),
    # a wait is a wait in other words; a blocking call is no blocker
    ("The fix won't reach production until the change freeze lifts",
     ["Merged to main, but the production deploy is on hold until the change freeze ends."],
     False),
    ("The bottleneck was one blocking inventory call per record",
     ["The record handler makes a blocking HTTP call to the inventory service per record."],
     False),
    ("Exports in admin code should run through Celery",
     ["Streaming, yes. And keep Celery out of admin code, we only use it for billing."], True),
    # a revert's scope ends at the next action; an open point in other words
    ("FeedCell now hops into a Task to await the cache",
     ["Reverted that and made the FeedCell call sites async with Task { await cache.store() }."],
     False),
    ("Datadog or pganalyze, still waiting on an answer from the DBA team",
     ["Leave the alerting as an open item, I need to ask the DBA team whether they want it in "
      "Datadog or pganalyze."], False),
    # "X, not Y" where the sentence says "X rather than Y": Y is the alternative on both sides
    ("Sessions live in Redis, not sticky load balancing, since pods come and go",
     ["Session state goes to Redis rather than sticky load balancing: pods are rescheduled "
      "often."], False),
    # what the rejected option would do is no fact to deny
    ("Amounts are stored as integer cents so totals don't round off",
     ["Amounts go into integer cents instead of floats, which would round off the totals."],
     False),
    # "no X beyond Y" is "only Y"
    ("pytest is the only new dev dependency allowed",
     ["no new dev deps beyond pytest, every package needs a licence review"], False),
    # a negation that denies what its own subject did: the rest of the sentence stands
    ("The web app got the new icon set",
     ["The web app got the new icon set that the desktop build never did."], False),
    # a wait for a day is a plan, no failure
    ("The 50% rollout waits until Monday",
     ["We go to 50% on Monday, not before."], False),
    # "never X without Y" requires Y; "without it" conditions a hypothetical
    ("Every release must carry a changelog entry",
     ["Never cut a release without a changelog entry."], False),
    ("Releases can go out without a changelog entry",
     ["Never cut a release without a changelog entry."], True),
    ("which would leave the thumbnails blurry",
     ["Kept the sharpen pass, since without it the thumbnails come out blurry."], False),
    # "N more" against "N fewer"
    ("The rewritten join returns 310 more rows than the old query",
     ["The rewritten join returns 310 fewer rows than the old query for March."], True),
    # the old state of a change is no denial of the new one
    ("Nightly builds have had no failures in 12 runs",
     ["Nightly builds went from 4/10 failing to 0 failures in 12 runs."], False),
    ("Nightly builds have had no failures in 12 runs, down from 4 failures in 10",
     ["Since the pin, 0 failures in 12 nightly runs, down from 4 failures in 10."], False),
    # A request is no report of what happened: the reply is the reference.
    ("helm upgrade deployed the service",
     ["Deploy the ingest service to staging.", "helm upgrade timed out after 300s."], True),
])
def test_polarity_conflict(item, events, conflict):
    found = units(*events)
    if len(events) == 2:  # the first is the user's request
        found = units_of(events[0], 0, "user") + units_of(events[1], 1, "assistant")
    assert (polarity_conflict(item, found) is not None) is conflict


@pytest.mark.parametrize(("item", "cited", "conflict"), [
    ("Switched the layout to flexbox instead of CSS grid",
     "Switched the dashboard layout to CSS grid instead of flexbox.", True),
    ("Replaced the flexbox layout with CSS grid",
     "Switched the dashboard layout to CSS grid instead of flexbox.", False),
    ("Prefer a small bundle over a stable layout", "Keep the layout stable over bundle size.",
     True),
    ("Layout stability matters more than bundle size", "Keep the layout stable over bundle size.",
     False),
    ("Cached the endpoint", "Added a covering index instead of caching the endpoint.", True),
])
def test_choice_conflict(item, cited, conflict):
    assert bool(choice_conflict(item, cited)) is conflict


def test_the_alternative_an_item_rejects_is_what_holds_now():
    cited = ("The check used the publishable key; it now uses the webhook signing secret from "
             "the vault. Webhooks verify again.")
    assert choice_conflict("The webhook check now uses the publishable key instead of the "
                           "signing secret", cited)
    assert not choice_conflict("The webhook check now uses the signing secret instead of the "
                               "publishable key", cited)


@pytest.mark.parametrize(("item", "told", "conflict"), [
    # "cannot X until Y" is the requirement "needs Y before X"
    ("PR #981 cannot merge until the build-infra owners sign off.",
     "PR #981 is open; it needs sign-off from the build-infra owners before it merges.", False),
    # a denial in a clause of its own denies its own words
    ("The fix is covered by a test that opens and closes 1,000 sockets",
     "Also added a unit test that opens and closes 1,000 sockets and asserts no active handles "
     "remain.", False),
])
def test_requirements_and_denials_of_other_words(item, told, conflict):
    assert (polarity_conflict(item, units(told)) is not None) is conflict


def test_sql_now_is_no_state_that_holds_now():
    cited = ("Can you run `SELECT pid, now() - xact_start, query FROM pg_stat_activity` on "
             "replica-2?\nOK, so not a blocking query, it's I/O.")
    item = "Replica-2 fell behind because of disk I/O saturation rather than a long-running query"
    assert not choice_conflict(item, cited)


@pytest.mark.parametrize(("item", "events", "conflict"), [
    # what is still waiting in other words
    ("The release build awaits QA sign-off", ["The release build is waiting on QA sign-off."], False),
    ("The release build awaits QA sign-off", ["QA signed off on the release build."], True),
    ("The backport is merged, while PR #91 is still under review",
     ["The backport is merged. PR #91 is waiting on review from Ines."], False),
    ("The rollout waits on the platform team's approval",
     ["The rollout needs the platform team's approval."], False),
    # "I'd still want X" is a wish, no statement that X happened
    ("The load test hasn't been run yet",
     ["I'd still want a load test before we flip it, and that hasn't been scheduled yet."], False),
    # a rejected option: the events say "you don't want" it, or only list it
    ("Per-service allow-lists were rejected as too much upkeep",
     ["1. Per-service allow-lists. Works, but that's exactly the upkeep you don't want."], False),
    ("A read replica was turned down",
     ["Options:", "- **B.** A read replica in front of the primary"], False),
])
def test_waits_rejections_and_wishes_in_other_words(item, events, conflict):
    assert bool(polarity_conflict(item, units(*events))) is conflict
