"""Named crash points for the crash-and-rerun tests.

`INTERVIEW_CRASH_AT=<point>[:<n>]` makes the process kill itself with SIGKILL the n-th time (default
first) it reaches `<point>`. The variable is read once, when a command starts (`arm_from_environment`,
called by the CLI); production runs never set it, and library code only calls `crash_point`.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Mapping
from dataclasses import dataclass

POINTS = (
    "after_plan",
    "mid_model_call",
    "after_memories",
    "after_ledger",
    "before_watermark",
    "after_watermark",
    "mid_compaction",
    "mid_merge",
    "mid_embed",
    "before_inbox",  # the server: a batch of accepted windows about to be written
    "after_inbox",  # ... written, the transaction not committed yet
    "after_accept",  # ... committed, the 200s not yet sent
    "mid_consolidation",  # a project's links written, its superseded memories not yet ended
)


@dataclass
class _Armed:
    point: str = ""
    target: int = 1
    seen: int = 0


_armed = _Armed()


def arm_from_environment(environ: Mapping[str, str] = os.environ) -> None:
    """Read `INTERVIEW_CRASH_AT` once; an unknown point is an error, not a silent no-op."""
    global _armed
    spec = environ.get("INTERVIEW_CRASH_AT", "")
    point, _, nth = spec.partition(":")
    if point and point not in POINTS:
        raise ValueError(f"INTERVIEW_CRASH_AT={spec!r}: unknown point; known: {', '.join(POINTS)}")
    _armed = _Armed(point, int(nth) if nth.isdigit() else 1)


def crash_point(name: str) -> None:
    if not _armed.point or name != _armed.point:
        return
    _armed.seen += 1
    if _armed.seen >= _armed.target:
        os.kill(os.getpid(), signal.SIGKILL)
