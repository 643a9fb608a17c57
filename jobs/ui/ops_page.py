"""The operations page: what `interview status` tells, from the lake: the nodes with their
watermarks, lines past them and noise, the inbox of pushed windows, the parked windows, and the
last runs with their counts. A pure function to markup; every value escaped."""

from __future__ import annotations

from jobs.ui.html import Safe, count, fill, join, table, time_tag

RUN_COUNTS = ("nodes", "windows", "memories_written", "duplicates", "parked",
              "unsupported_dropped")


def ops_page(data: dict) -> Safe:
    return fill('<h2>Last runs</h2>{runs}<h2>Inbox (pushed windows)</h2>{inbox}'
                '<h2>Parked windows</h2>{parked}<h2>Nodes</h2>{nodes}',
                nodes=nodes_table(data["nodes"]), inbox=inbox(data["inbox"]),
                parked=parked(data["parked"]), runs=runs(data["runs"]))


def nodes_table(nodes: list[dict]) -> Safe:
    if not nodes:
        return Safe('<p class="empty">No node has been interviewed or pushed yet.</p>')
    rows = [[fill("<code>{n}</code>", n=node["node_id"]), node["source"], node["project"] or "",
             "" if node["lines"] is None else node["lines"], node["last_seq"],
             "" if node["pending"] is None else node["pending"],
             time_tag(node["last_interview_at"]), node["noise"] or "", node["memories"]]
            for node in nodes]
    return fill('<p class="muted">{n}. The watermark is the last seq interviewed (or '
                'accepted from a push), -1 for none; pending: lines the lake saw past it; '
                'noise: lines of committed windows that were not conversation.</p>{t}',
                n=count(len(nodes), "node"),
                t=table(["node", "source", "project", "lines", "watermark", "pending",
                         "last interviewed", "noise", "memories"], rows, css="nodes"))


def inbox(counts: dict[str, int]) -> Safe:
    if not counts:
        return Safe('<p class="muted">Empty: no window was pushed to this lake.</p>')
    waiting = counts.get("pending", 0)
    return fill('<p>{counts}{hint}</p>',
                counts=", ".join(f"{counts[status]} {status}" for status in sorted(counts)),
                hint="; `interview run` interviews the pending ones" if waiting else "")


def parked(items: list[dict]) -> Safe:
    if not items:
        return Safe('<p class="muted">None.</p>')
    rows = [[fill("<code>{n}</code>", n=item["node_id"]),
             f"{item['cursor_from']}..{item['cursor_to']}", item["status"], item["attempts"],
             item["reason"]] for item in items]
    return fill('<p>{n}; <code>interview retry</code> re-queues them.</p>{t}',
                n=count(len(items), "window"),
                t=table(["node", "seqs", "status", "attempts", "reason"], rows, css="parked"))


def runs(found: list[dict] | None) -> Safe:
    if found is None:
        return Safe('<p class="muted">Runs are not kept per tenant: an admin key shows them.</p>')
    if not found:
        return Safe('<p class="muted">No run yet.</p>')
    rows = []
    for run in found:
        counts = run["counts"]
        rows.append([fill("<code>{r}</code>", r=run["run_id"]), run["kind"], run["status"],
                     time_tag(run["started_at"]), time_tag(run["finished_at"])
                     if run["finished_at"] else "", run["model"] or run["backend"] or "",
                     *[counts.get(key, "") for key in RUN_COUNTS],
                     _all_counts(counts)])
    return table(["run", "kind", "status", "started", "finished", "model",
                  *[key.replace("_", " ") for key in RUN_COUNTS], "all counts"], rows,
                 css="runs")


def _all_counts(counts: dict) -> Safe:
    if not counts:
        return Safe("")
    return fill('<details><summary>{n}</summary>{items}</details>', n=len(counts),
                items=join(fill("<div>{k}: {v}</div>", k=key, v=value)
                           for key, value in sorted(counts.items())))
