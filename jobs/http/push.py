"""`interview push`: the client every machine runs. The same discovery, allowlist, parsers and
windows as `interview run`, but each node's watermark lives on the server (documents GET) and
its windows are submitted there, with the reference runner's failure matrix (contract §5.6):

    401/403            abort the whole push (exit 2)
    504, no response   the same window once more, then skip the file
    500, 422, 409, ...  recorded, skip the file (no retry)
    207                counts as progress
One file's error never stops the others; exit 1 when every file tried failed.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from urllib.parse import quote

import httpx

from ingest.errors import InterviewError
from ingest.nodes import NodeRef
from jobs.node_plan import plan_group
from jobs.planning import plan_options
from jobs.settings import Settings
from sinks.watermarks import watermark_doc_id

SUBMIT_TIMEOUT_SECONDS = 120.0


class PushAuthError(InterviewError):
    """The server refused the key (401/403): nothing more can be sent with it."""


@dataclass
class PushSummary:
    server: str
    nodes: int = 0
    files_tried: int = 0
    files_failed: int = 0
    windows_sent: int = 0
    windows_accepted: int = 0
    memories_written: int = 0
    dry_run: bool = False
    seconds: float = 0.0
    skipped: dict[str, int] = field(default_factory=dict)
    errors: list[dict] = field(default_factory=list)
    would_send: list[dict] = field(default_factory=list)

    @property
    def failed_all(self) -> bool:
        return self.files_tried > 0 and self.files_failed == self.files_tried

    def to_json(self) -> dict:
        return asdict(self)


class _FileFailed(Exception):
    def __init__(self, status: int | None, detail: str) -> None:
        super().__init__(detail)
        self.status, self.detail = status, detail


class PushClient:
    """HTTP to one server with one key."""

    def __init__(self, server: str, api_key: str, *, client: httpx.Client | None = None) -> None:
        self.server = server.rstrip("/")
        self.client = client or httpx.Client(timeout=SUBMIT_TIMEOUT_SECONDS,
                                             headers={"X-API-Key": api_key})

    def watermark(self, node_id: str, tenant_id: str | None) -> int:
        """The node's last seq on the server; -1 for a node it has never seen (404)."""
        params = {"collection": "interview_watermarks"}
        if tenant_id:
            params["tenant_id"] = tenant_id
        url = f"{self.server}/api/v1/documents/{quote(watermark_doc_id(node_id), safe='')}"
        response = self._call(lambda: self.client.get(url, params=params))
        if response.status_code == 404:
            return -1
        self._raise_for(response)
        try:
            return int(response.json()["data"]["last_seq"])
        except (ValueError, KeyError, TypeError):
            return -1

    def submit(self, body: dict) -> dict:
        """One window, retried once on 504 or a transport error; the server's reply."""
        url = f"{self.server}/api/v1/interview/submit"
        response = self._call(lambda: self.client.post(url, json=body), retry_504=True)
        self._raise_for(response)
        reply = response.json()
        if not isinstance(reply.get("watermark"), int):
            raise _FileFailed(response.status_code, "returned 2xx but no numeric watermark")
        return reply

    def _call(self, send, retry_504: bool = False) -> httpx.Response:
        for attempt in (1, 2):
            try:
                response = send()
            except httpx.TransportError as error:
                if attempt == 2:
                    raise _FileFailed(None, f"no response from {self.server}: {error}") from None
                continue
            if response.status_code == 504 and retry_504 and attempt == 1:
                continue
            return response
        raise AssertionError("unreachable")

    @staticmethod
    def _raise_for(response: httpx.Response) -> None:
        if response.status_code < 300:
            return
        try:
            detail = response.json().get("detail", response.text)
        except ValueError:
            detail = response.text[:300]
        if response.status_code in (401, 403):
            raise PushAuthError(f"the server refused the API key ({response.status_code}): {detail}")
        raise _FileFailed(response.status_code, str(detail))


def push(settings: Settings, nodes: list[NodeRef], client: PushClient | None, *,
         tenant_id: str | None = None, dry_run: bool = False, progress=None) -> PushSummary:
    """Send the new windows of `nodes` (budget `settings.max_windows`, shared by all).
    `dry_run`: no network, every node from seq 0, the windows listed instead of sent."""
    summary = PushSummary(server=client.server if client else "", nodes=len(nodes), dry_run=dry_run)
    started = time.perf_counter()
    budget = settings.max_windows
    options = plan_options(settings)
    for group in _file_groups(nodes):
        if budget <= 0:
            break
        summary.files_tried += 1
        try:
            marks = [(node, -1 if dry_run else client.watermark(node.node_id, tenant_id))
                     for node in group]
            for plan in plan_group(marks, options):
                if progress:
                    progress.planned(0, min(budget, len(plan.windows)))
                if plan.skipped and not plan.windows:
                    reason = plan.skipped.reason.value
                    summary.skipped[reason] = summary.skipped.get(reason, 0) + 1
                for window in plan.windows[:budget]:
                    budget -= 1
                    body = window.to_body()
                    body["tenant_id"] = tenant_id  # None: the key's tenant
                    if dry_run:
                        summary.would_send.append({
                            "node_id": window.node_id, "cursor_from": window.cursor_from,
                            "cursor_to": window.cursor_to, "events": len(window.events),
                            "chars": window.chars})
                        continue
                    summary.windows_sent += 1
                    reply = client.submit(body)
                    summary.windows_accepted += 1
                    summary.memories_written += int(reply.get("memories_written") or 0)
                    if progress:
                        progress.window_done(reply.get("status", "accepted"), 0)
        except _FileFailed as failed:
            summary.files_failed += 1
            summary.errors.append({"path": group[0].path, "status": failed.status,
                                   "detail": failed.detail})
            if progress:
                progress.note(f"{group[0].path}: {failed.status or 'no response'}: {failed.detail}")
    summary.seconds = round(time.perf_counter() - started, 3)
    return summary


def _file_groups(nodes: list[NodeRef]) -> list[list[NodeRef]]:
    """Nodes sharing one file (a Cursor database's conversations) form one group: one read, and
    one file's error skips the file."""
    groups: dict[str, list[NodeRef]] = {}
    for node in sorted(nodes, key=lambda n: n.node_id):
        groups.setdefault(node.path if node.key else node.node_id, []).append(node)
    return list(groups.values())
