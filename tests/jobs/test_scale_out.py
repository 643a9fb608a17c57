"""The lake beyond one folder: a run on a Postgres catalog writes its Parquet files to an
S3-compatible bucket, every reader opens it from the same `--lake`, and no key reaches an
output."""

import json

from click.testing import CliRunner

from jobs.cli import main


def test_a_run_on_a_postgres_catalog_writes_parquet_to_the_bucket(ray_cluster, postgres, s3,
                                                                  monkeypatch):
    for name, value in s3.env.items():
        monkeypatch.setenv(name, value)
    bucket = s3.bucket()
    lake = f"ducklake:postgres:{postgres.database()}"
    runner = CliRunner()

    def cli(*args):
        result = runner.invoke(main, ["-vv", *args], catch_exceptions=False)
        for secret in (s3.env["AWS_ACCESS_KEY_ID"], s3.env["AWS_SECRET_ACCESS_KEY"]):
            assert secret not in result.output and secret not in result.stderr, args
        return result

    run = cli("run", "--demo", "--backend", "none", "--lake", lake,
              "--lake-data", f"s3://{bucket}/memories", "--json")
    assert run.exit_code == 0, run.stderr[-3000:]
    summary = json.loads(run.stdout)
    assert summary["windows"] == 4 and summary["memories_written"] >= 4

    compacted = cli("compact", "--lake", lake)  # inlined rows out to Parquet as well
    assert compacted.exit_code == 0, compacted.stderr[-3000:]
    keys = s3.keys(bucket)
    assert keys and all(key.startswith("memories/") for key in keys)
    assert any(key.startswith("memories/main/memories/") and key.endswith(".parquet") for key in keys)

    rows = cli("sql", "--lake", lake, "--format", "json",
               "SELECT count(*) AS n, count(DISTINCT attempt_id) AS windows FROM memories")
    assert json.loads(rows.stdout) == [{"n": summary["memories_written"], "windows": 4}]

    info = json.loads(cli("lake", "info", "--lake", lake, "--json").stdout)
    assert info["catalog"] == "postgres" and info["data_path"] == f"s3://{bucket}/memories/"
    assert any("PROVIDER credential_chain" in line for line in info["recipe"])

    again = cli("run", "--demo", "--backend", "none", "--lake", lake, "--json")
    rerun = json.loads(again.stdout)  # the demo replays: every window is a duplicate
    assert (rerun["memories_written"], rerun["duplicates"]) == (0, 4)  # no --lake-data needed now
