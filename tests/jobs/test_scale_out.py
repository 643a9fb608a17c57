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

    hits = json.loads(cli("recall", "Activity window", "--lake", lake, "-k", "3", "--json").stdout)
    assert len(hits) == 3 and all(hit["vector_rank"] is not None for hit in hits)  # embeddings
    embedded = cli("embed", "--lake", lake)
    assert embedded.exit_code == 0, embedded.stderr[-2000:]
    shown = cli("show", hits[0]["memory_id"], "--lake", lake, "--json")
    assert shown.exit_code == 0 and hits[0]["memory_id"] in shown.stdout

    info = json.loads(cli("lake", "info", "--lake", lake, "--json").stdout)
    assert info["catalog"] == "postgres" and info["data_path"] == f"s3://{bucket}/memories/"
    assert any("PROVIDER credential_chain" in line for line in info["recipe"])

    again = cli("run", "--demo", "--backend", "none", "--lake", lake, "--json")
    rerun = json.loads(again.stdout)  # the demo replays: every window is a duplicate
    assert (rerun["memories_written"], rerun["duplicates"]) == (0, 4)  # no --lake-data needed now


def test_two_servers_on_one_postgres_lake_and_a_run_draining_both(tmp_path, postgres, ray_cluster):
    """Two `interview serve` processes (two machines behind a load balancer) accept windows of
    one node alternately; the watermark document either one serves is the lake's, and a batch
    run drains every window once."""
    from jobs.api import run_nodes
    from jobs.settings import load_settings
    from sinks.lake import Lake
    from sinks.watermarks import watermark_doc_id
    from tests.conftest import postgres_lake
    from tests.serving import Server, body, write_config

    lake = postgres_lake(postgres, str(tmp_path / "lake-data"))
    config = write_config(tmp_path / "server.toml", lake)
    servers = [Server(config), Server(config)]
    try:
        for n, start in enumerate(range(0, 60, 10)):
            with servers[n % 2].client() as http:
                answer = http.post("/api/v1/interview/submit", json=body("n:lb", start, 10))
            assert answer.status_code == 200 and answer.json()["watermark"] == start + 9
        for server in servers:
            with server.client() as http:
                again = http.post("/api/v1/interview/submit", json=body("n:lb", 20, 10))
                # A submit answers with its server's view (what it accepted or read itself):
                # never past the lake, never behind the window it was sent.
                assert again.status_code == 200 and 29 <= again.json()["watermark"] <= 59
                document = http.get(f"/api/v1/documents/{watermark_doc_id('n:lb')}",
                                    params={"tenant_id": "acme"})
            assert document.status_code == 200 and document.json()["data"]["last_seq"] == 59
    finally:
        for server in servers:
            server.stop()
    settings = load_settings(config, tenant_id="acme", projects=["nothing-here"],
                             sources=["claude-code"], claude_code_roots=[str(tmp_path / "none")],
                             inbox_jobs_per_run=1000)
    assert run_nodes(settings).inbox_claimed == 6
    with Lake(lake) as opened:
        rows = opened.con.execute("SELECT attempt_id, count(*) FROM memories WHERE node_id = "
                                  "'n:lb' GROUP BY 1").fetchall()
        marks = opened.con.execute("SELECT last_seq FROM watermarks WHERE node_id = 'n:lb'").fetchall()
    assert len(rows) == 6 and all(count == 1 for _, count in rows) and marks == [(59,)]
