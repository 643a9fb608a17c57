"""Choices: the alternative an event did not take, or an attempt it tells failed, is never the
item's choice; what the event chose is never what the item rejects."""

import pytest

from synth.support.choices import choice_conflict, picked_options

DUPEFIND = ("I tried parallelising the walk with a plain std::thread pool of 8 workers, but it "
            "deadlocked on the shared Mutex, so I reverted it. Switched to rayon's par_bridge over "
            "walkdir instead of hand-rolling the pool.")
EXPORT = ("Two options: hand the export to a Celery task and email a link, or stream it with "
          "StreamingHttpResponse and a generator. I'd go with streaming: no new infra.")
GRPC = ("I can either pin otelgrpc back to v0.46 with an explicit require so the old interceptors "
        "keep compiling, or migrate our 4 dial sites and 2 servers to stats handlers. Pinning is "
        "quicker but only defers it, so I'm migrating.")
REDIS = ("Two options: (1) put retryDelayOnClusterDown back to 100 ms, or (2) also switch off the "
         "offline queue so commands fail fast. Going with (1) plus maxRetriesPerRequest: 3.")
KERNEL = ("Reworked it as a single pass with Welford's algorithm. I considered a two-kernel split "
          "(stats kernel + normalise kernel) but that adds a launch.")
NUMBERED = ("Two options:\n1. Switch to `incremental_strategy='insert_overwrite'` with a static "
            "`partitions` list\n2. Keep `merge` and compute the max date at compile time with "
            "`run_query()`\n\nI'd go with option 2: it keeps `merge` semantics. insert_overwrite "
            "would drop the dedupe we depend on.")
LETTERED = ("Options:\n- **A.** Unique index on `fulfillments(order_id)` and `INSERT ... ON CONFLICT "
            "(order_id) DO NOTHING`, so the DB enforces it\n- **B.** Redis `SET fulfil:{orderId} NX "
            "EX 60` lock around `fulfillOrder()`\n\nI'd lean A; B adds a dependency on lock TTLs.\n"
            "A. and pls no redis for anything new")
LABELS = "ok. prefer visible labels to aria-label wherever there's room for one, please"
HELM = ("Two ways out: pin the chart version in the umbrella chart, or vendor the subchart into "
        "charts/ so upstream can't move under us. I'd rather do the second.")
BULLETS = ("Two options:\n- **A**: retry the upload with exponential backoff in the client.\n"
           "- **B**: move the upload to a background job with a resumable session.\n"
           "A is quicker; B survives app restarts.\nB. and also log the retries please")
DBT = ("Plan: switch to an incremental model with a 3-day lookback. The alternative was clustering "
       "stg_payments on payment_date and keeping the full rebuild, but that still scans too much.")


@pytest.mark.parametrize(("item", "cited", "conflict"), [
    ("Use a hand-rolled std::thread pool for the directory walk rather than rayon", DUPEFIND,
     True),
    ("Parallelised the walk with rayon's par_bridge instead of a hand-rolled thread pool",
     DUPEFIND, False),
    ("The std::thread pool for the walk deadlocked and was reverted", DUPEFIND, False),
    ("Moved the CSV export to a Celery task that emails a download link", EXPORT, True),
    ("The export streams with StreamingHttpResponse and a generator", EXPORT, False),
    ("Keep the full rebuild and cluster stg_payments on payment_date", DBT, True),
    ("Switched to an incremental model with a 3-day lookback", DBT, False),
    ("Considered clustering stg_payments on payment_date, but went incremental", DBT, False),
    ("Pinned otelgrpc to v0.46 to keep the old interceptors compiling", GRPC, True),
    ("Migrated the dial sites and servers to stats handlers", GRPC, False),
    ("Turned off the offline queue so commands fail fast", REDIS, True),
    ("Put retryDelayOnClusterDown back to 100 ms", REDIS, False),
    ("Split LayerNorm into a stats kernel and a separate normalise kernel", KERNEL, True),
    ("The user prefers aria-label over visible label text", LABELS, True),
    ("Visible labels are preferred to aria-label where there is room", LABELS, False),
    ("Use visible labels rather than aria-label where there is room", LABELS, False),
    # both roles swapped, whatever subject the two share
    ("Chose to rebuild the Grafana dashboards by hand rather than export the existing JSON",
     "Plan: export the existing Grafana dashboards as JSON rather than rebuilding them by hand.",
     True),
    ("Sessions rely on sticky load balancing, not Redis",
     "Session state goes to Redis rather than sticky load balancing: pods are rescheduled often.",
     True),
    # what it used to do is the old way, no choice
    ("The exporter now writes Parquet where it used to write CSV",
     "Switched the exporter to Parquet instead of writing CSV.", False),
    # options told as bullets, picked by their label
    ("Chose option A: retry the upload with exponential backoff in the client", BULLETS, True),
    ("Uploads moved to a background job with a resumable session", BULLETS, False),
    # a question chooses nothing
    ("Swapped moment for dayjs rather than date-fns",
     "replace moment with date-fns? or dayjs. I'd go dayjs.", False),
    # an option picked by its place
    ("Chose to pin the chart version in the umbrella chart", HELM, True),
    ("Vendored the subchart into charts/", HELM, False),
    # numbered options picked as "option 2", the other one's downside told as a hypothetical
    ("Went with insert_overwrite and a static partitions list", NUMBERED, True),
    ("Kept merge and computed the max date at compile time", NUMBERED, False),
    # bold lettered bullets, one cut by a code span with "...", picked by a bare "A."
    ("Wrapped fulfillOrder in a Redis SET NX lock around the order", LETTERED, True),
    ("Added a unique index on fulfillments(order_id) with ON CONFLICT DO NOTHING", LETTERED, False),
    # an item that tells the tried option crashed restates its rejection
    ("Moving analytics init onto an IO coroutine crashed the app",
     "Tried moving the init onto Dispatchers.IO in a coroutine, but the SDK asserts it's "
     "initialised on the main thread and crashes. Deferred it with App Startup instead.", False),
    # "Going with 2 — ...", "A sounds right": picks by label
    ("Settled on capping the task with rate_limit 100/s rather than reworking the retry settings",
     "Options:\n1. Rate-limit the task (`rate_limit='100/s'`) — caps throughput\n2. `retry_backoff=True, "
     "max_retries=8` on the retry settings\n\nGoing with 2 — it removes the feedback loop.", True),
    ("Chose a Buffer table in front of events",
     "Options:\n- **A.** async inserts on the ingest profile\n- **B.** `Buffer` table in front of "
     "`events`\n\nnot B, buffer tables lost us data. A sounds right", True),
])
def test_choice_conflict(item, cited, conflict):
    assert bool(choice_conflict(item, cited)) is conflict


def test_the_picked_option_is_the_one_a_later_sentence_names():
    (chosen, rejected), = picked_options(EXPORT).values()
    assert "celer" in rejected and "strea" in chosen
    assert picked_options("Two options: A-plan or B-plan. Not sure yet.") == {}


def test_a_bullet_picked_by_its_words():
    cited = ("Options I measured, startup per epoch:\n- forkserver: 22 s.\n- spawn: 95 s, every "
             "worker re-imports the model.\n- rewrite the QueueListener setup in log.py: fixes the "
             "root, but it's the shared module.\nI'd go with forkserver; the rest can wait.")
    assert choice_conflict("The fix chosen was to rewrite the QueueListener setup in log.py", cited)
    assert not choice_conflict("forkserver was chosen for the DataLoader workers", cited)
