"""A third batch of support-set stories, written cold (without reading the support check)."""
THIRD_STORIES: dict[str, tuple[list[tuple[int, str, str]], list[tuple]]] = {}

THIRD_STORIES["musl-wheels"] = ([
    (0, "user", "pip install on alpine compiles our `fastcsv` extension from source and it "
                "takes ~4 min in peoples docker builds. can we ship musllinux wheels too? fyi "
                "we only publish from tags on main, nothing goes to PyPI from a branch"),
    (1, "assistant", "Looked at `pyproject.toml` and `.github/workflows/release.yml`. "
                     "cibuildwheel currently builds `cp39` to `cp312` for `manylinux_x86_64` "
                     "only. Two ways to add musl: (a) add `*-musllinux_x86_64` to the existing "
                     "`CIBW_BUILD` matrix, or (b) a separate Alpine job that runs `python -m "
                     "build` and `auditwheel repair` by hand. I'd lean towards (a): same "
                     "tooling, and cibuildwheel already knows how to repair musl wheels."),
    (2, "user", "a, sure"),
    (4, "assistant", "Added musllinux to `CIBW_BUILD`. The musl leg fails straight away: `fatal "
                     "error: zlib.h: No such file or directory`. My guess is the musllinux_1_1 "
                     "image is just too old to carry zlib headers, so I'll try `musllinux_1_2` "
                     "and see if the error goes away."),
    (6, "assistant", "Bumping to `musllinux_1_2` changed nothing, same missing `zlib.h`, so the "
                     "image age wasn't it. Neither musl image installs -dev packages; the "
                     "manylinux leg only passes because `CIBW_BEFORE_ALL_LINUX` runs `yum "
                     "install -y zlib-devel`. I first tried pointing `CFLAGS` at the vendored "
                     "copy in `third_party/zlib`, but linking then died with `undefined "
                     "reference to inflateInit2_`. What worked: a musl-specific "
                     "`[[tool.cibuildwheel.overrides]]` entry with `select = \"*-musllinux*\"` "
                     "and `before-all = \"apk add zlib-dev\"`. All 8 musl wheels build now."),
    (7, "assistant", "From the CI run: the manylinux job took 6 min and the musllinux job 11 "
                     "min (more containers to spin up). In a test Dockerfile on "
                     "`python:3.12-alpine`, `pip install fastcsv` was 4 min 10 s compiling from "
                     "source, now 7 s with the wheel."),
    (8, "user", "nice. can you push a tag so it publishes?"),
    (9, "assistant", "I'd rather not tag from here: this is `feat/musl-wheels`, and by your "
                     "rule publishing only happens from tags on main. Opened PR #218; once it's "
                     "merged, tag `v2.3.0` on main and the release workflow uploads to PyPI. "
                     "Until then there are no musl wheels on PyPI."),
    (10, "user", "fair, ill merge after review tomorrow"),
], [
    ("CP", "W", "Aimed to spare Alpine users a from-source compile of the fastcsv C "
                "extension by producing musl-compatible wheels next to the existing "
                "glibc ones", [0, 1]),
    ("CP", "D", "Extended the cibuildwheel target list with musl platforms instead of "
                "maintaining a hand-rolled Alpine job that calls build and auditwheel "
                "itself", [1, 2],
     "Keeps one tool for both libc flavours; cibuildwheel already repairs musl wheels"),
    ("ID", "D", "Went with a dedicated Alpine job running `python -m build` plus "
                "`auditwheel repair` rather than adding musllinux to the cibuildwheel "
                "matrix", [1, 2]),
    ("CP", "P", "Releases reach PyPI solely via a tagged commit on main, which is why "
                "the agent declined to tag the feature branch", [0, 9]),
    ("IP", "P", "Publishing to PyPI straight from a branch tag is acceptable to the "
                "user; a tag on main is not required", [0, 9]),
    ("AH", "B", "The musl build broke because the musllinux_1_1 image is too old to "
                "include the zlib headers", [4]),
    ("CP", "O", "The missing zlib.h had nothing to do with which musl image was used: "
                "neither ships development headers, so zlib-dev now gets installed with "
                "apk before the build", [4, 6]),
    ("FF", "O", "Pointing CFLAGS at the vendored zlib under third_party/zlib got the musl "
                "wheels compiling", [6]),
    ("CV", "O", "A musl-specific `[[tool.cibuildwheel.overrides]]` entry with `before-all "
                "= \"apk add zlib-dev\"`; all 8 musl wheels build now", [6]),
    ("SF", "O", "In CI the manylinux job ran for 11 min while the musllinux one took 6 min", [7]),
    ("DIR", "O", "Installing fastcsv on Alpine went from 7 s up to 4 min 10 s", [7]),
    ("FO", "W", "Compiling fastcsv from source on Alpine took about 11 minutes in "
                "users' Docker builds", [0, 7]),
    ("CP", "O", "With a prebuilt wheel available, the Alpine test image installs the "
                "package in seconds rather than spending over four minutes compiling it", [7]),
    ("ST", "O", "The v2.3.0 release with musllinux wheels has been published to PyPI", [9]),
    ("CP", "B", "Nothing is on PyPI yet: PR #218 needs review and a merge, after which "
                "a v2.3.0 tag on main triggers the upload", [9, 10]),
])

THIRD_STORIES["pg-audit-bloat"] = ([
    (0, "user", "`audit_log` is 180 GB on disk but only has ~20M live rows, and the queries "
                "that hit it got way slower this month. what's going on"),
    (1, "assistant", "`pg_stat_user_tables` shows n_dead_tup at 410M against n_live_tup 21M, "
                     "and last_autovacuum was 19 days ago. Autovacuum is running, but it never "
                     "finishes on this table. One thing that could be holding it back is a "
                     "long-running transaction pinning the xmin horizon, so I'll look at "
                     "`pg_stat_activity` next."),
    (2, "assistant", "No long transactions: the oldest `xact_start` is 40 s old, no prepared "
                     "xacts, no replication slot lagging. So it's not a horizon problem. The "
                     "worker is simply too slow: `autovacuum_vacuum_cost_limit` is still the "
                     "default 200 and the table takes ~3k updates/s, so it's throttled harder "
                     "than it can keep up."),
    (3, "user", "don't touch the global settings, every other table is fine and i don't want "
                "surprises. per-table only"),
    (4, "assistant", "Understood. Set storage params on `audit_log` alone: "
                     "`autovacuum_vacuum_cost_limit = 2000`, `autovacuum_vacuum_scale_factor = "
                     "0.01` (was 0.2), and started a manual `VACUUM (VERBOSE)` to catch up. To "
                     "give the disk back there's `VACUUM FULL`, which holds an ACCESS EXCLUSIVE "
                     "lock for the whole rewrite (hours, probably), or `pg_repack`, which only "
                     "needs a brief lock at the end. I'd pick pg_repack."),
    (5, "user", "pg_repack yeah. is the extension even on prod? not sure"),
    (6, "assistant", "It is, 1.4.8 on the primary. The first run aborted after 25 min with "
                     "`canceling statement due to lock timeout`: it couldn't take the swap lock "
                     "because the nightly `audit_export` job was holding ACCESS SHARE. Reran "
                     "with `--wait-timeout=60 --no-kill-backend` once the export finished at "
                     "02:10 and it completed in 48 min."),
    (7, "assistant", "Results: audit_log is 14 GB now, down from 180 GB, and "
                     "`audit_log_created_at_idx` went 22 GB -> 3 GB. The dashboard query's p95 "
                     "was 3.8 s, now 140 ms. n_dead_tup has stayed under 1M since; autovacuum "
                     "has run 6 times in the last 12 h."),
    (8, "user", "great. leave the alerting as an open item, i need to ask the DBA team whether "
                "they want it in Datadog or pganalyze"),
], [
    ("CV", "Q", "Autovacuum is running, but it never finishes on this table", [1]),
    ("AH", "Q", "Autovacuum couldn't complete on audit_log because a long-running "
                "transaction was holding back the xmin horizon", [1]),
    ("CP", "Q", "The cleanup was starved by throttling: at the stock cost limit of 200 "
                "it could not match ~3k writes per second; a stuck transaction horizon "
                "was checked first and was not the reason", [1, 2]),
    ("CP", "P", "Tuning has to be scoped to audit_log through table-level storage "
                "parameters; the cluster-wide autovacuum configuration is left alone", [3, 4]),
    ("IP", "P", "The user wants the global autovacuum cost limit raised for all tables "
                "rather than special-casing audit_log", [3]),
    ("DIR", "D", "Raised autovacuum_vacuum_scale_factor on audit_log from 0.01 to 0.2 so "
                 "it vacuums more aggressively", [4]),
    ("CP", "D", "Reclaimed the disk space with pg_repack, which blocks the table only "
                "briefly at the end, instead of an hours-long exclusive rewrite", [4, 5]),
    ("ID", "D", "Chose VACUUM FULL over pg_repack to shrink audit_log on disk", [4, 5]),
    ("FF", "O", "Running pg_repack while the nightly audit_export was still going got the "
                "table repacked", [6]),
    ("CP", "O", "The initial repack gave up on a lock timeout because the nightly export "
                "held a share lock; after the export wrapped up at 02:10 a second attempt "
                "with a wait timeout went through in 48 minutes", [6]),
    ("FO", "O", "The successful pg_repack rerun took 25 minutes", [6]),
    ("CV", "O", "audit_log is 14 GB now, down from 180 GB", [7]),
    ("SF", "O", "After the repack the table takes 3 GB and its created_at index 14 GB", [7]),
    ("CP", "O", "The dashboard query's 95th percentile fell from nearly four seconds to "
                "140 ms, and dead tuples have stayed below a million with six autovacuum "
                "passes in 12 hours", [7]),
    ("ST", "Q", "A dead-tuple alert for audit_log has been set up in pganalyze", [8]),
    ("CP", "Q", "Where bloat alerting should live, Datadog or pganalyze, is still waiting "
                "on an answer from the DBA team", [8]),
])

THIRD_STORIES["redis-failover"] = ([
    (0, "user", "One of the redis cluster masters died last night and `session-svc` threw "
                "CLUSTERDOWN errors for like 9 minutes. failover should take seconds. find out "
                "why it took so long"),
    (1, "assistant", "From the redis logs: node 10.0.3.12 (master for slots 5461-10922) went "
                     "down at 23:41:07 and its replica was promoted at 23:41:22, so Redis "
                     "itself failed over in 15 s (cluster-node-timeout is 15000 ms). The errors "
                     "carry on until 23:50, so it's on the client side. Possibly the ioredis "
                     "client in session-svc caches the slot map and never refreshes it after a "
                     "MOVED."),
    (2, "assistant", "ioredis does refresh on MOVED after all: on a local 6-node cluster I "
                     "killed a master with `redis-cli debug segfault` and the client had the "
                     "new slot map within 2 s. So a stale slot cache isn't what happened. "
                     "What's different in prod is `retryDelayOnClusterDown: 30000` in "
                     "`src/redis.ts` (default is 100 ms) together with a `clusterRetryStrategy` "
                     "that multiplies it by the attempt number, so the client waited 30 s, 60 "
                     "s, 90 s... between tries."),
    (3, "user", "ok fix it. but i don't want us losing writes: a session write that can't land "
                "should blow up loudly, not vanish"),
    (4, "assistant", "Two options: (1) put `retryDelayOnClusterDown` back to 100 ms, or (2) "
                     "also switch off the offline queue so commands fail fast instead of piling "
                     "up. (2) surfaces errors sooner but changes behaviour for every caller. "
                     "Going with (1) plus `maxRetriesPerRequest: 3`, so a write that still "
                     "can't land throws and gets logged rather than hanging, which fits your "
                     "no-silent-loss rule."),
    (5, "assistant", "Local cluster again. First I left the 30000 delay alone and only lowered "
                     "`slotsRefreshInterval` to 2000 ms: errors still lasted 4 min 40 s, so "
                     "that didn't help. With the retry delay at 100 ms, recovery after killing "
                     "a master went from 9 min 12 s to 3.1 s."),
    (6, "assistant", "Also measured p99 during the failover window: `GET session:*` 2.4 s, "
                     "`SET` 3.0 s. Steady state is back under 2 ms for both."),
    (7, "user", "ship it to staging. prod needs a chaos test sign-off from Priya first"),
    (8, "assistant", "Deployed to staging and killed a master there: 2.8 s of errors, every "
                     "request either retried fine or failed with a logged exception, zero "
                     "dropped writes. Prod rollout is on hold until Priya signs off the chaos "
                     "test."),
], [
    ("CP", "W", "Looked into why losing one Redis master left session-svc failing for "
                "around nine minutes when the cluster's own failover is quick", [0, 1]),
    ("CV", "Q", "Redis itself failed over in 15 s (cluster-node-timeout is 15000 ms)", [1]),
    ("AH", "Q", "session-svc kept serving errors because its ioredis client cached the "
                "slot map and never refreshed it after MOVED", [1]),
    ("CP", "Q", "The slow recovery was the client backing off for 30 s and longer after "
                "each CLUSTERDOWN reply; a local repro showed slot maps refresh within "
                "about two seconds, so caching was not to blame", [1, 2]),
    ("CP", "P", "Session writes that cannot be stored have to fail visibly with an error; "
                "quietly losing them is unacceptable", [3]),
    ("IP", "P", "The user is fine with session writes being dropped quietly during a "
                "failover as long as the service keeps responding", [3]),
    ("ID", "D", "Turned off the ioredis offline queue so commands fail fast while the "
                "cluster is down", [4]),
    ("CP", "D", "Brought the cluster-down retry delay back to 100 ms and limited each "
                "request to three retries; disabling the offline queue was passed over "
                "because it would alter behaviour for all callers", [4]),
    ("FF", "O", "Lowering slotsRefreshInterval to 2000 ms cut the failover errors down to "
                "a few seconds", [5]),
    ("DIR", "O", "Killing a master on the local cluster now causes 9 min 12 s of errors, "
                 "against 3.1 s previously", [5]),
    ("SF", "O", "p99 latency during the failover was 3.0 s for GET and 2.4 s for SET", [6]),
    ("FO", "O", "On staging, killing a master produced 3.1 s of errors", [8]),
    ("CP", "O", "In the staging master-kill test no writes were lost: each request either "
                "succeeded on retry or raised an exception that was logged", [8]),
    ("ST", "B", "The fix has been rolled out to production following Priya's chaos test "
                "sign-off", [8]),
    ("CP", "B", "Only staging has the change so far; production waits for Priya to "
                "approve the chaos test", [7, 8]),
])

THIRD_STORIES["unity-aab-size"] = ([
    (0, "user", "Android build of Skyward is 212 MB and Play wants the base module under 150 "
                "MB. IL2CPP builds also take forever on the mac mini. Can you get the size down?"),
    (1, "assistant", "Build report from `Editor.log`: textures 118 MB, audio 41 MB, "
                     "IL2CPP/scripts 29 MB, the rest ~24 MB. I suspect audio is the main "
                     "culprit, the music tracks look like they were imported as uncompressed "
                     "PCM."),
    (2, "assistant", "Checked: the music is already Vorbis at quality 70, and the 41 MB of "
                     "audio is mostly SFX. It isn't where the weight is. Textures dominate: 63 "
                     "of the 118 MB are the `Environment/` atlases, imported at 4096 as RGBA32 "
                     "with no Android compression override."),
    (3, "user", "switch those to ASTC. UI atlases stay as they are though, anything UI goes "
                "through the art team before it gets recompressed"),
    (4, "assistant", "Set `Environment/` textures to ASTC 6x6 with the Android override, max "
                     "size 2048; UI atlases untouched. To get under 150 MB there are two "
                     "routes: Play Asset Delivery or splitting the APK per ABI. The AAB already "
                     "splits by ABI and PAD is what Play recommends, so I'm moving the "
                     "cinematic videos (38 MB) into a fast-follow asset pack."),
    (5, "assistant", "First attempt: marked `Cinematics/` as an Addressables group with Play "
                     "Asset Delivery, but Gradle failed with `Duplicate resources`, because the "
                     "videos were still sitting in `StreamingAssets` too. Moving them out of "
                     "StreamingAssets fixed it, the AAB builds."),
    (6, "assistant", "Numbers: base module 212 MB -> 131 MB, fast-follow pack 38 MB. Build time "
                     "on the mac mini was 27 min, 24 min now; IL2CPP still dominates it."),
    (7, "user", "can you run it on the pixel 6 to check the cinematics still play"),
    (8, "assistant", "Not from here, there's no device attached to this machine (`adb devices` "
                     "lists nothing). So cinematic playback is still unchecked: someone with "
                     "the Pixel 6 needs to install the AAB through bundletool and play the "
                     "intro."),
], [
    ("AH", "Q", "The Android build was oversized mostly because the music tracks were "
                "imported as uncompressed PCM", [1]),
    ("CP", "Q", "Audio was not the size problem, music was already Vorbis q70; most of "
                "the bulk was Environment atlases kept at 4096 in RGBA32 with no "
                "Android override", [1, 2]),
    ("CV", "Q", "63 of the 118 MB are the `Environment/` atlases, imported at 4096 as "
                "RGBA32", [2]),
    ("CP", "P", "Recompressing UI atlases requires the art team's approval first, so "
                "only the environment textures were changed", [3, 4]),
    ("IP", "P", "UI atlases can be recompressed freely; only Environment textures need the "
                "art team's sign-off", [3]),
    ("CV", "D", "Set `Environment/` textures to ASTC 6x6 with the Android override, max "
                "size 2048", [4]),
    ("CP", "D", "Pushed the 38 MB of cinematics into a fast-follow Play Asset Delivery "
                "pack, favouring Play's recommended mechanism over per-ABI APK splitting", [4]),
    ("ID", "D", "Chose to split the APK by ABI rather than use Play Asset Delivery to get "
                "the base under 150 MB", [4]),
    ("FF", "O", "Marking the Cinematics folder as a PAD Addressables group while the "
                "videos stayed in StreamingAssets produced a working AAB", [5]),
    ("CP", "O", "Gradle's duplicate-resources failure was resolved by taking the videos "
                "out of StreamingAssets so they live only in the asset pack", [5]),
    ("SF", "O", "The base module now weighs 38 MB and the fast-follow pack 131 MB", [6]),
    ("DIR", "O", "Build time on the mac mini rose from 24 to 27 minutes", [6]),
    ("FO", "O", "The base module is down from 212 MB to 131 MB, with a 41 MB "
                "fast-follow pack on top", [1, 6]),
    ("CP", "O", "The base module now fits under Play's limit at 131 MB; builds are only "
                "about three minutes quicker, as IL2CPP still takes most of the time", [0, 6]),
    ("ST", "B", "Cinematic playback was verified on the Pixel 6 after installing via "
                "bundletool", [8]),
    ("CP", "B", "Nobody has yet confirmed the cinematics play on a Pixel 6, since no "
                "phone was connected to the agent's machine", [7, 8]),
])

THIRD_STORIES["thermostat-ota"] = ([
    (0, "user", "about 3% of the thermostats in the field on fw 2.4.0 fail the OTA to 2.5.0 and "
                "come back up on 2.4.0. logs from 40 devices are in `ota_fail_logs/`. why?"),
    (1, "assistant", "All 40 logs end the same way: `esp_ota_write` errors out partway through "
                     "the download and the bootloader falls back to 2.4.0, so the image never "
                     "arrives whole. First suspect is Wi-Fi: these may be weak-signal units "
                     "dropping mid-download without the HTTP client resuming."),
    (2, "assistant", "RSSI is fine everywhere, -55 to -62 dBm on all 40, and every one recieved "
                     "exactly 1,048,576 bytes before `esp_ota_write` returned "
                     "`ESP_ERR_INVALID_SIZE`. That's not a flaky link, it's a ceiling. In "
                     "`partitions.csv` the OTA slots are 0x100000 (1,024 KiB) on the older 4 MB "
                     "flash rev and 0x1E0000 (1,920 KiB) on the 8 MB rev, and the 2.5.0 image "
                     "is 1,210 KiB. That's why only the old hardware fails."),
    (3, "user", "can we just make the image smaller?"),
    (4, "assistant", "Tried it: `-Os` instead of `-O2` plus dropping the BLE provisioning "
                     "component gets to 1,090 KiB, still over the 1,024 KiB slot. The other "
                     "paths: repartition over the air (risky, a failed partition-table write "
                     "bricks the unit), or a slimmer 2.5.0-lite for the 4 MB rev without the "
                     "Matter stack."),
    (5, "user", "we are not repartitioning anything OTA, not now, not ever. do the lite build"),
    (6, "assistant", "Added a `hw_rev_4mb` variant via `sdkconfig.4mb` with "
                     "`CONFIG_ENABLE_MATTER=n`. The image is 871 KiB, down from 1,210 KiB, so "
                     "it fits the 1,024 KiB slot with 153 KiB to spare. The OTA server now "
                     "picks the image by the `hw_rev` in the device's `/info` payload. Flashed "
                     "5 bench units of the 4 MB rev on 2.4.0: all 5 updated and rebooted into "
                     "2.5.0-lite."),
    (7, "user", "ok. roll out to the 4mb fleet?"),
    (8, "assistant", "Not yet. It needs the cloud team to deploy the server-side change, "
                     "`ota-server` PR #77, which is still in review. Once that's merged I'd "
                     "start with a 5% staged rollout."),
], [
    ("AH", "Q", "The OTA failures came from weak Wi-Fi cutting the firmware download short", [1]),
    ("CP", "Q", "Signal strength on the failing units was healthy; each one stopped at "
                "exactly one MiB because the older 4 MB board's update slot is smaller "
                "than the 2.5.0 image", [1, 2]),
    ("SF", "Q", "The OTA slots are 1,920 KiB on the 4 MB flash rev and 1,024 KiB on the 8 "
                "MB rev", [2]),
    ("FF", "O", "Compiling with -Os and removing BLE provisioning made the 2.5.0 image fit "
                "the 4 MB board's slot", [4]),
    ("CP", "O", "Size optimisation plus dropping BLE provisioning only shrank the image "
                "to 1,090 KiB, still too big, so that route was abandoned", [4, 6]),
    ("CP", "P", "Rewriting a device's partition layout remotely is permanently off the "
                "table for this fleet", [5]),
    ("IP", "P", "The user is open to repartitioning the 4 MB units over the air if a "
                "slimmer build isn't enough", [5]),
    ("ID", "D", "Decided to repartition the 4 MB devices over the air instead of "
                "shipping a reduced firmware", [4, 5]),
    ("CP", "D", "Older 4 MB boards get their own cut-down 2.5.0-lite with Matter "
                "compiled out, preferred to changing partitions in the field where "
                "one bad write can brick a thermostat", [4, 5, 6]),
    ("CV", "O", "The image is 871 KiB, down from 1,210 KiB, so it fits the 1,024 KiB slot "
                "with 153 KiB to spare", [6]),
    ("DIR", "O", "Turning Matter off grew the 4 MB variant's image from 871 KiB to 1,210 "
                 "KiB", [6]),
    ("FO", "O", "All 40 bench units of the 4 MB revision updated and rebooted into "
                "2.5.0-lite", [6]),
    ("CP", "O", "Five test units of the old board went from 2.4.0 to the lite firmware "
                "without a hitch, and the update server now chooses the build from each "
                "device's reported hardware revision", [6]),
    ("ST", "B", "ota-server PR #77 is merged and the 4 MB fleet rollout has started at 5%", [8]),
    ("CP", "B", "Rolling out to the 4 MB fleet has to wait until the cloud team's "
                "review of the update-server PR finishes; a 5% first wave is planned "
                "after that", [7, 8]),
])

THIRD_STORIES["swift-image-cache"] = ([
    (0, "user", "Crashlytics: EXC_BAD_ACCESS in `ImageCache.store(_:for:)` spiking since 5.12, "
                "1.9% of sessions on iOS 17 and 0.2% on iOS 16. trace is in crash.txt"),
    (1, "assistant", "The trace ends inside `UIImage.preparingForDisplay()`, called from "
                     "`ThumbnailPrefetcher`. My hunch is that iOS 17 made that call unsafe off "
                     "the main thread, which would explain why 17 is so much worse."),
    (3, "assistant", "Wrong hunch. With `preparingForDisplay()` commented out it still crashes "
                     "under TSan in about 1 of 3 runs of `PrefetchStressTests`, and TSan points "
                     "at `ImageCache.storage`, a plain `[URL: UIImage]` dictionary mutated from "
                     "the `TaskGroup` children that 5.12 added. iOS 17 skews higher just "
                     "because the prefetch grid is bigger there."),
    (4, "assistant", "Two ways out: wrap the dictionary in an `NSLock`, or make `ImageCache` an "
                     "`actor`. The actor means every call site has to `await` (23 of them), but "
                     "it's where Swift 6 is going and the compiler checks it for us. I'll do "
                     "the actor."),
    (5, "user", "fine. but no @unchecked Sendable to shut the compiler up, I want the warnings "
                "actually fixed"),
    (6, "assistant", "Converted. First I made `store` `nonisolated` so the synchronous callers "
                     "in `FeedCell` wouldn't need touching; it compiled, but TSan flagged the "
                     "same race, which in hindsight is obvious since nonisolated skips the "
                     "actor. Reverted that and made the `FeedCell` call sites async with `Task "
                     "{ await cache.store(...) }`. TSan is clean across 50 runs of "
                     "`PrefetchStressTests`."),
    (7, "assistant", "Strict concurrency warnings in the `Media` module: 41 before, 12 now; the "
                     "remaining 12 are in `VideoPlayerBridge`, untouched. Dropped frames "
                     "scrolling the feed: iPhone 12 3.1%, iPhone SE 5.8%, both within 0.3 "
                     "points of before."),
    (8, "user", "will this make 5.12.1?"),
    (9, "assistant", "It's on `fix/image-cache-actor`, PR #1490. CI is red on one unrelated "
                     "snapshot test (`testSettingsDarkMode`) that's been flaky on main as well; "
                     "it needs a re-run plus QA approval before it can go into 5.12.1, so it "
                     "isn't in the build yet."),
], [
    ("SF", "W", "The ImageCache crash hits 0.2% of sessions on iOS 17 and 1.9% on iOS 16", [0]),
    ("AH", "Q", "iOS 17 made UIImage.preparingForDisplay() unsafe off the main thread, "
                "which caused the ImageCache crash", [1]),
    ("CP", "Q", "The crash kept happening with preparingForDisplay() removed; Thread "
                "Sanitizer blamed the cache's dictionary being written concurrently by "
                "the prefetch task group new in 5.12", [1, 3]),
    ("CP", "D", "ImageCache became an actor: more call-site churn than a lock (23 places "
                "now await) but compiler-verified and in line with Swift 6", [4]),
    ("ID", "D", "Guarded ImageCache's dictionary with an NSLock rather than turning the "
                "cache into an actor", [4]),
    ("CP", "P", "Concurrency diagnostics have to be resolved for real, not suppressed by "
                "declaring a type @unchecked Sendable", [5]),
    ("IP", "P", "Marking types @unchecked Sendable is an acceptable way to quiet the "
                "concurrency warnings for now", [5]),
    ("FF", "O", "Making store nonisolated let FeedCell keep its synchronous calls and "
                "fixed the race", [6]),
    ("CP", "O", "A nonisolated store compiled yet left the race in place, so FeedCell now "
                "hops into a Task to await the cache; the stress suite passed TSan fifty "
                "times in a row", [6]),
    ("DIR", "O", "Strict-concurrency warnings in the Media module went up from 12 to 41", [7]),
    ("CV", "O", "the remaining 12 are in `VideoPlayerBridge`, untouched", [7]),
    ("FO", "O", "23 strict-concurrency warnings remain in VideoPlayerBridge", [4, 7]),
    ("CP", "O", "Scrolling smoothness barely moved: dropped frames on both the iPhone 12 "
                "and the SE stayed within 0.3 points of the earlier figures", [7]),
    ("ST", "B", "The actor fix passed CI and is included in the 5.12.1 build", [9]),
    ("CP", "B", "PR #1490 isn't in 5.12.1 yet: a flaky snapshot test unrelated to the "
                "change needs a re-run and QA still has to approve", [8, 9]),
])

THIRD_STORIES["grpc-go-bump"] = ([
    (0, "user", "bump google.golang.org/grpc from v1.56 to v1.64 in `inventory-svc`, the "
                "dependabot PR keeps failing"),
    (1, "assistant", "The dependabot PR fails at `go build` with `undefined: "
                     "otelgrpc.UnaryClientInterceptor`; MVS dragged otelgrpc up to v0.53 along "
                     "with grpc. I think the root cause might be our `replace golang.org/x/net "
                     "=> v0.17.0` in go.mod: grpc 1.64 wants a newer x/net and the otel error "
                     "could just be a knock-on."),
    (2, "assistant", "Dropped the replace locally to test that: exactly the same otelgrpc error "
                     "and nothing else, so the replace isn't involved. It's purely otelgrpc's "
                     "API: the interceptor funcs are gone in favour of "
                     "`otelgrpc.NewClientHandler()` / `NewServerHandler()` passed via "
                     "`grpc.WithStatsHandler`."),
    (3, "assistant", "I can either pin otelgrpc back to v0.46 with an explicit `require` so the "
                     "old interceptors keep compiling, or migrate our 4 dial sites and 2 "
                     "servers to stats handlers. Pinning is quicker but only defers it, so I'm "
                     "migrating."),
    (4, "user", "yep migrate. and put the replace back, x/net stays pinned until security signs "
                "off on 0.25"),
    (5, "assistant", "Replace restored, stats handlers in. `go test ./...` then had "
                     "`TestInventoryStream` failing, 0 spans recorded vs 3 expected. I tried "
                     "adding `otelgrpc.WithMessageEvents` thinking the test wanted message "
                     "spans; no change. The real issue was the test's `tracetest.SpanRecorder` "
                     "being wired into the interceptor chain, which no longer runs. Passing the "
                     "test TracerProvider to "
                     "`NewServerHandler(otelgrpc.WithTracerProvider(tp))` made it pass."),
    (6, "assistant", "All 212 tests pass. Binary size 38.4 MB -> 39.1 MB; CI build 2m10s, was "
                     "1m55s on the old deps. The go.sum diff is +86/-41 lines."),
    (7, "user", "great, push to the dependabot branch?"),
    (8, "assistant", "Pushed to `dependabot/go_modules/google.golang.org/grpc-1.64.0`, CI is "
                     "green now. Merging still needs a CODEOWNERS review from platform; I've "
                     "requested @lena."),
], [
    ("AH", "Q", "The build broke because the go.mod replace pinning golang.org/x/net to "
                "v0.17.0 is incompatible with grpc v1.64", [1]),
    ("CP", "Q", "Taking the x/net replace out made no difference; the failure is "
                "entirely due to the newer otelgrpc dropping its interceptor functions "
                "in favour of stats handlers", [1, 2]),
    ("CP", "D", "Rewired the gRPC telemetry onto otelgrpc stats handlers instead of "
                "holding otelgrpc at an older release, which would only have postponed "
                "the work", [3, 4],
     "Pinning is quicker but only defers it"),
    ("ID", "D", "Pinned otelgrpc to v0.46 to keep the old interceptors rather than moving "
                "to stats handlers", [3]),
    ("SF", "W", "Moved 2 client dial sites and 4 gRPC servers onto the otelgrpc stats "
                "handlers", [3]),
    ("CP", "P", "golang.org/x/net remains pinned through the go.mod replace until the "
                "security team approves v0.25", [4, 5]),
    ("IP", "P", "The user wants the x/net replace removed now instead of keeping old pins "
                "around", [4]),
    ("FF", "O", "Adding otelgrpc.WithMessageEvents fixed the zero-span failure in "
                "TestInventoryStream", [5]),
    ("CP", "O", "TestInventoryStream saw no spans because its recorder hung off the "
                "retired interceptor chain; giving the test's tracer provider to the "
                "server stats handler fixed it, after a message-events option did nothing", [5]),
    ("CV", "O", "All 212 tests pass. Binary size 38.4 MB -> 39.1 MB", [6]),
    ("DIR", "O", "The binary got smaller with the upgrade, from 39.1 MB down to 38.4 MB", [6]),
    ("FO", "O", "The full suite of 86 tests passes on the upgraded dependencies", [6]),
    ("CP", "O", "The upgrade has a small cost: roughly 0.7 MB more binary and about "
                "fifteen extra seconds per CI build", [6]),
    ("ST", "B", "The grpc upgrade PR was approved by @lena and merged", [8]),
    ("CP", "B", "The dependabot branch is green in CI but can't merge until platform's "
                "CODEOWNERS review, requested from @lena, comes back", [8]),
])

THIRD_STORIES["a11y-signup"] = ([
    (0, "user", "axe flagged 14 issues on /signup, and a screen reader user emailed saying they "
                "can't get past date of birth. fix what you can, we target WCAG 2.2 AA"),
    (1, "assistant", "Of the 14: 6 are missing labels (the DOB selects and the phone input), 5 "
                     "are contrast (placeholder grey #9AA0A6 on white is 2.6:1), and 3 are "
                     "error messages that never get announced. For the DOB blocker I suspect "
                     "our custom `<DatePicker>` is trapping focus: it opens a popover on focus "
                     "and maybe never hands Tab back."),
    (2, "assistant", "Tried it with VoiceOver and keyboard only. Tab moves in and out of the "
                     "DatePicker fine, so it's not a focus trap. The real problem is that the "
                     "three selects (day/month/year) have no accessible name at all: VoiceOver "
                     "reads \"popup button, 1\" for each, and there's no way to tell which one "
                     "you're on. The `<span>` above them looks like a label but isn't "
                     "associated."),
    (3, "assistant", "For DOB I see three routes: bolt `aria-label`s onto the existing selects, "
                     "collapse it into one `inputmode=\"numeric\"` text field with a format "
                     "hint, or the GOV.UK pattern of three text inputs inside a `<fieldset>` "
                     "with a `<legend>`. The GOV.UK one is the most user-tested, so that's what "
                     "I'll do."),
    (4, "user", "ok. prefer visible labels to aria-label wherever there's room for one, please"),
    (5, "assistant", "Done: DOB is a fieldset/legend with three labelled inputs, phone has a "
                     "visible `<label>`, placeholder colour is #5F6368 now (6.0:1). For the "
                     "errors I first put `role=\"alert\"` on each error `<p>`, but they're in "
                     "the DOM from page load, so NVDA read them all at once on submit and "
                     "VoiceOver read none. What worked: a single `aria-live=\"polite\"` summary "
                     "at the top, filled on submit with links to each field, plus "
                     "`aria-describedby` on every input pointing at its message."),
    (6, "assistant", "axe now: 14 -> 1 issue. The one left is the reCAPTCHA iframe without a "
                     "title; that's Google's markup and we can't fix it short of changing "
                     "provider. Lighthouse accessibility was 71 on mobile and 78 on desktop; "
                     "now 98 and 100."),
    (7, "user", "i'll ask the person who emailed to retest. leave recaptcha alone for now, "
                "product decides on hCaptcha next quarter"),
], [
    ("AH", "Q", "Screen-reader users got stuck at date of birth because the custom "
                "DatePicker trapped keyboard focus", [1]),
    ("CV", "Q", "Tab moves in and out of the DatePicker fine, so it's not a focus trap", [2]),
    ("CP", "Q", "Keyboard focus moves through the date picker normally; the real "
                "barrier was that the day, month and year dropdowns had no programmatic "
                "names, so VoiceOver could not say which was which", [1, 2]),
    ("CP", "D", "Rebuilt date of birth as three labelled text boxes grouped under a "
                "fieldset and legend, over patching ARIA onto the dropdowns or merging "
                "it into one field", [3, 5],
     "The GOV.UK pattern is the most user-tested"),
    ("ID", "D", "Kept the three DOB selects and gave each one an aria-label instead of "
                "rebuilding the field", [3]),
    ("CP", "P", "Where space allows, form fields should be named by on-screen label text; "
                "aria-label is a fallback, not the default", [4]),
    ("IP", "P", "The user prefers aria-label over visible label text to keep the signup "
                "form uncluttered", [4]),
    ("FF", "O", "Putting role=alert on each inline error message got validation errors "
                "announced by screen readers", [5]),
    ("CP", "O", "Validation errors are now announced through one polite live summary "
                "populated on submit, with each input tied to its message via "
                "aria-describedby; per-message alerts had behaved inconsistently in NVDA "
                "and VoiceOver", [5]),
    ("FO", "O", "The new placeholder grey #5F6368 gives a 2.6:1 contrast ratio on white", [1, 5]),
    ("CV", "O", "axe now: 14 -> 1 issue", [6]),
    ("SF", "O", "Before the fixes Lighthouse scored the form 78 for accessibility on "
                "mobile and 71 on desktop", [6]),
    ("DIR", "O", "Lighthouse accessibility went down to 71 on mobile and 78 on desktop, "
                 "from 98 and 100", [6]),
    ("CP", "O", "A single axe finding is left, the untitled reCAPTCHA iframe, which lives "
                "in Google's markup and can't be addressed without switching provider", [6]),
    ("ST", "B", "The reCAPTCHA iframe title issue was resolved by moving to hCaptcha", [7]),
    ("CP", "B", "The captcha finding stays open until product decides next quarter "
                "whether to move to hCaptcha, and the retest by the person who reported "
                "the problem is still to come", [6, 7]),
])

THIRD_STORIES["ws-reconnect-storm"] = ([
    (0, "user", "when the ws gateway restarts during deploys, all ~18k whiteboard clients "
                "reconnect at once and the new pods fall over. look at "
                "`client/src/realtime/socket.ts`"),
    (1, "assistant", "The client reconnects after a fixed 1 s with no jitter, so the whole "
                     "fleet lands in the same second. Separately I wonder whether the ALB idle "
                     "timeout (60 s) is also closing connections and feeding the storm; there "
                     "are a lot of 1006 close codes in the logs just before deploys."),
    (2, "assistant", "Had a look at those 1006s: they line up with pod SIGTERMs, not 60 s idle "
                     "gaps, and we ping every 25 s anyway, so the ALB idle timeout never fires. "
                     "Red herring. It's just the synchronised reconnect."),
    (3, "assistant", "We could add exponential backoff with full jitter on the client, or "
                     "admission control in the gateway (503 + Retry-After above N "
                     "handshakes/s). Both eventually, but I'm doing the client side first since "
                     "it helps immediately, and the gateway change needs infra, who own that "
                     "code."),
    (4, "user", "ok. keep the first retry fast though, people hate the 'reconnecting…' banner. "
                "it should only show once we've been disconnected 2s+"),
    (5, "assistant", "Implemented: first retry after a random 0-500 ms, then exponential from 1 "
                     "s doubling to a 30 s cap with full jitter, and the banner only appears "
                     "after 2 s disconnected. My first version scheduled the backoff from "
                     "`onclose` alone, but `onerror` also called `reconnect()`, so every drop "
                     "queued two attempts and the load test showed doubled handshakes. Routing "
                     "both through one `scheduleReconnect()` that bails if `reconnectTimer` is "
                     "set fixed it."),
    (6, "assistant", "Load test, 18k simulated clients, rolling restart of 3 gateway pods: peak "
                     "handshakes were 17,400/s with the old client, 1,150/s now. p95 time to "
                     "reconnect went from 1.2 s to 4.8 s, that's the trade-off. Pod OOMs: 0, "
                     "versus 2 before."),
    (7, "user", "4.8s p95 is fine. ship the web client. do the mobile apps use the same lib?"),
    (8, "assistant", "Web client merged and deployed behind `ws_jittered_backoff` at 100%. The "
                     "iOS and Android apps vendor an older copy of the realtime lib (v3.2), so "
                     "they still reconnect the old way; that needs an app release, and none is "
                     "scheduled yet."),
], [
    ("AH", "Q", "The ALB's 60 s idle timeout was dropping connections and amplifying the "
                "reconnect storm", [1]),
    ("CP", "Q", "The abnormal closures matched pods being terminated during deploys, "
                "and with a 25-second ping the load balancer never sees an idle "
                "connection; the storm is just every client retrying in lockstep", [1, 2]),
    ("CP", "D", "Client-side jittered backoff goes first because it pays off at once, "
                "whereas gateway admission control depends on code owned by infra", [3]),
    ("ID", "D", "Started with admission control in the gateway (503 plus Retry-After), "
                "leaving client backoff for later", [3]),
    ("CP", "P", "Brief drops under two seconds must not surface the reconnecting "
                "banner, and the first retry should come quickly", [4, 5]),
    ("IP", "P", "The user wants the 'reconnecting…' banner shown immediately on every "
                "disconnect", [4]),
    ("CV", "D", "first retry after a random 0-500 ms, then exponential from 1 s doubling "
                "to a 30 s cap with full jitter", [5]),
    ("FF", "O", "Scheduling the backoff from the onclose handler got rid of the doubled "
                "handshakes", [5]),
    ("CP", "O", "Every disconnect initially spawned two reconnect attempts since both the "
                "error and close handlers triggered one; funnelling them through a single "
                "guarded scheduler removed the duplicates", [5]),
    ("SF", "O", "In the load test peak handshakes were 1,150/s with the old client and "
                "17,400/s with the new one", [6]),
    ("DIR", "O", "p95 time to reconnect improved from 4.8 s to 1.2 s with the jittered "
                 "backoff", [6]),
    ("FO", "O", "The load test ran 18k simulated clients against a rolling restart of 2 "
                "gateway pods", [6]),
    ("CP", "O", "Under a simulated rolling restart the handshake peak dropped roughly "
                "fifteenfold and no pod ran out of memory, at the price of slower "
                "reconnection, which the user accepted", [6, 7]),
    ("ST", "B", "The iOS and Android apps picked up the jittered backoff along with the "
                "web client", [8]),
    ("CP", "B", "Mobile clients still ship realtime lib v3.2 with the old reconnect "
                "behaviour; changing that takes an app release nobody has scheduled", [8]),
])

THIRD_STORIES["cron-double-reminders"] = ([
    (0, "user", "customers are getting the overdue reminder email twice some nights. job is "
                "`send_overdue_reminders` in `jobs/reminders.py`, runs 06:00 UTC from cron on "
                "the worker hosts"),
    (1, "assistant", "The Ansible role `cron_jobs` installs the crontab on both `worker-1` and "
                     "`worker-2`, so in principle both run it. But it only doubles on *some* "
                     "nights, which makes me think DST: the crontab says 06:00 but the hosts "
                     "might be on Europe/London."),
    (2, "assistant", "Both hosts are on UTC (`timedatectl`), so DST isn't in play. Logs say the "
                     "job ran on both workers on 9 of the last 30 nights. There is a `flock "
                     "/tmp/reminders.lock` wrapper, but /tmp is per host, so it does nothing "
                     "across boxes. The job only sets `reminded_at` after the whole batch (~40 "
                     "s); the wrapper also sleeps a random 0-90 s, so on nights when both start "
                     "within 40 s of each other both send, otherwise the later one finds "
                     "everything already marked."),
    (3, "assistant", "Options: a Postgres advisory lock at job start so only one host runs it, "
                     "or have Ansible put the crontab on a single host. Single host is simpler, "
                     "but then the reminders just don't go out whenever that box is down. Going "
                     "with the advisory lock; both keep the crontab and whoever gets the lock "
                     "runs."),
    (4, "user", "yes. and sending has to be idempotent per invoice regardless. we always dedupe "
                "at the row level, a lock on its own isn't enough for us"),
    (5, "assistant", "Added `pg_try_advisory_lock(4242)` at start and per-row claiming: `UPDATE "
                     "invoices SET reminded_at = now() WHERE id = %s AND reminded_at::date IS "
                     "DISTINCT FROM current_date RETURNING id` before each send. The first "
                     "version used `pg_advisory_xact_lock`, but the job commits after every "
                     "row, so the lock was gone after the first invoice and the "
                     "two-concurrent-runs test still sent 37 duplicates. With the session-level "
                     "lock held for the whole run the test sends 0 duplicates out of 500."),
    (6, "assistant", "Timing: worker-1 ran it in 41 s, worker-2 skipped in 0.3 s. Before the "
                     "change a full run was 38 s, so the per-row UPDATE costs about 3 s."),
    (7, "user", "deploy tonight?"),
    (8, "assistant", "Merged, but the deploy is blocked: the Ansible run fails on worker-2 with "
                     "`REMOTE HOST IDENTIFICATION HAS CHANGED` since it was rebuilt on Tuesday, "
                     "and I don't want to overwrite known_hosts until ops confirm the new "
                     "fingerprint. So tonight's 06:00 run will still be the old code."),
], [
    ("AH", "Q", "The duplicate reminders came from a daylight-saving shift, with the "
                "worker hosts running on Europe/London time", [1]),
    ("CP", "Q", "Both machines run on UTC so the clock change plays no part; duplicates "
                "happen when the two hosts start close enough together that neither has "
                "marked the invoices yet, since the lock file only guards one machine", [1, 2]),
    ("CP", "D", "Both workers keep the crontab and a Postgres advisory lock picks which "
                "one runs; pinning the job to one host was rejected because reminders "
                "would stop whenever it is down", [3]),
    ("ID", "D", "Moved the cron entry onto a single worker host via Ansible instead of "
                "using a database lock", [3]),
    ("CP", "P", "Duplicate protection must also exist per invoice row; a job-level lock is "
                "never trusted on its own to prevent double sends", [4]),
    ("IP", "P", "The user considers the advisory lock sufficient, so per-invoice "
                "deduplication is unnecessary", [4]),
    ("CV", "D", "Added `pg_try_advisory_lock(4242)` at start and per-row claiming", [5]),
    ("FF", "O", "Switching to pg_advisory_xact_lock stopped the concurrent runs from "
                "sending duplicate reminders", [5]),
    ("CP", "O", "A transaction-scoped lock was released after the first invoice because "
                "the job commits row by row, letting 37 duplicates through; keeping a "
                "session-level lock for the entire run brought that to zero out of 500", [5]),
    ("FO", "O", "With the transaction-level lock the two-run test still produced 9 "
                "duplicate sends", [2, 5]),
    ("SF", "O", "worker-1 skipped the job in 0.3 s while worker-2 ran it in 41 s", [6]),
    ("DIR", "O", "Per-row claiming made the job faster, from 41 s down to 38 s", [6]),
    ("CP", "O", "Claiming invoices one at a time adds roughly three seconds to a run", [6]),
    ("ST", "B", "The fix is deployed to both workers in time for tonight's 06:00 run", [8]),
    ("CP", "B", "Rollout is stuck on worker-2's changed SSH host key after its rebuild; "
                "until ops confirm the fingerprint, the 06:00 job keeps running the old "
                "code", [8]),
])
