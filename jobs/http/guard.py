"""How many connections the server holds, and for how long: a watchdog inside uvicorn's HTTP
protocol (issue 28 item 3, Slowloris).

uvicorn 0.55 closes a keep-alive connection that stays idle after an answer, but nothing times a
request that is slow to arrive: a connection opened and never written to, or a request line and
headers sent a byte at a time, is held for ever (2,000 of them held 2,000 open files; with the
open-file limit at 512, every real submit failed while they stayed). Its `limit_concurrency`
answers 503 only once a request's headers are complete, so it never sees them. What it has not,
`GuardedHttpToolsProtocol` adds:

- a header deadline, `server.header_read_seconds` from the connection (or from the first byte of
  a keep-alive connection's next request) to the end of the headers: 408, closed;
- a body deadline, `server.body_read_seconds` plus a grace from the headers to the end of the body:
  closed (the submit route answers 408 itself at `body_read_seconds`; this catches every other
  route, which never reads a body it does not need);
- caps on open connections, in all (`server.max_connections`, and at most half the process's
  open-file limit, so the lake keeps files to work with) and per client address
  (`server.max_connections_per_client`): a connection over either gets 503 and is closed at once.

Every refusal is logged, one line per kind per `LOG_EVERY_SECONDS` with the count since the last
line, so an attack cannot flood the log. Caps and counts are per server process (`--workers`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import resource
import time
from dataclasses import dataclass, field

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from jobs.settings import ServerSettings

log = logging.getLogger(__name__)
LOG_EVERY_SECONDS = 10.0
BODY_GRACE_SECONDS = 5.0  # past body_read_seconds: the route's own 408 goes first


@dataclass
class ConnectionGuard:
    """The limits and the live counts of one server process (shared by its connections)."""

    header_seconds: float
    body_seconds: float
    total: int
    per_client: int  # 0: no cap
    open_by_client: dict[str, int] = field(default_factory=dict)
    _logged: dict[str, tuple[float, int]] = field(default_factory=dict)  # kind → (when, since)

    @classmethod
    def of(cls, server: ServerSettings) -> ConnectionGuard:
        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        total = server.max_connections
        if soft != resource.RLIM_INFINITY:
            total = max(1, min(total, soft // 2))
        return cls(server.header_read_seconds, server.body_read_seconds + BODY_GRACE_SECONDS,
                   total, server.max_connections_per_client)

    def describe(self) -> str:
        per_client = (f"{self.per_client} per client address" if self.per_client
                      else "no cap per client")
        return (f"at most {self.total} connections, {per_client}, request headers within "
                f"{self.header_seconds:g}s")

    def admit(self, address: str, open_now: int) -> str | None:
        """Count a new connection from `address`; why it must be refused, or None."""
        count = self.open_by_client[address] = self.open_by_client.get(address, 0) + 1
        if open_now > self.total:
            return (f"{open_now - 1} connections are open, the most this server holds "
                    f"(server.max_connections, at most half the open-file limit: {self.total})")
        if self.per_client and count > self.per_client:
            return (f"{count - 1} connections from {address} are open, the most one client may "
                    f"hold (server.max_connections_per_client: {self.per_client})")
        return None

    def release(self, address: str) -> None:
        left = self.open_by_client.get(address, 0) - 1
        if left > 0:
            self.open_by_client[address] = left
        else:
            self.open_by_client.pop(address, None)

    def note(self, kind: str, message: str, *args) -> None:
        """`log.warning(message, *args)`, at most once per kind per LOG_EVERY_SECONDS."""
        now = time.monotonic()
        last, since = self._logged.get(kind, (-LOG_EVERY_SECONDS, 0))
        if now - last < LOG_EVERY_SECONDS:
            self._logged[kind] = (last, since + 1)
            return
        more = f" (and {since} more like it in the last {now - last:.0f}s)" if since else ""
        log.warning(message + more, *args)
        self._logged[kind] = (now, 0)


def _answer(status: int, reason: str, detail: str) -> bytes:
    body = json.dumps({"detail": detail}).encode()
    return (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n").encode() + body


class GuardedHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with the deadlines and caps of the module docstring."""

    def __init__(self, config, server_state, app_state, _loop=None) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.guard: ConnectionGuard = config.connection_guard
        self._deadline: asyncio.TimerHandle | None = None
        self._address: str | None = None
        self._phase = ""

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._address = self.client[0] if self.client else "unknown"
        refusal = self.guard.admit(self._address, len(self.connections))
        if refusal is not None:
            self.guard.note("refused", "refused a connection from %s: %s", self._address, refusal)
            transport.write(_answer(503, "Service Unavailable", f"too many connections: {refusal}"))
            transport.close()
            return
        self._arm(self.guard.header_seconds, "request headers")

    def connection_lost(self, exc) -> None:
        self._disarm()
        if self._address is not None:
            self.guard.release(self._address)
            self._address = None
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._deadline is None:  # the next request of a keep-alive connection
            self._arm(self.guard.header_seconds, "request headers")

    def on_headers_complete(self) -> None:
        self._disarm()
        self._arm(self.guard.body_seconds, "request body")
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()

    def _arm(self, seconds: float, phase: str) -> None:
        self._phase = phase
        self._deadline = self.loop.call_later(seconds, self._too_slow, seconds)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self, seconds: float) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        detail = f"{self._phase} not received within {seconds:g}s"
        setting = ("server.header_read_seconds" if self._phase == "request headers"
                   else "server.body_read_seconds")
        self.guard.note(self._phase, "closed a connection from %s: %s (%s)", self._address,
                        detail, setting)
        if self._phase == "request headers":  # no request yet: the answer cannot collide
            self.transport.write(_answer(408, "Request Timeout", detail))
        self.transport.close()


class GuardedConfig(uvicorn.Config):
    """`uvicorn.Config` whose connections are `GuardedHttpToolsProtocol`s sharing one
    `ConnectionGuard` (picklable, so `--workers` processes each get their own copy)."""

    def __init__(self, app, *, guard: ConnectionGuard, **options) -> None:
        super().__init__(app, http=GuardedHttpToolsProtocol, **options)
        self.connection_guard = guard
