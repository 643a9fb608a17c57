"""Who may see and change what in `interview ui`.

- Bound to loopback (the default), the page is open to this machine: no key, the `--tenant`'s
  memories, forgetting allowed when `--allow-forget` is on. A page answers only requests that
  name a loopback host (`Host: 127.0.0.1:PORT`, `localhost`): a web page elsewhere cannot reach
  it through DNS rebinding.
- Bound to any other address, every page needs a key of the server's `[[server.keys]]`
  (`jobs.http.auth.KeyRing`): in an `X-API-Key` header, or given once on the sign-in page
  (the server keeps a random session id in an HttpOnly, SameSite=Strict cookie, never the key).
  A read key reads its tenant (another tenant only with `admin`), as the server's documents
  endpoint; forgetting needs a write key for that tenant.
- Every change is a POST carrying the form's CSRF token (an HMAC of the session under a secret
  made at start-up) and, when the browser sends one, an `Origin` of this very host.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
import time
from dataclasses import dataclass, field

from jobs.http.auth import AuthFailed, Caller, KeyRing

COOKIE = "interview_ui"
SESSION_SECONDS = 12 * 3600
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})

HEADERS = [  # on every answer: no script, style, frame or form target from elsewhere
    (b"content-security-policy",
     (b"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
      b"connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),  # a POST then names its origin (not "null")
    (b"x-frame-options", b"DENY"),
]


def is_loopback(host: str) -> bool:
    """An address (or name) only this machine can reach."""
    host = host.strip("[]")
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def host_name(header: str) -> str:
    """The host of a `Host` header value, without its port (`[::1]:80` → `::1`)."""
    if header.startswith("["):
        return header[1:header.find("]")] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


@dataclass
class Access:
    """The access rules of one running UI (see the module's docstring)."""

    keys: KeyRing | None  # None: bound to loopback, open to this machine
    default_tenant: str  # the --tenant (or the config's); a key without --tenant reads its own
    tenant_flag: str | None = None
    allow_forget: bool = False
    secret: bytes = field(default_factory=lambda: secrets.token_bytes(32))
    sessions: dict[str, tuple[Caller, float]] = field(default_factory=dict)

    @property
    def open(self) -> bool:
        return self.keys is None

    def caller(self, headers, cookies) -> Caller | None:
        """Who is asking: the open caller on loopback, else the key's (header or session);
        None when nobody signed in. An unknown key in the header is a 401."""
        if self.open:
            return Caller(self.default_tenant, frozenset({"read", "write"}), "this machine")
        presented = headers.get("x-api-key")
        if presented:
            return self.keys.caller(presented)
        session = self.sessions.get(cookies.get(COOKIE, ""))
        if session is None or session[1] < time.monotonic():
            return None
        return session[0]

    def tenant(self, caller: Caller) -> str:
        """The tenant whose memories `caller` sees; refused (403) when the key may not read it."""
        if self.open:
            return self.default_tenant
        tenant = self.tenant_flag or caller.tenant_id
        caller.may_read(tenant)
        return tenant

    def may_forget(self, caller: Caller, tenant: str) -> None:
        if not self.allow_forget:
            raise AuthFailed(403, "forgetting is off in this UI: start it with "
                                  "`interview ui --allow-forget` (or use `interview forget`)")
        caller.require_write()
        caller.may_write(tenant)

    def sign_in(self, key: str) -> tuple[str, Caller]:
        """A new session for a valid key that may read the UI's tenant."""
        caller = self.keys.caller(key.strip())
        self.tenant(caller)
        self._expire()
        token = secrets.token_urlsafe(32)
        self.sessions[token] = (caller, time.monotonic() + SESSION_SECONDS)
        return token, caller

    def sign_out(self, cookies) -> None:
        self.sessions.pop(cookies.get(COOKIE, ""), None)

    def csrf(self, cookies) -> str:
        """The CSRF token of the asker's session (of this machine, on loopback)."""
        session = "open" if self.open else cookies.get(COOKIE, "") or "anonymous"
        return hmac.new(self.secret, session.encode(), hashlib.sha256).hexdigest()

    @staticmethod
    def check_origin(headers) -> None:
        """The browser's `Origin` (when it sends one) must be this very host."""
        origin = headers.get("origin")
        if origin and origin.split("://", 1)[-1] != headers.get("host"):
            raise AuthFailed(403, f"refused: a form posted from another site ({origin})")

    def check_post(self, cookies, headers, token: str | None) -> None:
        """A change: the form's token must be this session's, and its origin this host."""
        self.check_origin(headers)
        if not token or not hmac.compare_digest(token, self.csrf(cookies)):
            raise AuthFailed(403, "refused: the form's token is missing or stale; reload the "
                                  "page and submit it again")

    def _expire(self) -> None:
        now = time.monotonic()
        for token in [token for token, (_, until) in self.sessions.items() if until < now]:
            del self.sessions[token]


class Guard:
    """ASGI middleware: the security headers on every answer; on a loopback bind, a request
    naming another host is refused (400) before it reaches a page."""

    def __init__(self, app, *, loopback: bool) -> None:
        self.app = app
        self.loopback = loopback

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        if self.loopback:
            host = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
            if not is_loopback(host_name(host)):
                return await _refuse(send, b"this page answers on a loopback address only "
                                           b"(127.0.0.1 or localhost)")

        async def with_headers(message):
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *HEADERS]}
            await send(message)

        return await self.app(scope, receive, with_headers)


async def _refuse(send, text: bytes) -> None:
    await send({"type": "http.response.start", "status": 400,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"), *HEADERS]})
    await send({"type": "http.response.body", "body": text})
