"""A memory's page: its text, type, times, where it came from, the events it cites (masked)
with their FILE:LINE (or the pushed window), and what happened around it. A pure function to
markup; every value escaped."""

from __future__ import annotations

from jobs.ui.html import Safe, esc, fill, join, time_tag, type_badge, url
from jobs.ui.pages import memory_item, project_label

FIELDS = (("memory id", "memory_id"), ("node", "node_id"), ("session", "session_id"),
          ("agent", "agent_id"), ("trail", "path"), ("source", "source"))


def memory_page(record: dict, around: list[dict], *, can_forget: bool) -> Safe:
    """The text first, then when and where from, its evidence, what is around it, and the ids."""
    when = fill('{start}{end}', start=time_tag(record["ts_valid_start"]),
                end=fill(" – {t}", t=time_tag(record["ts_valid_end"]))
                if record.get("ts_valid_end") else Safe(""))
    window = ""
    if record.get("window_from") is not None:
        window = f"seqs {record['window_from']}..{record['window_to']} of its node"
    facts = join(fill("<dt>{label}</dt><dd><code>{value}</code></dd>", label=label,
                      value=record.get(key)) for label, key in FIELDS if record.get(key))
    project = record.get("project") or ""
    forget = Safe("")
    if can_forget:
        forget = fill('<form method="get" action="/forget"><input type="hidden" name="id" '
                      'value="{id}"><button class="danger">Forget this memory…</button></form>',
                      id=record["memory_id"])
    others = [row for row in around if row["memory_id"] != record["memory_id"]]
    return fill(
        '<article class="memory-page"><p>{badge} {when} · <a href="{project_href}">{project}</a>'
        '</p><blockquote class="content">{content}</blockquote>'
        '<h2>Evidence</h2>{evidence}{chain}<h2>Around it</h2>{around}<h2>Details</h2>'
        '<dl class="facts"><dt>window</dt><dd>{window}</dd><dt>written</dt><dd>{created}</dd>'
        '{facts}</dl>{forget}</article>',
        badge=type_badge(record["memory_type"]), when=when, content=record["content"],
        project_href=url("/project", name=project), project=project_label(project),
        window=window or "unknown", created=time_tag(record.get("created_at")), facts=facts,
        forget=forget, evidence=evidence(record), chain=chain(record.get("chain") or []),
        around=fill('<ol class="memories">{items}</ol>',
                    items=join(memory_item(row, fmt="%Y-%m-%d %H:%M") for row in others))
        if others else Safe('<p class="muted">Nothing else from this session or node.</p>'))


def chain(rows: list[dict]) -> Safe:
    """What consolidation linked the memory to, oldest first, each with its state now: current,
    duplicate of, superseded by, closed by (with the other memory), or forgotten."""
    if not rows:
        return Safe("")
    starts = {row["memory_id"]: row["ts_valid_start"] for row in rows}
    items = []
    for row in rows:
        state = Safe(f' <span class="state">{esc(row["state"])}</span>')
        if row.get("other_id"):
            state = fill(' <span class="state">{state} <a href="{href}">{other}</a>{when}</span>',
                         state=row["state"], href=url("/memory", id=row["other_id"]),
                         other=row["other_id"][:12],
                         when=fill(" ({t})", t=time_tag(row.get("since")
                                                        or starts.get(row["other_id"])))
                         if row.get("since") or starts.get(row["other_id"]) else Safe(""))
        if row.get("content") is None:
            items.append(fill('<li class="memory"><code>{id}</code> {state}</li>',
                              id=row["memory_id"], state=state))
        else:
            items.append(memory_item(row, state, fmt="%Y-%m-%d %H:%M"))
    return fill('<h2>Chain</h2><ol class="memories chain">{items}</ol>', items=join(items))


def evidence(record: dict) -> Safe:
    """The events the memory cites, masked, each with where it is: FILE:LINE, a database row,
    or the pushed window in the inbox."""
    note = record.get("evidence_note")
    items = join(fill(
        '<li class="event"><div class="where"><code>{where}</code> {role} {time}</div>'
        '<pre>{content}</pre></li>', where=event["where"], role=event["role"],
        time=time_tag(_parse(event["ts"])), content=event["content"])
        for event in record.get("evidence", []))
    return fill('{items}{note}', items=fill('<ol class="evidence">{i}</ol>', i=items)
                if record.get("evidence") else Safe(""),
                note=fill('<p class="note">{n}</p>', n=note) if note else Safe(""))


def _parse(ts):
    from datetime import datetime

    if not ts:
        return None
    try:
        return datetime.fromisoformat(str(ts).replace("Z", "+00:00"))
    except ValueError:
        return None
