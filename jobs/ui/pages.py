"""The pages people read memories on: the projects, a project's timeline (with its chart), and
search. Pure functions from what the reader returned to markup; every value escaped (`html`)."""

from __future__ import annotations

from datetime import UTC, datetime

from jobs.ui.chart import chart
from jobs.ui.html import (
    MEMORY_TYPES,
    Safe,
    clip,
    count,
    fill,
    join,
    table,
    time_tag,
    type_badge,
    url,
)

PAGE = 1000  # memories on one page of a timeline (the most a page shows)
TIMELINE_CHARS = 400  # a memory's text on a timeline or a result list; its page has all of it


def project_label(project: str) -> str:
    return project or "(no project: nodes known only from pushed windows)"


def projects_page(found: list[dict]) -> Safe:
    if not found:
        return Safe('<p class="empty">No memories in this lake for this tenant yet: run '
                    '<code>interview run</code> (or <code>interview run --demo</code>).</p>')
    total = sum(entry["memories"] for entry in found)
    rows = [[fill('<a href="{href}">{name}</a>', href=url("/project", name=entry["project"]),
                  name=project_label(entry["project"])),
             entry["nodes"], entry["memories"],
             *[entry["types"].get(kind, 0) or "" for kind in MEMORY_TYPES],
             time_tag(entry["first_at"], "%Y-%m-%d"), time_tag(entry["last_at"], "%Y-%m-%d")]
            for entry in found]
    return fill('<p>{total} in {projects}.</p>{table}',
                total=count(total, "memory", "memories"), projects=count(len(found), "project"),
                table=table(["project", "nodes", "memories", *MEMORY_TYPES, "first", "last"],
                            rows, css="projects"))


def type_boxes(chosen: tuple[str, ...]) -> Safe:
    return join(fill('<label class="chip t-{kind}"><input type="checkbox" name="type" '
                     'value="{kind}"{on}> {kind}</label>', kind=kind,
                     on=Safe(" checked") if kind in chosen else Safe(""))
                for kind in MEMORY_TYPES)


def date_value(value: datetime | None) -> str:
    return value.astimezone(UTC).date().isoformat() if value else ""


def project_page(project: str, data: dict, *, types, since, until, limit: int,
                 offset: int) -> Safe:
    rows, total = data["rows"], data["total"]
    form = fill(
        '<form class="filters" method="get" action="/project">'
        '<input type="hidden" name="name" value="{name}">{boxes}'
        '<label>since <input type="date" name="since" value="{since}"></label>'
        '<label>until <input type="date" name="until" value="{until}"></label>'
        '<button>Filter</button> <a href="{clear}">clear</a></form>',
        name=project, boxes=type_boxes(types), since=date_value(since),
        until=date_value(until), clear=url("/project", name=project))
    shown = (f"{offset + 1}–{offset + len(rows)} of {total}" if rows else f"0 of {total}")
    pager = []
    params = {"name": project, "type": list(types), "since": date_value(since),
              "until": date_value(until), "limit": limit if limit != PAGE else None}
    if offset > 0:
        pager.append(fill('<a rel="prev" href="{href}">newer</a>',
                          href=url("/project", **params, offset=max(0, offset - limit) or None)))
    if offset + len(rows) < total:
        pager.append(fill('<a rel="next" href="{href}">older</a>',
                          href=url("/project", **params, offset=offset + limit)))
    return fill('{form}{chart}<p class="count">memories {shown}, newest first {pager}</p>'
                '{timeline}{pager_again}',
                form=form, chart=chart(data["per_day"], project=project), shown=shown,
                pager=join(pager, " · "), timeline=timeline(rows),
                pager_again=fill('<p class="pager">{p}</p>', p=join(pager, " · ")))


def timeline(rows: list[dict]) -> Safe:
    """Memories grouped by their day (UTC), in the order given."""
    days: list[tuple[str, list]] = []
    for row in rows:
        start = row["ts_valid_start"]
        day = start.astimezone(UTC).date().isoformat() if start else "no time"
        if not days or days[-1][0] != day:
            days.append((day, []))
        days[-1][1].append(memory_item(row))
    return join(fill('<section class="day"><h3>{day}</h3><ol class="memories">{items}</ol>'
                     '</section>', day=day, items=join(items)) for day, items in days)


def memory_item(row: dict, extra: Safe | None = None, fmt: str = "%H:%M") -> Safe:
    return fill('<li class="memory">{time} {badge} <a href="{href}">{text}</a>{extra}</li>',
                time=time_tag(row["ts_valid_start"], fmt),
                badge=type_badge(row["memory_type"]),
                href=url("/memory", id=row["memory_id"]),
                text=clip(row["content"], TIMELINE_CHARS), extra=extra or Safe(""))


def search_page(query: str, hits, *, types, since, until, k: int, error: str = "") -> Safe:
    form = fill(
        '<form class="search" method="get" action="/search">'
        '<input type="search" name="q" value="{q}" placeholder="words or a question" '
        'autofocus size="50"> <button>Search</button><div class="filters">{boxes}'
        '<label>since <input type="date" name="since" value="{since}"></label>'
        '<label>until <input type="date" name="until" value="{until}"></label>'
        '<label>results <input type="number" name="k" min="1" max="200" value="{k}"></label>'
        '</div></form>',
        q=query, boxes=type_boxes(types), since=date_value(since), until=date_value(until), k=k)
    if error:
        return fill('{form}<p class="error">{error}</p>', form=form, error=error)
    if not query:
        return fill('{form}<p class="muted">Hybrid search: keywords (BM25) fused with meaning '
                    '(embeddings), as <code>interview recall</code>.</p>', form=form)
    if not hits:
        return fill('{form}<p class="empty">No memory matches “{q}”.</p>', form=form, q=query)
    items = [memory_item(
        {"memory_id": hit.memory_id, "memory_type": hit.memory_type, "content": hit.content,
         "ts_valid_start": hit.ts_valid_start},
        fill(' <span class="score" title="reciprocal-rank fusion score">{score} · {how}</span>',
             score=f"{hit.score:.4f}", how=_found_by(hit)), "%Y-%m-%d %H:%M")
        for hit in hits]
    return fill('{form}<p class="count">{n} for “{q}”, best first</p>'
                '<ol class="memories results">{items}</ol>',
                form=form, n=count(len(hits), "result"), q=query, items=join(items))


def _found_by(hit) -> str:
    found = []
    if hit.bm25_rank:
        found.append(f"words #{hit.bm25_rank}")
    if hit.vector_rank:
        found.append(f"meaning #{hit.vector_rank}")
    return ", ".join(found)
