"""Where a lake lives: parsing `--lake` and `--lake-data`, and no secret in anything printed."""

import contextlib
from pathlib import Path

import duckdb
import pytest

from ingest.errors import LakeBusy, LakeError, SettingsError
from sinks.lake import Lake
from sinks.location import Location, secret_sql
from sinks.redact import redact
from tests.conftest import postgres_lake


def test_a_folder_and_a_postgres_catalog_parse(tmp_path):
    folder = Location.parse(tmp_path / "lake")
    assert (folder.kind, folder.root, folder.postgres) == ("sqlite", tmp_path / "lake", None)
    assert "ATTACH 'ducklake:sqlite:" in folder.attach_sql()
    for spec in ("ducklake:postgres:dbname=m host=db", "postgres:dbname=m host=db"):
        location = Location.parse(spec, "s3://bucket/memories")
        assert (location.kind, location.postgres, location.data) == (
            "postgres", "dbname=m host=db", "s3://bucket/memories/")
    assert Location.parse("postgres:dbname=m", str(tmp_path / "d")).data == f"{tmp_path}/d/"
    created = Location.parse("postgres:dbname=m", "s3://b/p").attach_sql(create=True)
    assert created == "ATTACH 'ducklake:postgres:dbname=m' AS lake (DATA_PATH 's3://b/p/')"


@pytest.mark.parametrize("spec, data, says", [
    ("ducklake:postgres:", None, "connection string is empty"),
    ("ducklake:sqlite:/x/catalog.sqlite", None, "neither a folder nor a Postgres catalog"),
    ("s3://bucket/lake", None, "neither a folder nor a Postgres catalog"),
    ("./lake", "s3://b/p", "is for a Postgres catalog"),
    ("postgres:dbname=m", "s3:///nobucket", "no bucket"),
    ("postgres:dbname=m", "gs://b/p", "a folder or s3://bucket/prefix"),
])
def test_a_wrong_location_says_what_to_pass(spec, data, says):
    with pytest.raises(SettingsError, match=says):
        Location.parse(spec, data)


def test_passwords_are_redacted_in_every_form():
    assert redact("dbname=m password=hunter2 host=db") == "dbname=m password=*** host=db"
    assert redact("password = 'a b\\' c' host=db") == "password = *** host=db"
    assert redact("postgresql://trails:hunter2@db:5432/m") == "postgresql://trails:***@db:5432/m"
    location = Location.parse("ducklake:postgres:dbname=m password=hunter2")
    assert "hunter2" not in location.describe()
    assert not any("hunter2" in line for line in location.recipe("s3://b/p/"))


def test_the_s3_secret_comes_from_the_aws_environment_and_the_recipe_holds_none(monkeypatch):
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIDEXAMPLE")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "wJalrXUtnFEMI")
    monkeypatch.setenv("AWS_REGION", "eu-west-1")
    monkeypatch.setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:9000")
    live = secret_sql()
    assert "KEY_ID 'AKIDEXAMPLE'" in live and "SECRET 'wJalrXUtnFEMI'" in live
    assert "ENDPOINT '127.0.0.1:9000'" in live and "USE_SSL false" in live
    recipe = "\n".join(Location.parse("postgres:dbname=m").recipe("s3://b/p/"))
    assert "AKIDEXAMPLE" not in recipe and "wJalrXUtnFEMI" not in recipe
    assert "PROVIDER credential_chain" in recipe and "REGION 'eu-west-1'" in recipe


def test_a_postgres_lake_is_created_once_with_its_data_path(postgres, tmp_path):
    url = f"ducklake:postgres:{postgres.database()}"
    with pytest.raises(LakeError, match="creating one needs its data path, --lake-data"):
        Lake(url, writer=True)
    with pytest.raises(LakeError, match="its catalog holds no DuckLake"):
        Lake(url, create=False)
    with Lake(url, writer=True, data=str(tmp_path / "data")) as lake:
        assert lake.data_path == f"{tmp_path}/data/" and lake.readable == [lake.data_path]
    Lake(url, data=str(tmp_path / "data")).close()  # the same path again is fine
    with pytest.raises(LakeError, match="keeps its data at .*not at --lake-data"):
        Lake(url, data=str(tmp_path / "elsewhere"))


def test_the_batch_writer_lock_names_its_holder_and_dies_with_it(postgres, tmp_path):
    url = postgres_lake(postgres, str(tmp_path / "data"))
    first = Lake(url, writer=True)
    try:
        with pytest.raises(LakeBusy, match=r"trail-interview writer pid=\d+ host="):
            Lake(url, writer=True)
        Lake(url, writer=True, exclusive=False).close()  # a shared writer opens beside it
    finally:
        first.close()
    Lake(url, writer=True).close()  # freed with its session


def test_a_released_writer_lock_is_free_at_once(postgres):
    """The server frees a session's advisory locks only when its backend process exits, a moment
    after the client hangs up (longer on a loaded machine): a writer that closes and a writer
    that opens right after must never meet, so release() unlocks before it hangs up."""
    from sinks import pg

    dsn = postgres.database()
    with contextlib.closing(pg.connect(dsn, "probe")) as probe:
        for _ in range(20):
            pg.WriterLock(dsn, "lake").release()
            held = probe.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted "
                                 "AND database = (SELECT oid FROM pg_database WHERE datname = "
                                 "current_database())").fetchone()[0]
            assert held == 0


def test_an_unreachable_catalog_is_one_clear_error_without_the_password():
    with pytest.raises(LakeError) as caught:
        Lake("ducklake:postgres:host=127.0.0.1 port=1 dbname=m password=hunter2 connect_timeout=2")
    assert "cannot reach the Postgres catalog" in str(caught.value)
    assert "hunter2" not in str(caught.value) and "PGPASSWORD" in str(caught.value)


def test_settings_carry_the_location(tmp_path):
    from jobs.settings import load_settings

    settings = load_settings(lake="ducklake:postgres:dbname=m", lake_data=str(tmp_path / "d"))
    assert settings.lake_location.kind == "postgres"
    assert Path(settings.local_state_dir).name.startswith("lake-")
    with pytest.raises(SettingsError, match="is for a Postgres catalog"):
        load_settings(lake=tmp_path / "lake", lake_data="s3://b/p")


@pytest.mark.parametrize("libpq", [
    'Unable to connect to Postgres at "dbname=m host=db password=s3cret-pw": connection refused',
    "server closed the connection unexpectedly\n\tThis probably means the server terminated",
    "FATAL:  terminating connection due to immediate shutdown command",
    "FATAL:  the database system is shutting down",
])
def test_a_lost_catalog_is_one_lake_error_without_its_password(libpq):
    from sinks.pg import catalog_lost

    lost = catalog_lost(duckdb.IOException(f"IO Error: {libpq}"))
    assert isinstance(lost, LakeError) and "s3cret-pw" not in str(lost)
    assert str(lost).startswith("lost the lake's Postgres catalog: IO Error: ")
    assert "\n" not in str(lost) and "rerun once the catalog answers" in str(lost)


def test_other_errors_are_not_a_lost_catalog():
    from sinks.pg import catalog_lost

    assert catalog_lost(duckdb.BinderException("Binder Error: column x not found")) is None
    assert catalog_lost(ValueError("server closed the connection unexpectedly")) is None


def test_an_unclear_error_is_a_lost_catalog_only_when_its_server_does_not_answer(postgres):
    from sinks.pg import catalog_lost
    from tests.services import free_port

    cut_short = duckdb.TransactionException('Failed to commit: Failed to execute query "ROLLBACK": ')
    alive = postgres.dsn()
    gone = f"dbname=m host=127.0.0.1 port={free_port()} password=s3cret-pw"
    assert catalog_lost(cut_short, alive) is None
    assert catalog_lost(cut_short) is None  # no location: libpq's words alone decide
    lost = catalog_lost(cut_short, gone)
    assert isinstance(lost, LakeError) and "ROLLBACK" in str(lost) and "s3cret-pw" not in str(lost)
