"""One scan loop counts for every parser: units at or after the cursor are scanned, those that are
not events are noise (rejects included), rejects carry their place and reason."""

import pytest

from ingest.events import Event
from ingest.scan import Rejected, Repaired, decode_line, scan_lines, scan_units
from ingest.sources import read_node
from tests.goldens import fixture_nodes


class EveryObject:
    """A parser that keeps objects with a `keep` field and rejects those with `bad`."""

    candidates = None

    def __init__(self):
        self.before = None

    def rebuild(self, data, offset):
        self.before = data[:offset].count(b"\n")

    def parse(self, seq, record):
        if "bad" in record:
            return Rejected(f"bad {record['bad']}")
        if "keep" in record:
            return Event(seq, "2026-01-01T00:00:00Z", "s", "user", "prompt", record["keep"])
        return None


@pytest.mark.parametrize("start", [0, 1, 2, 4, 5, 6])
def test_the_loop_owns_cursor_counters_and_rejects(start):
    data = (b'{"keep": "a"}\n\n{"bad": 1}\nnot json\n\xff\xfe\n{"keep": "b"}\n{"keep": "torn"}')
    parser = EveryObject()
    trail = scan_lines(data, parser, start_line=start, path="f.jsonl")
    assert parser.before == start
    assert trail.lines_scanned == max(0, 6 - start)
    assert trail.last_complete_line == (5 if start < 6 else -1)
    assert [e.seq for e in trail.events] == [s for s in (0, 5) if s >= start]
    assert trail.noise_lines == trail.lines_scanned - len(trail.events)
    expected = [(3, "bad 1"), (4, "not JSON (invalid literal, expected 'null')"),
                (5, "invalid UTF-8 at byte 0")]
    assert [(r.line, r.reason) for r in trail.rejects] == [(line, why) for line, why in expected
                                                           if line > start]


def test_units_outside_the_seq_space_are_only_reported():
    units = [(0, 1, {"keep": "x"}), (None, 2, Rejected("no seq")), (3, 3, Rejected("broken")),
             (5, 4, {})]
    trail = scan_units(units, EveryObject().parse, start=0, path="buffer")
    assert (trail.lines_scanned, trail.last_complete_line, trail.noise_lines) == (3, 5, 2)
    assert [(r.line, r.reason) for r in trail.rejects] == [(2, "no seq"), (3, "broken")]


def test_decode_line_types_what_it_cannot_use():
    assert decode_line(b'{"a": 1}') == {"a": 1}
    assert decode_line(b"  ") is None and decode_line(b"[1]") is None and decode_line(b"42") is None
    assert decode_line(b"\xff") == Rejected("invalid UTF-8 at byte 0")  # and not JSON either
    assert decode_line(b'{"a": 1').reason.startswith("not JSON")
    # a lone surrogate escape (a cut emoji) is JSON all the same: parsed, replaced by U+FFFD
    assert decode_line(b'{"text": "cut \\ud83d here"}') == {"text": "cut \ufffd here"}


def test_a_line_that_is_not_utf8_is_kept_with_replacement_characters_and_counted():
    """Issue 28 item 14: one latin-1 byte in a prompt rejected the whole line; the reference
    client decodes with U+FFFD and keeps it. Kept, and counted as repaired (not as broken)."""
    latin1 = '{"keep": "caf\u00e9 au lait"}'.encode("latin-1")
    assert decode_line(latin1) == {"keep": "caf\ufffd au lait"}
    assert isinstance(decode_line(latin1), Repaired)
    assert not isinstance(decode_line('{"keep": "café"}'.encode()), Repaired)
    data = b'{"keep": "a"}\n' + latin1 + b"\n\xff\xfe\n"
    trail = scan_lines(data, EveryObject(), path="f.jsonl")
    assert [e.content for e in trail.events] == ["a", "caf\ufffd au lait"]
    assert trail.repaired_lines == 1
    assert [(r.line, r.reason) for r in trail.rejects] == [(3, "invalid UTF-8 at byte 0")]
    units = [(0, 1, Repaired(keep="x\ufffd")), (1, 2, {"keep": "y"})]
    assert scan_units(units, EveryObject().parse).repaired_lines == 1


@pytest.mark.parametrize("name,node", fixture_nodes(), ids=[name for name, _ in fixture_nodes()])
def test_every_parser_counts_the_same_way(name, node):
    trail, units = read_node(node, 0)
    assert trail.noise_lines == trail.lines_scanned - len(trail.events) >= 0
    assert trail.last_complete_line < units or units == 0
    assert all(reject.line >= 1 and reject.reason for reject in trail.rejects)
