"""The commands that give memories back to agents: `interview mcp` (a stdio MCP server) and
`interview context` (a digest for a session-start hook)."""

from __future__ import annotations

import click

from jobs.cli.shared import _guard, _lake_option, _settings


@click.command()
@_lake_option
@click.option("--tenant", "tenant_id", help="Tenant whose memories are served (default local).")
@click.option("--max-chars", type=click.IntRange(min=500), default=8000, show_default=True,
              help="Largest answer of one tool call, in characters.")
@click.pass_context
def mcp(ctx, lake, tenant_id, max_chars):
    """Serve the tenant's memories to agents over MCP (stdio), read-only.

    \b
    Tools:
      search_memories  hybrid search (keywords + meaning); filters: types, since, until,
                       node, session, limit
      timeline         what happened around a memory, or from the start of a session
      get_memories     full records by id
    Answers are capped (--max-chars) with a note of what was left out; the lake is read-only
    and may be written by a run meanwhile.

    \b
    Claude Code:  claude mcp add trail-memories -- interview mcp --lake ~/trail-lake
    """
    from jobs.agents.mcp_server import serve_stdio

    settings = _settings(ctx, lake=lake, tenant_id=tenant_id)
    serve_stdio(settings, max_chars=max_chars)


@click.command()
@click.option("--project", default=".", show_default=True, metavar="DIR|GLOB",
              help="The project folder (as its trails name it), or a project-name glob.")
@_lake_option
@click.option("--tenant", "tenant_id", help="Tenant (default local).")
@click.option("--max-chars", type=click.IntRange(min=200), default=4000, show_default=True,
              help="Longest digest, in characters.")
@click.option("--days", type=click.FloatRange(min=0), help="Only memories of the last N days.")
@click.option("--history", is_flag=True,
              help="Superseded decisions and closed blockers too, not only current memories.")
@click.option("--hook-input", is_flag=True,
              help="Read the SessionStart hook's JSON on stdin and take the project from its "
                   "`cwd` (what `interview install` sets up).")
@click.pass_context
def context(ctx, project, lake, tenant_id, max_chars, days, history, hook_input):
    """Print a digest of a project's recent decisions, open blockers and preferences (newest
    first), for a SessionStart hook: current memories only, so a reversed decision or a
    resolved blocker is not in it (unless --history). It is wrapped in <memory-context>, which
    the recall guard cuts from trails, so the digest never becomes a memory again. Prints
    nothing when there is nothing to say.

    \b
    Claude Code (~/.claude/settings.json):
      {"hooks": {"SessionStart": [{"hooks": [{"type": "command",
        "command": "interview context --lake ~/trail-lake"}]}]}}
    """
    from jobs.api import session_digest

    if hook_input:
        import json
        import sys

        try:
            data = json.loads(sys.stdin.read() or "{}")
        except json.JSONDecodeError:
            data = {}  # a digest is a courtesy: a bad payload means the default project
        if isinstance(data, dict) and isinstance(data.get("cwd"), str) and data["cwd"]:
            project = data["cwd"]
    settings = _settings(ctx, lake=lake, tenant_id=tenant_id)
    text = _guard(lambda: session_digest(settings, project, max_chars=max_chars, days=days,
                                         history=history))
    if text:
        click.echo(text)


COMMANDS = (mcp, context)
