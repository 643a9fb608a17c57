"""A fourth batch of support-set stories, written cold (without reading the support check)."""
FOURTH_STORIES: dict[str, tuple[list[tuple[int, str, str]], list[tuple]]] = {}

FOURTH_STORIES["pulumi-bucket-import"] = ([
    (0, "user", "We're moving staging off the hand-clicked console stuff into the Pulumi stack in "
                "`infra/`. Start with the S3 buckets and the two RDS instances. Do NOT touch prod, "
                "it stays manual until Q3, full stop."),
    (1, "assistant", "Plan: bring the existing resources under management with `pulumi import` "
                     "rather than recreating them from scratch. Recreating the RDS instances would "
                     "mean a snapshot/restore and a staging outage. I'll generate code from the "
                     "import and then tidy it into `infra/storage.py` and `infra/db.py`."),
    (3, "assistant", "First import run for `staging-assets` isn't clean: `pulumi preview` wants to "
                     "replace 1 resource, with diffs on `acl` and `forceDestroy`. My guess is the "
                     "AWS provider pinned in `requirements.txt` (6.18) is too old and serialises "
                     "the ACL differently from what the API returns now. Bumping to 6.40 would "
                     "probably sort it."),
    (4, "user", "hmm, a provider bump drags in a lot. try something else first"),
    (5, "assistant", "Didn't need the bump, the provider version had nothing to do with it. The "
                     "generated code sets `acl=\"private\"`, but the live bucket uses "
                     "bucket-owner-enforced ownership controls and has no ACL at all. Adding "
                     "`ignore_changes=[\"acl\"]` to the resource options didn't help: the preview "
                     "still showed a replace because `forceDestroy` differed as well. Removing the "
                     "`acl` argument and setting `force_destroy=False` explicitly to match the "
                     "live bucket did it; `pulumi preview` now shows 0 to replace."),
    (6, "assistant", "Buckets done, all 4 imported. RDS: `staging-orders` imported cleanly, but "
                     "`staging-reports` is blocked. Its parameter group `reports-pg14-custom` "
                     "lives in the shared-VPC account and the import needs "
                     "`rds:DescribeDBParameters` on it, which our deploy role doesn't have."),
    (7, "user", "ok I'll ask Priya for the perm. leave reports out for now"),
    (8, "assistant", "Left `staging-reports` out of the stack. Current state: 5 resources managed "
                     "(4 buckets + `staging-orders`), up from 0 this morning, and the drift check "
                     "(`pulumi refresh --preview-only`) runs in 38 s vs 2 min 10 s for the old "
                     "manual audit script."),
], [
    ("CP", "D", "Existing staging buckets and databases are being adopted into Pulumi as they are, "
                "not rebuilt, since rebuilding the RDS instances would force a snapshot restore "
                "and take staging down", [1]),
    ("CV", "D", "Bring the existing resources under management with `pulumi import` rather than "
                "recreating them from scratch", [1]),
    ("CP", "O", "The planned bucket replacement came from generated code declaring a private ACL "
                "the live bucket (bucket-owner-enforced ownership) doesn't have; the pinned "
                "provider release turned out to be irrelevant", [3, 5]),
    ("CP", "O", "Telling Pulumi to ignore ACL changes wasn't enough to stop the replacement; "
                "dropping the acl argument and pinning force_destroy to False to mirror the real "
                "bucket left nothing to replace", [5]),
    ("CP", "B", "staging-reports can't be imported yet: the deploy role lacks "
                "rds:DescribeDBParameters on a parameter group owned by the shared-VPC account, "
                "and the user is asking Priya for that permission", [6, 7]),
    ("CP", "O", "Pulumi now manages five resources (the four buckets and staging-orders), and "
                "checking for drift takes well under a minute compared with more than two minutes "
                "for the old hand-run audit script", [8]),
    ("CP", "P", "Production is off limits for this work: it remains hand-managed until Q3", [0]),
    ("ID", "D", "Chose to recreate the staging buckets and RDS instances from scratch in Pulumi "
                "instead of importing the live ones", [1]),
    ("IP", "P", "The user wants production brought into the Pulumi stack together with staging",
     [0]),
    ("FF", "O", "Adding ignore_changes=[\"acl\"] to the bucket's resource options fixed the "
                "replacement in the import preview", [5]),
    ("SF", "O", "The drift check now takes 2 min 10 s, against 38 s for the old manual audit "
                "script", [8]),
    ("DIR", "O", "The Pulumi drift check is slower than the manual audit script it replaces", [8]),
    ("AH", "O", "The staging-assets diff was caused by the pinned AWS provider 6.18 serialising "
                "the ACL differently from the current API", [3]),
    ("FO", "O", "The first import preview for staging-assets wanted to replace 4 resources",
     [3, 6]),
    ("ST", "B", "staging-reports was imported once Priya granted the deploy role "
                "rds:DescribeDBParameters", [6, 7, 8]),
])

FOURTH_STORIES["flutter-release-signing"] = ([
    (0, "user", "Play Console rejected the 3.4.0 AAB: \"You uploaded an APK or Android App Bundle "
                "that was signed in debug mode.\" Fix release signing in the Flutter app. And "
                "keystore passwords never go in the repo. Not even in an encrypted file."),
    (1, "assistant", "Looking at `android/app/build.gradle`: `buildTypes.release` still has "
                     "`signingConfig signingConfigs.debug` from the Flutter template. I also "
                     "suspect CI never sees `key.properties` since it's in `.gitignore`, which "
                     "would make Gradle quietly fall back to debug signing."),
    (2, "assistant", "Before I wire it up, where should the key live? (a) keep signing with our "
                     "own app signing key, stored as a CI secret, or (b) enrol in Play App "
                     "Signing: Google holds the app signing key and CI only has a separate upload "
                     "key. I'd go with (b). If an upload key leaks or gets lost Google can reset "
                     "it; if we lose our own app key under (a), that listing can never ship an "
                     "update again."),
    (3, "user", "b. go"),
    (4, "assistant", "Enrolled, and generated a fresh upload key. `signingConfigs.release` now "
                     "reads the store file, alias and both passwords from env vars, and the "
                     "workflow decodes the keystore from the `UPLOAD_KEYSTORE_B64` secret into "
                     "`$RUNNER_TEMP`. Pointed `buildTypes.release` at `signingConfigs.release`... "
                     "and CI still produced a debug-signed bundle. No change at all."),
    (5, "assistant", "Found it. `key.properties` has nothing to do with this: CI doesn't read that "
                     "file anywhere, and the env vars were loaded fine (I echoed the alias in the "
                     "job). The `prod` flavour in `productFlavors` sets its own `signingConfig "
                     "signingConfigs.debug`, and a flavour's signing config takes precedence over "
                     "the build type's. Removed that line; `flutter build appbundle --flavor prod "
                     "--release` now gives a bundle signed with the upload key (`keytool "
                     "-printcert -jarfile` shows CN=Upload)."),
    (6, "assistant", "Sizes look sane: the signed AAB is 21.4 MB and Play's estimated arm64 "
                     "download is 9.8 MB. I also bumped `versionCode` from 340 to 341 so it "
                     "doesn't collide with the draft release you created by hand."),
    (7, "user", "uploaded to internal testing, 25 testers on the list. says 'Pending publication', "
                "i.e. google's review. nothing to do till then"),
    (8, "assistant", "Ok. So 3.4.0+341 is on the internal track waiting on Google's review; the "
                     "production rollout stays on hold until the internal testers sign off."),
], [
    ("CP", "D", "Enrolled in Play App Signing so that Google keeps the app key and CI only holds a "
                "resettable upload key, instead of CI signing with our own app key, whose loss "
                "would be unrecoverable", [2, 3]),
    ("CP", "Q", "The gitignored key.properties theory didn't hold: the pipeline never reads that "
                "file and the signing environment variables were present", [1, 5]),
    ("CP", "O", "Pointing the release build type at the release signing config changed nothing on "
                "its own; the bundle stayed debug-signed until the prod flavour's debug override "
                "was deleted", [4, 5]),
    ("CP", "O", "The debug signature came from the prod product flavour, whose own signing config "
                "beats the one set on the build type", [5]),
    ("CP", "P", "Keystore passwords must stay out of the repository altogether, encrypted or not",
     [0]),
    ("CP", "B", "Build 3.4.0+341 sits on the internal testing track awaiting Google's review, and "
                "going to production waits for the internal testers' approval", [7, 8]),
    ("CV", "O", "`flutter build appbundle --flavor prod --release` now gives a bundle signed with "
                "the upload key", [5]),
    ("ID", "D", "Decided to keep signing releases in CI with our own app signing key rather than "
                "enrol in Play App Signing", [2, 3]),
    ("IP", "P", "Keystore passwords can be committed to the repo as long as the file holding them "
                "is encrypted", [0]),
    ("FF", "O", "Setting signingConfig signingConfigs.release inside buildTypes.release fixed the "
                "debug-signed bundle", [4]),
    ("SF", "O", "The signed AAB is 9.8 MB, with Play estimating a 21.4 MB arm64 download", [6]),
    ("DIR", "O", "versionCode was taken back from 341 to 340 to line up with the hand-made draft "
                 "release", [6]),
    ("AH", "O", "The bundle came out debug-signed because CI never got the gitignored "
                "key.properties, so Gradle silently fell back to debug signing", [1]),
    ("FO", "O", "Play estimates a 25 MB arm64 download for the signed bundle", [6, 7]),
    ("ST", "O", "3.4.0+341 has cleared Google's review and is published on the internal track",
     [7, 8]),
])

FOURTH_STORIES["cobol-interest-port"] = ([
    (0, "user", "Next chunk of the mainframe port: `INTCALC.cbl`, the nightly interest accrual "
                "batch, into the Java `batch-accrual` module. Output has to match the COBOL run "
                "byte for byte on last month's file before we even talk about cutover."),
    (1, "assistant", "Read through `INTCALC.cbl` and the copybook `ACCTREC.cpy`. Amounts are "
                     "`PIC S9(9)V99 COMP-3`, so I'll map them to `BigDecimal` with scale 2 rather "
                     "than `double`, which would drift on the cents. For reading the EBCDIC file "
                     "I'll use JRecord with the copybook instead of hand-writing a packed-decimal "
                     "decoder."),
    (2, "user", "fine. no new deps beyond JRecord tho, the security review for each one takes "
                "weeks"),
    (3, "assistant", "First parallel run on the March file (1,204,331 records): 2,817 records "
                     "differ from the COBOL output, all in the accrued-interest field, all off by "
                     "exactly one cent. I think it's the day count: maybe COBOL is using 365 days "
                     "for leap years as well."),
    (4, "assistant", "Not the day count. Both sides use 366 for 2024 and the Actual/Actual logic "
                     "is identical. It's rounding: `COMPUTE ... ROUNDED` rounds half away from "
                     "zero and I'd used `RoundingMode.HALF_EVEN`. Switching to `HALF_UP` alone "
                     "didn't fix it, mismatches only went from 2,817 to 1,090, because COBOL "
                     "rounds once at the end while the Java code also rounded the daily rate in an "
                     "intermediate step. Removed the intermediate `setScale` and kept full "
                     "precision until the final rounding."),
    (5, "assistant", "Rerun on March: 0 differences across all 1,204,331 records. Runtime is 4 min "
                     "12 s for the Java job vs 19 min for the COBOL step on the mainframe, though "
                     "that's not apples to apples (our box isn't shared with the online region)."),
    (6, "user", "nice. february file too pls"),
    (7, "assistant", "February doesn't even parse: record 88,412 is a trailer filled with "
                     "`LOW-VALUES` and JRecord rejects it. It looks like INTCALC skips it via an "
                     "`88 TRAILER-REC` condition, but I need ops to confirm whether the trailer "
                     "count gets checked anywhere. Marking February as pending."),
    (8, "user", "I'll ask Gordon in ops. leave it for now"),
], [
    ("CP", "D", "Packed-decimal money fields are carried as two-decimal BigDecimal values, not "
                "floating point, so cents don't drift", [1]),
    ("CV", "D", "For reading the EBCDIC file I'll use JRecord with the copybook instead of "
                "hand-writing a packed-decimal decoder", [1]),
    ("CP", "Q", "The one-cent accrual gaps turned out to be a rounding issue rather than a "
                "leap-year day-count difference; both implementations already count 366 days in "
                "2024", [3, 4]),
    ("CP", "O", "Moving to HALF_UP only brought the mismatches down to 1,090; they went away once "
                "the Java code stopped rounding the daily rate midway and rounded a single time at "
                "the end, as COBOL does", [4, 5]),
    ("CP", "O", "The port now reproduces the COBOL output for every March record and runs in "
                "about a fifth of the mainframe step's time, though the machines aren't "
                "comparable", [5]),
    ("CP", "P", "JRecord is the only new library allowed, since each added dependency needs a "
                "security review lasting weeks", [2]),
    ("CP", "B", "February can't be checked yet: a LOW-VALUES trailer at record 88,412 fails to "
                "parse, and ops (Gordon) has to say how the COBOL job treats it", [7, 8]),
    ("CV", "O", "0 differences across all 1,204,331 records", [5]),
    ("ID", "D", "Chose to hand-write a packed-decimal decoder for the EBCDIC input rather than "
                "depend on JRecord", [1, 2]),
    ("IP", "P", "The user is fine with adding more libraries besides JRecord if they speed up the "
                "port", [2]),
    ("FF", "O", "Switching the Java code to RoundingMode.HALF_UP fixed the one-cent differences "
                "in accrued interest", [4]),
    ("SF", "O", "The Java job takes 19 min against 4 min 12 s for the COBOL step on the "
                "mainframe", [5]),
    ("DIR", "O", "After the switch to HALF_UP the mismatches went up from 1,090 to 2,817", [4]),
    ("AH", "Q", "The one-cent differences come from COBOL using 365 days in leap years", [3]),
    ("FO", "O", "The first parallel run on the March file found 88,412 records differing from "
                "the COBOL output", [3, 7]),
    ("ST", "O", "The February file now parses and matches after ops confirmed the trailer "
                "handling", [7, 8]),
])

FOURTH_STORIES["rust-sht4x-hal"] = ([
    (0, "user", "Port our `sht4x` driver crate to embedded-hal 1.0. Keep it `no_std` and please "
                "don't add `alloc`, it runs on the STM32L0 with 20 KB of RAM."),
    (1, "assistant", "embedded-hal 1.0 folded `Write`/`Read`/`WriteRead` into a single `I2c` "
                     "trait. I'll make the driver generic over `I2c` plus `DelayNs` and put an "
                     "`embedded-hal-async` impl behind an `async` feature in the same crate, "
                     "instead of maintaining two crates (`sht4x` and `sht4x-async`) the way the "
                     "old version did. Blocking stays the default."),
    (2, "assistant", "Ported. On the board `measure()` returns `Err(Crc)` on about 1 in 3 reads. "
                     "Could be the bus: we're at 400 kHz with 10 kΩ pull-ups, which is "
                     "borderline. Dropping to 100 kHz to check."),
    (3, "assistant", "Same ~1 in 3 failure rate at 100 kHz, so it isn't signal integrity. Looking "
                     "at the command/read path instead."),
    (4, "assistant", "Got it. The old code used `write_read`; with the new trait I'd replaced it "
                     "with one `transaction`, which issues the read right after the command, but "
                     "the SHT4x needs >= 8.3 ms between them in high-precision mode. Bumping the "
                     "delay constant from 8 ms to 10 ms didn't help, because that path never "
                     "called the delay at all. Split it into `write()`, `delay.delay_ms(9)`, "
                     "`read()`: 0 CRC errors over 10,000 reads now."),
    (5, "user", "good. binary size?"),
    (6, "assistant", "Release build with `opt-level = \"z\"`: flash 14.2 KB vs 11.8 KB before the "
                     "port, RAM unchanged at 1.1 KB. The growth is mostly `core::fmt`, pulled in "
                     "by the `Debug` derive on `Error`. I can gate that behind a `defmt` feature "
                     "if you want it back down."),
    (7, "user", "yes gate it. and dont publish to crates.io yet, wait for the HIL rig to run the "
                "full suite"),
    (8, "assistant", "Gated `Debug` behind `defmt`; flash is back to 12.0 KB. Not published: "
                     "0.4.0 stays unreleased until the HIL rig run. The rig is down right now "
                     "(its Jenkins agent is offline), so that's still pending."),
], [
    ("CP", "D", "One crate now serves both blocking and async use, generic over the I2c and "
                "DelayNs traits with async behind a cargo feature, rather than a separate async "
                "crate as before", [1]),
    ("CP", "Q", "Slowing the bus to 100 kHz left the roughly one-in-three CRC failures "
                "unchanged, so marginal signalling at 400 kHz was ruled out", [2, 3]),
    ("CP", "O", "The CRC failures came from reading the sensor immediately after the command "
                "inside a single transaction, without the 8.3 ms+ wait high-precision mode needs; "
                "a separate write, 9 ms delay and read removed them over 10,000 reads", [4]),
    ("CP", "O", "Lengthening the delay constant to 10 ms did nothing, since the transaction path "
                "never invoked the delay", [4]),
    ("CP", "O", "The port grew flash from 11.8 KB to 14.2 KB, mostly core::fmt from the Error "
                "Debug derive; putting Debug behind the defmt feature cut it back to 12.0 KB",
     [6, 8]),
    ("CP", "P", "The driver has to remain no_std and free of alloc, because the STM32L0 target "
                "has only 20 KB of RAM", [0]),
    ("CV", "B", "0.4.0 stays unreleased until the HIL rig run", [8]),
    ("ID", "D", "Split the driver into two crates, sht4x and sht4x-async, rather than one crate "
                "with an async feature", [1]),
    ("IP", "P", "The user asked for 0.4.0 to go to crates.io right away, ahead of the HIL rig run",
     [7]),
    ("FF", "O", "Bumping the delay constant from 8 ms to 10 ms fixed the CRC errors", [4]),
    ("SF", "O", "After the port the release build uses 1.1 KB of flash and 14.2 KB of RAM", [6]),
    ("DIR", "O", "Porting to embedded-hal 1.0 shrank the flash footprint from 14.2 KB to 11.8 KB",
     [6]),
    ("AH", "O", "The CRC errors were caused by the 400 kHz bus with 10 kΩ pull-ups being too "
                "marginal", [2]),
    ("FO", "O", "With Debug gated behind defmt, flash is back down to 11.8 KB", [6, 8]),
    ("ST", "B", "The HIL rig has run the full suite, so 0.4.0 is cleared to publish", [7, 8]),
])

FOURTH_STORIES["snowflake-cost-review"] = ([
    (0, "user", "Snowflake bill was $41k last month vs ~$28k the month before. Finance wants an "
                "explanation by Friday. Go through ACCOUNT_USAGE and tell me where it went."),
    (1, "assistant", "Pulled `WAREHOUSE_METERING_HISTORY` for both months. Credits went from 9,310 "
                     "to 13,650 overall. `TRANSFORM_WH` is most of the jump: 6,900 credits vs "
                     "3,100 the month before, while `BI_WH` barely moved (2,400 vs 2,250). My "
                     "first guess is the pipeline DAG we moved from daily to hourly on the 2nd."),
    (2, "assistant", "Checked `QUERY_HISTORY`, and the hourly schedule isn't what's driving it: "
                     "query count on `TRANSFORM_WH` only rose 8% and average execution time is "
                     "flat. What changed is the warehouse itself. On the 3rd its `AUTO_SUSPEND` "
                     "went from 60 to 3600, so after each hourly batch it sits running idle for up "
                     "to an hour, i.e. it effectively never suspends."),
    (3, "user", "who would do that. ok fix it. but don't resize any warehouse without asking me "
                "first, the analysts freak out"),
    (4, "assistant", "Ran `ALTER WAREHOUSE TRANSFORM_WH SET AUTO_SUSPEND = 60`. Two hours later "
                     "`SHOW WAREHOUSES` had it at 3600 again: the hourly schemachange job applies "
                     "`warehouses.yml` from the `snowflake-config` repo, and that file says 3600 "
                     "(so that's your culprit). Fixed it in the repo (PR #318, merged); after the "
                     "next apply it stayed at 60."),
    (5, "assistant", "For guard rails I considered a resource monitor that hard-suspends at the "
                     "quota, but that would kill transformation runs mid-batch, so I went with one "
                     "that only notifies at 80% and 100% of a 9,000-credit monthly quota. Creating "
                     "it fails though: resource monitors need ACCOUNTADMIN and I'm on SYSADMIN. "
                     "Granting `MONITOR` on the warehouse to SYSADMIN didn't help (different "
                     "privilege). The DDL is in `cost/resource_monitor.sql` for someone with "
                     "ACCOUNTADMIN to run."),
    (6, "assistant", "Three days on the 60 s auto-suspend: `TRANSFORM_WH` is averaging 96 "
                     "credits/day, down from 225/day in the bad period. Projected month is about "
                     "$30k."),
    (7, "user", "good. write up the summary for finance. I'll get Marco to run the monitor ddl"),
    (8, "assistant", "Drafted `cost/2024-05-review.md`. The resource monitor still isn't in "
                     "place, waiting on Marco since it needs ACCOUNTADMIN."),
], [
    ("CP", "O", "Nearly all of the extra spend is TRANSFORM_WH, whose credits more than doubled "
                "month on month, while the BI warehouse stayed roughly level", [1]),
    ("CP", "Q", "The switch of the pipeline to an hourly schedule was cleared: queries on "
                "TRANSFORM_WH grew only slightly and took no longer to run", [1, 2]),
    ("CP", "O", "The overspend traces to TRANSFORM_WH's idle timeout being raised from a minute "
                "to an hour, which kept it running between the hourly batches", [2]),
    ("CP", "O", "Resetting the timeout by hand didn't last because the scheduled config job "
                "restored 3600 from warehouses.yml; correcting the value in the snowflake-config "
                "repo (PR #318) made it hold at 60", [4]),
    ("CP", "D", "The credit guard rail will only alert, at 80% and 100% of a 9,000-credit monthly "
                "quota, rather than suspend the warehouse and cut off batches in flight", [5]),
    ("CP", "B", "The monitor can't be created from the SYSADMIN role, and granting MONITOR didn't "
                "change that; its DDL waits in cost/resource_monitor.sql for Marco, who has "
                "ACCOUNTADMIN", [5, 7, 8]),
    ("CV", "P", "don't resize any warehouse without asking me first", [3]),
    ("CV", "O", "TRANSFORM_WH is averaging 96 credits/day, down from 225/day in the bad period",
     [6]),
    ("ID", "D", "Set up the resource monitor to hard-suspend TRANSFORM_WH at the 9,000-credit "
                "quota rather than only send notifications", [5]),
    ("IP", "P", "The user is happy for warehouses to be resized without being consulted first",
     [3]),
    ("FF", "O", "Running ALTER WAREHOUSE to set AUTO_SUSPEND back to 60 fixed the idle spend; the "
                "setting has held since", [4]),
    ("SF", "O", "TRANSFORM_WH used 2,400 credits last month while BI_WH used 6,900", [1]),
    ("DIR", "O", "On the 3rd TRANSFORM_WH's AUTO_SUSPEND was lowered from 3600 to 60", [2]),
    ("AH", "O", "The higher bill was caused by moving the pipeline DAG from daily to hourly runs "
                "on the 2nd", [1]),
    ("FO", "O", "With auto-suspend back at 60 s the month is projected to come in around $41k",
     [0, 6]),
    ("ST", "B", "Marco has run the DDL, so the resource monitor's credit alerts are live",
     [7, 8]),
])

FOURTH_STORIES["expo-ota-runtime"] = ([
    (0, "user", "We pushed an EAS Update to `production` yesterday with the checkout copy fix and "
                "like half the iOS users still see the old text. Android seems fine. Figure out "
                "why. And don't bump the native build version for this, store review takes days."),
    (1, "assistant", "Guess: it's just launch behaviour. With `fallbackToCacheTimeout: 0` the "
                     "update downloads in the background and only applies on the next cold start, "
                     "so those users may simply not have relaunched yet."),
    (2, "assistant", "That's not it. Telemetry shows plenty of iOS users with 3+ cold starts "
                     "since the publish who are still on the embedded bundle. The real issue: "
                     "`runtimeVersion` uses the `appVersion` policy, and iOS got a 2.8.1 hotfix "
                     "store build that Android never did. The update was published from the 2.8.0 "
                     "tag, so its runtime is `2.8.0`, and iOS users on 2.8.1 (about 52% of iOS "
                     "actives) are on a runtime no update targets."),
    (3, "assistant", "Options: (a) switch to the `fingerprint` runtime policy, or (b) republish "
                     "the same JS for runtime 2.8.1 from a checkout where `version` is 2.8.1. (a) "
                     "only applies to future binaries, so it needs a new native build, which you "
                     "ruled out. I'd do (b) now and move to `fingerprint` at the next store "
                     "release."),
    (4, "user", "b. and yeah note fingerprint for the next release"),
    (5, "assistant", "Republished, though the first try was wrong: `eas update` picked up my "
                     "local `.env` with `EXPO_PUBLIC_API_URL` pointing at staging, and the test "
                     "device hit staging. Rolled that group back with `eas update:rollback` before "
                     "anyone got it (live 4 min, 0 downloads per insights). Re-ran from a clean "
                     "checkout with only `.env.production`; that publish is correct and targets "
                     "runtime 2.8.1 against the prod API."),
    (6, "assistant", "After 6 hours: the copy fix is on 71% of iOS 2.8.1 devices and 88% of iOS "
                     "2.8.0; Android 2.8.0 is at 93%."),
    (7, "user", "good enough. leave the ticket open till 2.8.1 crosses 90"),
    (8, "assistant", "Checked again this morning: 2.8.1 is at 86%, up from 71%. Ticket MOB-412 "
                     "stays open until it passes 90%."),
], [
    ("CP", "Q", "Users who just hadn't reopened the app were ruled out as the explanation: many "
                "iOS users had relaunched several times and were still on the bundled JS",
     [1, 2]),
    ("CP", "O", "iOS users on the 2.8.1 hotfix, roughly half the iOS base, never got the fix "
                "because it was published from the 2.8.0 tag and the appVersion policy gave it a "
                "2.8.0 runtime", [2]),
    ("CP", "D", "Pushed the same JavaScript again for runtime 2.8.1 instead of adopting the "
                "fingerprint policy, which only helps new binaries; fingerprint is parked for the "
                "next store release", [3, 4]),
    ("CP", "O", "The first republish accidentally took the staging API URL from a local .env; it "
                "was rolled back within minutes with no downloads, and a clean checkout using "
                "only .env.production published correctly", [5]),
    ("CP", "O", "Six hours after the corrected publish, iOS 2.8.1 trailed on adoption (71%) "
                "behind iOS 2.8.0 and Android; by next morning it had climbed to 86%", [6, 8]),
    ("CP", "P", "No new native build for this fix: the user rules out a version bump because "
                "store review takes days", [0]),
    ("CV", "B", "Ticket MOB-412 stays open until it passes 90%", [8]),
    ("ID", "D", "Decided to move runtimeVersion to the fingerprint policy now rather than "
                "republish the update for 2.8.1", [3, 4]),
    ("IP", "P", "The user wants the native build version bumped so the fix ships through the "
                "stores", [0]),
    ("FF", "O", "The first eas update republish for runtime 2.8.1 delivered the copy fix to the "
                "iOS hotfix users", [5]),
    ("SF", "O", "Six hours after republishing, iOS 2.8.1 adoption was 88% and iOS 2.8.0 was 71%",
     [6]),
    ("DIR", "O", "2.8.1 adoption slipped from 86% to 71% overnight", [6, 8]),
    ("AH", "O", "Half the iOS users kept the old text because the update only applies on the next "
                "cold start and they hadn't relaunched", [1]),
    ("FO", "O", "About 93% of iOS actives are on the 2.8.1 hotfix build", [2, 6]),
    ("ST", "B", "MOB-412 was closed once 2.8.1 adoption passed 90%", [7, 8]),
])

FOURTH_STORIES["envoy-edge-uploads"] = ([
    (0, "user", "Moving the `edge-gw` boxes from nginx to Envoy. Start with the `/api/files` "
                "route, it's the one with the big uploads. Keep the nginx config around untouched "
                "until we're done, I want to be able to flip back."),
    (1, "assistant", "Translated `location /api/files` into an Envoy route on `files_cluster`. "
                     "For load balancing I'm using `LEAST_REQUEST` rather than round robin: "
                     "uploads range from a few KB to 2 GB, and nginx had `least_conn` for the same "
                     "reason. Health checks hit `/healthz` every 5 s."),
    (2, "assistant", "Shadow traffic at 10%: uploads over roughly 150 MB come back `504 upstream "
                     "request timeout` through Envoy while nginx handles them fine. Hypothesis: "
                     "Envoy is buffering the whole request body before proxying, so big uploads "
                     "time out before the backend sees a byte."),
    (3, "assistant", "Scratch that, it's not buffering. There's no buffer filter in the chain and "
                     "the backend access log shows bytes arriving from the first second. Every "
                     "failure lands at exactly 15.0 s, which is Envoy's default route `timeout`. I "
                     "tried `idle_timeout: 300s` on the route first; no change, since that only "
                     "covers inactivity and these streams are never idle. `timeout: 0s` "
                     "(disabled) on the route plus `stream_idle_timeout: 60s` on the HCM fixed it: "
                     "the 2 GB test upload completes."),
    (4, "user", "dont disable timeouts entirely. we had a slowloris thing last year. cap it"),
    (5, "assistant", "Fair. Replaced `timeout: 0s` with `timeout: 900s` (the slowest legit "
                     "upload in last month's logs took 6 min 40 s) and kept "
                     "`stream_idle_timeout: 60s`, so a stalled client gets cut after a minute."),
    (6, "assistant", "24 h of 10% shadow: p99 for `/api/files` metadata calls is 212 ms on Envoy "
                     "vs 240 ms on nginx, and 0 of 3,418 uploads failed. Ready to move real "
                     "traffic whenever you say."),
    (7, "user", "go to 25% tomorrow, not today. change freeze till the release is out"),
    (8, "assistant", "Ok, staying on 10% shadow. The 25% cutover is queued for tomorrow once the "
                     "freeze lifts; nothing touched on the nginx side."),
], [
    ("CP", "D", "Files traffic is balanced by fewest outstanding requests, mirroring nginx's "
                "least_conn, not round robin, since upload sizes run from kilobytes up to 2 GB",
     [1]),
    ("CP", "Q", "The theory that Envoy held whole request bodies before forwarding was dropped: "
                "no buffering filter is configured and the backend receives data straight away",
     [2, 3]),
    ("CP", "O", "Big uploads were being cut off by Envoy's 15-second default route timeout; a "
                "300 s idle timeout changed nothing because those streams are never idle", [3]),
    ("CP", "D", "Rather than switching the route timeout off, it is capped at 15 minutes (the "
                "slowest real upload last month took under 7) with a one-minute stream idle "
                "timeout for stalled clients, because of the user's slowloris worry", [4, 5]),
    ("CP", "O", "Over a day of 10% shadow traffic Envoy's p99 on metadata calls beat nginx's by "
                "28 ms, and no upload failed out of 3,418", [6]),
    ("CP", "B", "Going to 25% waits until tomorrow because of the release change freeze; for now "
                "Envoy only sees the 10% shadow", [7, 8]),
    ("CV", "P", "Keep the nginx config around untouched until we're done", [0]),
    ("ID", "D", "Used round-robin load balancing for files_cluster instead of least-request",
     [1]),
    ("IP", "P", "The user is fine with turning timeouts off entirely on the /api/files route",
     [4]),
    ("FF", "O", "Setting idle_timeout: 300s on the /api/files route fixed the 504s on large "
                "uploads", [3]),
    ("SF", "O", "p99 for /api/files metadata calls: 240 ms on Envoy and 212 ms on nginx", [6]),
    ("DIR", "O", "The /api/files route timeout was lowered from 900 s to 15 s", [3, 5]),
    ("AH", "O", "Uploads above ~150 MB failed because Envoy buffered the entire request body "
                "before proxying it", [2]),
    ("FO", "O", "The /api/files route timeout is now capped at 300 s", [3, 5]),
    ("ST", "B", "Real /api/files traffic has been moved to 25% through Envoy", [7, 8]),
])

FOURTH_STORIES["spark-sessionize-skew"] = ([
    (0, "user", "`daily_sessionize` on EMR went from ~40 min to 3h+ this week. Stage 14 sits at "
                "199/200 tasks forever. Can you look? Don't bump the cluster size, we're already "
                "over budget on EMR."),
    (1, "assistant", "Spark UI for stage 14: 199 tasks finish in under 2 min, the last one runs "
                     "2h 50m and shuffles 61 GB against a median of 310 MB. Classic skew on the "
                     "join key. My hunch is the new `partner_id` backfill left a ton of NULLs and "
                     "they all hash to one partition."),
    (2, "assistant", "Checked: NULL `partner_id` is only 0.4% of rows, so that's not it. The hot "
                     "key is `user_id = 'anonymous'`. The web team started sending it for "
                     "logged-out sessions on Monday, and it's ~38% of all events."),
    (3, "assistant", "AQE skew join (`spark.sql.adaptive.skewJoin.enabled=true`) didn't kick in: "
                     "events are the right side of a LEFT OUTER join from `sessions`, and AQE "
                     "won't split that side. Two ways forward: salt the key over N buckets, or "
                     "route `anonymous` rows around the join entirely since they have no user "
                     "profile to join anyway. I'd rather do the second; salting would replicate "
                     "the sessions side N times for no gain."),
    (4, "user", "agreed, the split path. and no UDFs please, keep it in DataFrame ops, the python "
                "UDFs killed us last time"),
    (5, "assistant", "Done in `jobs/sessionize.py`: anonymous rows are filtered out before the "
                     "join, sessionised by `session_cookie` in their own window, then "
                     "`unionByName`'d back. No UDFs. Test run on Tuesday's partition: 37 min "
                     "total, stage 14 max task 3.1 min."),
    (6, "assistant", "One catch: the output has 1,204 fewer rows than the old job for Tuesday. The "
                     "old job lumped anonymous rows with a NULL `session_cookie` into one giant "
                     "session; my `isNotNull` filter in the new path drops them. Need a call from "
                     "you on whether those rows should be kept."),
    (7, "user", "keep them, one session per row. but ask Dana first if downstream cares, dont "
                "merge until she answers"),
    (8, "assistant", "NULL-cookie rows now get a session each (`monotonically_increasing_id` as "
                     "the key) and counts match the old job exactly. PR #771 is open and not "
                     "merged, waiting on Dana."),
], [
    ("CP", "Q", "One straggler task in stage 14 held the job up, shuffling 61 GB where a typical "
                "task moved around 310 MB", [1]),
    ("CP", "Q", "Backfilled NULL partner_id values were ruled out (a tiny share of rows); the "
                "skew comes from logged-out traffic all carrying user_id 'anonymous', over a "
                "third of events since Monday", [1, 2]),
    ("CP", "D", "Anonymous events skip the join and are sessionised on their own path, rather "
                "than salting the key, which would copy the sessions side many times over for "
                "nothing", [3, 4]),
    ("CP", "O", "Enabling AQE's skew-join handling had no effect because the skewed events sit "
                "on the side of the left outer join it can't split; taking anonymous rows around "
                "the join brought Tuesday's run down to 37 minutes", [3, 5]),
    ("CP", "O", "Anonymous rows without a session cookie now each become their own session, so "
                "the row count agrees with the old job again", [6, 8]),
    ("CP", "B", "PR #771 stays unmerged until Dana confirms whether downstream consumers are "
                "affected", [7, 8]),
    ("CV", "P", "no UDFs please, keep it in DataFrame ops", [4]),
    ("CV", "P", "Don't bump the cluster size, we're already over budget on EMR", [0]),
    ("ID", "D", "Chose to salt the 'anonymous' join key across buckets rather than give "
                "anonymous rows their own path around the join", [3, 4]),
    ("IP", "P", "The user prefers Python UDFs for the sessionisation logic over plain DataFrame "
                "operations", [4]),
    ("FF", "O", "Turning on spark.sql.adaptive.skewJoin.enabled fixed the stage 14 straggler",
     [3]),
    ("SF", "Q", "In stage 14 the slow task shuffled 310 MB while the median task shuffled 61 GB",
     [1]),
    ("DIR", "O", "The new path's output for Tuesday had 1,204 more rows than the old job's",
     [6]),
    ("AH", "Q", "Stage 14's skew comes from NULL partner_id values left by the backfill, all "
                "hashing to one partition", [1]),
    ("FO", "O", "With the split path, stage 14's slowest task now finishes in under 2 minutes",
     [1, 5]),
    ("ST", "B", "Dana confirmed downstream is fine and PR #771 has been merged", [7, 8]),
])

FOURTH_STORIES["saml-okta-sso"] = ([
    (0, "user", "Acme's IT wants SAML SSO into our admin portal via their Okta. Metadata XML is in "
                "`config/saml/acme-okta.xml`. We're on Rails 7 with Devise. Keep password login "
                "working for our own staff, SSO is per-tenant, not a replacement."),
    (1, "assistant", "I'll use `devise_saml_authenticatable` (it wraps ruby-saml) rather than "
                     "pulling in OmniAuth just for this; we don't use OmniAuth anywhere else and "
                     "the Devise strategy fits the existing `Admin` model. IdP settings get looked "
                     "up per tenant from a new `saml_configs` table keyed by email domain."),
    (2, "assistant", "First end-to-end try against Acme's sandbox: Okta posts back and we reject "
                     "it with `Invalid Signature on SAML Response`. Our config has a SHA-1 cert "
                     "fingerprint and Okta signs with SHA-256, I suspect that mismatch."),
    (3, "assistant", "Wasn't the digest algorithm. ruby-saml validates against the full cert, and "
                     "the fingerprint is only used when no cert is configured. The actual problem: "
                     "Acme's metadata has two `<X509Certificate>` entries (they're mid-rotation) "
                     "and we were loading the first one, the old cert. Pinning the new cert's "
                     "fingerprint didn't help, same error, since the old cert was still what got "
                     "loaded. Switched to `idp_cert_multi` so both signing certs are accepted "
                     "during the rotation; login works."),
    (4, "user", "accepting both is fine until their rotation finishes on the 30th. after that "
                "only the new one. put a reminder somewhere in code"),
    (5, "assistant", "Added a `TODO(2024-06-30)` in `config/initializers/saml.rb` and a spec that "
                     "fails after that date if the old cert is still configured. Also measured in "
                     "the sandbox: SP-initiated login round trip is 1.4 s, IdP-initiated 0.9 s."),
    (6, "assistant", "Blocker for prod: Acme's Okta admin has to add our ACS URL "
                     "`https://admin.ourapp.com/saml/acme/consume` and assign the `Admins` group. "
                     "Sent that to their IT contact on Tuesday, no reply yet. Separately, their "
                     "IdP clock is 70 s ahead of ours, so I raised `allowed_clock_drift` from 0 to "
                     "90 s."),
    (7, "user", "still nothing from them?"),
    (8, "assistant", "Nothing yet. Prod SSO for Acme is still blocked on their Okta admin. "
                     "Sandbox login keeps working and password login for our staff is "
                     "unaffected."),
], [
    ("CP", "D", "SAML goes through the Devise SAML strategy built on ruby-saml instead of adding "
                "OmniAuth, which nothing else in the app uses; identity provider settings are "
                "chosen per tenant by email domain", [1]),
    ("CP", "Q", "The SHA-1 versus SHA-256 fingerprint theory was dropped: ruby-saml checks "
                "signatures with the whole certificate and falls back to the fingerprint only when "
                "none is set", [2, 3]),
    ("CP", "O", "Signature rejections came from Acme's metadata carrying two certificates during "
                "a rotation while the app loaded the outdated one; pinning the new fingerprint "
                "failed, and accepting both certificates got sandbox login working", [3]),
    ("CP", "P", "Trusting both of Acme's certificates is allowed only until their rotation ends "
                "on the 30th, after which just the new one, with a reminder in the code", [4]),
    ("CP", "O", "Because Acme's identity provider runs 70 seconds fast, tolerated clock drift was "
                "increased from none to 90 seconds", [6]),
    ("CP", "B", "Production SSO for Acme still depends on their Okta admin registering the ACS "
                "URL and assigning the Admins group; the Tuesday request has gone unanswered",
     [6, 8]),
    ("CV", "P", "Keep password login working for our own staff, SSO is per-tenant, not a "
                "replacement", [0]),
    ("ID", "D", "Adopted OmniAuth for the SAML integration instead of devise_saml_authenticatable",
     [1]),
    ("IP", "P", "SAML SSO is to replace password login for every user, the company's own staff "
                "included", [0]),
    ("FF", "O", "Pinning the fingerprint of Acme's new certificate fixed the Invalid Signature "
                "error", [3]),
    ("SF", "O", "In the sandbox, SP-initiated login takes 0.9 s and IdP-initiated 1.4 s", [5]),
    ("DIR", "O", "allowed_clock_drift was reduced from 90 s to 0", [6]),
    ("AH", "O", "The SAML responses were rejected because our config held a SHA-1 fingerprint "
                "while Okta signs with SHA-256", [2]),
    ("FO", "O", "Acme's IdP clock was found to be 90 s ahead of ours", [6]),
    ("ST", "B", "Acme's Okta admin added the ACS URL and assigned the Admins group, so SSO is "
                "live for Acme in production", [6, 8]),
])

FOURTH_STORIES["blender-lod-addon"] = ([
    (0, "user", "Our `lod_tools` add-on breaks on Blender 4.2, the 'Generate LODs' button throws "
                "on every mesh. It needs to keep working on 3.6 LTS too, the outsourcing studio is "
                "stuck on it."),
    (1, "assistant", "Traceback: `AttributeError: 'Mesh' object has no attribute "
                     "'use_auto_smooth'`. 4.1 removed auto smooth in favour of the Smooth by Angle "
                     "modifier. I'll branch on `bpy.app.version` and on 4.1+ add that modifier "
                     "instead of setting `use_auto_smooth`, rather than dropping the smoothing "
                     "step, since without it the decimated LODs shade faceted."),
    (2, "assistant", "That's fixed and LOD generation runs, but on `rock_cliff_A` LOD2 comes out "
                     "with holes. I suspect the Decimate modifier's `use_collapse_triangulate` "
                     "default changed in 4.2."),
    (3, "assistant", "Same holes in 3.6 with identical settings, so it's not a 4.2 change: the "
                     "asset has 312 non-manifold edges from a bad boolean. Merge by distance "
                     "(`remove_doubles`) at the default threshold before decimating barely moved "
                     "it (312 -> 298 non-manifold edges). What worked was a Weld modifier at 0.5 "
                     "mm ahead of Decimate in the stack: 0 non-manifold edges and LOD2 is closed."),
    (4, "user", "ok but dont apply modifiers destructively on the source mesh. artists need to "
                "tweak the originals"),
    (5, "assistant", "Right, it was applying the Weld on the source. LODs are now built on a full "
                     "copy (`obj.copy()` plus `obj.data.copy()`) and modifiers get applied only "
                     "there; the source object and its mesh are untouched. Batch over the 48 "
                     "assets in `env_pack_03`: 4 min 05 s on 4.2 vs 5 min 30 s on 3.6."),
    (6, "assistant", "Triangle counts for `rock_cliff_A`: LOD0 48,200, LOD1 12,050, LOD2 3,010. "
                     "Before the Weld fix LOD2 was 2,400 (with the holes), so it's a bit heavier "
                     "now but within the 3,500 budget."),
    (7, "user", "good. bump to 1.3.0 but hold the release on the studio's 3.6 test, they said "
                "thursday"),
    (8, "assistant", "Bumped `bl_info['version']` to (1, 3, 0). Release zip is built but not "
                     "published; waiting on the studio's 3.6 check on Thursday."),
], [
    ("CP", "D", "On 4.1 and newer the add-on inserts a Smooth by Angle modifier where it used to "
                "set auto smooth, instead of skipping smoothing, which would leave LODs looking "
                "faceted", [1]),
    ("CP", "Q", "The LOD2 holes aren't a 4.2 Decimate regression, since 3.6 produces them too; "
                "they come from non-manifold geometry a bad boolean left on rock_cliff_A", [2, 3]),
    ("CP", "O", "Merging by distance at the default threshold hardly helped; a 0.5 mm Weld "
                "modifier placed before Decimate cleared every non-manifold edge and closed LOD2",
     [3]),
    ("CP", "P", "Source meshes mustn't be changed destructively because artists keep editing the "
                "originals, so modifiers are now applied only on a full copy of each object",
     [4, 5]),
    ("CP", "O", "Processing the 48 env_pack_03 assets takes about a minute and a half less on "
                "Blender 4.2 than on 3.6", [5]),
    ("CP", "O", "Closing the holes raised rock_cliff_A's LOD2 by roughly 600 triangles, still "
                "under its 3,500 budget", [6]),
    ("CV", "B", "Release zip is built but not published; waiting on the studio's 3.6 check on "
                "Thursday", [8]),
    ("ID", "D", "On Blender 4.1+ the smoothing step is dropped instead of being replaced with the "
                "Smooth by Angle modifier", [1]),
    ("IP", "P", "The user wants the Weld and Decimate modifiers applied directly to the source "
                "meshes", [4]),
    ("FF", "O", "Running remove_doubles before decimating closed the holes in rock_cliff_A's "
                "LOD2", [3]),
    ("SF", "O", "rock_cliff_A triangle counts: LOD1 3,010 and LOD2 12,050", [6]),
    ("DIR", "O", "The env_pack_03 batch runs slower on Blender 4.2 than on 3.6", [5]),
    ("AH", "O", "The LOD2 holes came from a changed use_collapse_triangulate default in Blender "
                "4.2's Decimate modifier", [2]),
    ("FO", "O", "After adding the Weld modifier, rock_cliff_A was left with 298 non-manifold "
                "edges", [3]),
    ("ST", "B", "lod_tools 1.3.0 has been published after the studio signed off on 3.6", [7, 8]),
])
