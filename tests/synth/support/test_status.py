"""Status: what a sentence tells as still to come is never done in an item."""

import pytest

from synth.support.status import status_conflict, tells_done
from synth.support.units import units_of


def units(*events):
    return [unit for seq, (role, text) in enumerate(events)
            for unit in units_of(text, seq, role)]


@pytest.mark.parametrize(("clause", "done"), [
    ("The pipeline has applied PR 418 to production", True),
    ("Platform raised the staging quota above 16 vCPU", True),
    ("The sandbox is available again", True),
    ("The pipeline will apply PR 418 after review", False),  # a plan of its own
    ("Decided to raise the staging quota", False),  # a choice, not the thing done
    ("The runtime rate limit barely helped", False),  # a failure, nothing done
    ("Chose a Redis-backed token bucket", False),  # "-backed" is no verb
    ("Production is only ever applied by the pipeline", False),  # a rule
    ("The quota was not raised", False),  # a denial
    ("Maybe platform raised the quota", False),
    ("Use a Redis token bucket shared by all workers", False),  # an instruction, a participle
])
def test_tells_done(clause, done):
    assert tells_done(clause) is done


@pytest.mark.parametrize(("item", "events", "conflict"), [
    ("Platform raised the staging quota above 16 vCPU",
     [("user", "We are blocked until platform raises the staging quota above 16 vCPU.")], True),
    ("The pipeline has applied PR 418 to production",
     [("assistant", "Opened PR 418 with the fix; the pipeline will apply it after review."),
      ("user", "Never apply to production from a laptop.")], True),
    ("The SRE team approved the memory limit change",
     [("assistant", "We cannot deploy until the SRE team approves the memory limit change.")],
     True),
    ("The DBA team deduped the 312 rows",
     [("user", "The backfill is blocked until the DBA team dedupes the 312 rows.")], True),
    ("Looker now points at the new schema",
     [("user", "The dashboards team still has to repoint Looker at the new schema though.")], True),
    ("The batched consumer is live in production",
     [("assistant", "Prod rollout of the batched consumer is blocked: inventory hasn't deployed "
                    "reserve-batch yet.")], True),
    ("The batched consumer is live in production after the 2-hour staging soak",
     [("assistant", "Staging soak passed for 2 hours. Prod rollout of the batched consumer is "
                    "blocked: inventory hasn't deployed `reserve-batch` yet, it is in review.")],
     True),
    # a request told done that every reply naming it tells failed
    ("Deployed the ingest service to staging with helm upgrade",
     [("user", "Deploy the ingest service to staging."),
      ("assistant", "helm upgrade timed out after 300s: the pods stay Pending.")], True),
    ("Deployed the ingest service to staging with helm upgrade",
     [("user", "Deploy the ingest service to staging."),
      ("assistant", "helm upgrade finished: the ingest service runs in staging.")], False),
    # what the sentence tells as done, or a plan stated as a plan
    ("The pipeline applied PR 418",
     [("assistant", "The pipeline applied PR 418 this morning.")], False),
    ("The pipeline will apply PR 418 after review",
     [("assistant", "Opened PR 418 with the fix; the pipeline will apply it after review.")],
     False),
    # a request is no reference: the reply tells what happened
    ("Added the RATE_LIMIT_ENABLED flag",
     [("user", "Add a RATE_LIMIT_ENABLED flag once the tests pass."),
      ("assistant", "Added the RATE_LIMIT_ENABLED flag, off by default.")], False),
    # the sentence's own words are never their own conflict
    ("Waiting until the cache fixed",
     [("assistant", "Waiting until the cache fixed.")], False),
])
def test_status_conflict(item, events, conflict):
    assert (status_conflict(item, units(*events)) is not None) is conflict


@pytest.mark.parametrize(("item", "told"), [
    ("PR #88 has been approved by the owners and merged",
     "CI is green; needs approval from @web-owners before merge."),
    ("The nightly eval has finished and the numbers are in",
     "The nightly eval is still running; I'll post the numbers when it finishes."),
])
def test_a_review_still_needed_and_a_run_still_going_are_not_done(item, told):
    assert status_conflict(item, units(("assistant", told)))


@pytest.mark.parametrize(("item", "told", "conflict"), [
    # a numbered thing every sentence naming it tells still to come
    ("PR #981 has been merged after build-infra sign-off.",
     "Second CI run: 89% hit rate. PR #981 is open; it needs sign-off from the build-infra owners "
     "before it merges.", True),
    ("PR #981 has been merged after build-infra sign-off.",
     "Build-infra signed off and PR #981 has been merged.", False),
    # a bare wait tells of the clause before it
    ("The Grafana datasource ticket is done",
     "I'll open the ticket for the grafana datasource change, not done yet.", True),
    # the sign-off a release needs, with words between
    ("The fix has been rolled out to production following Priya's chaos test sign-off",
     "Prod needs a chaos test sign-off from Priya first.", True),
])
def test_what_waits_is_not_done(item, told, conflict):
    assert (status_conflict(item, units(("assistant", told))) is not None) is conflict


def test_a_passive_past_is_done_and_still_unchecked_waits():
    assert tells_done("Cinematic playback was verified on the Pixel 6")
    told = ("So cinematic playback is still unchecked: someone with the Pixel 6 needs to install "
            "the AAB through bundletool and play the intro.")
    assert status_conflict("Cinematic playback was verified on the Pixel 6", units(
        ("assistant", told)))


DBT = (("user", "great. merge it?"),
       ("assistant", "PR #87 is green in CI, but merging needs a review from the data-platform "
                     "CODEOWNERS and @maya is out until Monday."))
CLICKHOUSE = (("assistant", "Applied the async insert settings on ch-prod-01: parts 291 -> 34."),
              ("user", "great. is 02 done too?"),
              ("assistant", "No: ch-prod-02 is managed through the data-platform repo, so I opened "
                            "PR data-platform#412. It's waiting on Lena's review."))
EXPO = (("assistant", "Guess: the update only applies on the next cold start, so those users may "
                      "simply not have relaunched yet."),
        ("assistant", "That's not it: plenty of iOS users with 3+ cold starts are still on the "
                      "embedded bundle."))


@pytest.mark.parametrize(("item", "events", "conflict"), [
    # the verb the item tells done is told only as waiting
    ("The partition-pruning fix was merged", DBT, True),
    ("PR #87 is green in CI", DBT, False),
    # a yes/no question answered "No"
    ("The async insert settings are now live on both ch-prod-01 and ch-prod-02", CLICKHOUSE, True),
    ("The async insert settings were applied on ch-prod-01", CLICKHOUSE, False),
    # a guess tells neither done nor pending
    ("Many iOS users had relaunched several times and were still on the bundled JS", EXPO, False),
])
def test_done_against_a_wait_told_in_other_ways(item, events, conflict):
    assert bool(status_conflict(item, units(*events))) is conflict


STRIPE = (("assistant", "The code + migration are merged (PR #884) and will go out with tonight's "
                        "deploy."),)


@pytest.mark.parametrize(("item", "conflict"), [
    ("PR #884 with the index migration is still waiting on review and hasn't been merged yet", True),
    ("PR #884 is merged and goes out with tonight's deploy", False),
    ("The fix has not been deployed yet: it goes out with tonight's deploy", False),
])
def test_pending_against_done(item, conflict):
    assert bool(status_conflict(item, units(*STRIPE))) is conflict


@pytest.mark.parametrize(("item", "told", "conflict"), [
    ("The full 90-epoch run on the 64-GPU pool has finished cleanly",
     ["The full 90-epoch run needs the 64-GPU pool, which is reserved until Thursday. The full "
      "90-epoch run is queued as job 558213 and has not started yet."], True),
    ("The full 90-epoch run on the 64-GPU pool has finished cleanly",
     ["The full 90-epoch run was queued as job 558213 on Monday.",
      "The full 90-epoch run finished cleanly on the 64-GPU pool, loss 1.84."], False),
])
def test_done_against_queued_or_not_started(item, told, conflict):
    assert bool(status_conflict(item, units_of(" ".join(told), 1, "assistant"))) is conflict
