"""`interview ui`: the command. A thin shell over `jobs.ui.serving`."""

from __future__ import annotations

import sys

import click

from jobs.cli.shared import _guard, _lake_option, _settings

DEFAULT_PORT = 8765


@click.command()
@_lake_option
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. Loopback needs no key; any other address needs a key "
                   "of the server's [[server.keys]] (a read key; a write key to forget).")
@click.option("--port", type=click.IntRange(0, 65535), default=DEFAULT_PORT, show_default=True,
              help="Port (0: any free one).")
@click.option("--tenant", "tenant_id",
              help="Tenant whose memories are shown (default local; beyond loopback, the key's).")
@click.option("--allow-forget", is_flag=True,
              help="Offer forgetting (a preview, then a confirmation); off by default.")
@click.pass_context
def ui(ctx, lake, host, port, tenant_id, allow_forget):
    """See the memories in a browser: projects, each project's timeline and chart, a memory with
    the events it cites (FILE:LINE), search, operations, and forgetting with --allow-forget.

    The page is served from this package alone (no CDN: it works offline) and reads the lake
    read-only, beside a run that writes it.

    \b
    Examples:
      interview ui                         then open http://127.0.0.1:8765
      interview ui --allow-forget --port 9000
      interview --config configs/server.toml ui --host 0.0.0.0 --tenant acme
    """
    from jobs.ui.serving import listen, prepare, run

    settings = _settings(ctx, lake=lake, tenant_id=tenant_id)
    server = _guard(lambda: prepare(settings, host=host, tenant_flag=tenant_id,
                                    allow_forget=allow_forget))
    try:
        sock = _guard(lambda: listen(host, port))
    except BaseException:
        server.reader.close()
        raise
    shown = f"[{host}]" if ":" in host else host
    keys = (f"a key needed: {len(server.access.keys)} from {server.keys_from}"
            if server.keys_from else "loopback, no key")
    click.echo(f"ui on http://{shown}:{sock.getsockname()[1]} (lake {server.reader.where}, "
               f"tenant {tenant_id or settings.tenant_id}, {keys}, forget "
               f"{'on' if allow_forget else 'off'})")
    sys.stdout.flush()
    run(server, sock)


COMMANDS = (ui,)
