"""A seventh batch of support-set stories, written cold (without reading the support check) by two
helpers in session 14; measured once at arrival, blind, before any rule was tuned on its dev stories."""
SEVENTH_STORIES: dict[str, tuple[list[tuple[int, str, str]], list[tuple]]] = {}

SEVENTH_STORIES["go-ingest-goroutine-leak"] = ([
    (0, "user",
     "our ingest-svc pods keep getting OOMKilled every ~6h, mem climbs from 180MB to like 1.9GB and the limit is 2Gi. "
     "can u look? pls dont just bump the limit, we already did that twice"),
    (1, "assistant",
     "On it. My first suspicion is the `sync.Pool` of decode buffers in `internal/decode/pool.go` — we put 4 MiB "
     "buffers back into the pool after large payloads, so the pool could be pinning big slices. I'll grab a heap "
     "profile via `/debug/pprof/heap` from a pod that's been up for a few hours."),
    (2, "assistant",
     "Profiles from `ingest-svc-7c9f` (uptime 4h12m, RSS 1.31 GB):\n"
     "- `inuse_space` total is only 212 MB; the decode pool accounts for 38 MB of that\n"
     "- `/debug/pprof/goroutine` shows **41,872 goroutines** vs ~300 on a fresh pod\n"
     "- 41,500 of them are parked in `net/http.(*persistConn).readLoop`\n\n"
     "So the pool isn't what's growing — the memory is in goroutine stacks and the connections they hold. Looks like "
     "response bodies from the enrichment client are never closed."),
    (3, "user",
     "huh ok. the enrichment client is in pkg/enrich/client.go. fix it but keep it small, we're freezing the release branch on thurs"),
    (4, "assistant",
     "Found it: in `client.go`, `Lookup()` returns early on `resp.StatusCode == 404` without `resp.Body.Close()`. Two options:\n"
     "1. Add `defer resp.Body.Close()` right after the error check — 1-line change\n"
     "2. Rewrite the client on top of our shared `httpx` package, which enforces closing — ~300 lines touched\n\n"
     "Going with option 1 given the freeze; option 2 can be a follow-up ticket."),
    (5, "assistant",
     "First attempt was a detour: I set `Transport.IdleConnTimeout = 30*time.Second` thinking idle conns would get "
     "reaped. Ran the soak test for 40 min and goroutines still climbed to 9,400 — the connections aren't idle, "
     "they're stuck with unread bodies, so the timeout never applies. Reverted that and added "
     "`defer resp.Body.Close()` plus `io.Copy(io.Discard, resp.Body)` on the 404 path."),
    (6, "assistant",
     "Soak test after the fix (40 min, 1,200 rps replay):\n"
     "- goroutines flat at 280–310\n"
     "- RSS stable at 190–205 MB (was 640 MB at the 40-min mark before)\n"
     "- p99 latency 48 ms → 31 ms\n\n"
     "PR #2214 is open against `main`."),
    (7, "user", "nice. can u cherry pick to release/3.8 too"),
    (8, "assistant",
     "Cherry-pick to `release/3.8` is blocked: branch protection requires an approval from `@ingest-owners` and nobody "
     "from that group has reviewed #2214 yet. I've opened #2219 as a draft with the cherry-pick; it needs their "
     "approval before Thursday's freeze."),
], [
    ("CV", "W", "Found it: in `client.go`, `Lookup()` returns early on `resp.StatusCode == 404` without `resp.Body.Close()`.", [4]),
    ("CV", "O", "RSS stable at 190–205 MB (was 640 MB at the 40-min mark before)", [6]),
    ("CP", "P", "Raising the pod memory limit yet again is not an acceptable fix for the user, who has already done that twice.", [0],
     "user said don't just bump the limit, already done twice"),
    ("CP", "D", "With a release freeze coming on Thursday, the assistant picked the one-line defer-close patch and deferred the roughly 300-line move onto the shared httpx package to a follow-up ticket.", [3, 4],
     "option 1 chosen because of the freeze; option 2 left as follow-up"),
    ("CP", "O", "The growth turned out to be tens of thousands of goroutines stuck in persistConn.readLoop holding connections with unclosed bodies, while the decode buffer pool held a mere 38 MB.", [1, 2],
     "41,872 goroutines, 41,500 in readLoop; pool only 38 MB of 212 MB in use"),
    ("CP", "O", "In the 40-minute soak after the fix, goroutine counts stayed near 300 and p99 latency improved from 48 ms to 31 ms.", [6]),
    ("CP", "W", "A shorter idle-connection timeout was tried first and reverted, since the leaked connections were never idle and goroutines kept climbing during the soak.", [5],
     "IdleConnTimeout=30s, goroutines still climbed to 9,400"),
    ("ID", "D", "Given the Thursday freeze, the assistant chose to rebuild the enrichment client on the shared `httpx` package instead of patching `Lookup()` in place.", [3, 4],
     "wrong: the httpx rewrite (option 2) was rejected and deferred; the 1-line defer close was chosen"),
    ("IP", "P", "The user's preferred quick mitigation was to raise the pod memory limit once more while the leak was investigated.", [0],
     "wrong: user explicitly asked not to just bump the limit"),
    ("FF", "O", "Setting `Transport.IdleConnTimeout` to 30 seconds got idle connections reaped and stopped the goroutine growth in the 40-minute soak.", [5, 6],
     "wrong: that attempt failed (goroutines still reached 9,400) and was reverted; closing/draining the body fixed it"),
    ("SF", "W", "The heap profile of the pod up for 4h12m reported 1.31 GB in use even though its RSS was only 212 MB.", [2],
     "wrong: figures swapped — RSS was 1.31 GB and inuse_space was 212 MB"),
    ("DIR", "O", "The soak test after the fix showed p99 latency climbing from 31 ms to 48 ms, a regression to watch.", [6],
     "wrong: p99 went down, 48 ms → 31 ms"),
    ("AH", "O", "The OOMKills were caused by the decode-buffer `sync.Pool` pinning 4 MiB slices after large payloads.", [1, 2],
     "wrong: initial suspicion only; the profile showed the pool at 38 MB and the leak in goroutines/unclosed bodies"),
    ("FO", "W", "Even with the 30-second idle timeout, goroutines rose to 41,872 during the 40-minute soak test.", [2, 5],
     "wrong: 41,872 was the count on the 4h12m production pod; the soak with the timeout reached 9,400"),
    ("ST", "O", "The fix is now on `release/3.8` as well, after `@ingest-owners` approved the cherry-pick.", [7, 8],
     "wrong: cherry-pick is blocked awaiting @ingest-owners approval; #2219 is still a draft"),
])

# ---------------------------------------------------------------------------
SEVENTH_STORIES["dbt-bigquery-cost-spike"] = ([
    (0, "user",
     "bq bill for the analytics project jumped from ~$1.1k to $4.6k last month, finance is asking. can u figure out "
     "which dbt models did it? dont touch prod datasets directly, only via dbt runs in ci"),
    (2, "assistant",
     "Pulled `region-us.INFORMATION_SCHEMA.JOBS_BY_PROJECT` for the last 30 days, grouped by the `dbt_model` label:\n"
     "- `fct_sessions`: 612 TB billed (was 41 TB the month before)\n"
     "- `int_events_enriched`: 88 TB\n"
     "- everything else combined: 29 TB\n\n"
     "So `fct_sessions` is ~84% of scanned bytes. My guess is the new `dbt_utils.star()` exclusion in that model is "
     "effectively doing `SELECT *` over `raw.events`, which has grown to 310 columns."),
    (3, "assistant",
     "Checked `target/compiled/analytics/models/marts/fct_sessions.sql` — `star()` expands to only the 14 columns we "
     "need, so the column list isn't the problem. The real issue is the incremental filter:\n"
     "```sql\nwhere event_date >= (select max(event_date) from {{ this }})\n```\n"
     "BigQuery can't prune partitions on a subquery filter, so each of the 720 hourly runs last month scanned all "
     "19 months of `raw.events` (~0.85 TB per run). 720 × 0.85 TB ≈ 612 TB, which matches."),
    (4, "user", "ok what are the options. id rather not change the run schedule, the product dashboards need hourly"),
    (5, "assistant",
     "Two options:\n"
     "1. Switch to `incremental_strategy='insert_overwrite'` with a static `partitions` list — pruning works, ~1 day "
     "of partitions scanned per run\n"
     "2. Keep `merge` and compute the max date at compile time with `run_query()` so the filter becomes a literal\n\n"
     "I'd go with option 2: it keeps `merge` semantics, and late-arriving events rely on that to update existing rows; "
     "insert_overwrite would drop the dedupe we depend on."),
    (6, "assistant",
     "Tried option 2 in the `ci_analytics` dataset. First CI run failed to compile: I interpolated the `run_query()` "
     "result directly and got `event_date >= <agate.Table ...>`. Fixed by taking "
     "`.columns[0].values()[0]` and quoting it as a DATE literal. Second CI run:\n"
     "- bytes billed per run: 0.85 TB → 3.1 GB\n"
     "- runtime: 142 s → 19 s\n"
     "- row count matches the prod snapshot (48,211,904)"),
    (7, "user", "great. merge it?"),
    (8, "assistant",
     "PR #87 is green in CI, but merging needs a review from the data-platform CODEOWNERS and @maya is out until "
     "Monday. Also, I haven't estimated the effect on `int_events_enriched` (88 TB) — it has the same subquery "
     "pattern; I left a TODO in the PR description."),
], [
    ("CV", "O", "So `fct_sessions` is ~84% of scanned bytes.", [2]),
    ("CV", "B", "PR #87 is green in CI, but merging needs a review from the data-platform CODEOWNERS and @maya is out until Monday.", [8]),
    ("CP", "P", "The user wants every change to production datasets to happen through dbt runs in CI, never by hand.", [0]),
    ("CP", "P", "Hourly scheduling has to stay as is, since product dashboards depend on it.", [4]),
    ("CP", "D", "Keeping the merge strategy and turning the max-date lookup into a compile-time literal won over insert_overwrite, because merge is what lets late events update rows already loaded.", [5],
     "option 2 chosen to keep merge/dedupe semantics"),
    ("CP", "O", "What actually drove the bill was the subquery in the incremental filter: without partition pruning, every hourly run read the whole 19 months of raw.events, which adds up to the 612 TB.", [3]),
    ("CP", "O", "On CI, the reworked model billed about 3.1 GB per run instead of roughly 0.85 TB, finished in 19 s rather than 142 s, and produced the same row count as the prod snapshot.", [6]),
    ("ID", "D", "The assistant went with `insert_overwrite` and a static partition list, reasoning that it preserves the dedupe of late-arriving events.", [5],
     "wrong: insert_overwrite was rejected precisely because it would drop the dedupe; option 2 (merge + compile-time literal) was chosen"),
    ("IP", "P", "The user is open to running `fct_sessions` less often than hourly if that brings the cost down.", [4],
     "wrong: user would rather not change the schedule; dashboards need hourly"),
    ("FF", "O", "Interpolating the `run_query()` result straight into the filter worked on the first CI run and cut bytes billed to 3.1 GB.", [6],
     "wrong: the first run failed to compile (agate.Table interpolated); only after extracting the value did the second run succeed"),
    ("SF", "O", "Last month `int_events_enriched` billed 612 TB, while `fct_sessions` accounted for 88 TB.", [2],
     "wrong: figures swapped between the two models — fct_sessions was 612 TB, int_events_enriched 88 TB"),
    ("DIR", "O", "Month over month, `fct_sessions` scanned bytes dropped from 612 TB to 41 TB.", [2],
     "wrong: direction inverted — it rose from 41 TB the month before to 612 TB"),
    ("AH", "O", "The spike traces back to `dbt_utils.star()` expanding into a `SELECT *` across all 310 columns of `raw.events`.", [2, 3],
     "wrong: that was the first guess; compiled SQL showed star() expands to only 14 columns; the cause was the subquery filter defeating partition pruning"),
    ("FO", "O", "Because partitions weren't pruned, each hourly run scanned all 14 months of `raw.events`.", [3],
     "wrong: 14 is the number of columns star() expands to; the runs scanned 19 months"),
    ("ST", "O", "The partition-pruning fix was merged after @maya approved PR #87.", [7, 8],
     "wrong: PR #87 is not merged; it waits on CODEOWNERS review and @maya is out until Monday"),
])

# ---------------------------------------------------------------------------
SEVENTH_STORIES["celery-email-retry-storm"] = ([
    (0, "user",
     "celery workers melting down since 14:10. queue `emails` at 380k msgs and growing, sendgrid is 429ing us. "
     "pls dont purge the queue, those are password resets + receipts"),
    (1, "assistant",
     "Looking. Initial theory: the 14:02 deploy (v2.31.0) bumped `worker_concurrency` from 8 to 32 on the `emails` "
     "pool, so we'd be hitting SendGrid 4× harder. Checking task config and worker logs."),
    (2, "assistant",
     "Concurrency is fine — `celery inspect stats` shows concurrency 8 on all 12 `emails` workers; the 2.31.0 change "
     "only touched the `reports` pool. What I do see in `tasks/email.py`:\n"
     "```python\n@app.task(bind=True, autoretry_for=(Exception,), retry_backoff=False, max_retries=None)\n```\n"
     "`retry_backoff=False` + `max_retries=None` means every 429 is retried immediately and forever. Logs show "
     "~9,200 retries/min vs ~600 new sends/min — the retries are the storm."),
    (3, "user", "ugh. whats the fastest safe fix"),
    (4, "assistant",
     "Options:\n"
     "1. Rate-limit the task (`rate_limit='100/s'`) — caps throughput, but retries still pile up behind it\n"
     "2. `retry_backoff=True, retry_backoff_max=600, retry_jitter=True, max_retries=8`, and only autoretry on "
     "`SendGridRateLimitError` / `ConnectionError`\n\n"
     "Going with 2 — it removes the feedback loop instead of just throttling it. Building it on "
     "`hotfix/email-backoff`; meanwhile I'll apply a runtime rate limit as a stopgap."),
    (5, "assistant",
     "Stopgap didn't do much: `celery control rate_limit tasks.email.send 100/s` only moved the 429 share from 71% to "
     "64% of calls. `rate_limit` is enforced per worker, so 12 workers still allow 1,200/s. Rolled the backoff "
     "hotfix out to all 12 workers at 14:48."),
    (6, "assistant",
     "15 min after the hotfix:\n"
     "- retries/min: ~9,200 → ~340\n"
     "- SendGrid 429 share: 64% → 3%\n"
     "- `emails` queue: 380k → 212k, draining ~11k/min\n\n"
     "At this rate it should be empty in ~20 min."),
    (7, "user", "ok good. did anyone get a reset email twice? dont want ppl confused"),
    (8, "assistant",
     "Queue hit 0 at 15:21. Duplicates: joining the SendGrid event webhook log on our `idempotency_key`, 1,318 "
     "password-reset emails were delivered more than once between 14:10 and 14:48. The list is in "
     "`dupes_2024-05-14.csv`; still waiting on support to decide whether to notify those users."),
], [
    ("CV", "O", "Logs show ~9,200 retries/min vs ~600 new sends/min — the retries are the storm.", [2]),
    ("CV", "B", "The list is in `dupes_2024-05-14.csv`; still waiting on support to decide whether to notify those users.", [8]),
    ("CP", "P", "Purging the emails queue is off the table for the user, because it holds password resets and receipts.", [0]),
    ("CP", "D", "Rather than merely throttling the task, the assistant opted for exponential backoff with jitter, a cap of 8 retries, and autoretry limited to rate-limit and connection errors, so the feedback loop goes away.", [4]),
    ("CP", "W", "The runtime rate limit barely helped because Celery applies it per worker, letting twelve workers together still push 1,200 sends a second.", [5],
     "429 share only 71% → 64%"),
    ("CP", "O", "A quarter of an hour after the hotfix reached every worker, retries were down by over 95% and only about 3% of SendGrid calls came back 429.", [5, 6],
     "9,200 → 340 retries/min is a ~96% drop; 429 share 3%"),
    ("CP", "O", "By 15:21 the emails backlog had fully drained.", [8]),
    ("ID", "D", "Faced with two options, the assistant settled on capping the task at `rate_limit='100/s'` rather than reworking its retry settings.", [4],
     "wrong: option 2 (backoff + max_retries) was chosen; rate limiting was only a stopgap and was rejected as the fix"),
    ("IP", "P", "The user wanted the `emails` queue purged so the workers could recover quickly.", [0],
     "wrong: user explicitly said don't purge the queue"),
    ("FF", "O", "Applying `celery control rate_limit tasks.email.send 100/s` at runtime is what brought the SendGrid 429s under control.", [5, 6],
     "wrong: the stopgap only moved 429s from 71% to 64%; the backoff hotfix brought them to 3%"),
    ("SF", "O", "After the hotfix the backlog was draining at roughly 340 messages a minute while retries ran at about 11k/min.", [6],
     "wrong: figures swapped — draining ~11k/min, retries ~340/min"),
    ("DIR", "O", "In the 15 minutes following the hotfix, the `emails` queue grew from 212k to 380k messages.", [6],
     "wrong: the queue shrank from 380k to 212k"),
    ("AH", "O", "The retry storm began because v2.31.0 raised `worker_concurrency` on the `emails` pool from 8 to 32.", [1, 2],
     "wrong: initial theory only; inspect stats showed concurrency still 8, the change was to the reports pool"),
    ("FO", "W", "The backoff hotfix was rolled out to all 12 workers at 14:10.", [0, 5],
     "wrong: 14:10 is when the meltdown began; the rollout was at 14:48"),
    ("ST", "O", "Support has already emailed the 1,318 users who received duplicate password resets.", [8],
     "wrong: still waiting on support to decide whether to notify them"),
])

# ---------------------------------------------------------------------------
SEVENTH_STORIES["android-room-index-migration"] = ([
    (0, "user",
     "after 4.12 rollout crashlytics has ~2.3k crashes `IllegalStateException: Migration didn't properly handle: notes`, "
     "hitting 6.8% of users who updated. db version went 7 -> 8. we cannot lose user notes so "
     "fallbackToDestructiveMigration is a no go"),
    (1, "assistant",
     "Looking at `AppDatabase.kt` and `MIGRATION_7_8`. My first thought is the new `pinned` column: the entity declares "
     "`val pinned: Boolean = false`, and if the migration adds it without `NOT NULL DEFAULT 0` the schema Room expects "
     "(`notNull=true`) won't match."),
    (2, "assistant",
     "Pulled the full message from a Crashlytics event — the Expected/Found diff only differs in `indices`: expected "
     "`index_notes_folder_id`, found `[]`. The `pinned` column is fine; `MIGRATION_7_8` already has "
     "`ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0`. So the missing piece is the `@Index(\"folder_id\")` added to "
     "`NoteEntity` in #1432 without a matching `CREATE INDEX` in the migration."),
    (3, "user", "ok. fwiw ~1.9% of users are already on db 8, the fresh installs. dont break them"),
    (4, "assistant",
     "Two ways to fix:\n"
     "1. Patch `MIGRATION_7_8` to add `CREATE INDEX IF NOT EXISTS index_notes_folder_id ON notes(folder_id)` and ship 4.12.1\n"
     "2. Leave 7→8 alone and bump to version 9 with a `MIGRATION_8_9` that creates the index\n\n"
     "The failed migration rolls back inside its transaction, so crashing users are still on v7, and fresh installs on "
     "v8 already have the index. Option 1 is enough and `IF NOT EXISTS` keeps it safe; option 2 adds a version for no "
     "benefit. Going with 1."),
    (5, "assistant",
     "Added a `MigrationTestHelper` test `migrate7To8_keepsNotes`. First run failed: "
     "`Cannot find the schema file in the assets folder` — `exportSchema` is on but `app/schemas/.../7.json` was never "
     "committed because `schemas/` is in `.gitignore`. Restored 7.json from the v4.11 build artifacts and removed "
     "`schemas/` from `.gitignore`. Test now passes: 500 notes seeded at v7, all 500 present after migrating, index present."),
    (6, "user", "👍 ship it to internal track first, not prod. i'll do the staged rollout myself"),
    (7, "assistant",
     "4.12.1 (versionCode 4121) uploaded to the internal track. On my Pixel 7 with a v4.11 database (3,840 notes) the "
     "upgrade took 410 ms and opened without a crash; the folder list query went from 84 ms to 6 ms now that the "
     "index exists. Production rollout is left to you, as requested."),
], [
    ("CV", "W", "So the missing piece is the `@Index(\"folder_id\")` added to `NoteEntity` in #1432 without a matching `CREATE INDEX` in the migration.", [2]),
    ("CV", "O", "4.12.1 (versionCode 4121) uploaded to the internal track.", [7]),
    ("CP", "P", "A destructive fallback migration is unacceptable to the user, since user notes must never be wiped.", [0]),
    ("CP", "P", "The user will handle the staged production rollout personally; the assistant's job stopped at the internal track.", [6, 7]),
    ("CP", "D", "Adding CREATE INDEX IF NOT EXISTS to the existing 7-to-8 migration was preferred over introducing a version-9 migration, because crashed users had been rolled back to v7 and fresh v8 installs already had the index.", [4]),
    ("CP", "W", "The migration test couldn't run at first since the v7 schema JSON had been gitignored and never committed; once 7.json was restored from the 4.11 artifacts, all 500 seeded notes survived the upgrade.", [5]),
    ("CP", "O", "Upgrading a Pixel 7 carrying nearly four thousand notes from 4.11 took well under half a second and didn't crash.", [7],
     "3,840 notes, 410 ms"),
    ("ID", "D", "The assistant left `MIGRATION_7_8` untouched and instead shipped a `MIGRATION_8_9` that creates `index_notes_folder_id`.", [4],
     "wrong: option 2 (new v9 migration) was rejected; MIGRATION_7_8 was patched"),
    ("IP", "P", "The user asked for 4.12.1 to go directly to the production track so the crashes stop sooner.", [6],
     "wrong: user said internal track first, not prod, and will do the staged rollout"),
    ("FF", "W", "`migrate7To8_keepsNotes` passed on its first run, confirming the 500 seeded notes survived.", [5],
     "wrong: the first run failed with a missing schema file; it passed only after 7.json was restored"),
    ("SF", "W", "The migration test seeded 3,840 notes, and the Pixel 7 used for the manual check held 500.", [5, 7],
     "wrong: figures swapped — the test seeded 500 notes and the Pixel 7 had 3,840"),
    ("DIR", "O", "Once the folder_id index existed, the folder list query got slower on the Pixel 7, from 6 ms to 84 ms.", [7],
     "wrong: it got faster, 84 ms → 6 ms"),
    ("AH", "O", "The crash came from `MIGRATION_7_8` adding the `pinned` column without `NOT NULL DEFAULT 0`.", [1, 2],
     "wrong: first hypothesis only; the migration already had NOT NULL DEFAULT 0, the diff was the missing index"),
    ("FO", "O", "The migration crash hit about 1.9% of users who updated to 4.12.", [0, 3],
     "wrong: 1.9% is the share of fresh installs already on db 8; the crash hit 6.8% of updaters"),
    ("ST", "O", "The assistant has already started the staged production rollout of 4.12.1.", [6, 7],
     "wrong: only the internal track upload is done; production rollout is left to the user"),
])

# ---------------------------------------------------------------------------
SEVENTH_STORIES["webpack-to-vite-dev-server"] = ([
    (0, "user",
     "dev server startup is killing us, `npm start` takes 94s on webpack 4 and HMR is like 6-8s. want to try vite. "
     "constraint: keep the REACT_APP_* env vars working, the deploy pipeline injects them and i dont want to touch the pipeline"),
    (1, "assistant",
     "Plan: `vite` 5.2 + `@vitejs/plugin-react`. For env vars there are two routes:\n"
     "- rename everything to `VITE_*` — touches 41 call sites **and** the pipeline\n"
     "- set `envPrefix: ['VITE_', 'REACT_APP_']` in `vite.config.ts`\n\n"
     "Going with `envPrefix` since the pipeline stays as is. The 41 `process.env.REACT_APP_X` references still need "
     "to become `import.meta.env.REACT_APP_X`; I'll codemod those."),
    (2, "assistant",
     "Dev server is ready in 1.8 s (vs 94 s), but the first page load takes ~22 s. I suspect dependency pre-bundling: "
     "`node_modules/.vite/deps` may be getting rebuilt on every start as `optimizeDeps` discovers deps lazily. "
     "Checking with `vite --debug`."),
    (3, "assistant",
     "Pre-bundling is behaving — `--debug` shows the deps cache reused (`optimized dependencies unchanged`). The "
     "Network tab tells the story: 2,214 requests on first load, 1,903 of them coming from `src/icons/index.ts`, our "
     "barrel file re-exporting every icon. Vite serves modules unbundled in dev, so the barrel fans out into one "
     "request per icon."),
    (4, "assistant",
     "Tried `server.warmup: { clientFiles: ['src/icons/index.ts'] }` first — first load only went 22 s → 19 s, it "
     "still requests all 1,903 files. What worked: a codemod (`scripts/unbarrel-icons.mjs`) rewriting "
     "`import { X } from '@/icons'` to `import X from '@/icons/X'` across 312 files. First load is now 2.4 s with "
     "318 requests."),
    (5, "user", "ok but dont delete the barrel file, the design-system storybook still imports from it"),
    (6, "assistant",
     "Kept `src/icons/index.ts`, and added an ESLint `no-restricted-imports` rule so app code can't import from "
     "`@/icons` again (the `storybook/` dir is excluded). Numbers:\n"
     "- HMR on `Dashboard.tsx` edit: 6–8 s → ~120 ms.\n"
     "- prod build: `vite build` 71 s vs webpack 148 s\n"
     "- main bundle: 1.42 MB → 1.31 MB (gzip 402 kB → 371 kB)"),
    (7, "user", "jest still works?"),
    (8, "assistant",
     "Not yet — Jest breaks on `import.meta.env` (`SyntaxError: Cannot use 'import.meta' outside a module`). Options "
     "are migrating to Vitest or adding a Babel transform for `import.meta`; I haven't started either. `chore/vite` is "
     "otherwise ready, but I'd hold the merge until the 1,146 Jest tests can run again."),
], [
    ("CV", "O", "HMR on `Dashboard.tsx` edit: 6–8 s → ~120 ms.", [6]),
    ("CV", "B", "Jest breaks on `import.meta.env` (`SyntaxError: Cannot use 'import.meta' outside a module`).", [8]),
    ("CP", "D", "So that the deploy pipeline could stay untouched, REACT_APP_ variables were kept by listing that prefix in Vite's envPrefix instead of renaming them all to VITE_.", [0, 1]),
    ("CP", "P", "The user insists the icons barrel stays in place because the design-system Storybook still imports from it.", [5]),
    ("CP", "W", "The sluggish first load was traced to the icons barrel: of roughly 2,200 requests, over 1,900 originated from src/icons/index.ts.", [3]),
    ("CP", "O", "Pointing imports at individual icon modules in 312 files brought the first page load from about 22 seconds down to 2.4.", [2, 4]),
    ("CP", "O", "Production builds run about twice as fast under Vite — 71 s compared with webpack's 148 s.", [6]),
    ("ID", "D", "The assistant decided to rename every `REACT_APP_*` variable to the `VITE_` prefix rather than extending `envPrefix`.", [1],
     "wrong: renaming to VITE_ was rejected; envPrefix was chosen to leave the pipeline alone"),
    ("IP", "P", "Once the imports were rewritten, the user wanted `src/icons/index.ts` deleted.", [5],
     "wrong: user said don't delete the barrel file"),
    ("FF", "O", "Adding the barrel to `server.warmup.clientFiles` is what fixed the slow first page load.", [4],
     "wrong: warmup only went 22 s → 19 s and still made 1,903 requests; the unbarrel codemod fixed it"),
    ("SF", "O", "Under Vite the dev server became ready in 2.4 s, and after the codemod the first page load took 1.8 s.", [2, 4],
     "wrong: figures swapped — ready in 1.8 s, first load 2.4 s"),
    ("DIR", "O", "Moving to Vite made the main bundle larger, growing from 1.31 MB to 1.42 MB.", [6],
     "wrong: the bundle shrank, 1.42 MB → 1.31 MB"),
    ("AH", "O", "The ~22 s first page load was caused by Vite rebuilding its dependency pre-bundle on every start.", [2, 3],
     "wrong: first suspicion; --debug showed the deps cache was reused, the cause was the icons barrel fan-out"),
    ("FO", "W", "The unbarrel codemod rewrote icon imports in 1,146 files.", [4, 8],
     "wrong: 1,146 is the number of Jest tests; the codemod touched 312 files"),
    ("ST", "O", "`chore/vite` is merged and the Jest suite runs against it without errors.", [8],
     "wrong: Jest is broken on import.meta and the merge is on hold"),
])

SEVENTH_STORIES["jdk21-g1-pause-regression"] = ([
    (0, "user", "order-service p99 went from ~180ms to 420ms right after the jdk 21 bump (pr #2291). smells like gc. logs are in `logs/gc/` for both versions"),
    (1, "assistant", "Parsed both sets of GC logs with `gcviewer` over the same 2h window of traffic.\n\n| | JDK 17 | JDK 21 |\n|---|---|---|\n| G1 young pause avg | 38 ms | 112 ms |\n| G1 young pause max | 95 ms | 340 ms |\n| Young pauses / min | ~14 | ~5 |\n\nFewer but much longer pauses. My first suspicion is container CPU detection: JDK 21 may be seeing fewer CPUs on the new cgroup v2 nodes and dropping `ParallelGCThreads`, which would make each evacuation slower. I'll check the worker counts in the log headers."),
    (3, "assistant", "Nope, it's not the thread count. Both logs show `Using 8 workers of 8 for evacuation`, and `-XX:+PrintFlagsFinal` on the running pod gives `ParallelGCThreads = 8`.\n\nWhat *is* different in `PrintFlagsFinal`:\n- `MaxGCPauseMillis = 200` on JDK 21 (we had `50` on JDK 17)\n- `G1NewSizePercent` back to the default `5` (we had `20`)\n\nSo our tuning flags aren't being applied. The new `eclipse-temurin:21-jre` base image's entrypoint runs `java -jar /app/app.jar` directly and never expands `$JAVA_OPTS`, which is where the helm chart puts them. With a 200 ms pause target G1 grows the young gen, so it collects less often but each pause is longer, which is exactly the pattern above.\n\nTwo ways forward:\n- **A.** Move the flags to `JAVA_TOOL_OPTIONS`, which the JVM itself reads regardless of entrypoint\n- **B.** Switch to Generational ZGC (`-XX:+UseZGC -XX:+ZGenerational`), which should get pauses under 1 ms but changes heap behaviour and needs memory re-sizing\n\nA is the minimal fix; B is probably where we want to end up eventually."),
    (4, "user", "A. dont change collectors in the same release as the jdk bump, one variable at a time pls. also don't touch the base image, platform team owns it"),
    (5, "assistant", "Moved the flags into `JAVA_TOOL_OPTIONS` in `charts/order-service/values.yaml` and deployed to staging.\n\nIt didn't come up. Pods are in `CrashLoopBackOff` with:\n```\nError: VM option 'G1NewSizePercent' is experimental and must be enabled via -XX:+UnlockExperimentalVMOptions.\n```\nI copied only the two tuning flags from the old `JAVA_OPTS` and left out `-XX:+UnlockExperimentalVMOptions`, which preceded them. Adding it back now."),
    (6, "assistant", "Staging is healthy with the full flag set in `JAVA_TOOL_OPTIONS` (startup log shows `Picked up JAVA_TOOL_OPTIONS: -XX:+UnlockExperimentalVMOptions -XX:MaxGCPauseMillis=50 -XX:G1NewSizePercent=20`).\n\nAfter 90 min of replayed traffic on staging:\n- young pause avg: **41 ms** (was 112 ms)\n- young pauses / min: ~13\n- p99 latency: **195 ms** (was 420 ms)\n\nBase image untouched; only `values.yaml` changed (PR #2307)."),
    (7, "user", "nice. ship to prod?"),
    (8, "assistant", "Not yet: prod deploys are frozen until Thursday for the quarter-end close, and PR #2307 still needs Priya's approval as `CODEOWNERS` for `charts/`. I've requested her review. Once she approves and the freeze lifts, it's a normal `argocd app sync order-service-prod`.\n\nI also opened ticket PERF-188 to evaluate Generational ZGC separately after this lands."),
], [
    ("CV", "O", "The new `eclipse-temurin:21-jre` base image's entrypoint runs `java -jar /app/app.jar` directly and never expands `$JAVA_OPTS`, which is where the helm chart puts them.", [3]),
    ("CV", "B", "prod deploys are frozen until Thursday for the quarter-end close, and PR #2307 still needs Priya's approval as `CODEOWNERS` for `charts/`.", [8]),
    ("CP", "D", "The GC regression was addressed by relocating the JVM tuning flags into JAVA_TOOL_OPTIONS instead of migrating to Generational ZGC, since the user wanted only one variable changed alongside the JDK upgrade.", [3, 4, 6], "User picked option A and asked not to change collectors in the same release."),
    ("CP", "P", "The platform team owns the base container image, so the user doesn't want the assistant modifying it.", [4]),
    ("CP", "O", "Once the fix was on staging, average young-generation pauses were back to roughly 40 ms and p99 latency just under 200 ms.", [6], "41 ms and 195 ms respectively."),
    ("CP", "W", "The first staging rollout of the JAVA_TOOL_OPTIONS change crash-looped because the experimental-options unlock flag was left behind when the two tuning flags were copied over.", [5]),
    ("CP", "O", "Under JDK 21, G1 paused far less often (about 5 times a minute rather than about 14), but each young pause took roughly three times as long on average.", [1], "38 ms -> 112 ms is ~2.9x."),
    ("ID", "D", "After weighing the options, the assistant moved order-service onto Generational ZGC to get pauses under 1 ms, leaving the JAVA_TOOL_OPTIONS approach for a follow-up ticket.", [3, 4, 8], "Inverted: user chose A (JAVA_TOOL_OPTIONS); ZGC is the one deferred to PERF-188."),
    ("IP", "P", "The user was comfortable bundling a garbage-collector switch into the same release as the JDK 21 upgrade.", [4], "User explicitly said not to change collectors in the same release as the JDK bump."),
    ("FF", "O", "Putting `-XX:MaxGCPauseMillis=50 -XX:G1NewSizePercent=20` into `JAVA_TOOL_OPTIONS` restored normal pauses on the first staging deploy.", [5, 6], "That first deploy crash-looped; it only worked after adding -XX:+UnlockExperimentalVMOptions."),
    ("SF", "O", "Per gcviewer over the same two-hour window, average G1 young pauses were 38 ms on JDK 21 against 112 ms on JDK 17.", [1], "Swapped: JDK 17 averaged 38 ms, JDK 21 averaged 112 ms."),
    ("DIR", "O", "Because the pause target fell back to the 200 ms default, G1 shrank the young generation, which is why JDK 21 collections came out shorter but more frequent.", [1, 3], "Inverted: G1 grew the young gen, giving fewer but longer pauses."),
    ("AH", "O", "The JDK 21 slowdown came from the JVM detecting fewer CPUs on the cgroup v2 nodes and lowering ParallelGCThreads.", [1, 3], "Initial suspicion, rejected: both logs use 8 of 8 workers and ParallelGCThreads = 8; cause was ignored JAVA_OPTS."),
    ("FO", "O", "With the flags applied, staging p99 latency came down to 41 ms.", [6], "41 ms is the average young pause after the fix; p99 was 195 ms."),
    ("ST", "B", "Priya approved PR #2307 and it has been synced to production through Argo CD.", [8], "Still pending: needs Priya's approval and prod is frozen until Thursday."),
])

SEVENTH_STORIES["stripe-webhook-double-fulfillment"] = ([
    (0, "user", "we've got customers getting 2 shipments for one order again. support flagged like 30 of them this month. pretty sure its the stripe webhook. can u dig in, handler is `src/webhooks/stripe.ts`"),
    (1, "assistant", "Pulled the last 14 days from `orders` and `fulfillments`:\n- **9,214** completed checkouts\n- **37** orders with 2 fulfillment rows (0.4%), none with 3\n- that's up from **11** in the previous 14 days\n\nMy first guess is Stripe retries: if the handler 5xx's *after* `fulfillOrder()` has inserted the row (e.g. the SendGrid call at the end throws), Stripe redelivers the same event and we fulfil again. Grepping the access logs for non-2xx responses on `/webhooks/stripe`."),
    (2, "assistant", "That wasn't it. In 14 days `/webhooks/stripe` returned **0** non-2xx responses, and for every one of the 37 duplicate pairs the two fulfillments were triggered by **different** event ids:\n- one `checkout.session.completed`\n- one `payment_intent.succeeded`\n- arriving 40-300 ms apart\n\nBoth branches in `stripe.ts` call `fulfillOrder(orderId)`, which does `SELECT fulfilled_at ...` and inserts if it's null. Two requests in flight at once both see `NULL` and both insert. Classic check-then-act race.\n\nOptions:\n- **A.** Unique index on `fulfillments(order_id)` and `INSERT ... ON CONFLICT (order_id) DO NOTHING`, so the DB enforces it\n- **B.** Redis `SET fulfil:{orderId} NX EX 60` lock around `fulfillOrder()`\n\nI'd lean A; B adds a dependency on lock TTLs being right."),
    (3, "user", "A. and pls no redis for anything new, we're decommissioning it in q3"),
    (5, "assistant", "Before adding the index I tried the cheaper thing: wrapping the check and the insert in one transaction inside `fulfillOrder()`.\n\nRan `scripts/replay-webhooks.ts`, which fires both event types for 200 test orders concurrently against a local stack: **4 of 200** orders still got two fulfillments. Under `READ COMMITTED` a plain transaction doesn't stop both sides from reading `NULL` before either commits, so this doesn't close the race."),
    (6, "assistant", "Switched to the unique index:\n- migration `20240611_fulfillments_order_unique.sql`: moves the 37 existing duplicate rows to `fulfillments_duplicates`, then `CREATE UNIQUE INDEX CONCURRENTLY fulfillments_order_id_key ON fulfillments(order_id)`\n- `fulfillOrder()` now does `INSERT ... ON CONFLICT (order_id) DO NOTHING RETURNING id` and only calls the warehouse API if a row came back\n\nReplay with 1,000 orders: **0** duplicates. Handler p95 unchanged at ~180 ms."),
    (7, "user", "sweet. what about the 37 that already went out"),
    (8, "assistant", "The code + migration are merged (PR #884) and will go out with tonight's deploy.\n\nThe 37 already-shipped duplicates are a business call I can't make: I've exported them to `duplicates_2024-06.csv` (order id, customer, both tracking numbers) and sent it to Marcus in support. He needs to decide per order whether to recall the second package or let the customer keep it. Nothing further on our side until he replies."),
], [
    ("CV", "B", "He needs to decide per order whether to recall the second package or let the customer keep it.", [8]),
    ("CV", "W", "Under `READ COMMITTED` a plain transaction doesn't stop both sides from reading `NULL` before either commits, so this doesn't close the race.", [5]),
    ("CP", "D", "A Postgres unique constraint on fulfillments.order_id was chosen over a Redis lock: the assistant preferred having the database enforce it, and the user is phasing Redis out anyway.", [2, 3]),
    ("CP", "P", "The user doesn't want Redis used in any new work because it is being retired in Q3.", [3]),
    ("CP", "O", "Double shipments happened because checkout.session.completed and payment_intent.succeeded for the same purchase were processed concurrently, and each one saw the order as unfulfilled before the other committed.", [2], "Different event ids per pair, 40-300 ms apart, check-then-act race."),
    ("CP", "O", "With the ON CONFLICT insert guarded by the new unique index, a thousand replayed orders yielded zero duplicate fulfillments, and webhook p95 stayed around 180 ms.", [6]),
    ("CP", "B", "Cleaning up the orders that already shipped twice is in support's hands: Marcus has the CSV and must decide recall versus keep for each one.", [8]),
    ("ID", "D", "To make fulfillment idempotent, the assistant wrapped `fulfillOrder()` in a Redis `SET NX` lock keyed by order id rather than leaning on a database constraint.", [2, 3, 6], "Option B (Redis lock) was rejected; the unique index with ON CONFLICT was used."),
    ("IP", "P", "The user asked for the idempotency lock to live in Redis so other services could reuse it.", [3], "User said no Redis for anything new; it's being decommissioned."),
    ("FF", "O", "Putting the fulfilled_at check and the insert inside one transaction was enough to stop duplicate fulfillments in the replay test.", [5], "That attempt still duplicated 4 of 200 orders; only the unique index fixed it."),
    ("SF", "W", "The transaction-only attempt was replayed against 1,000 test orders, while the final unique-index version was validated with 200, producing zero duplicates.", [5, 6], "Swapped: transaction attempt used 200 orders, unique-index replay used 1,000."),
    ("DIR", "O", "Duplicate fulfillments declined in the latest two-week window compared with the 14 days before it.", [1], "They rose: 37 vs 11 in the previous 14 days."),
    ("AH", "O", "The double shipments were caused by Stripe redelivering the same event after the handler returned a 5xx once the fulfillment row was already written.", [1, 2], "First guess, rejected: 0 non-2xx responses and each pair had different event ids."),
    ("FO", "W", "Even inside a single transaction, 37 of the 200 replayed orders were still fulfilled twice.", [5], "37 is the production duplicate count; the replay had 4 of 200."),
    ("ST", "B", "PR #884 with the index migration is still waiting on review and hasn't been merged yet.", [8], "It is merged and ships with tonight's deploy; what's pending is Marcus's decision on the 37 orders."),
])

SEVENTH_STORIES["clickhouse-too-many-parts"] = ([
    (0, "user", "clickhouse is throwing `Too many parts (300)` on inserts into `events` since yesterday afternoon. ingest pods retrying like crazy. help"),
    (1, "assistant", "Checked `system.parts` and `system.merges` on `ch-prod-01`:\n- active parts in partition `202406`: **291** (threshold `parts_to_throw_insert` = 300)\n- merges running: 16/16 slots busy (`background_pool_size = 16`)\n- inserts hitting the table: ~**80 INSERTs/s**, median **52 rows** per insert (from `system.query_log`)\n\nMy working theory is disk throughput: this node moved to gp3 last week, which defaults to 125 MB/s, and if merges are IO-starved they'd fall behind. Checking `iostat` during a merge."),
    (2, "user", "fwiw do NOT just bump parts_to_throw_insert, that's just hiding it"),
    (3, "assistant", "Understood, leaving `parts_to_throw_insert` at 300.\n\nDisk isn't the bottleneck after all: `iostat -x 5` shows the data volume at 18% util and ~40 MB/s during merges, well under the 125 MB/s cap. The merges are small and constant, not slow.\n\nThe real change is upstream: `ingest-svc` v3.12 (deployed yesterday 14:10) changed `FLUSH_INTERVAL_MS` from `5000` to `200`. Same row volume, but ~25x more INSERTs, each creating a new part. Before the deploy `query_log` shows ~3 INSERTs/s with a median of ~1,400 rows.\n\nOptions:\n- **A.** `async_insert=1, wait_for_async_insert=1` on the `ingest` user profile, so ClickHouse batches server-side\n- **B.** `Buffer` table in front of `events`\n- **C.** revert `FLUSH_INTERVAL_MS` to 5000 (but the ingest team lowered it on purpose for fresher dashboards)"),
    (4, "user", "not B, buffer tables lost us data on a restart last year. A sounds right"),
    (5, "assistant", "While setting up A, I tried a quick relief valve first: raised `background_pool_size` from 16 to 32 on `ch-prod-01` to let merges catch up.\n\nIt didn't help. 50 minutes later the partition was at **298** active parts and inserts started failing again; more merge threads can't outrun 80 new parts a second. Reverted to 16."),
    (6, "assistant", "Applied A: in `users.d/ingest.xml` for the `ingest` profile set `async_insert=1`, `wait_for_async_insert=1`, `async_insert_busy_timeout_ms=1000`.\n\nAfter 1 hour:\n- active parts in `202406`: **291 -> 34**\n- part-creating INSERTs: **~80/s -> ~2/s** (the client still sends ~80/s, the server flushes in batches)\n- zero `TOO_MANY_PARTS` errors; ingest retry queue drained\n- dashboard freshness ~1.2 s, so the ingest team keeps their 200 ms flush"),
    (7, "user", "great. is 02 done too?"),
    (8, "assistant", "No: `ch-prod-02` is managed through the data-platform repo, so I opened PR `data-platform#412` with the same `ingest.xml` change. It's waiting on Lena's review; until it merges, 02 is still at ~240 active parts and climbing, so I'd keep an eye on it today."),
], [
    ("CV", "O", "Disk isn't the bottleneck after all: `iostat -x 5` shows the data volume at 18% util and ~40 MB/s during merges, well under the 125 MB/s cap.", [3]),
    ("CV", "B", "It's waiting on Lena's review; until it merges, 02 is still at ~240 active parts and climbing", [8]),
    ("CP", "D", "Server-side batching through async inserts on the ingest profile was adopted; a Buffer table was turned down because one had lost data during a restart the previous year.", [3, 4]),
    ("CP", "P", "Rather than silencing the error by lifting the parts threshold, the user wants the root cause of the part explosion fixed.", [2]),
    ("CP", "O", "The backlog traced back to ingest-svc v3.12 cutting its flush interval from 5 s to 200 ms, which multiplied insert count roughly 25-fold while total rows stayed the same.", [3]),
    ("CP", "O", "An hour after async inserts went live on ch-prod-01, the June partition was down to the mid-30s in active parts and the insert failures had stopped.", [6], "291 -> 34 parts, zero TOO_MANY_PARTS."),
    ("CP", "W", "Doubling the merge pool to 32 didn't keep pace: within 50 minutes the partition was back near the 300-part limit, so the setting was reverted.", [5]),
    ("ID", "D", "The fix was to roll ingest-svc's FLUSH_INTERVAL_MS back to 5000 so inserts arrive in larger batches again.", [3, 4, 6], "Option C was not taken; async_insert (A) was applied and the ingest team keeps its 200 ms flush."),
    ("IP", "P", "The user proposed raising parts_to_throw_insert as a fast way to stop the failing inserts.", [2], "The user explicitly said NOT to bump parts_to_throw_insert."),
    ("FF", "O", "Raising background_pool_size from 16 to 32 let merges catch up and cleared the Too many parts errors on ch-prod-01.", [5, 6], "It didn't help (298 parts after 50 min) and was reverted; async inserts fixed it."),
    ("SF", "O", "Before the v3.12 deploy the table took about 80 INSERTs/s with a median of 52 rows each, and afterwards about 3/s with a median around 1,400 rows.", [1, 3], "Before/after swapped: ~3/s with ~1,400 rows before, ~80/s with 52 rows after."),
    ("DIR", "O", "The ingest-svc v3.12 change made the service flush less often, so ClickHouse received fewer but bigger inserts.", [3], "Inverted: it flushed more often (5000 -> 200 ms), producing ~25x more, smaller inserts."),
    ("AH", "O", "Merges were falling behind because the gp3 volume's 125 MB/s baseline throughput was starving them of disk bandwidth.", [1, 3], "Initial theory, abandoned: disk at 18% util, ~40 MB/s."),
    ("FO", "B", "While its PR awaits review, ch-prod-02 is sitting at about 291 active parts.", [8], "291 was ch-prod-01's count before the fix; ch-prod-02 is at ~240."),
    ("ST", "O", "The async insert settings are now live on both ch-prod-01 and ch-prod-02.", [6, 8], "Only ch-prod-01; ch-prod-02's PR is waiting on Lena's review."),
])

SEVENTH_STORIES["firmware-flash-overflow-tinycbor"] = ([
    (0, "user", "build broke after merging the cbor telemetry branch. `region FLASH overflowed by 1412 bytes`. we're on the L432, app slot is 192k. help"),
    (1, "assistant", "Reproduced with `cmake --build build/release`:\n```\nregion `FLASH' overflowed by 1412 bytes\n```\nThe app slot is 196,608 bytes (192 KiB; MCUboot + scratch take the rest of the 256 KiB). Last release `v2.3.0` linked at **179,604** bytes, so the branch added ~18 KB.\n\nThe branch diff also adds `-u _printf_float` to `LDFLAGS` for the new float telemetry fields. Newlib-nano's float printf support is notoriously heavy, so that's my first suspect. I'll compare the map files to confirm."),
    (2, "user", "k. whatever you do dont touch the partition layout, theres ~4k units in the field with mcuboot on that layout and we cant update the bootloader ota"),
    (3, "assistant", "Noted, partition table and `mcuboot.conf` stay as they are.\n\nTurns out printf isn't the culprit: `_printf_float` and `_dtoa_r` are already in the `v2.3.0` map (the logger pulled them in), and linking the branch with vs without `-u _printf_float` differs by **0 bytes**.\n\nNearly all of the growth is in `libtinycbor.a`: **17.9 KB** of `.text`. It's fetched via `FetchContent` and built at `-O0 -g3`, it's not inheriting our `-Os`.\n\nOptions:\n- **A.** Turn on LTO (`-flto`) for the whole image\n- **B.** Build tinycbor with `-Os` like the rest of the firmware\n- **C.** Shrink the scratch partition (off the table given your constraint)\n\nB is the targeted fix. A would also save space but changes codegen for everything, including the ISR and DMA code, right before a release."),
    (4, "user", "B. lto maybe later, not before the release"),
    (6, "assistant", "Added `target_compile_options(tinycbor PRIVATE -Os)` in `cmake/deps.cmake`.\n\nBarely moved: the image shrank by ~300 bytes and still overflows by **1,112 bytes**. `compile_commands.json` shows why: tinycbor's own `CMakeLists.txt` appends `-O0 -g3` *after* our options when `TINYCBOR_DEBUG` is on (this fork defaults it to `ON`), and the last `-O` wins."),
    (7, "assistant", "Set `set(TINYCBOR_DEBUG OFF CACHE BOOL \"\" FORCE)` before `FetchContent_MakeAvailable(tinycbor)` and dropped the extra `target_compile_options`.\n\n```\n   text    data     bss     dec\n 183812     408   41220  225440\n```\n- tinycbor `.text`: 17.9 KB -> **4.1 KB**\n- image: **184,220** bytes, 93.7% of the 192 KiB slot (12,388 bytes free)\n- unit tests (`ctest`): 142/142 pass"),
    (9, "user", "nice. can we merge"),
    (10, "assistant", "Code-wise yes, but the release checklist requires an HIL run on real boards before anything touches `release/2.4`, and the bench rig is offline until Monday. I've pushed the branch (`fix/tinycbor-size`) and asked Tomás to flash it onto the three test boards when the rig's back. Merge is on hold until he reports back."),
], [
    ("CV", "W", "It's fetched via `FetchContent` and built at `-O0 -g3`, it's not inheriting our `-Os`.", [3]),
    ("CV", "B", "I've pushed the branch (`fix/tinycbor-size`) and asked Tomás to flash it onto the three test boards when the rig's back.", [10]),
    ("CP", "P", "Changing the flash partition layout is forbidden: around 4,000 devices already deployed run MCUboot with it, and their bootloader can't be updated over the air.", [2]),
    ("CP", "D", "Instead of enabling link-time optimisation for the whole image right before a release, only the tinycbor library was switched to size-optimised compilation.", [3, 4], "User chose B and deferred LTO until after the release."),
    ("CP", "O", "Disabling the fork's TINYCBOR_DEBUG option took tinycbor from about 18 KB of code to about 4 KB, leaving the image at roughly 184 KB with some 12 KB of the slot still free.", [7]),
    ("CP", "W", "A private -Os compile option on tinycbor only recovered a few hundred bytes, because the library's own CMake added -O0 later on the command line and the last optimisation flag wins.", [6]),
    ("CP", "O", "Forcing in the float printf symbol had no effect on image size; newlib's float formatting was already being linked in v2.3.0 via the logger.", [3]),
    ("ID", "D", "To get back under the 192 KiB slot, the assistant turned on -flto for the whole firmware image.", [3, 4, 7], "LTO (option A) was deferred; tinycbor was built for size instead (option B)."),
    ("IP", "P", "The user suggested reclaiming space by shrinking the scratch partition, noting the bootloader can be updated over the air.", [2], "Opposite: user forbade touching the partition layout because the bootloader can't be updated OTA."),
    ("FF", "O", "Adding `target_compile_options(tinycbor PRIVATE -Os)` to cmake/deps.cmake brought the image back under the slot limit.", [6, 7], "That only saved ~300 bytes and still overflowed by 1,112; TINYCBOR_DEBUG OFF was the fix."),
    ("SF", "O", "The v2.3.0 release linked at 184,220 bytes, while the fixed branch now comes in at 179,604 bytes.", [1, 7], "Swapped: v2.3.0 was 179,604 bytes; the fixed image is 184,220."),
    ("DIR", "O", "Even with the new telemetry code, the fixed image ends up roughly 4.6 KB smaller than the v2.3.0 release.", [1, 7], "It is ~4.6 KB larger (184,220 vs 179,604)."),
    ("AH", "O", "The flash overflow was caused by the `-u _printf_float` linker flag the branch added for float telemetry fields.", [1, 3], "First suspect, dropped: the flag made a 0-byte difference; tinycbor at -O0 was the cause."),
    ("FO", "W", "When the telemetry branch was first merged, the link failed with the FLASH region overflowing by 1,112 bytes.", [0, 1, 6], "The initial overflow was 1,412 bytes; 1,112 was after the first (failed) -Os attempt."),
    ("ST", "O", "Tomás ran the HIL check on all three boards and the tinycbor fix has been merged into release/2.4.", [10], "Still pending: the rig is offline until Monday and merge is on hold."),
])

SEVENTH_STORIES["hpa-flapping-thumbnailer"] = ([
    (14, "user", "thumbnailer hpa is going nuts, replicas bouncing up and down all morning. latency is bad too. can you figure out why"),
    (15, "assistant", "Looked at `kubectl describe hpa thumbnailer -n media` and its events:\n- **38** scale events in the last hour, replicas oscillating between **6 and 18**\n- target: 60% CPU utilization of request; request is `cpu: 250m`\n- p95 latency over the same window: **640 ms** (usually ~300 ms)\n\nFirst thought: stale metrics. If `metrics-server` is scraping slowly, the HPA reacts to old data and overshoots in both directions. I'll check its `--metric-resolution` and the timestamps from `kubectl get --raw /apis/metrics.k8s.io/...`."),
    (16, "assistant", "Metrics are fresh: `metric-resolution` is 15s and the samples are at most ~20s old, so that's not what's driving this.\n\nWhat does line up: each new pod burns ~**800m** CPU for about **45 s** while it warms the `sharp`/libvips cache, i.e. ~320% of its 250m request. The readiness probe is a bare TCP check that passes after ~2 s, so the HPA counts that warmup CPU as real load: scale up -> new pods spike -> average goes up -> scale up more -> warmup ends -> utilization collapses -> scale down.\n\nOptions:\n- **A.** Stay on the native HPA: gate readiness on warmup (`/readyz` returns 503 until the cache is built) so warmup CPU isn't counted, plus `behavior.scaleDown.stabilizationWindowSeconds: 600`\n- **B.** Move to KEDA, scaling on request rate from Prometheus, which ignores CPU entirely"),
    (17, "user", "A. we're not adding any new operators to the cluster this quarter, security review queue is months long"),
    (18, "assistant", "Applied the quick part first in `deploy/thumbnailer/hpa.yaml`: scale-down stabilization of 600 s plus a scale-up policy capped at +2 pods per 60 s, without touching the probe.\n\nNot enough on its own. Over the next 40 minutes it still did **22** scale events; the swings were slower but the same shape, because every new pod still reports its warmup CPU as load."),
    (19, "assistant", "Added the readiness gating:\n- `src/server.ts`: `/readyz` returns 503 until `warmCache()` resolves\n- `deployment.yaml`: readiness probe switched from `tcpSocket` to `httpGet /readyz`, `periodSeconds: 5`\n- kept the HPA `behavior` block from before\n\nResults over 2 h in prod:\n\n| | before | after |\n|---|---|---|\n| scale events / h | 38 | 1.5 |\n| replicas | 6-18 | 8-10 |\n| p95 latency | 640 ms | 310 ms |"),
    (20, "user", "👍 should we bump the cpu request too? 250m seems low"),
    (21, "assistant", "It'd make the utilization number less jumpy, but going to 500m doubles the reserved CPU for this deployment (roughly +2 to +2.5 vCPU at 8-10 replicas). Since the flapping is fixed without it, I'd leave it at 250m for now.\n\nEverything above is merged (PR #1530) and live in prod; nothing pending from this."),
    (22, "user", "ok leave it"),
], [
    ("CV", "O", "Metrics are fresh: `metric-resolution` is 15s and the samples are at most ~20s old, so that's not what's driving this.", [16]),
    ("CV", "W", "The readiness probe is a bare TCP check that passes after ~2 s, so the HPA counts that warmup CPU as real load", [16]),
    ("CP", "D", "The team kept the built-in HPA and fixed it by tying readiness to cache warmup, rather than adopting KEDA request-rate scaling, since the user won't allow new cluster operators this quarter.", [16, 17, 19]),
    ("CP", "P", "No new operators may be installed in the cluster this quarter; the user cites a security review backlog that runs for months.", [17]),
    ("CP", "O", "Once readiness waited on warmup, scaling churn went from 38 events an hour to one or two, and p95 latency was roughly cut in half.", [19], "38 -> 1.5/h; 640 -> 310 ms."),
    ("CP", "W", "On their own, the 600-second scale-down window and the +2-pods-per-minute cap merely slowed the oscillation, which still produced 22 scale events in 40 minutes.", [18]),
    ("CP", "D", "The CPU request was left at 250m: the assistant advised against doubling it because the flapping was already solved, and the user agreed.", [21, 22]),
    ("ID", "D", "The thumbnailer was migrated to KEDA so that it scales on Prometheus request rate instead of CPU.", [16, 17, 19], "KEDA (option B) was rejected; native HPA with readiness gating (A) was used."),
    ("IP", "P", "The user was open to installing KEDA as long as it went through the security review queue.", [17], "The user refused any new operators this quarter."),
    ("FF", "O", "Adding the 600 s scale-down stabilization window and capping scale-up at +2 pods per minute stopped the HPA from flapping.", [18, 19], "That alone still gave 22 scale events in 40 min; the readiness gating fixed it."),
    ("SF", "O", "During the bad hour replicas swung between 8 and 10, and after the fix they settle in the 6-18 range.", [15, 19], "Before/after swapped: 6-18 before, 8-10 after."),
    ("DIR", "O", "While warming the libvips cache, a new pod uses well under its 250m CPU request, which pulled the HPA's average utilization down.", [16], "Inverted: warmup uses ~800m (~320% of request), pushing average utilization up."),
    ("AH", "O", "The flapping came from metrics-server serving stale CPU samples, so the HPA overshot in both directions.", [15, 16], "Initial guess, rejected: metrics were fresh (15s resolution, ~20s max age)."),
    ("FO", "O", "Each new thumbnailer pod spends about 600 seconds warming the sharp/libvips cache before it settles down.", [16, 18], "600 s is the scale-down stabilization window; warmup takes about 45 s."),
    ("ST", "B", "The readiness-gating change in PR #1530 is still awaiting review before it can go to prod.", [19, 21], "It's merged and live in prod; nothing is pending."),
])
