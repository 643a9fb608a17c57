"""The server's group commit: accepted windows from concurrent requests reach the lake together.

Each request hands its masked window to `InboxWriter.accept` and waits for the future. One thread
owns the lake connection: it takes every window waiting (up to `max_batch`) and writes them with
`accept_windows` in ONE transaction, so that under load a commit serves many requests and a
request's 200 still leaves only after its window is durable. Node contacts (command polls) ride
along in the same transactions. Reads use their own cursors of the same lake.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import logging
import queue
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from ingest.windows import Window
from sinks.inbox import AcceptMemory, accept_windows
from sinks.lake import Lake, write_transaction
from sinks.tables import NODE_CONTACTS, insert

log = logging.getLogger(__name__)


@dataclass
class WriterCounts:
    transactions: int = 0
    windows: int = 0
    contacts: int = 0
    largest_batch: int = 0
    write_seconds: float = 0.0  # inside the lake transactions


class _Stop:
    pass


class InboxWriter:
    """A shared writer of one lake (it runs beside a batch run). `close()` drains and stops."""

    def __init__(self, root: str | Path, *, max_batch: int = 64, linger_ms: float = 10.0,
                 crash_hook=None) -> None:
        self.lake = Lake(root, writer=True, exclusive=False)
        # Accepted windows go straight to Parquet: inlining them into the SQLite catalog made
        # a batch of 8 cost 28 ms instead of 20 (bench/serve.py).
        self.lake.con.execute("SET ducklake_default_data_inlining_row_limit = 0")
        # One DuckDB thread: an accept is small, and a second thread cost 60% more CPU per
        # transaction (26 ms against 16 for 4 windows) that the request handling needs.
        self.lake.con.execute("SET threads = 1")
        self.max_batch = max_batch
        self.linger = linger_ms / 1000
        self._expected = self._peak = 0
        self.counts = WriterCounts()
        self._crash_hook = crash_hook
        self.memory = AcceptMemory.load(self.lake.con)
        self._queue: queue.Queue = queue.Queue()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._loop, name="inbox-writer", daemon=True)
        self._thread.start()

    def accept(self, window: Window) -> concurrent.futures.Future:
        """The future's result: the node's effective watermark, or `JobRefused`."""
        future: concurrent.futures.Future = concurrent.futures.Future()
        self._queue.put(("window", window, future))
        return future

    def expect(self, change: int) -> None:
        """A submit request began (+1) or ended (-1). The most requests in flight at once since
        the last batch is how many the next batch waits for (clients answered by one commit send
        their next windows a moment later), up to the linger time."""
        with self._lock:
            self._expected += change
            self._peak = max(self._peak, self._expected)

    def contact(self, tenant_id: str, node_id: str) -> None:
        """A pushing node reached the server (the scheduler's heartbeat); written with the next
        batch, never waited for."""
        self._queue.put(("contact", (tenant_id, node_id, datetime.now(UTC)), None))

    @contextlib.contextmanager
    def reader(self):
        """A cursor of the lake for one read (its own DuckDB connection, on the caller's thread)."""
        with self._lock:
            cursor = self.lake.con.cursor()
        try:
            cursor.execute("USE lake")
            yield cursor
        finally:
            cursor.close()

    def close(self) -> None:
        self._queue.put((_Stop, None, None))
        self._thread.join()
        self.lake.close()

    def _loop(self) -> None:
        while True:
            batch = [self._queue.get()]
            # Linger a moment: the clients answered by the last commit are sending their next
            # windows, and one commit for all of them costs about what one costs for one.
            deadline = time.monotonic() + self.linger
            with self._lock:
                target, self._peak = min(self._peak, self.max_batch), self._expected
            while len(batch) < self.max_batch:
                try:
                    batch.append(self._queue.get_nowait())
                    continue
                except queue.Empty:
                    pass
                if len(batch) >= target or time.monotonic() >= deadline:
                    break
                try:
                    batch.append(self._queue.get(timeout=max(0.0, deadline - time.monotonic())))
                except queue.Empty:
                    break
            stop = any(kind is _Stop for kind, _, _ in batch)
            self._write([item for item in batch if item[0] is not _Stop])
            if stop:
                while not self._queue.empty():  # late arrivals: written, never dropped
                    self._write([self._queue.get_nowait()])
                return

    def _write(self, batch: list) -> None:
        windows = [(window, future) for kind, window, future in batch if kind == "window"]
        contacts = [value for kind, value, _ in batch if kind == "contact"]
        began = time.perf_counter()
        try:
            if windows:
                results = accept_windows(self.lake.con, [w for w, _ in windows],
                                         memory=self.memory, crash_hook=self._crash_hook)
            if contacts:
                write_transaction(self.lake.con, lambda con: insert(con, NODE_CONTACTS, [
                    {"tenant_id": t, "node_id": n, "seen_at": at} for t, n, at in contacts]))
        except Exception as error:  # noqa: BLE001 - every waiting request hears of it (500)
            log.exception("could not write %d accepted windows to the lake", len(windows))
            for _, future in windows:
                future.set_exception(error)
            return
        counts = self.counts
        counts.write_seconds += time.perf_counter() - began
        counts.transactions += 1
        counts.windows += len(windows)
        counts.contacts += len(contacts)
        counts.largest_batch = max(counts.largest_batch, len(windows))
        for (_, future), result in zip(windows, results if windows else []):
            future.set_result(result)
