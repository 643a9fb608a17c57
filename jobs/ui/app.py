"""`interview ui`: the memories in a browser, as an ASGI app on the same stack as `interview serve`
(Starlette under uvicorn). Server-rendered pages, one small script and one style sheet shipped in
the package (`jobs/ui/static/`): it works offline.

    GET  /                  projects
    GET  /project?name=P    a project's timeline and chart (type, since, until, offset)
    GET  /memory?id=M       a memory, its evidence events with FILE:LINE, what is around it
    GET  /search?q=…        hybrid recall (type, since, until, k)
    GET  /ops               nodes and watermarks, inbox, parked windows, last runs
    GET  /forget?…          what would go;  POST /forget  forgets it (--allow-forget only)
    GET|POST /login, POST /logout   a key, when bound beyond loopback (see `jobs.ui.auth`)
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ingest.errors import InterviewError, LakeBusy, NodeNotFound, UsageError
from jobs.http.auth import AuthFailed
from jobs.ui import forget_page, ops_page, pages
from jobs.ui.auth import COOKIE, SESSION_SECONDS, Access, Guard
from jobs.ui.html import MEMORY_TYPES, layout, url
from jobs.ui.memory_page import memory_page
from jobs.ui.sign_in import error_page, sign_in_page

STATIC = Path(__file__).parent / "static"
MAX_FORM_BYTES = 64 * 1024


class SignInFirst(Exception):
    """Nobody signed in, on a UI that needs a key: the sign-in page, then back here."""


def _who(request: Request) -> tuple:
    access: Access = request.app.state.access
    caller = access.caller(request.headers, request.cookies)
    if caller is None:
        raise SignInFirst()
    return caller, access.tenant(caller)


def _page(request: Request, title: str, body, tenant: str, *, here: str = "",
          status: int = 200) -> HTMLResponse:
    access: Access = request.app.state.access
    caller = None
    if not access.open:
        try:
            caller = access.caller(request.headers, request.cookies)
        except AuthFailed:
            pass
    html = layout(title, body, tenant=tenant, here=here, forget=access.allow_forget,
                  signed_in=caller.name or caller.tenant_id if caller else "",
                  csrf=access.csrf(request.cookies))
    return HTMLResponse(html, status, headers={"cache-control": "no-store"})


async def _read(call, *args, **kwargs):
    """A reader call on a worker thread (the event loop keeps answering)."""
    return await asyncio.to_thread(call, *args, **kwargs)


def _date(value: str | None, name: str) -> datetime | None:
    if not value:
        return None
    try:
        return datetime.strptime(value, "%Y-%m-%d").replace(tzinfo=UTC)
    except ValueError:
        raise UsageError(f"{name}: {value!r} is not a date (use YYYY-MM-DD)") from None


def _types(request: Request) -> tuple[str, ...]:
    chosen = tuple(request.query_params.getlist("type"))
    unknown = sorted(set(chosen) - set(MEMORY_TYPES))
    if unknown:
        raise UsageError(f"unknown memory type(s) {unknown}: use {', '.join(MEMORY_TYPES)}")
    return chosen


def _int(request: Request, name: str, default: int, low: int, high: int) -> int:
    value = request.query_params.get(name) or str(default)
    if not value.isdigit() or not low <= int(value) <= high:
        raise UsageError(f"{name}: {value!r} is not a number from {low} to {high}")
    return int(value)


async def home(request: Request) -> Response:
    _, tenant = _who(request)
    found = await _read(request.app.state.reader.projects, tenant)
    return _page(request, "Projects", pages.projects_page(found), tenant, here="/")


async def project(request: Request) -> Response:
    from sinks.memory_browse import Slice

    _, tenant = _who(request)
    name = request.query_params.get("name", "")
    params = request.query_params
    where = Slice(name, _types(request), _date(params.get("since"), "since"),
                  _date(params.get("until"), "until"))
    limit = _int(request, "limit", pages.PAGE, 1, pages.PAGE)
    offset = _int(request, "offset", 0, 0, 10**9)
    data = await _read(request.app.state.reader.project, tenant, where, limit=limit,
                       offset=offset)
    body = pages.project_page(name, data, types=where.types, since=where.since,
                              until=where.until, limit=limit, offset=offset)
    return _page(request, pages.project_label(name), body, tenant)


async def memory(request: Request) -> Response:
    _, tenant = _who(request)
    memory_id = request.query_params.get("id", "")
    reader = request.app.state.reader
    record = await _read(reader.memory, tenant, memory_id)
    body = memory_page(record, record["around"],
                       can_forget=request.app.state.access.allow_forget)
    return _page(request, f"{record['memory_type'].capitalize()}", body, tenant)


async def search(request: Request) -> Response:
    _, tenant = _who(request)
    params = request.query_params
    query = (params.get("q") or "").strip()
    types, k = _types(request), _int(request, "k", 20, 1, 200)
    since, until = _date(params.get("since"), "since"), _date(params.get("until"), "until")
    hits = []
    if query:
        hits = await _read(request.app.state.reader.search, tenant, query, types=types,
                           since=since, until=until, k=k)
    body = pages.search_page(query, hits, types=types, since=since, until=until, k=k)
    return _page(request, f"Search: {query}" if query else "Search", body, tenant, here="/search")


async def operations(request: Request) -> Response:
    caller, tenant = _who(request)
    access: Access = request.app.state.access
    data = await _read(request.app.state.reader.operations, tenant,
                       runs=access.open or caller.admin)
    return _page(request, "Operations", ops_page.ops_page(data), tenant, here="/ops")


def _selector(values: dict):
    from sinks.forget import Selector

    return Selector(ids=tuple(values.get("id") or ()), node_glob=values.get("node") or None,
                    session_id=values.get("session") or None,
                    before=_date(values.get("before"), "before"),
                    match=values.get("match") or None)


def _selector_values(get) -> dict:
    """The selector's fields from a query or a form (`get(name)` → list of values)."""
    ids = [part for value in get("id") for part in value.split()]
    return {"id": ids, **{name: (get(name) or [""])[0].strip()
                          for name in ("node", "session", "before", "match")}}


async def forget_form(request: Request) -> Response:
    caller, tenant = _who(request)
    access: Access = request.app.state.access
    access.may_forget(caller, tenant)
    values = _selector_values(request.query_params.getlist)
    if not any(values.values()):
        body = forget_page.selector_form(values)
        return _page(request, "Forget", body, tenant, here="/forget")
    result = await _read(request.app.state.reader.forget, tenant, _selector(values),
                         yes=False)
    body = forget_page.forget_preview(result, values, access.csrf(request.cookies))
    return _page(request, "Forget: preview", body, tenant, here="/forget")


async def _form(request: Request) -> dict[str, list[str]]:
    body = await request.body()
    if len(body) > MAX_FORM_BYTES:
        raise UsageError(f"the form is over {MAX_FORM_BYTES} bytes")
    return parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True)


async def forget_confirm(request: Request) -> Response:
    caller, tenant = _who(request)
    access: Access = request.app.state.access
    form = await _form(request)
    access.check_post(request.cookies, request.headers, (form.get("csrf") or [""])[0])
    access.may_forget(caller, tenant)
    values = _selector_values(lambda name: form.get(name, []))
    selector, reader = _selector(values), request.app.state.reader
    preview = await _read(reader.forget, tenant, selector, yes=False)
    if str(preview.memories) != (form.get("expect") or [""])[0]:  # it changed meanwhile
        body = forget_page.forget_preview(preview, values, access.csrf(request.cookies))
        return _page(request, "Forget: the selection changed, preview again", body, tenant,
                     status=409)
    result = await _read(reader.forget, tenant, selector, yes=True)
    return _page(request, "Forgotten", forget_page.forget_done(result), tenant)


def _next(value: str | None) -> str:
    """Where to go after signing in: a path of this site only."""
    return value if value and value.startswith("/") and not value.startswith("//") else "/"


async def sign_in_form(request: Request) -> Response:
    access: Access = request.app.state.access
    if access.open:
        return RedirectResponse("/", 303)
    return _page(request, "Sign in", sign_in_page(_next(request.query_params.get("next"))),
                 access.tenant_flag or "")


async def sign_in(request: Request) -> Response:
    access: Access = request.app.state.access
    form = await _form(request)
    target = _next((form.get("next") or [""])[0])
    if access.open:
        return RedirectResponse(target, 303)
    access.check_origin(request.headers)  # no session yet: nothing for a token to bind to
    try:
        token, _ = access.sign_in((form.get("key") or [""])[0])
    except AuthFailed as refused:
        return _page(request, "Sign in", sign_in_page(target, refused.detail),
                     access.tenant_flag or "", status=refused.status_code)
    response = RedirectResponse(target, 303)
    response.set_cookie(COOKIE, token, max_age=SESSION_SECONDS, httponly=True, samesite="strict",
                        secure=request.url.scheme == "https")
    return response


async def sign_out(request: Request) -> Response:
    access: Access = request.app.state.access
    form = await _form(request)
    access.check_post(request.cookies, request.headers, (form.get("csrf") or [""])[0])
    access.sign_out(request.cookies)
    response = RedirectResponse("/login" if not access.open else "/", 303)
    response.delete_cookie(COOKIE)
    return response


async def healthz(request: Request) -> Response:
    """"ok" to anyone (a probe); the lake's location only to a caller the UI would show pages
    to (this machine on loopback, a valid key beyond it), as `serve`'s `/healthz`: the absolute
    path, or a Postgres catalog's host and database, is not for strangers."""
    access: Access = request.app.state.access
    try:
        caller = access.caller(request.headers, request.cookies)
    except AuthFailed:
        caller = None
    if caller is None:
        return JSONResponse({"status": "ok"})
    return JSONResponse({"status": "ok", "lake": request.app.state.reader.where})


def _refused(request: Request, status: int, detail: str) -> Response:
    access: Access = request.app.state.access
    return _page(request, "Refused" if status in (401, 403) else "Error",
                 error_page(status, detail), access.tenant_flag or access.default_tenant,
                 status=status)


def _sign_in_first(request: Request, _error) -> Response:
    target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    return RedirectResponse(url("/login", next=target), 303)


HANDLERS = {
    SignInFirst: _sign_in_first,
    AuthFailed: lambda request, error: _refused(request, error.status_code, error.detail),
    NodeNotFound: lambda request, error: _refused(request, 404, str(error)),
    UsageError: lambda request, error: _refused(request, 400, str(error)),
    LakeBusy: lambda request, error: _refused(request, 409, str(error)),
    InterviewError: lambda request, error: _refused(request, 500, str(error)),
}


def create_ui_app(reader, access: Access, *, loopback: bool):
    """The UI over `reader` (`jobs.ui.reader.UiReader`) with `access`'s rules; `loopback`: the
    address it is bound to is one (requests must then name a loopback host)."""
    app = Starlette(routes=[
        Route("/", home), Route("/project", project), Route("/memory", memory),
        Route("/search", search), Route("/ops", operations),
        Route("/forget", forget_form, methods=["GET"]),
        Route("/forget", forget_confirm, methods=["POST"]),
        Route("/login", sign_in_form, methods=["GET"]), Route("/login", sign_in, methods=["POST"]),
        Route("/logout", sign_out, methods=["POST"]), Route("/healthz", healthz),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ], exception_handlers=HANDLERS)
    app.state.reader, app.state.access = reader, access
    return Guard(app, loopback=loopback)
