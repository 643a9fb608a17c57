"""Submit validation: the exact rules and messages of contract §1.1, as one pure function.

Every path into the pipeline (the driver's own windows and `interview submit`) goes through
`validate_submit`. A rejected window raises `SubmitRejected` with the HTTP-style status code and
detail of the reference, and nothing is written for it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import orjson
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ingest.errors import SubmitRejected
from ingest.events import MAX_SEQ, Event
from ingest.times import iso_z
from ingest.windows import Window

MAX_EVENTS_PER_SUBMIT = 500
EVENT_MAX_CHARS = 8000
# Control characters (C0, DEL, C1) and line breaks have no place in an id: a NUL in a node id
# made its watermark document unreadable. Every id field refuses them with a 422 naming it.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def plain_id(value: str | None) -> str | None:
    """`value`, or a ValueError naming the first control character in it."""
    if value is not None and (found := _CONTROL.search(value)):
        raise ValueError(f"control character U+{ord(found.group()):04X} at position "
                         f"{found.start()}: ids are printable text")
    return value


class EventIn(BaseModel):
    model_config = ConfigDict(extra="ignore")

    seq: int = Field(ge=0, le=MAX_SEQ)
    ts: datetime
    session_id: str | None = None
    role: str = Field(min_length=1, max_length=64)
    kind: str = Field(min_length=1, max_length=64)
    content: str = Field(max_length=EVENT_MAX_CHARS)
    tool: str | None = Field(default=None, max_length=200)
    outcome: str | None = Field(default=None, max_length=200)

    plain_session_id = field_validator("session_id")(plain_id)

    @field_validator("ts")
    @classmethod
    def naive_is_utc(cls, value: datetime) -> datetime:
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value


class SubmitIn(BaseModel):
    model_config = ConfigDict(extra="ignore")

    tenant_id: str | None = None
    fleet_id: str | None = None
    node_id: str = Field(min_length=1, max_length=200)
    agent_id: str = Field(min_length=1, max_length=200)
    command_id: str | None = Field(default=None, max_length=200)
    cursor_from: int = Field(ge=0, le=MAX_SEQ)
    cursor_to: int = Field(ge=0, le=MAX_SEQ)
    events: list[EventIn] = Field(min_length=1, max_length=MAX_EVENTS_PER_SUBMIT)

    plain_ids = field_validator("tenant_id", "fleet_id", "node_id", "agent_id",
                                "command_id")(plain_id)


def _schema_detail(error: ValidationError) -> str:
    parts = []
    for item in error.errors()[:5]:
        where = ".".join(str(part) for part in item["loc"]) or "body"
        parts.append(f"{where}: {item['msg'].removeprefix('Value error, ')}")
    more = len(error.errors()) - 5
    if more > 0:
        parts.append(f"and {more} more")
    return "; ".join(parts)


def format_ts(value: datetime) -> str:
    """ISO 8601 in UTC with a Z, as stored and shown everywhere downstream."""
    return iso_z(value)


def validate_submit(
    body: Any, *, default_tenant: str | None = None, enabled_tenants: set[str] | None = None
) -> Window:
    """Check a submit body; return the window it describes, or raise `SubmitRejected`.

    `enabled_tenants` None means every tenant is enabled (a local run without tenant settings).
    """
    return check_submit(parse_submit(body), default_tenant=default_tenant,
                        enabled_tenants=enabled_tenants)


def parse_submit(body: Any) -> SubmitIn:
    """The schema (sizes, types, required fields): a 422 naming the bad field. A server checks
    this first, as FastAPI validates a body before the route runs."""
    if not isinstance(body, dict):
        raise SubmitRejected(422, "body: Input should be a JSON object")
    try:
        return SubmitIn.model_validate(body)
    except ValidationError as error:
        raise SubmitRejected(422, _schema_detail(error)) from None


def parse_submit_json(raw: bytes) -> SubmitIn:
    """`parse_submit` straight from the request bytes (one pass in pydantic's JSON parser); a
    body it refuses is parsed again the slow way, for the contract's messages."""
    try:
        return SubmitIn.model_validate_json(raw)
    except ValidationError:
        pass
    try:
        body = orjson.loads(raw)
    except orjson.JSONDecodeError as error:
        raise SubmitRejected(422, f"body: not valid JSON or UTF-8 at line {error.lineno} column "
                                  f"{error.colno} (byte {error.pos}): {error.msg}") from None
    return parse_submit(body)


def check_submit(parsed: SubmitIn, *, default_tenant: str | None = None,
                 enabled_tenants: set[str] | None = None,
                 authorize: Callable[[str], None] | None = None) -> Window:
    """The route's checks on a parsed body, in the contract's order: the tenant (400), the
    caller's right to it (`authorize` raises the 403), the cursor and seq rules (422), the
    tenant's interviewer switch (403)."""
    tenant = parsed.tenant_id or default_tenant
    if not tenant:
        raise SubmitRejected(400, "tenant_id required")
    if authorize is not None:
        authorize(tenant)
    if parsed.cursor_to < parsed.cursor_from:
        raise SubmitRejected(422, "cursor_to must be >= cursor_from")
    seqs = [event.seq for event in parsed.events]
    if any(left >= right for left, right in zip(seqs, seqs[1:])):
        raise SubmitRejected(422, "events must be strictly seq-ascending (no duplicates)")
    if seqs[0] < parsed.cursor_from or seqs[-1] > parsed.cursor_to:
        raise SubmitRejected(422, "event seq range must lie within [cursor_from, cursor_to]")
    if enabled_tenants is not None and tenant not in enabled_tenants:
        raise SubmitRejected(403, "interviewer is not enabled for this tenant")
    events = tuple(
        Event(
            seq=event.seq,
            ts=format_ts(event.ts),
            session_id=event.session_id,
            role=event.role,
            kind=event.kind,
            content=event.content,
            tool=event.tool,
            outcome=event.outcome,
        )
        for event in parsed.events
    )
    return Window(
        node_id=parsed.node_id,
        agent_id=parsed.agent_id,
        cursor_from=parsed.cursor_from,
        cursor_to=parsed.cursor_to,
        events=events,
        tenant_id=tenant,
        fleet_id=parsed.fleet_id,
        command_id=parsed.command_id,
    )
