"""One settings tree: TOML files in `configs/`, then environment (`INTERVIEW_*`, nested with
`__`), then flags. Every field says what it is for."""

from __future__ import annotations

import getpass
import json
import logging
import os
import socket
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    create_model,
    field_validator,
)
from pydantic_settings import (
    BaseSettings,
    NoDecode,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from ingest.content import DEFAULT_RECALL_TAGS
from ingest.errors import SettingsError
from ingest.sources import all_sources, get_source, source_names
from jobs.backend_settings import EmbeddedSettings, LlamaCppSettings, OpenAISettings, VllmSettings
from synth.backends import check_backend_name


def default_agent_id() -> str:
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = "user"
    return f"cc-{user}@{socket.gethostname()}"


log = logging.getLogger(__name__)


class RaySettings(BaseModel):
    model_config = ConfigDict(extra="forbid")
    address: str | None = Field(None, description="existing cluster ('auto'); default: local Ray")
    num_cpus: int | None = Field(None, ge=1, description="logical CPUs of a local cluster")
    object_store_mb: int = Field(512, ge=64, description="object store of a local cluster")
    model_actors: int = Field(
        1, ge=0, description="model actors (engines) in the pool; 0 = one per actor_num_gpus of the cluster's GPUs")
    actor_num_cpus: float = Field(1.0, ge=0, description="CPUs reserved per model actor")
    actor_num_gpus: float = Field(0.0, ge=0, description="GPUs per model actor")
    max_inflight_windows: int = Field(4, ge=1, description="windows in flight before waiting")
    max_inflight_nodes: int = Field(8, ge=1, description="node-planning tasks in flight")


class EmbeddingSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")
    enabled: bool = Field(True, description="embed memories as they are written (for recall)")
    threads: int = Field(2, ge=1, description="CPU threads of the embedding model")
    batch_size: int = Field(64, ge=1, description="texts per model call")


class SupportSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")
    paraphrase: bool = Field(True, description="keep a restatement with few of its events' words "
                             "when it is close in meaning to one of their sentences (the MiniLM "
                             "embedder); off: words only")

class ConsolidationSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")
    enabled: bool = Field(True, description="after each run, link its memories to the project's "
                          "(duplicate, supersedes, resolves)")
    judge: Literal["auto", "rules", "model"] = Field(
        "auto", description="who decides a pair: the model (auto: with openai or vllm) or the "
        "rules and the embedder (auto: with embedded, llamacpp or none)")
    batch_memories: int = Field(20_000, ge=1, description="memories of whole projects "
                                "consolidated in one transaction")


class InterviewerSettings(BaseModel):
    """A tenant's `interviewer` settings, as in the reference (contract §2.11)."""

    model_config = ConfigDict(extra="forbid")
    enabled: bool = Field(False, description="the nightly run interviews this tenant")
    period_hours: int = Field(12, ge=1, le=168, description="a node is due this long after its last interview")
    template_id: str = Field("default-v1", description="interview template")


class ApiKey(BaseModel):
    """One server API key: its SHA-256 (the key itself is never stored), its tenant and what it
    may do. `interview key new` prints a key and this entry."""

    model_config = ConfigDict(extra="forbid")
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$", description="hex SHA-256 of the key")
    tenant: str = Field(min_length=1, max_length=200, description="tenant the key acts for")
    capabilities: list[Literal["write", "read", "admin"]] = Field(
        ["write", "read"], description="write: submit; read: watermarks, commands; admin: "
        "the scheduler, and any tenant")
    name: str = Field("", description="who holds it (shown in logs)")


class ServerSettings(BaseModel):
    """`interview serve`: the submit endpoint every capture source feeds (contract §1)."""

    model_config = ConfigDict(extra="forbid")
    host: str = Field("127.0.0.1", description="address to listen on")
    port: int = Field(8080, ge=0, le=65535, description="port (0: any free port)")
    async_submit: bool = Field(
        True, description="accept into the inbox and interview later (false: the whole "
        "interview inside the request)")
    request_timeout_seconds: float = Field(
        90.0, gt=0, le=120, description="inline submit budget (504 past it)")
    max_body_bytes: int = Field(16_000_000, ge=1024, description="larger request bodies get 413")
    body_read_seconds: float = Field(
        30.0, gt=0, description="a client slower than this to send its body gets 408")
    header_read_seconds: float = Field(
        15.0, gt=0, description="a connection that has not sent a request's headers this long "
        "after it opened (or after its last answer) gets 408 and is closed")
    max_connections: int = Field(
        1024, ge=1, description="open connections per server process (at most half its open-file "
        "limit); more get 503 and are closed at once")
    max_connections_per_client: int = Field(
        128, ge=0, description="open connections from one client address (0: no cap; behind a "
        "load balancer every client has its address)")
    workers: int = Field(
        1, ge=1, le=64, description="server processes sharing the port (each its own writer)")
    batch_max_windows: int = Field(
        64, ge=1, description="accepted windows written to the lake in one transaction")
    keys: list[ApiKey] = Field(
        [], description="API keys; empty: one key for tenant_id is made in <lake>/server.key")


def _text_list(value: Any) -> Any:
    """A list from the environment as JSON (`["a", "b"]`) or as plain commas (`a,b`)."""
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("["):
            try:
                return json.loads(text)
            except ValueError:
                raise ValueError(f"not a JSON list: {text[:80]}") from None
        return [part.strip() for part in text.split(",") if part.strip()]
    return value


TextList = Annotated[list[str], NoDecode, BeforeValidator(_text_list)]
OptionalTextList = Annotated[list[str] | None, NoDecode, BeforeValidator(_text_list)]

# One `<source>_roots` field per registered source (`claude_code_roots`, `cursor_roots`, ...), in
# the run's settings and in each tenant's: a new source needs no edit here.
SourceRoots = create_model("SourceRoots", **{
    source.settings_key: (OptionalTextList, Field(
        None, description=f"{source.name} roots ({source.roots_help}); default: its usual folders"))
    for source in all_sources()
})


class TenantSettings(SourceRoots):
    model_config = ConfigDict(extra="forbid")
    interviewer: InterviewerSettings = Field(default_factory=InterviewerSettings)
    projects: list[str] = Field([], description="allowlist globs")
    all_projects: bool = Field(False, description="allow every project")
    fleet_id: str | None = Field(None, description="fleet of this tenant's memories")


class Settings(BaseSettings, SourceRoots):
    model_config = SettingsConfigDict(
        env_prefix="INTERVIEW_", env_nested_delimiter="__", extra="forbid",
        validate_default=True,
    )

    lake: str = Field("lake", description="lake: a folder (SQLite catalog + Parquet data), or "
                      "ducklake:postgres:<libpq connection string> for a Postgres catalog")
    lake_data: str | None = Field(
        None, description="data path of a new Postgres-catalog lake: a folder every node can "
        "read, or s3://bucket/prefix (keys from the AWS environment)")
    tenant_id: str = Field("local", min_length=1, max_length=200, description="tenant of this run")
    fleet_id: str | None = Field(None, description="fleet the memories belong to")
    agent_id: str = Field(default_factory=default_agent_id, description="worker agent id")
    backend: str = Field("embedded", description="model backend: none, embedded, llamacpp, ...")
    sources: TextList = Field(list(source_names()), description="trail sources to read")
    projects: TextList = Field([], description="project allowlist globs (default: deny all)")
    all_projects: bool = Field(False, description="allow every project")
    include_subagents: bool = Field(False, description="Claude Code subagents as their own nodes")
    since_hours: float = Field(168, ge=0, description="only trails touched this recently (0 = all)")
    recall_guard_tags: TextList = Field(
        list(DEFAULT_RECALL_TAGS), description="tags of injected recall blocks cut before interviewing")
    max_windows: int = Field(8, ge=1, description="windows interviewed per run, all nodes")
    max_windows_per_node: int | None = Field(None, ge=1, description="windows per node per run")
    tenants: dict[str, TenantSettings] = Field(
        {}, description="tenants of the nightly run; empty: one tenant (tenant_id) for everything")
    flush: bool = Field(False, description="interview small tails too (skip the dribble gate)")
    replay: bool = Field(
        False, description="read nodes from their first line, not the watermark; windows already "
        "committed resolve as duplicates without a model call")
    min_events: int = Field(10, ge=1, description="dribble gate: events")
    min_chars: int = Field(2000, ge=1, description="dribble gate: characters")
    max_event_chars: int = Field(4000, ge=60, le=8000, description="event truncation")
    max_window_events: int = Field(400, ge=1, le=500, description="events per window")
    max_window_chars: int = Field(150_000, ge=1000, le=150_000, description="characters per window")
    chunk_max_chars: int = Field(96_000, ge=1000, description="map-phase chunk budget")
    retry_budget: int = Field(3, ge=1, description="model attempts per window before parking")
    commit_every_windows: int = Field(
        32, ge=1, description="group commit: finished windows committed in one transaction")
    commit_every_seconds: float = Field(
        2.0, gt=0, description="group commit: the longest a finished window waits to commit")
    merge_every_commits: int = Field(
        64, ge=0, description="merge the lake's small files after this many group commits "
        "(0: never); each commit's look-ups read every file, so a long run would slow down")
    merged_files_grace_seconds: float = Field(
        120.0, ge=0, description="files a merge replaced are deleted once this old (a query that "
        "listed them just before may still read them); time travel never needs them")
    inbox_jobs_per_run: int = Field(
        256, ge=0, description="pushed windows a run takes from the inbox (0: none)")
    server: ServerSettings = Field(default_factory=ServerSettings)
    ray: RaySettings = Field(default_factory=RaySettings)
    embeddings: EmbeddingSettings = Field(default_factory=EmbeddingSettings)
    support: SupportSettings = Field(default_factory=SupportSettings)

    consolidation: ConsolidationSettings = Field(default_factory=ConsolidationSettings)
    embedded: EmbeddedSettings = Field(default_factory=EmbeddedSettings)
    llamacpp: LlamaCppSettings = Field(default_factory=LlamaCppSettings)
    openai: OpenAISettings = Field(default_factory=OpenAISettings)
    vllm: VllmSettings = Field(default_factory=VllmSettings)

    @field_validator("lake", "lake_data", mode="before")
    @classmethod
    def path_as_text(cls, value: Any) -> Any:
        return os.fspath(value) if isinstance(value, os.PathLike) else value

    @field_validator("sources")
    @classmethod
    def known_sources(cls, value: list[str]) -> list[str]:
        for name in value:
            get_source(name)  # an unknown name lists the known ones
        return value

    def for_tenant(self, name: str) -> Settings:
        """These settings narrowed to one configured tenant: its id, roots and allowlist."""
        tenant = self.tenants[name]
        return self.model_copy(update={
            "tenant_id": name, "fleet_id": tenant.fleet_id or self.fleet_id,
            **{source.settings_key: getattr(tenant, source.settings_key) for source in all_sources()},
            "projects": tenant.projects, "all_projects": tenant.all_projects, "tenants": {},
        })

    @property
    def lake_location(self):
        """The lake these settings name (`sinks.location.Location`)."""
        from sinks.location import Location

        return Location.parse(self.lake, self.lake_data)

    @property
    def local_state_dir(self) -> Path:
        """Where this machine keeps its own files of the lake (the local server key): the lake
        folder, or for a Postgres lake a folder per catalog under ~/.local/state."""
        import hashlib

        location = self.lake_location
        if location.root is not None:
            return location.root
        digest = hashlib.sha1(location.postgres.encode()).hexdigest()[:12]
        return Path.home() / ".local" / "state" / "trail-interview" / f"lake-{digest}"

    def enabled_tenant_ids(self) -> set[str]:
        """Tenants a window may be submitted for (every way in): those configured with their
        interviewer enabled; with none configured, the run's own tenant."""
        if not self.tenants:
            return {self.tenant_id}
        return {name for name, tenant in self.tenants.items() if tenant.interviewer.enabled}

    def roots(self) -> dict[str, list[str]]:
        """Source → root folders, for the sources this run reads."""
        roots = {}
        for name in self.sources:
            source = get_source(name)
            given = getattr(self, source.settings_key)
            roots[name] = given if given is not None else source.default_roots()
        return roots

    @field_validator("backend")
    @classmethod
    def known_backend(cls, value: str) -> str:
        return check_backend_name(value)

    def backend_options(self) -> dict[str, Any]:
        section = getattr(self, self.backend, None)
        return section.model_dump() if isinstance(section, BaseModel) else {}


def load_settings(config: Path | None = None, **flags: Any) -> Settings:
    """Settings from `config` (TOML), then INTERVIEW_* environment, then non-None `flags`."""
    if config is not None and not Path(config).is_file():
        raise SettingsError(f"config file {config} does not exist")

    class _FromFile(Settings):
        model_config = SettingsConfigDict(toml_file=str(config) if config else None)

        @classmethod
        def settings_customise_sources(
            cls, settings_cls, init_settings, env_settings, dotenv_settings, file_secret_settings
        ) -> tuple[PydanticBaseSettingsSource, ...]:
            sources: tuple[PydanticBaseSettingsSource, ...] = (init_settings, env_settings)
            if config is not None:
                sources += (TomlConfigSettingsSource(settings_cls),)
            return sources

    given = {key: value for key, value in flags.items() if value is not None}
    try:
        loaded = _FromFile(**given)
    except ValidationError as error:
        where = f" in {config}" if config else ""
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'settings'}: {e['msg']}"
            for e in error.errors()
        )
        raise SettingsError(f"invalid settings{where}: {problems}") from None
    except ValueError as error:  # TOML syntax
        raise SettingsError(f"cannot read {config}: {error}") from None
    loaded.lake_location  # a malformed lake or data path is an error now, not at the first write
    warn_unknown_environment(os.environ)
    return loaded


# INTERVIEW_* variables that are not settings but are read elsewhere.
_OTHER_VARIABLES = {"CONFIG", "CRASH_AT", "MACHINE_ID", "MODEL_CACHE", "API_KEY", "SERVER", "SERVE_SPEC"}


def warn_unknown_environment(environ) -> list[str]:
    """INTERVIEW_* variables that name no setting (a typo silently ignored is worse than a
    warning); returned and logged."""
    unknown = []
    for name in sorted(environ):
        if not name.startswith("INTERVIEW_"):
            continue
        key = name.removeprefix("INTERVIEW_")
        top, _, nested = key.lower().partition("__")
        field = Settings.model_fields.get(top)
        if key in _OTHER_VARIABLES or (field is not None and (
                not nested or _has_nested(field.annotation, nested))):
            continue
        unknown.append(name)
        log.warning("%s is not a setting and is ignored (settings: configs/default.toml)", name)
    return unknown


def _has_nested(annotation, path: str) -> bool:
    model = annotation if isinstance(annotation, type) and issubclass(annotation, BaseModel) else None
    return model is not None and path.split("__")[0] in model.model_fields
