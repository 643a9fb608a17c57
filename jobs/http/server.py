"""`interview serve`: the one endpoint every capture source feeds (contract §1), as an ASGI app.

    POST /api/v1/interview/submit          validate → mask → inbox (async, default) or interview
    GET  /api/v1/documents/{doc_id}        a node's watermark document (§1.3)
    POST /api/v1/admin/interview/schedule/run   queue interview_request commands (§2.11)
    GET  /api/v1/interview/commands        a node's pending commands
    GET  /metrics                          Prometheus text format (a read or admin key)
    GET  /healthz

A new way in, not a new lifecycle: the async path hands masked windows to the inbox writer
(sinks.inbox_writer), which the batch run drains through its map and group commit; the inline
path runs the driver's own `submit_window`.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
import os
import time
from dataclasses import dataclass, field

from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ingest.errors import SubmitRejected
from ingest.validate import check_submit, parse_submit_json, plain_id
from jobs.http.auth import AuthFailed, Caller, KeyRing
from jobs.http.metrics import CONTENT_TYPE, ServerMetrics
from jobs.node_plan import mask_window
from jobs.settings import ApiKey, ServerSettings, Settings
from sinks.commands import TenantSchedule, pending_commands, run_schedule
from sinks.inbox import JobRefused
from sinks.inbox_writer import InboxWriter
from sinks.watermarks import watermark_document

log = logging.getLogger(__name__)
CONTACT_EVERY_SECONDS = 60.0


def enabled_tenants(settings: Settings) -> dict[str, TenantSchedule]:
    """Tenants whose interviewer is on (`Settings.enabled_tenant_ids`), with their schedule."""
    schedules = {}
    for name in settings.enabled_tenant_ids():
        schedules[name] = TenantSchedule(name)
        if name in settings.tenants:
            interviewer = settings.tenants[name].interviewer
            schedules[name] = TenantSchedule(name, interviewer.period_hours,
                                             interviewer.template_id)
    return schedules


@dataclass
class ServerState:
    settings: Settings
    keys: KeyRing
    writer: InboxWriter | None = None
    inline: InlineInterviews | None = None
    contacts: dict = field(default_factory=dict)  # (tenant, node) → when its last poll was noted
    metrics: ServerMetrics = field(default_factory=ServerMetrics)


class InlineInterviews:
    """`server.async_submit = false`: the whole interview inside the request, one at a time,
    within `request_timeout_seconds` (contract §1.1, legacy inline path)."""

    def __init__(self, settings: Settings) -> None:
        from jobs.driver import Driver

        self._open = contextlib.ExitStack()
        self.driver = self._open.enter_context(
            Driver(settings, kind="serve", shared=True, drain_inbox=False))
        self._open.enter_context(self.driver.session())
        self._pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="inline-interview")
        self.timeout = settings.server.request_timeout_seconds

    async def submit(self, window) -> JSONResponse:
        future = self._pool.submit(self.driver.submit_window, window)
        try:
            result = await asyncio.wait_for(asyncio.wrap_future(future), self.timeout)
        except TimeoutError:
            raise SubmitRejected(504, "interview exceeded its request budget; window not consumed") from None
        except Exception:  # noqa: BLE001 - the client hears 500, the log has the why
            log.exception("inline interview of %s failed", window.attempt_id)
            raise SubmitRejected(500, "interview ingest failed; window not consumed") from None
        if result.status == "failed":
            raise SubmitRejected(500, "interview ingest failed; window not consumed")
        return JSONResponse(result.to_json(), status_code=207 if result.status == "partial" else 200)

    def close(self) -> None:
        self._pool.shutdown(wait=True)
        self._open.close()  # the run record, then the driver


def _caller(request: Request) -> Caller:
    return request.app.state.server.keys.caller(request.headers.get("x-api-key"))


async def _body(request: Request) -> bytes:
    """The body's bytes: 413 past the limit (before reading it when the length is declared),
    408 for a client too slow to send it."""
    limit = request.app.state.server.settings.server.max_body_bytes
    patience = request.app.state.server.settings.server.body_read_seconds
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > limit:
        raise SubmitRejected(413, f"request body of {int(declared)} bytes is over the {limit}-byte limit")
    chunks, size = [], 0

    async def read() -> None:
        nonlocal size
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise SubmitRejected(413, f"request body is over the {limit}-byte limit")
            chunks.append(chunk)

    try:
        await asyncio.wait_for(read(), patience)
    except TimeoutError:
        raise SubmitRejected(408, f"request body not received within {patience:g}s") from None
    except ClientDisconnect:
        raise SubmitRejected(400, "client disconnected before sending the whole body") from None
    return b"".join(chunks)


async def submit(request: Request) -> Response:
    """The submit, counted for `/metrics`: accepted per tenant, refused per tenant and reason."""
    state: ServerState = request.app.state.server
    started = time.perf_counter()
    try:
        tenant = _caller(request).tenant_id
    except AuthFailed:
        tenant = None
    try:
        response = await _submit(request)
    except SubmitRejected as rejected:
        state.metrics.reject(tenant, rejected.status_code)
        raise
    finally:
        state.metrics.submit_seconds.observe(time.perf_counter() - started)
    if response.status_code < 300:
        state.metrics.accept(tenant or "")
    return response


async def _submit(request: Request) -> Response:
    state: ServerState = request.app.state.server
    caller = _caller(request)
    state.writer.expect(1)  # the writer's batches wait for the requests in flight
    try:
        parsed = parse_submit_json(await _body(request))
        caller.require_write()
        window = check_submit(parsed, default_tenant=caller.tenant_id,
                              enabled_tenants=set(request.app.state.enabled),
                              authorize=caller.may_write)
        window = mask_window(window)
        if state.inline is not None:
            return await state.inline.submit(window)
        mark = await asyncio.wrap_future(state.writer.accept(window))
    except SubmitRejected:  # a refusal, 401 and 403 included
        raise
    except Exception:  # noqa: BLE001 - logged by the writer; the client keeps its window
        raise SubmitRejected(500, "interview job could not be stored; window not consumed") from None
    finally:
        state.writer.expect(-1)
    if isinstance(mark, JobRefused):
        raise SubmitRejected(409, "interview job is permanently failed — operator intervention required")
    return JSONResponse({"status": "accepted", "watermark": mark, "memories_written": 0,
                         "errors": 0})


async def get_document(request: Request) -> Response:
    caller = _caller(request)
    tenant = request.query_params.get("tenant_id") or caller.tenant_id
    caller.may_read(tenant)
    collection = request.query_params.get("collection", "interview_watermarks")
    doc_id = request.path_params["doc_id"]
    if collection != "interview_watermarks":
        raise SubmitRejected(404, "Document not found")
    document = await asyncio.to_thread(_read, request, watermark_document, tenant, doc_id)
    if document is None:
        raise SubmitRejected(404, "Document not found")
    return JSONResponse(document)


async def schedule_run(request: Request) -> Response:
    caller = _caller(request)
    caller.require_admin()
    tenants = list(request.app.state.enabled.values())
    return JSONResponse(await asyncio.to_thread(_read, request, run_schedule, tenants))


async def get_commands(request: Request) -> Response:
    caller = _caller(request)
    node_id = request.query_params.get("node_id")
    if not node_id:
        raise SubmitRejected(422, "query: node_id is required")
    try:
        plain_id(node_id)
    except ValueError as error:
        raise SubmitRejected(422, f"query: node_id: {error}") from None
    tenant = request.query_params.get("tenant_id") or caller.tenant_id
    caller.may_read(tenant)
    state: ServerState = request.app.state.server
    now = time.monotonic()
    if now - state.contacts.get((tenant, node_id), -1e9) >= CONTACT_EVERY_SECONDS:
        state.contacts[(tenant, node_id)] = now
        state.writer.contact(tenant, node_id)
    commands = await asyncio.to_thread(_read, request, pending_commands, tenant, node_id)
    return JSONResponse({"node_id": node_id, "commands": commands})


async def metrics(request: Request) -> Response:
    """The Prometheus scrape: a key that may read (its tenant's series) or an admin key (all)."""
    from sinks.metrics import lake_figures

    caller = _caller(request)
    caller.may_read(caller.tenant_id)
    figures = await asyncio.to_thread(_read, request, lake_figures)
    state: ServerState = request.app.state.server
    body = state.metrics.exposition(figures, None if caller.admin else {caller.tenant_id})
    return Response(body, media_type=CONTENT_TYPE)


async def healthz(request: Request) -> Response:
    """"ok" to anyone (a load balancer's probe); the lake and the write counters only to a caller
    with a valid key: the lake's absolute path and traffic are not for strangers."""
    state: ServerState = request.app.state.server
    try:
        _caller(request)
    except AuthFailed:
        return JSONResponse({"status": "ok"})
    counts = state.writer.counts
    return JSONResponse({"status": "ok", "lake": state.writer.lake.where,
                         "async_submit": state.inline is None,
                         "accepted_windows": counts.windows, "transactions": counts.transactions,
                         "largest_batch": counts.largest_batch,
                         "write_seconds": round(counts.write_seconds, 3)})


def _read(request: Request, query, *args):
    """`query(con, *args)` on a cursor of its own (called on a worker thread)."""
    with request.app.state.server.writer.reader() as con:
        return query(con, *args)


def _error(status: int, detail: str) -> JSONResponse:
    return JSONResponse({"detail": detail}, status_code=status)


def create_app(settings: Settings, keys: KeyRing, *, crash_hook=None) -> Starlette:
    state = ServerState(settings, keys)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        state.writer = InboxWriter(settings.lake_location, max_batch=settings.server.batch_max_windows,
                                   crash_hook=crash_hook)
        if not settings.server.async_submit:
            state.inline = await asyncio.to_thread(InlineInterviews, settings)
        try:
            yield
        finally:
            if state.inline is not None:
                state.inline.close()
            state.writer.close()

    app = Starlette(routes=[
        Route("/api/v1/interview/submit", submit, methods=["POST"]),
        Route("/api/v1/documents/{doc_id}", get_document, methods=["GET"]),
        Route("/api/v1/admin/interview/schedule/run", schedule_run, methods=["POST"]),
        Route("/api/v1/interview/commands", get_commands, methods=["GET"]),
        Route("/metrics", metrics, methods=["GET"]),
        Route("/healthz", healthz, methods=["GET"]),
    ], lifespan=lifespan, exception_handlers={  # every refusal: its status and {"detail": ...}
        SubmitRejected: lambda request, error: _error(error.status_code, error.detail),
    })
    app.state.server = state
    app.state.enabled = enabled_tenants(settings)
    return app


SPEC_VARIABLE = "INTERVIEW_SERVE_SPEC"


def serve_spec(config, settings, server: ServerSettings, keys: list[ApiKey]) -> str:
    """What a worker process needs to build the same app (`app_from_environment`)."""
    return json.dumps({"config": str(config) if config else None, "lake": settings.lake,
                       "lake_data": settings.lake_data,
                       "server": server.model_dump(mode="json"),
                       "keys": [key.model_dump(mode="json") for key in keys]})


def app_from_environment() -> Starlette:
    """The app of one of several worker processes (`server.workers`), from `serve_spec`."""
    from jobs import faults
    from jobs.settings import load_settings

    spec = json.loads(os.environ[SPEC_VARIABLE])
    faults.arm_from_environment()
    settings = load_settings(spec["config"], lake=spec["lake"], lake_data=spec["lake_data"])
    settings = settings.model_copy(update={"server": ServerSettings(**spec["server"])})
    return create_app(settings, KeyRing([ApiKey(**key) for key in spec["keys"]]),
                      crash_hook=faults.crash_point)
