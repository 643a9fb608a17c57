"""HTML for `interview ui`, escaped by construction: a value reaches a page only through `esc`
(or `fill`, which escapes every value it is given), unless it is `Safe` — markup this package
built itself. Memories are untrusted text (a trail can hold anything); nothing of theirs is
ever markup.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from datetime import UTC, date, datetime
from urllib.parse import urlencode

MEMORY_TYPES = ("episode", "decision", "outcome", "task", "fact", "preference")


class Safe(str):
    """Markup built here, from escaped values: `esc` passes it through unchanged."""

    __slots__ = ()


def esc(value) -> Safe:
    """`value` as HTML text, safe in element content and in quoted attributes."""
    if isinstance(value, Safe):
        return value
    if value is None:
        return Safe("")
    if isinstance(value, datetime):
        value = when(value)
    return Safe(html.escape(str(value), quote=True))


def fill(template: str, **values) -> Safe:
    """`template` (markup written here) with every value escaped into it."""
    return Safe(template.format(**{name: esc(value) for name, value in values.items()}))


def join(parts: Iterable, sep: str = "") -> Safe:
    return Safe(sep.join(esc(part) for part in parts))


def url(path: str, **params) -> str:
    """A relative URL with its query; list values repeat, None and "" are left out."""
    pairs = []
    for name, value in params.items():
        for item in value if isinstance(value, list | tuple) else [value]:
            if item is not None and item != "":
                pairs.append((name, str(item)))
    return path + ("?" + urlencode(pairs) if pairs else "")


def when(value: datetime | date | None) -> str:
    """A time in UTC as `YYYY-MM-DD HH:MM:SS` (a date as itself); "" for none."""
    if value is None:
        return ""
    if isinstance(value, datetime):
        if value.tzinfo is not None:
            value = value.astimezone(UTC)
        return value.strftime("%Y-%m-%d %H:%M:%S")
    return value.isoformat()


def time_tag(value: datetime | None, fmt: str = "%Y-%m-%d %H:%M") -> Safe:
    """A <time> the page's script shows in the reader's own zone (UTC without the script)."""
    if value is None:
        return Safe('<span class="muted">no time</span>')
    utc = value.astimezone(UTC) if value.tzinfo else value.replace(tzinfo=UTC)
    return fill('<time datetime="{iso}" title="{title} UTC">{text}</time>',
                iso=utc.isoformat().replace("+00:00", "Z"), title=when(utc),
                text=utc.strftime(fmt))


def type_badge(memory_type: str) -> Safe:
    kind = memory_type if memory_type in MEMORY_TYPES else "other"
    return fill('<span class="badge t-{kind}">{label}</span>', kind=kind, label=memory_type)


def count(n: int, one: str, many: str | None = None) -> str:
    """`1 memory`, `5 memories`."""
    return f"{n:,} {one if n == 1 else many or one + 's'}"


def clip(text: str | None, limit: int) -> str:
    text = text or ""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def table(headers: Iterable[str], rows: Iterable[Iterable], *, css: str = "") -> Safe:
    head = join(fill("<th>{h}</th>", h=h) for h in headers)
    body = join(Safe("<tr>" + join(fill("<td>{c}</td>", c=c) for c in row) + "</tr>")
                for row in rows)
    return fill('<table class="{css}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>',
                css=css, head=head, body=body)


NAV = (("/", "Projects"), ("/search", "Search"), ("/ops", "Operations"), ("/forget", "Forget"))


def layout(title: str, body: Safe, *, tenant: str, here: str = "", forget: bool = False,
           signed_in: str = "", csrf: str = "") -> str:
    """A whole page: head (the package's own CSS and script, nothing from elsewhere), the
    navigation, `body`."""
    links = join(fill('<a href="{href}"{current}>{label}</a>', href=href, label=label,
                      current=Safe(' aria-current="page"') if href == here else Safe(""))
                 for href, label in NAV if forget or href != "/forget")
    who = Safe("")
    if signed_in:
        who = fill('<form class="inline" method="post" action="/logout">'
                   '<input type="hidden" name="csrf" value="{csrf}">'
                   '<span class="muted">key: {name}</span> <button>Sign out</button></form>',
                   csrf=csrf, name=signed_in)
    return fill(
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<title>{title} · trail-interview</title>'
        '<link rel="icon" href="/static/icon.svg" type="image/svg+xml">'
        '<link rel="stylesheet" href="/static/ui.css"><script src="/static/ui.js" defer></script>'
        '</head><body><header><a class="brand" href="/">trail-interview</a><nav>{links}</nav>'
        '<span class="tenant">tenant <b>{tenant}</b></span>{who}</header>'
        '<main><h1>{title}</h1>{body}</main></body></html>',
        title=title, links=links, tenant=tenant, who=who, body=body)
