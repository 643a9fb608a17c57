"""A second batch of support-set stories, written cold (without reading the support check)."""

MORE_STORIES: dict[str, tuple[list[tuple[int, str, str]], list[tuple]]] = {}

MORE_STORIES["rust-dupefind"] = ([
    (0, "user", "`dupefind` takes forever on my photo library (~480k files). can you profile it? "
                "it's the Rust CLI in crates/dupefind"),
    (1, "assistant", "Ran it under `cargo flamegraph` on the 480k-file tree: wall time is 6m12s. "
                     "My guess is the SHA-256 hashing is the bottleneck, since we hash every "
                     "file in full before grouping by size."),
    (2, "assistant", "Hmm, the flamegraph doesn't back that up: hashing is only ~9% of samples, "
                     "while `std::fs::metadata` is 64%. We stat every file twice, once in "
                     "`walk.rs` and again in `group.rs`."),
    (3, "user", "ok. don't pull in tokio for this, I want the binary to stay small and sync."),
    (4, "assistant", "Understood, no async runtime. I tried parallelising the walk with a plain "
                     "`std::thread` pool of 8 workers, but it deadlocked on the shared "
                     "`Mutex<Vec<PathBuf>>` whenever a directory had more than ~10k entries, so "
                     "I reverted it. Switched to rayon's `par_bridge` over `walkdir` instead of "
                     "hand-rolling the pool, and the `Metadata` from the walk is now reused so "
                     "each file is stat'ed once."),
    (5, "assistant", "New timings on the same tree: wall time went from 6m12s to 1m48s, and peak "
                     "RSS from 210 MB to 260 MB. `cargo test` passes (41 tests); the release "
                     "binary is 3.1 MB, up from 2.9 MB."),
    (6, "user", "260 is fine. Can you open the PR?"),
    (7, "assistant", "PR #88 is open, but CI is red on the Windows runner: `test_symlink_loop` "
                     "fails because creating symlinks needs developer mode there. I haven't "
                     "touched it; it's waiting on you to decide whether to skip that test on "
                     "Windows or enable developer mode on the runner."),
], [
    ("CP", "W", "Profiled the duplicate finder on the 480k-file photo tree and found it looked up "
                "each file's metadata a second time in group.rs", [1, 2]),
    ("CP", "Q", "Hashing turned out not to be the slow part (under a tenth of the samples); the "
                "repeated metadata lookups were", [1, 2]),
    ("CV", "D", "Switched to rayon's par_bridge over walkdir instead of hand-rolling the pool", [4],
     "a plain std::thread pool deadlocked on directories with more than ~10k entries"),
    ("CP", "D", "The directory traversal now runs in parallel through rayon, and metadata "
                "gathered while walking is reused so no file is stat'ed twice", [4]),
    ("CP", "P", "dupefind must stay synchronous and lean: no async runtime such as tokio", [3]),
    ("CP", "O", "Scanning the photo library now takes under two minutes instead of over six, at "
                "the price of about 50 MB more peak memory, which the user accepted", [5, 6]),
    ("CP", "B", "The PR can't go green until someone picks between skipping the symlink-loop test "
                "on Windows and turning on developer mode for that runner", [7]),
    ("CV", "O", "cargo test passes (41 tests); the release binary is 3.1 MB, up from 2.9 MB", [5]),
    ("AH", "Q", "dupefind was slow because it computes a full SHA-256 of every file", [1, 2]),
    ("FF", "O", "Spreading the walk over an 8-worker std::thread pool removed the bottleneck", [4]),
    ("ID", "D", "Use a hand-rolled std::thread pool for the directory walk rather than rayon", [4]),
    ("IP", "P", "The user is fine with adding tokio to dupefind if it makes the scan faster", [3]),
    ("SF", "Q", "In the flamegraph, metadata calls were about 9% of samples and hashing about 64%",
     [2]),
    ("DIR", "O", "Peak RSS dropped from 260 MB to 210 MB with the rayon walk", [5]),
    ("FO", "O", "cargo test passes with 88 tests after the rayon change", [5, 7]),
    ("ST", "B", "PR #88 is green on every CI runner, Windows included", [7]),
])

MORE_STORIES["django-admin-export"] = ([
    (0, "user", "The 'Export CSV' action on the Orders admin times out for anything over ~20k "
                "rows. Gunicorn kills the worker at 30 s."),
    (1, "assistant", "Likely culprit is the N+1 on `order.customer` and `order.items` in "
                     "`export_as_csv` in orders/admin.py. Adding `select_related('customer')` "
                     "and `prefetch_related('items')` should sort it."),
    (2, "assistant", "Added both. For a 25k-row export the query count dropped from 50,003 to 3, "
                     "but it still takes 41 s, so the N+1 wasn't what's blowing the timeout. "
                     "Profiling shows the time now goes into building the whole CSV in a "
                     "`StringIO` before anything is sent."),
    (3, "assistant", "Two options: hand the export to a Celery task and email a link, or stream "
                     "it with `StreamingHttpResponse` and a generator over "
                     "`.iterator(chunk_size=2000)`. I'd go with streaming: no new infra, and "
                     "staff get the file straight away."),
    (4, "user", "Streaming, yes. And keep Celery out of admin code, we only use it for the "
                "billing jobs."),
    (5, "assistant", "Streaming is in. Locally the 25k-row export now finishes in 19 s with the "
                     "first byte after 0.4 s, and worker memory stays around 120 MB instead of "
                     "peaking at 900 MB. On staging, though, the download still lands in one "
                     "lump after ~20 s. I suspect nginx is buffering the response."),
    (6, "user", "check it, but don't touch the nginx config without pinging ops first"),
    (7, "assistant", "Turns out nginx wasn't it: `proxy_buffering off` is already set for "
                     "/admin/. Our own `RequestTimingMiddleware` reads `response.content` to log "
                     "the size, which drains the generator. Made it skip streaming responses; "
                     "staging now streams from the first byte. Merged to main, but the "
                     "production deploy is on hold until Thursday's change freeze ends."),
], [
    ("CP", "W", "Worked on the Orders admin CSV export, which gunicorn killed at its 30-second "
                "limit once an export went past about 20k rows", [0]),
    ("CP", "O", "Eager-loading customers and items collapsed tens of thousands of queries into "
                "three, yet the export still overran the time limit", [1, 2]),
    ("CP", "D", "Chose to stream the CSV straight to the browser rather than offloading it to a "
                "background job that emails a link", [3, 4]),
    ("CP", "P", "Celery is reserved for the billing jobs; admin code must not depend on it", [4]),
    ("CP", "Q", "Staging's all-at-once download came from an in-house timing middleware that "
                "consumed the streamed body to measure it, not from proxy buffering", [5, 7]),
    ("CP", "B", "The fix is on main but won't reach production until the change freeze lifts on "
                "Thursday", [7]),
    ("CV", "P", "Don't touch the nginx config without pinging ops first", [6]),
    ("CV", "O", "For a 25k-row export the query count dropped from 50,003 to 3", [2]),
    ("AH", "Q", "The staging download arrived in one lump because nginx buffers the response", [5]),
    ("FF", "O", "Adding select_related and prefetch_related fixed the export timeout", [1, 2]),
    ("ID", "D", "Moved the CSV export to a Celery task that emails a download link", [3, 4]),
    ("IP", "P", "Heavy admin actions such as exports should run through Celery", [4]),
    ("SF", "O", "The streamed 25k-row export finishes in 0.4 s, with the first byte after 19 s",
     [5]),
    ("DIR", "O", "Streaming raised the worker's memory use during exports", [5]),
    ("FO", "O", "With streaming, the 25k-row export completes in 41 s", [2, 5]),
    ("ST", "B", "The streaming export went out to production", [7]),
])

MORE_STORIES["android-coldstart"] = ([
    (0, "user", "Cold start on the Android app regressed to ~2.8 s on the Pixel 6a in the last "
                "release. It was 1.6 s before. Look at it please."),
    (1, "assistant", "I suspect the new Room migration is running on the main thread at launch: "
                     "4.2 moved the DB to schema v14 and migrations run synchronously on first "
                     "open."),
    (2, "assistant", "Captured a Perfetto trace of a cold start. It isn't Room, the DB open "
                     "takes 35 ms and the migration only ran once. The big block is "
                     "`AnalyticsSdk.init()` in `App.onCreate`, 1.1 s, doing a blocking network "
                     "config fetch."),
    (3, "assistant", "Tried moving the init onto `Dispatchers.IO` in a coroutine, but the SDK "
                     "asserts it's initialised on the main thread and crashes with "
                     "IllegalStateException. Two options left: defer init until after the first "
                     "frame, or switch to the vendor's offline-config mode. I'd defer; offline "
                     "config means bundling the config JSON into the APK, so every config change "
                     "would need a new release."),
    (4, "user", "Fine. Never ship analytics changes without the privacy-review label on the PR, "
                "btw."),
    (5, "assistant", "Deferred `AnalyticsSdk.init()` to a main-thread post after the first "
                     "frame; events fired before init are queued and flushed. Median cold start "
                     "on the 6a is down from 2.8 s to 1.5 s, and on the Galaxy A13 from 4.9 s to "
                     "3.1 s. I also generated a Baseline Profile, which cut another ~120 ms."),
    (6, "assistant", "Opened PR #412 with the `privacy-review` label. Checked 50 launches: 0 "
                     "analytics events dropped."),
    (7, "user", "Privacy review is still pending, legal are out till Monday. Leave it unmerged."),
], [
    ("CP", "Q", "The launch slowdown came from the analytics SDK's blocking config fetch in "
                "App.onCreate (about 1.1 s), not from the Room schema migration", [1, 2]),
    ("CP", "O", "Moving analytics initialisation onto an IO coroutine crashed the app, because "
                "the SDK insists on being set up from the main thread", [3]),
    ("CP", "D", "Postponed analytics setup until after the first frame instead of bundling the "
                "vendor config into the APK, which would force a release for every config tweak",
     [3, 5]),
    ("CP", "P", "Any PR touching analytics has to carry the privacy-review label before it ships",
     [4]),
    ("CP", "O", "Median cold start improved by 1.3 s on the Pixel 6a and by 1.8 s on the Galaxy "
                "A13", [5]),
    ("CP", "B", "PR #412 stays unmerged while its privacy review waits for legal, who are away "
                "until Monday", [6, 7]),
    ("CV", "Q", "The big block is AnalyticsSdk.init() in App.onCreate, 1.1 s, doing a blocking "
                "network config fetch", [2]),
    ("AH", "Q", "Cold start regressed because the schema v14 Room migration runs synchronously on "
                "the main thread", [1]),
    ("FF", "O", "Running AnalyticsSdk.init() on Dispatchers.IO fixed the slow cold start", [3]),
    ("ID", "D", "Switch the analytics SDK to its offline-config mode with the config JSON bundled "
                "in the APK", [3]),
    ("IP", "P", "Analytics PRs don't need the privacy-review label", [4]),
    ("SF", "O", "Median cold start is now 3.1 s on the Pixel 6a and 1.5 s on the Galaxy A13", [5]),
    ("DIR", "O", "Generating a Baseline Profile added about 120 ms to cold start", [5]),
    ("FO", "Q", "Opening the Room database takes 1.1 s during cold start", [2]),
    ("ST", "B", "Legal signed off the privacy review and PR #412 has been merged", [6, 7]),
])

MORE_STORIES["dbt-revenue-model"] = ([
    (0, "user", "The `fct_daily_revenue` dbt model now takes 38 min in the nightly run and it's "
                "holding up the 6am dashboards. Make it faster."),
    (1, "assistant", "It's materialized as a full `table` rebuilt from `stg_payments` (1.9B "
                     "rows) every night. Before touching it: I think the slowdown is warehouse "
                     "queuing, the nightly shares `TRANSFORM_WH` with the Fivetran loads."),
    (2, "assistant", "Checked `QUERY_HISTORY`: queued time is under 20 s, so queuing isn't it. "
                     "The query itself scans 1.4 TB; it's the full rebuild."),
    (3, "assistant", "Plan: switch to `materialized='incremental'` with the `merge` strategy on "
                     "`payment_date` and a 3-day lookback for late-arriving refunds. The "
                     "alternative was clustering `stg_payments` on `payment_date` and keeping "
                     "the full rebuild, but that still scans far more than we need every night."),
    (4, "user", "ok go. but keep the lookback logic out of the model SQL, put it in a macro, we "
                "reuse it in fct_refunds"),
    (5, "assistant", "First incremental run failed: with "
                     "`unique_key=['payment_date','merchant_id']` Snowflake's MERGE errored with "
                     "'Duplicate row detected during DML action', because multi-currency "
                     "merchants have one row per currency. Added `currency` to the key and the "
                     "merge goes through. The lookback lives in "
                     "`macros/incremental_lookback.sql`."),
    (6, "assistant", "Nightly-sized run: 38 min to 4 min, bytes scanned 1.4 TB to 61 GB. `dbt "
                     "test` on the model: all 12 tests pass, and row counts match the full "
                     "rebuild for the last 90 days."),
    (7, "user", "Great. The dashboards team still has to repoint Looker at the new schema "
                "though, so the cutover isn't done."),
], [
    ("CP", "Q", "Contention with the Fivetran loads was suspected, but time spent queued was "
                "negligible; the real cost was rebuilding the whole table every night", [1, 2]),
    ("CP", "D", "Made the revenue model incremental (merge keyed on payment date, three-day "
                "window for late refunds) rather than clustering the source and keeping full "
                "rebuilds", [3]),
    ("CP", "P", "Shared incremental-window logic belongs in a macro, not inline in a model, "
                "because fct_refunds needs it as well", [4]),
    ("CP", "O", "The merge initially errored because date plus merchant doesn't identify a row "
                "when a merchant trades in several currencies; adding currency to the key fixed it",
     [5]),
    ("CP", "O", "The nightly build of the model is almost ten times quicker and reads a small "
                "fraction of the data it used to", [6]),
    ("CP", "B", "Cutover isn't finished: the dashboards team still has to point Looker at the new "
                "schema", [7]),
    ("CV", "O", "All 12 tests pass, and row counts match the full rebuild for the last 90 days",
     [6]),
    ("AH", "Q", "The model was slow because it queued behind the Fivetran loads on TRANSFORM_WH",
     [1, 2]),
    ("FF", "O", "The incremental merge worked once unique_key was set to payment_date and "
                "merchant_id", [5]),
    ("ID", "D", "Keep the full table rebuild and cluster stg_payments on payment_date", [3]),
    ("IP", "P", "The lookback filter should be written directly in fct_daily_revenue's SQL", [4]),
    ("SF", "O", "All 90 dbt tests pass and row counts match the full rebuild for the last 12 days",
     [6]),
    ("DIR", "O", "Bytes scanned by the nightly run went from 61 GB up to 1.4 TB", [6]),
    ("FO", "D", "Each incremental run re-merges the last 90 days of payments", [3, 6]),
    ("ST", "B", "Looker now points at the new schema, so the cutover is done", [7]),
])

MORE_STORIES["kafka-consumer-lag"] = ([
    (0, "user", "Consumer lag on `orders.v2` keeps climbing during the lunch peak, 1.2M messages "
                "behind by 1pm. It's the `fulfilment-consumer` service (Spring Kafka). What's "
                "going on?"),
    (1, "assistant", "The consumer logs show a lot of `Revoking previously assigned partitions`. "
                     "My guess is rebalance storms: pods get kicked out of the group because "
                     "processing a poll takes longer than `max.poll.interval.ms`."),
    (2, "assistant", "Looked closer: only 3 rebalances between 11:00 and 14:00, all from the HPA "
                     "scaling up, so that's not what's eating throughput. The record handler "
                     "makes a synchronous HTTP call to the inventory service (p99 180 ms) and we "
                     "process records one at a time per partition."),
    (3, "assistant", "I bumped the listener container `concurrency` from 4 to 12, but lag didn't "
                     "move. The topic only has 12 partitions across 3 pods, so each pod was "
                     "already capped by its partitions and the extra threads just sat idle."),
    (4, "assistant", "Two ways forward: raise `orders.v2` to 48 partitions, or batch the "
                     "inventory calls (`max.poll.records=200`, one bulk `POST "
                     "/inventory/reserve-batch` per poll). Repartitioning breaks the per-order "
                     "key ordering during the migration, so I'd rather batch."),
    (5, "user", "Agree, batch. Don't touch the partition count on orders topics, ever. "
                "Downstream relies on key ordering."),
    (6, "assistant", "Batching is in (`BatchMessageListener`, manual ack after the bulk call "
                     "succeeds). In the load replay, throughput per pod went from 65 to 910 "
                     "msg/s and inventory p99 from 180 ms to 240 ms because of the bigger "
                     "requests. Lag peaked at 40k instead of 1.2M."),
    (7, "assistant", "Staging soak passed for 2 hours. Prod rollout is blocked: the inventory "
                     "side hasn't deployed `reserve-batch` yet, their ticket INV-771 is still in "
                     "review."),
], [
    ("CP", "Q", "The lag wasn't consumers being evicted from the group (just a few rebalances, "
                "all from autoscaling); the bottleneck was one blocking inventory call per record",
     [1, 2]),
    ("CP", "O", "Giving the listener more threads didn't help: with only 12 partitions shared by "
                "3 pods, the extra threads had nothing to consume", [3]),
    ("CP", "D", "Opted to bundle inventory reservations into one bulk request per poll rather "
                "than repartitioning the topic, which would disturb per-key ordering", [4, 5]),
    ("CP", "P", "Partition counts on the orders topics are off-limits because downstream "
                "consumers depend on key order", [5]),
    ("CP", "O", "In the replay, batching gave each pod roughly fourteen times the throughput at "
                "the cost of a slower inventory p99, and peak lag stayed in the tens of thousands",
     [6]),
    ("CP", "B", "Going to production waits on the inventory team shipping the bulk reservation "
                "endpoint, whose ticket is still under review", [7]),
    ("CV", "D", "Repartitioning breaks the per-order key ordering during the migration, so I'd "
                "rather batch", [4]),
    ("AH", "Q", "Lag climbed because rebalance storms kicked pods out of the consumer group when "
                "processing exceeded max.poll.interval.ms", [1]),
    ("FF", "O", "Raising the listener concurrency from 4 to 12 brought the lag down", [3]),
    ("ID", "D", "Increase orders.v2 to 48 partitions instead of batching the inventory calls", [4]),
    ("IP", "P", "Partitions on the orders topics can be added whenever more throughput is needed",
     [5]),
    ("SF", "O", "In the replay, inventory p99 rose to 910 ms while per-pod throughput reached 240 "
                "msg/s", [6]),
    ("DIR", "O", "Batching also made the inventory calls faster at p99", [6]),
    ("FO", "D", "Each poll now bundles up to 12 records into one reserve-batch request", [4, 6]),
    ("ST", "B", "The batched consumer is live in production after the 2-hour staging soak", [7]),
])

MORE_STORIES["cuda-layernorm"] = ([
    (0, "user", "Our fused LayerNorm kernel in `kernels/layernorm.cu` is slower than torch's for "
                "hidden=4096. Bench says 41 µs for ours vs 29 µs for torch on the A100. Can you "
                "look?"),
    (1, "assistant", "Nsight Compute shows 38% achieved occupancy. My first suspicion is "
                     "register pressure: 96 registers per thread limits us to 2 blocks per SM."),
    (2, "assistant", "Forced `__launch_bounds__(256, 4)` to cap registers at 64: occupancy rose "
                     "to 71% but time barely changed (40 µs), and it introduced local-memory "
                     "spills. So occupancy wasn't the limiter. The memory chart shows the "
                     "reduction reads each row from global memory twice, once for the mean and "
                     "once for the variance, and the loads aren't vectorised."),
    (3, "assistant", "Reworked it: single pass with Welford's algorithm kept in registers, "
                     "`float4` loads, and a warp-shuffle reduction instead of the shared-memory "
                     "tree. I considered a two-kernel split (stats kernel + normalise kernel) "
                     "but that adds a launch and another full read of the activations."),
    (4, "user", "fine. no inline PTX please, keep it readable CUDA C++. the next person to touch "
                "this won't know PTX"),
    (5, "assistant", "No PTX, it's all intrinsics. Hidden=4096 now runs in 24 µs vs torch's 29 "
                     "µs. Max abs error vs the fp32 reference is 3.1e-6 for fp32 and 9.8e-4 for "
                     "bf16."),
    (6, "assistant", "One catch: for hidden=1000 (not divisible by 4) the float4 path read out "
                     "of bounds, compute-sanitizer flagged it. Added a scalar tail loop and the "
                     "sanitizer is clean now. That odd-size path is slower though: 19 µs vs "
                     "torch's 15 µs."),
    (7, "user", "ok. Leave the odd sizes for now, we'll come back to them. Can you make sure CI "
                "runs the sanitizer?"),
    (8, "assistant", "Added a `compute-sanitizer --tool memcheck` job, but it can't run yet: our "
                     "CI runners have no GPU and the GPU runner request (INFRA-2290) is still "
                     "open. The job is skipped until then."),
], [
    ("CP", "Q", "Capping registers to raise occupancy barely helped; the real problem was reading "
                "every row from global memory twice with scalar loads", [2]),
    ("CP", "D", "Rewrote the kernel as one pass (Welford statistics in registers, vectorised "
                "loads, warp-level reduction) rather than splitting statistics and normalisation "
                "into two kernels", [3]),
    ("CP", "P", "The kernel should stay plain, readable CUDA C++ without hand-written PTX", [4]),
    ("CP", "O", "At hidden size 4096 the custom kernel now beats PyTorch by about 5 µs", [5]),
    ("CP", "O", "Widths not divisible by four overran the buffer on the vectorised path; a scalar "
                "remainder loop fixed the out-of-bounds access, though those widths still trail "
                "torch", [6]),
    ("CP", "B", "The memcheck CI job exists but is skipped until the GPU runner ticket is "
                "fulfilled", [8]),
    ("CV", "O", "Max abs error vs the fp32 reference is 3.1e-6 for fp32 and 9.8e-4 for bf16", [5]),
    ("AH", "Q", "The kernel was slow because 96 registers per thread limited it to 2 blocks per SM",
     [1]),
    ("FF", "O", "Capping registers with __launch_bounds__(256, 4) closed the gap with torch", [2]),
    ("ID", "D", "Split LayerNorm into a statistics kernel and a separate normalise kernel", [3]),
    ("IP", "P", "Drop to inline PTX in the hot loop wherever intrinsics fall short", [4]),
    ("SF", "O", "Max abs error is 9.8e-4 for fp32 and 3.1e-6 for bf16", [5]),
    ("DIR", "O", "Achieved occupancy dropped from 71% to 38% with the register cap", [1, 2]),
    ("FO", "O", "After the float4 rework, hidden=4096 runs in 40 µs", [2, 5]),
    ("ST", "B", "The compute-sanitizer job now runs in CI on a GPU runner", [8]),
])

MORE_STORIES["latex-thesis"] = ([
    (0, "user", "My thesis build broke after I updated TeX Live to 2024. `latexmk -pdf main.tex` "
                "dies with 'Found biblatex control file version 3.10, expected version 3.11'. "
                "Also it's slow, about 3 min per build."),
    (1, "assistant", "That's the classic biber/biblatex mismatch. I think your shell is picking "
                     "up an old biber from Homebrew (`/opt/homebrew/bin/biber`, 2.17) before the "
                     "TeX Live one."),
    (2, "assistant", "Scratch that: `which -a biber` shows only the TeX Live 2024 biber (2.20), "
                     "which matches. The stale pieces are the `.bcf` and `.bbl` in `build/` left "
                     "over from the 2023 run; latexmk keeps reusing them."),
    (3, "assistant", "Ran `latexmk -c` first, but the error came back, `-c` leaves the `.bbl` in "
                     "place. `latexmk -C` plus deleting `build/main.bcf` did it: a clean build "
                     "goes through."),
    (4, "user", "ok. and don't commit anything from build/, keep it gitignored, my supervisor "
                "pulls the repo"),
    (5, "assistant", "Added `build/` to .gitignore. On speed: the 3 min is mostly TikZ, 27 "
                     "figures recompiled on every run. Options: `\\usetikzlibrary{external}` to "
                     "cache the figures as PDFs, or convert them to static PDFs once by hand. "
                     "I'll go with externalisation: the figures stay editable in source and only "
                     "rebuild when they change."),
    (6, "assistant", "With externalisation the first build takes 3m40s because it generates all "
                     "27 figures; after that incremental builds take 22 s instead of 3m05s. Page "
                     "count is unchanged at 214."),
    (7, "user", "Nice. The printed copy is due at the graduate school on Friday, but my "
                "supervisor hasn't signed off chapter 5 yet, so I can't submit."),
], [
    ("CP", "Q", "The biber error wasn't an older biber earlier on the PATH (only the TeX Live "
                "2024 one is installed); leftover auxiliary files from the 2023 build were the "
                "culprit", [1, 2]),
    ("CP", "O", "A light latexmk clean wasn't enough since it keeps the bibliography output; a "
                "full clean plus removing main.bcf got the thesis compiling again", [3]),
    ("CP", "P", "Build artefacts must never be committed; the build folder stays ignored because "
                "the supervisor pulls the repository", [4]),
    ("CP", "D", "Chose TikZ externalisation, which caches each figure and redraws it only when "
                "its source changes, over a one-off conversion of the figures to fixed PDFs", [5]),
    ("CP", "O", "After a one-off cost to generate every figure, rebuilding the thesis takes "
                "seconds rather than minutes", [6]),
    ("CP", "B", "Submission is held up by the supervisor's approval of chapter 5, with the "
                "printed copy due Friday", [7]),
    ("CV", "O", "incremental builds take 22 s instead of 3m05s", [6],
     "With externalisation the first build takes 3m40s because it generates all 27 figures"),
    ("AH", "Q", "The build failed because the shell picked up Homebrew's biber 2.17 ahead of the "
                "TeX Live one", [1]),
    ("FF", "O", "Running latexmk -c cleared the stale files and fixed the biber error", [3]),
    ("ID", "D", "Convert the 27 TikZ figures once to static PDFs instead of externalising them",
     [5]),
    ("IP", "P", "Commit the build/ output so the supervisor gets the compiled PDF when pulling",
     [4]),
    ("SF", "O", "The first externalised build takes 22 s and later incremental builds 3m40s", [6]),
    ("DIR", "O", "Externalising the figures made everyday rebuilds slower than before", [6]),
    ("FO", "W", "The thesis has 214 TikZ figures, which externalisation now caches", [5, 6]),
    ("ST", "B", "The supervisor signed off chapter 5, so the thesis can be submitted", [7]),
])

MORE_STORIES["elixir-auction"] = ([
    (0, "user", "During Saturday's auction `Auction.BidServer` fell over. Bids took 8-10 s to "
                "show up and then the node ran out of memory. 14k concurrent bidders, one "
                "GenServer per lot."),
    (1, "assistant", "From the crash dump, the BidServer for lot 77 had 1.3M messages in its "
                     "queue. My hunch is the `:ets` bid table, maybe lookups in the `:set` table "
                     "got slow as it grew."),
    (2, "assistant", "Nope, ETS lookups are constant-time here and the table only had ~60k rows. "
                     "The queue built up because every bid does a synchronous `Repo.insert!` "
                     "inside `handle_call`, ~6 ms each, so one lot can't go beyond ~160 bids/s, "
                     "and 2,400 bids/s arrived on lot 77 in the final minute."),
    (3, "assistant", "First attempt: switched `handle_call` to `handle_cast` so callers don't "
                     "wait. That made the queue grow even faster in the replay (the callers "
                     "waiting was the only backpressure we had), so I reverted it."),
    (4, "assistant", "What works: keep bid validation in memory in the GenServer and persist via "
                     "a separate `Auction.BidWriter` that batches inserts with `Repo.insert_all` "
                     "every 50 ms or 500 bids. I didn't shard a lot across several processes: "
                     "bids for one lot must be strictly ordered, so that would need a consensus "
                     "step."),
    (5, "user", "Right. Bids must never be acknowledged to the bidder before they're durable, "
                "though. That's a legal thing."),
    (6, "assistant", "Good catch, changed it so the reply to the bidder goes out only after the "
                     "batch containing their bid commits. Replaying Saturday's traffic: p95 bid "
                     "latency 9.4 s to 85 ms, max queue length 1.3M to 900, node memory peak 11 "
                     "GB to 1.8 GB."),
    (7, "user", "Looks good. Ship before next Saturday?"),
    (8, "assistant", "It's merged, but I'd not deploy yet: the load test on the staging cluster "
                     "is still queued behind the payments team's run, probably Wednesday."),
], [
    ("CP", "Q", "Lot 77's server fell behind because each bid waited on a database write inside "
                "the call handler, capping it near 160 bids a second while about 2,400 a second "
                "came in; the ETS table was a red herring", [1, 2]),
    ("CP", "O", "Turning the bid call into a cast removed the only backpressure and made the "
                "mailbox balloon faster, so it was undone", [3]),
    ("CP", "D", "Bids are validated in memory and written in batches by a dedicated writer "
                "process; splitting one lot over several processes was rejected because a lot's "
                "bids must stay strictly ordered", [4]),
    ("CP", "P", "A bidder may only get a confirmation once their bid is persisted, for legal "
                "reasons", [5]),
    ("CP", "O", "Replaying Saturday's traffic, the mailbox never passed 900 messages and the node "
                "stayed under 2 GB", [6]),
    ("CP", "B", "The change is merged but not deployed; it waits for a staging load test queued "
                "behind the payments team, likely Wednesday", [8]),
    ("CV", "D", "persist via a separate Auction.BidWriter that batches inserts with "
                "Repo.insert_all every 50 ms or 500 bids", [4]),
    ("AH", "Q", "The mailbox backed up because lookups in the growing ETS bid table got slow", [1]),
    ("FF", "O", "Switching BidServer from handle_call to handle_cast cleared the message backlog",
     [3]),
    ("ID", "D", "Shard each lot's bids across several processes to spread the load", [4]),
    ("IP", "P", "Acknowledge bids as soon as they're validated, before they're written, to keep "
                "latency low", [5]),
    ("SF", "D", "BidWriter flushes every 500 ms or 50 bids, whichever comes first", [4]),
    ("DIR", "O", "In the replay, node memory peak went from 1.8 GB to 11 GB", [6]),
    ("FO", "Q", "The ETS bid table had grown to about 1.3M rows", [1, 2]),
    ("ST", "B", "The staging load test has cleared, so the batching change is good to ship", [8]),
])

MORE_STORIES["browser-ext-mv3"] = ([
    (0, "user", "Chrome Web Store will reject our tab-grouping extension (Tabwise) unless it's "
                "on Manifest V3. Port it. The background page uses setInterval to check tab idle "
                "every 60 s."),
    (1, "assistant", "Main breakages in MV3: background page becomes a service worker, "
                     "`chrome.browserAction` becomes `chrome.action`, and blocking `webRequest` "
                     "is gone. We only use it to strip `utm_` params, so I'll move that to "
                     "`declarativeNetRequest` rules instead of intercepting and redirecting via "
                     "webRequest, which isn't allowed for non-enterprise MV3 extensions anyway."),
    (2, "assistant", "Ported. Problem: the idle check stops after ~30 s. I think the "
                     "`setInterval` gets garbage-collected when the popup closes."),
    (3, "assistant", "That wasn't it. Chrome terminates the service worker itself after 30 s "
                     "without events, and the interval dies with it. Tried keeping it alive with "
                     "a `chrome.runtime.connect` port ping every 25 s; it held for a while but "
                     "Chrome still killed the worker after ~5 min."),
    (4, "assistant", "Switched to `chrome.alarms` with `periodInMinutes: 1`, and the per-tab "
                     "last-active timestamps now live in `chrome.storage.session` instead of a "
                     "global `Map`, since globals vanish when the worker restarts. Idle grouping "
                     "now works across worker restarts."),
    (5, "user", "Good. No new host permissions, and never ask for <all_urls>. every new "
                "permission triggers a re-consent prompt and we lose users"),
    (6, "assistant", "No host permissions at all. The manifest now lists 4 permissions instead "
                     "of 6, and the bundle went from 212 KB to 148 KB after dropping the jQuery "
                     "shim. All 33 Jest tests pass, and the 6 Puppeteer e2e tests pass on Chrome "
                     "124 and Edge 124."),
    (7, "user", "Submitted to the store this morning."),
    (8, "assistant", "Store review flagged it: 'purpose of declarativeNetRequest not justified'. "
                     "I drafted the justification in `store/justification.md`; resubmission is "
                     "waiting for you to paste it into the dashboard, I don't have access."),
], [
    ("CP", "D", "Rewrote the utm_ stripping as declarative network rules rather than intercepting "
                "and redirecting requests, which MV3 no longer allows for ordinary extensions",
     [1]),
    ("CP", "Q", "The idle timer stopped because Chrome shuts an idle service worker down after "
                "about half a minute, not because closing the popup collected the interval",
     [2, 3]),
    ("CP", "O", "A port-based keepalive only postponed the problem (the worker was still killed "
                "after about five minutes), so the idle check moved to alarms with timestamps in "
                "session storage", [3, 4]),
    ("CP", "P", "The port must not request host permissions or <all_urls>, since extra "
                "permissions make users re-consent and some of them leave", [5]),
    ("CP", "O", "The extension now asks for two fewer permissions, and its bundle shrank by 64 KB "
                "once the jQuery shim was gone", [6]),
    ("CP", "B", "Resubmission is stalled until the user pastes the drafted declarativeNetRequest "
                "justification into the store dashboard", [8]),
    ("CV", "O", "Idle grouping now works across worker restarts", [4]),
    ("AH", "Q", "The idle check died because the setInterval was garbage-collected when the popup "
                "closed", [2]),
    ("FF", "O", "A chrome.runtime.connect port ping every 25 s keeps the service worker alive and "
                "fixed the idle check", [3]),
    ("ID", "D", "Kept a webRequest-based redirect for stripping utm_ parameters", [1]),
    ("IP", "P", "Asking for <all_urls> is acceptable if it makes the MV3 port simpler", [5]),
    ("SF", "O", "All 6 Jest tests pass, and the 33 Puppeteer e2e tests pass on Chrome 124 and "
                "Edge 124", [6]),
    ("DIR", "O", "The bundle grew from 148 KB to 212 KB with the MV3 port", [6]),
    ("FO", "D", "The chrome.alarms idle check fires every 5 minutes", [3, 4]),
    ("ST", "B", "Tabwise cleared Chrome Web Store review after this morning's submission", [7, 8]),
])

MORE_STORIES["playwright-flaky"] = ([
    (0, "user", "Our Playwright suite for the booking site is flaky in CI, `checkout.spec.ts` "
                "fails about 1 run in 5, never locally. Sort it out. GitHub Actions, 4 shards."),
    (1, "assistant", "Looked at the last 30 CI runs: `checkout.spec.ts › applies voucher` failed "
                     "7 times and `search.spec.ts › filters by date` twice. My first guess for "
                     "the voucher test is shards sharing the same seeded test user and stepping "
                     "on each other's cart."),
    (2, "assistant", "Not that: each shard gets its own user via `testInfo.parallelIndex`, and "
                     "the traces show a clean cart. What the traces do show is the click on "
                     "Apply landing before `/api/quote` has resolved, so the voucher is applied "
                     "to a stale total and the assertion sees £48.00 instead of £43.20."),
    (3, "assistant", "Tried raising the `expect` timeout from 5 s to 15 s: still 3 failures in "
                     "20 with `--repeat-each=20`, because the price has settled, just on the "
                     "wrong total. What worked: before clicking Apply, wait for "
                     "`getByTestId('quote-total')` to have `data-state=\"ready\"`. I went with "
                     "that rather than `page.waitForResponse('**/api/quote')`, which ties the "
                     "test to the API route. 0 failures in 200 repeats."),
    (4, "user", "no waitForTimeout anywhere, ever. and don't paper over it with retries either."),
    (5, "assistant", "Agreed, neither is used. The date-filter test has a different cause: the "
                     "date picker uses the runner's timezone, UTC in CI vs Europe/London "
                     "locally. Pinned `timezoneId: 'Europe/London'` in playwright.config.ts."),
    (6, "assistant", "Over 50 CI runs since: voucher test 0 failures (was 7 in 30), date filter "
                     "0 (was 2 in 30). Suite wall time is down from 11m20s to 9m50s, since "
                     "failing tests no longer trigger the existing single retry."),
    (7, "user", "Great. Merge it?"),
    (8, "assistant", "The PR is approved, but merging is blocked: branch protection requires the "
                     "`visual-regression` check, and that job fails on main too because the "
                     "Percy token expired. Someone with org admin needs to rotate it."),
], [
    ("CP", "Q", "The voucher flake wasn't shards sharing a seeded user (each has its own); Apply "
                "was clicked before the quote request finished, so the discount hit an outdated "
                "total", [1, 2]),
    ("CP", "O", "Giving assertions longer to wait didn't help since the price was settled but "
                "wrong; waiting for the quote to be ready before clicking Apply removed the "
                "failures", [3]),
    ("CP", "D", "Synchronised on the quote component's ready state rather than on the quote API's "
                "network response, so the test isn't coupled to the endpoint's URL", [3]),
    ("CP", "P", "Flaky tests have to be fixed for real: fixed sleeps and extra retries are not "
                "acceptable", [4]),
    ("CP", "O", "The date filter only failed in CI because runners use UTC while developers are "
                "on London time; the config now pins the London timezone", [5]),
    ("CP", "B", "The PR has its approval but can't merge until an org admin renews the expired "
                "Percy token that breaks the required visual-regression check", [8]),
    ("CV", "O", "voucher test 0 failures (was 7 in 30), date filter 0 (was 2 in 30)", [6]),
    ("AH", "Q", "The voucher test flaked because the shards shared one seeded test user and "
                "clobbered each other's cart", [1]),
    ("FF", "O", "Raising the expect timeout from 5 s to 15 s fixed the flaky voucher test", [3]),
    ("ID", "D", "Wait for the /api/quote response with page.waitForResponse before clicking Apply",
     [3]),
    ("IP", "P", "Configure CI retries for the checkout spec to absorb any remaining flakes", [4]),
    ("SF", "Q", "On failure the assertion saw £43.20 where £48.00 was expected", [2]),
    ("DIR", "O", "Suite wall time went up from 9m50s to 11m20s after the fixes", [6]),
    ("FO", "Q", "Before the fix the voucher test failed 7 times in 50 CI runs", [1, 6]),
    ("ST", "B", "The flaky-test fix has been merged to main", [7, 8]),
])
