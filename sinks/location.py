"""Where a lake lives: a folder (SQLite catalog and Parquet data inside it), or a PostgreSQL
catalog with its Parquet data in a folder or an S3-compatible bucket.

`--lake` takes either. A folder is today's lake: `catalog.sqlite` and `data/` under it. A catalog
URL is `ducklake:postgres:<libpq connection string>` (`postgres:` alone is accepted too); its data
path (`--lake-data`, a folder or `s3://bucket/prefix`) is needed once, when the lake is created:
DuckLake keeps it in the catalog. Credentials never go in a setting: libpq reads `PGPASSWORD` or
`~/.pgpass`, and the bucket's keys, endpoint and region come from the standard AWS variables
(`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`, `AWS_ENDPOINT_URL`,
`AWS_REGION`). Nothing here prints a key or a password: `describe` and every recipe redact them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from ingest.errors import SettingsError
from sinks.redact import redact

CATALOG_FILE = "catalog.sqlite"
DATA_DIR = "data"
POSTGRES_PREFIXES = ("ducklake:postgres:", "postgres:")


def _quote(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


@dataclass(frozen=True)
class Location:
    """`postgres` is the libpq connection string of a Postgres catalog, None for a folder lake;
    `root` is the folder of a folder lake; `data` the data path a new lake is created with (None:
    `root/data/`, or the one a Postgres catalog already holds)."""

    postgres: str | None = None
    root: Path | None = None
    data: str | None = None

    @classmethod
    def parse(cls, spec: str | os.PathLike | Location, data: str | None = None) -> Location:
        if isinstance(spec, Location):
            return spec if data is None else cls(spec.postgres, spec.root, _data_path(data))
        text = os.fspath(spec).strip()
        for prefix in POSTGRES_PREFIXES:
            if text.startswith(prefix):
                dsn = text[len(prefix):].strip()
                if not dsn:
                    raise SettingsError(f"lake {text!r}: the Postgres connection string is empty; "
                                      "e.g. ducklake:postgres:dbname=lake host=db.internal")
                return cls(postgres=dsn, data=_data_path(data) if data else None)
        if text.startswith(("ducklake:", "sqlite:", "s3://")):
            raise SettingsError(
                f"lake {text!r} is neither a folder nor a Postgres catalog: pass a folder "
                "(--lake ./lake) or ducklake:postgres:<connection string> with --lake-data for "
                "its Parquet files (a folder or s3://bucket/prefix)")
        if data:
            raise SettingsError(
                f"--lake-data {data!r} is for a Postgres catalog; a folder lake ({text}) keeps "
                "its data in its own data/ folder")
        return cls(root=Path(text).expanduser().resolve())

    @property
    def kind(self) -> str:
        return "postgres" if self.postgres is not None else "sqlite"

    def describe(self) -> str:
        """The lake for a message: its folder, or its catalog (password redacted)."""
        return str(self.root) if self.root is not None else f"ducklake:postgres:{redact(self.postgres)}"

    def exists(self) -> bool:
        if self.root is not None:
            return (self.root / CATALOG_FILE).exists()
        from sinks.pg import catalog_exists

        return catalog_exists(self.postgres)

    def attach_sql(self, alias: str = "lake", *, read_only: bool = False, moved_ok: bool = False,
                   create: bool = False) -> str:
        """The ATTACH statement; `create` passes the data path a new lake is made with.

        `moved_ok`: a folder lake's data is always `data/` beside its catalog, so a lake folder
        that was moved or copied is opened where it is now, not where it was created."""
        options = []
        if self.root is not None:
            catalog = f"ducklake:sqlite:{(self.root / CATALOG_FILE).as_posix()}"
            options.append(f"DATA_PATH {_quote((self.root / DATA_DIR).as_posix() + '/')}")
            if moved_ok:
                options.append("OVERRIDE_DATA_PATH true")
        else:
            catalog = f"ducklake:postgres:{self.postgres}"
            if create and self.data:
                options.append(f"DATA_PATH {_quote(self.data)}")
        if read_only:
            options.append("READ_ONLY")
        return f"ATTACH {_quote(catalog)} AS {alias}" + (f" ({', '.join(options)})" if options else "")

    def recipe(self, data_path: str | None) -> list[str]:
        """What another DuckDB runs to read this lake, secrets left as environment references."""
        if self.root is not None:
            return ["INSTALL ducklake; INSTALL sqlite;",
                    self.attach_sql(read_only=True, moved_ok=True) + ";"]
        lines = ["INSTALL ducklake; INSTALL postgres;"]
        if data_path and data_path.startswith("s3://"):
            lines.append("INSTALL httpfs; INSTALL aws;  -- keys from the AWS environment")
            lines.append(secret_sql(recipe=True) + ";")
        catalog = f"ducklake:postgres:{redact(self.postgres)}"
        lines.append(f"ATTACH {_quote(catalog)} AS lake (READ_ONLY);"
                     "  -- the password from PGPASSWORD or ~/.pgpass")
        return lines


def _data_path(data: str) -> str:
    data = data.strip()
    if data.startswith("s3://"):
        parts = urlsplit(data)
        if not parts.netloc:
            raise SettingsError(f"--lake-data {data!r}: no bucket; e.g. s3://my-bucket/memories")
        return data.rstrip("/") + "/"
    if "://" in data:
        raise SettingsError(f"--lake-data {data!r}: a folder or s3://bucket/prefix")
    return Path(data).expanduser().resolve().as_posix() + "/"


def secret_sql(*, recipe: bool = False) -> str:
    """A DuckDB S3 secret from the standard AWS environment. The `recipe` form (printed for
    others) holds no key: DuckDB's credential chain reads the same variables where it runs."""
    fields = []
    if recipe:
        fields.append("PROVIDER credential_chain")
    elif os.environ.get("AWS_ACCESS_KEY_ID"):
        fields += [f"KEY_ID {_quote(os.environ['AWS_ACCESS_KEY_ID'])}",
                   f"SECRET {_quote(os.environ.get('AWS_SECRET_ACCESS_KEY', ''))}"]
        if os.environ.get("AWS_SESSION_TOKEN"):
            fields.append(f"SESSION_TOKEN {_quote(os.environ['AWS_SESSION_TOKEN'])}")
    region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION")
    if region:
        fields.append(f"REGION {_quote(region)}")
    endpoint = os.environ.get("AWS_ENDPOINT_URL_S3") or os.environ.get("AWS_ENDPOINT_URL")
    if endpoint:
        # An S3-compatible server (MinIO, moto, Ceph): host:port, path-style URLs.
        parts = urlsplit(endpoint if "://" in endpoint else f"https://{endpoint}")
        fields += [f"ENDPOINT {_quote(parts.netloc)}", "URL_STYLE 'path'",
                   f"USE_SSL {'true' if parts.scheme == 'https' else 'false'}"]
    return f"CREATE OR REPLACE SECRET lake_s3 (TYPE s3{''.join(', ' + f for f in fields)})"
