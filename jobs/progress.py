"""Progress as an injected object: silent by default, counting in tests, a live line on a
terminal, plain log lines otherwise. Library code never prints."""

from __future__ import annotations

import logging
import sys
import time

log = logging.getLogger("interview.progress")


class NullProgress:
    def planned(self, nodes: int, windows: int) -> None: ...

    def window_done(self, status: str, memories: int) -> None: ...

    def note(self, message: str) -> None: ...

    def advance(self, count: int) -> None: ...

    def close(self) -> None: ...


class CountingProgress(NullProgress):
    def __init__(self) -> None:
        self.nodes = self.windows = self.done = self.memories = 0
        self.statuses: list[str] = []
        self.notes: list[str] = []

    def planned(self, nodes: int, windows: int) -> None:
        self.nodes += nodes
        self.windows += windows

    def window_done(self, status: str, memories: int) -> None:
        self.done += 1
        self.memories += memories
        self.statuses.append(status)

    def note(self, message: str) -> None:
        self.notes.append(message)

    def advance(self, count: int) -> None:
        self.done += count


class ConsoleProgress(CountingProgress):
    """`windows done/total, memories, ETA` on stderr: redrawn on a terminal, logged otherwise."""

    def __init__(self, stream=None, unit: str = "windows") -> None:
        super().__init__()
        self.unit = unit
        self.stream = stream or sys.stderr
        self.live = self.stream.isatty()
        self.started = time.monotonic()

    def _line(self) -> str:
        elapsed = time.monotonic() - self.started
        eta = ""
        if self.done and self.windows > self.done:
            eta = f", ETA {elapsed / self.done * (self.windows - self.done):.0f}s"
        memories = f", memories {self.memories}" if self.unit == "windows" else ""
        return f"{self.unit} {self.done}/{self.windows}{memories}, {elapsed:.0f}s{eta}"

    def planned(self, nodes: int, windows: int) -> None:
        super().planned(nodes, windows)
        self._show()

    def window_done(self, status: str, memories: int) -> None:
        super().window_done(status, memories)
        self._show()

    def advance(self, count: int) -> None:
        super().advance(count)
        self._show()

    def note(self, message: str) -> None:
        super().note(message)
        if self.live:
            self.stream.write("\r\033[K")
        log.warning("%s", message)

    def _show(self) -> None:
        if self.live:
            self.stream.write("\r\033[K" + self._line())
            self.stream.flush()
        else:
            log.info("%s", self._line())

    def close(self) -> None:
        if self.live:
            self.stream.write("\r\033[K")
            self.stream.flush()
