"""The forget pages: the selector (what to forget), the preview of what would go with the form
that confirms it (a POST with the CSRF token and the count previewed), and the result. Pure
functions to markup; every value escaped."""

from __future__ import annotations

from jobs.ui.html import Safe, clip, count, fill, join, table, time_tag, type_badge, url

SELECTOR_FIELDS = (("id", "memory id(s), one per line"), ("node", "node id GLOB"),
                   ("session", "session id"), ("before", "started before (YYYY-MM-DD)"),
                   ("match", "text the memory contains (any case)"))


def selector_form(values: dict) -> Safe:
    """The form that says what to forget (a GET: it only previews)."""
    inputs = []
    for name, label in SELECTOR_FIELDS:
        value = values.get(name) or ""
        if name == "id":
            inputs.append(fill('<label>{label}<textarea name="id" rows="2">{value}</textarea>'
                               '</label>', label=label, value="\n".join(value)))
        else:
            kind = "date" if name == "before" else "text"
            inputs.append(fill('<label>{label}<input type="{kind}" name="{name}" value="{value}">'
                               '</label>', label=label, kind=kind, name=name, value=value))
    return fill('<form class="selector" method="get" action="/forget">{inputs}'
                '<button>Preview</button></form>', inputs=join(inputs))


def hidden_selector(values: dict) -> Safe:
    fields = []
    for name, _ in SELECTOR_FIELDS:
        for value in (values.get(name) or []) if name == "id" else [values.get(name)]:
            if value:
                fields.append(fill('<input type="hidden" name="{n}" value="{v}">', n=name,
                                   v=value))
    return join(fields)


def forget_preview(result, values: dict, csrf: str) -> Safe:
    """What the selector picks now, and the form that forgets exactly that many."""
    if not result.memories:
        return fill('<p class="empty">Nothing matches: no memory would be forgotten.</p>{form}',
                    form=selector_form(values))
    rows = [[type_badge(row["memory_type"]), time_tag(row["ts_valid_start"]),
             fill('<a href="{href}">{text}</a>', href=url("/memory", id=row["memory_id"]),
                  text=clip(row["content"], 200)), row["node_id"]]
            for row in result.preview]
    more = result.memories - len(result.preview)
    return fill(
        '<p class="warning">Forgetting takes <b>{n}</b> (of {w}) out of every query, and '
        'their events are never interviewed again. The audit row keeps '
        'when and the selector, never the text. (They stay in older snapshots until '
        '<code>interview forget … --purge</code>.)</p>{table}{more}'
        '<form method="post" action="/forget">{hidden}<input type="hidden" name="expect" '
        'value="{expect}"><input type="hidden" name="csrf" value="{csrf}">'
        '<button class="danger" id="confirm-forget">Forget {n}</button> '
        '<a href="/">cancel</a></form><h2>Change the selection</h2>{form}',
        n=count(result.memories, "memory", "memories"), w=count(result.windows, "window"),
        expect=result.memories,
        table=table(["type", "happened", "memory", "node"], rows, css="preview"),
        more=fill('<p class="muted">…and {m} more.</p>', m=more) if more > 0 else Safe(""),
        hidden=hidden_selector(values), csrf=csrf, form=selector_form(values))


def forget_done(result) -> Safe:
    return fill('<p class="done">Forgot <b>{n}</b> of {w} '
                '(<code>{id}</code>). They are gone from every page and query; '
                '<code>interview forget --purge</code> erases them from the lake\'s files.</p>'
                '<p><a href="/">Back to the projects</a></p>',
                n=count(result.memories, "memory", "memories"),
                w=count(result.windows, "window"), id=result.forget_id)
