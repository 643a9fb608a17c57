"""The commands of many machines: `interview serve` (the endpoint), `interview push` (the client
each machine runs) and `interview key` (API keys for the server's config)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from jobs.cli.shared import (
    EXIT_REJECTED,
    _demo_flags,
    _explicit_roots,
    _guard,
    _lake_option,
    _settings,
    _source_flags,
    _source_options,
)


@click.command()
@click.option("--host", help="Address to listen on (default 127.0.0.1; 0.0.0.0 for every one).")
@click.option("--port", type=click.IntRange(0, 65535), help="Port (default 8080; 0: any free one).")
@_lake_option
@click.option("--inline", is_flag=True, default=None,
              help="Interview inside each submit request (server.async_submit = false).")
@click.option("--workers", type=click.IntRange(1, 64),
              help="Server processes sharing the port (default 1); each writes the lake itself.")
@click.pass_context
def serve(ctx, host, port, lake, inline, workers):
    """Serve the submit endpoint every capture source feeds (contract §1).

    \b
    POST /api/v1/interview/submit           a window: validated, masked, stored in the inbox
    GET  /api/v1/documents/{doc_id}?tenant_id=T&collection=interview_watermarks
    POST /api/v1/admin/interview/schedule/run  (admin key) interview_request commands
    GET  /api/v1/interview/commands?node_id=N   a node's pending commands
    GET  /metrics      Prometheus text format (a read key: its tenant; an admin key: all)
    GET  /healthz

    Accepted windows wait in the lake's inbox; `interview run` (nightly, or now) interviews them.
    Keys come from the config's [[server.keys]] (see `interview key new`); with none, a key for
    the default tenant is made in <lake>/server.key, which `interview push` on this machine reads.

    \b
    Examples:
      interview serve --port 8080
      interview --config configs/server.toml serve --host 0.0.0.0
    """
    import socket

    import uvicorn

    from jobs import faults
    from jobs.http.auth import KeyRing, local_key
    from jobs.http.guard import ConnectionGuard, GuardedConfig
    from jobs.http.server import create_app

    settings = _settings(ctx, lake=lake)
    server = settings.server.model_copy(update={
        key: value for key, value in (("host", host), ("port", port), ("workers", workers))
        if value is not None})
    if inline:
        server = server.model_copy(update={"async_submit": False})
    settings = settings.model_copy(update={"server": server})
    keys = list(server.keys)
    where = "config"
    if not keys:
        key, path = local_key(settings.local_state_dir, settings.tenant_id)
        keys, where = [key], str(path)
    family = socket.AF_INET6 if ":" in server.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # Inherited by accepted connections: a response's head and body go out at once, instead of
    # the body waiting for the client's delayed ACK (40 ms per keep-alive request otherwise).
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        sock.bind((server.host, server.port))
    except OSError as error:
        raise click.ClickException(f"cannot listen on {server.host}:{server.port}: {error.strerror}")
    sock.listen(2048)  # clients that connect during start-up wait in the backlog
    bound = sock.getsockname()[1]
    # Slow or piled-up connections are timed and capped (jobs.http.guard, issue 28 item 3).
    guard = ConnectionGuard.of(server)
    options = dict(log_level="warning", access_log=False, timeout_keep_alive=5,
                   limit_concurrency=max(2048, guard.total + 1), backlog=2048, guard=guard)
    mode = "async (inbox)" if server.async_submit else "inline"
    click.echo(f"listening on http://{server.host}:{bound} (lake {settings.lake_location.describe()}, "
               f"submit {mode}, {len(keys)} key(s) from {where}, {server.workers} worker(s); "
               f"{guard.describe()})")
    sys.stdout.flush()
    if server.workers == 1:
        app = create_app(settings, KeyRing(keys), crash_hook=faults.crash_point)
        uvicorn.Server(GuardedConfig(app, **options)).run(sockets=[sock])
        return
    from uvicorn.supervisors import Multiprocess

    from jobs.http.server import SPEC_VARIABLE, serve_spec

    os.environ[SPEC_VARIABLE] = serve_spec(ctx.obj.get("config"), settings, server, keys)
    config = GuardedConfig("jobs.http.server:app_from_environment", factory=True,
                           workers=server.workers, **options)
    Multiprocess(config, sockets=[sock]).run()


def _api_key(api_key: str | None, api_key_file: Path | None, lake: Path) -> str:
    if api_key:
        return api_key
    path = api_key_file or Path(lake) / "server.key"
    if path.is_file():
        return path.read_text().strip()
    click.echo("Error: no API key: pass --api-key KEY, set INTERVIEW_API_KEY, or --api-key-file "
               f"FILE (default {path}, written by `interview serve` on this machine)", err=True)
    sys.exit(EXIT_REJECTED)


@click.command()
@click.option("--server", "server_url", required=True, envvar="INTERVIEW_SERVER", metavar="URL",
              help="Base URL of the server, e.g. http://127.0.0.1:8080 (or INTERVIEW_SERVER).")
@click.option("--api-key", envvar="INTERVIEW_API_KEY", help="API key (or INTERVIEW_API_KEY).")
@click.option("--api-key-file", type=click.Path(dir_okay=False, path_type=Path),
              help="File holding the API key (default <lake>/server.key when it exists).")
@click.option("--demo", is_flag=True, help="Push the sample trails shipped with the package.")
@_source_options
@_lake_option
@click.option("--tenant", "tenant_id", help="Tenant to submit to (default: the key's tenant).")
@click.option("--max-windows", type=click.IntRange(min=1), help="Windows per push, all nodes (default 8).")
@click.option("--flush", is_flag=True, default=None, help="Send small tails too.")
@click.option("--dry-run", is_flag=True, help="Print what would be sent; no network.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.pass_context
def push(ctx, server_url, api_key, api_key_file, demo, lake, tenant_id, max_windows, flush,
         dry_run, as_json, **source_flags):
    """Send this machine's new windows to an `interview serve` endpoint.

    Same discovery, allowlist and windows as `interview run`; each node's watermark is read from
    the server (a node it never saw starts at 0). A refused key (401/403) stops the push, exit 2;
    one file's error (5xx, 422, no response after one retry) skips that file only; exit 1 when
    every file tried failed.

    \b
    Examples:
      interview push --server http://127.0.0.1:8080 --projects '*'
      INTERVIEW_API_KEY=... interview push --server https://memories.example.org --all-projects
      interview push --server http://127.0.0.1:8080 --all-projects --dry-run
      interview push --server http://127.0.0.1:8080 --demo
    """
    from jobs.api import discover_nodes
    from jobs.http.push import PushAuthError, PushClient
    from jobs.http.push import push as run_push
    from jobs.progress import ConsoleProgress, NullProgress

    flags = dict(lake=lake, max_windows=max_windows, flush=flush, **_source_flags(**source_flags))
    if demo:
        flags.update(_demo_flags(), flush=True if flush is None else flush,
                     max_windows=max_windows or 100)
    settings = _settings(ctx, **flags)
    explicit = _explicit_roots(source_flags)
    found = _guard(lambda: discover_nodes(settings, explicit_roots=explicit))
    client = None if dry_run else PushClient(server_url, _api_key(api_key, api_key_file,
                                                                    settings.local_state_dir))
    progress = NullProgress() if as_json else ConsoleProgress()
    try:
        summary = run_push(settings, found.nodes, client, tenant_id=tenant_id, dry_run=dry_run,
                           progress=progress)
    except PushAuthError as error:
        click.echo(f"Error: {error}", err=True)
        sys.exit(EXIT_REJECTED)
    finally:
        progress.close()
    summary.server = server_url
    if as_json:
        click.echo(json.dumps(summary.to_json(), indent=2))
    elif dry_run:
        for item in summary.would_send:
            click.echo(f"would send {item['node_id']} {item['cursor_from']}..{item['cursor_to']} "
                       f"({item['events']} events, {item['chars']:,} chars)")
        click.echo(f"{len(summary.would_send)} window(s) from {summary.nodes} node(s); nothing sent")
    else:
        click.echo(f"pushed to {server_url}: {summary.windows_accepted}/{summary.windows_sent} "
                   f"windows accepted from {summary.nodes} nodes in {summary.seconds:.1f}s; "
                   f"{summary.files_failed} of {summary.files_tried} files failed")
        for error in summary.errors:
            click.echo(f"  {error['path']}: {error['status'] or 'no response'}: {error['detail']}")
    if summary.failed_all:
        sys.exit(1)


@click.group()
def key():
    """API keys for `interview serve`."""


@key.command("new")
@click.option("--tenant", "tenant_id", required=True, help="Tenant the key acts for.")
@click.option("--read-only", is_flag=True, help="Read watermarks and commands; never submit.")
@click.option("--admin", is_flag=True, help="Also run the scheduler, for any tenant.")
@click.option("--name", default="", help="Who holds it (shown in the config).")
def key_new(tenant_id, read_only, admin, name):
    """Make a key: print it once, and the [[server.keys]] entry (its SHA-256) for the config."""
    from jobs.http.auth import hash_key, new_key

    secret = new_key()
    capabilities = ["read"] if read_only else ["write", "read"]
    if admin:
        capabilities.append("admin")
    click.echo(f"key (give it to the client; it is not stored anywhere): {secret}", err=True)
    click.echo("[[server.keys]]")
    click.echo(f'sha256 = "{hash_key(secret)}"')
    click.echo(f"tenant = {json.dumps(tenant_id)}")
    click.echo(f"capabilities = {json.dumps(capabilities)}")
    click.echo(f"name = {json.dumps(name)}")


COMMANDS = (serve, push, key)
