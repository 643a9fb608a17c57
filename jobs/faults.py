"""Named crash points for the crash-and-rerun tests.

`INTERVIEW_CRASH_AT=<point>[:<n>]` makes the process kill itself with SIGKILL the n-th time (default
first) it reaches `<point>`. Read once at import; production runs never set it.
"""

from __future__ import annotations

import os
import signal

_SPEC = os.environ.get("INTERVIEW_CRASH_AT", "")
_POINT, _, _NTH = _SPEC.partition(":")
_TARGET = int(_NTH) if _NTH.isdigit() else 1
_seen = 0

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
)


def crash_point(name: str) -> None:
    global _seen
    if not _POINT or name != _POINT:
        return
    _seen += 1
    if _seen >= _TARGET:
        os.kill(os.getpid(), signal.SIGKILL)
