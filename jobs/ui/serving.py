"""Starting `interview ui`: the access rules for the address it binds, the reader, the listening
socket, uvicorn. The command (`jobs.cli.ui`) prints where it listens between `listen` and `run`."""

from __future__ import annotations

import socket
from dataclasses import dataclass

from ingest.errors import UsageError
from jobs.settings import Settings
from jobs.ui.auth import Access, is_loopback


@dataclass
class UiServer:
    app: object
    reader: object
    access: Access
    keys_from: str  # "" on loopback (no key), else where the keys came from


def prepare(settings: Settings, *, host: str, tenant_flag: str | None,
            allow_forget: bool) -> UiServer:
    """The app over the lake of `settings`: open on loopback, keyed on any other address (the
    server's `[[server.keys]]`, else the lake's local key as `interview serve` makes it)."""
    from jobs.http.auth import KeyRing, local_key
    from jobs.ui.app import create_ui_app
    from jobs.ui.reader import UiReader

    loopback = is_loopback(host)
    keys, keys_from = None, ""
    if not loopback:
        found = list(settings.server.keys)
        keys_from = "config"
        if not found:
            key, path = local_key(settings.local_state_dir, settings.tenant_id)
            found, keys_from = [key], str(path)
        keys = KeyRing(found)
    access = Access(keys, settings.tenant_id, tenant_flag=tenant_flag, allow_forget=allow_forget)
    reader = UiReader(settings)
    return UiServer(create_ui_app(reader, access, loopback=loopback), reader, access, keys_from)


def listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError as error:
        sock.close()
        raise UsageError(f"cannot listen on {host}:{port}: {error.strerror}; pick another --port "
                        "(0: any free one)") from None
    sock.listen(128)
    return sock


def run(server: UiServer, sock: socket.socket) -> None:
    """Serve until interrupted (Ctrl-C, SIGTERM), then close the lake."""
    import uvicorn

    config = uvicorn.Config(server.app, log_level="warning", access_log=False,
                            timeout_keep_alive=5)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        server.reader.close()
