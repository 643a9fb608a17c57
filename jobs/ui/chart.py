"""The chart of memories per day and type: stacked bars as server-rendered SVG (no script, no
library). A range too long for one bar per day is drawn per week, then per month. Each bar
segment names its day, type and count (a tooltip) and links to that day's memories."""

from __future__ import annotations

from collections import defaultdict
from datetime import date, timedelta

from jobs.ui.html import MEMORY_TYPES, Safe, fill, join, url

WIDTH, HEIGHT, LEFT, BOTTOM, TOP = 960, 180, 36, 22, 8
MAX_BARS = 120


def bucket_of(day: date, unit: str) -> date:
    if unit == "week":
        return day - timedelta(days=day.weekday())
    if unit == "month":
        return day.replace(day=1)
    return day


def next_bucket(start: date, unit: str) -> date:
    if unit == "week":
        return start + timedelta(days=7)
    if unit == "month":
        return (start.replace(day=28) + timedelta(days=4)).replace(day=1)
    return start + timedelta(days=1)


def unit_for(first: date, last: date) -> str:
    span = (last - first).days + 1
    if span <= MAX_BARS:
        return "day"
    return "week" if span <= MAX_BARS * 7 else "month"


def buckets(counts: list[tuple[date, str, int]]) -> tuple[str, list[tuple[date, dict[str, int]]]]:
    """The bars: every bucket from the first day to the last (empty ones too), each with its
    count per type."""
    if not counts:
        return "day", []
    unit = unit_for(counts[0][0], counts[-1][0])
    per: dict[date, dict[str, int]] = defaultdict(dict)
    for day, kind, count in counts:
        cell = per[bucket_of(day, unit)]
        cell[kind] = cell.get(kind, 0) + count
    bars, start, last = [], bucket_of(counts[0][0], unit), bucket_of(counts[-1][0], unit)
    while start <= last:
        bars.append((start, per.get(start, {})))
        start = next_bucket(start, unit)
    return unit, bars


def chart(counts: list[tuple[date, str, int]], *, project: str) -> Safe:
    """The SVG (and its legend) for `counts` [(day, type, memories)] of one project."""
    unit, bars = buckets(counts)
    if not bars:
        return Safe('<p class="muted">No memory with a time to chart.</p>')
    peak = max(sum(cell.values()) for _, cell in bars) or 1
    plot_w, plot_h = WIDTH - LEFT - 4, HEIGHT - BOTTOM - TOP
    step = plot_w / len(bars)
    gap = 1 if step > 3 else 0
    shapes = []
    for n, (start, cell) in enumerate(bars):
        x, y = LEFT + n * step, TOP + plot_h
        end = next_bucket(start, unit)
        for kind in [*MEMORY_TYPES, *sorted(set(cell) - set(MEMORY_TYPES))]:
            count = cell.get(kind, 0)
            if not count:
                continue
            h = count / peak * plot_h
            y -= h
            span = "" if unit == "day" else f" ({unit})"
            label = f"{start.isoformat()}{span}: {count} {kind}"
            shapes.append(fill(
                '<a href="{href}"><rect class="t-{css}" x="{x}" y="{y}" width="{w}" height="{h}">'
                '<title>{label}</title></rect></a>',
                href=url("/project", name=project, since=start.isoformat(),
                         until=end.isoformat()),
                css=kind if kind in MEMORY_TYPES else "other", x=f"{x:.1f}", y=f"{y:.1f}",
                w=f"{max(step - gap, 0.5):.1f}", h=f"{h:.1f}", label=label))
    ticks = _ticks(bars, step)
    legend = join(fill('<span class="key"><span class="swatch t-{kind}"></span>{kind}</span>',
                       kind=kind) for kind in MEMORY_TYPES)
    return fill(
        '<figure class="chart"><svg viewBox="0 0 {w} {h}" role="img" '
        'aria-label="memories per {unit} and type"><line class="axis" x1="{left}" y1="{base}" '
        'x2="{w}" y2="{base}"/><text class="tick" x="{ylab}" y="{top}">{peak}</text>'
        '<text class="tick" x="{ylab}" y="{base}">0</text>{shapes}{ticks}</svg>'
        '<figcaption>memories per {unit} and type (UTC; a bar opens its memories) {legend}'
        '</figcaption></figure>',
        w=WIDTH, h=HEIGHT, unit=unit, left=LEFT, base=TOP + plot_h, ylab=LEFT - 6,
        top=TOP + 8, peak=peak, shapes=join(shapes), ticks=ticks, legend=legend)


def _ticks(bars: list, step: float) -> Safe:
    """Up to six dates under the bars, evenly spread."""
    count = len(bars)
    picks = sorted({round(i * (count - 1) / 5) for i in range(6)}) if count > 1 else [0]
    return join(fill('<text class="tick date{edge}" x="{x}" y="{y}">{label}</text>',
                     edge=" last" if i == count - 1 and count > 1 else "",
                     x=f"{LEFT + (i + 0.5) * step:.1f}", y=HEIGHT - 6,
                     label=bars[i][0].isoformat()) for i in picks)
