"""Every fixture trail against its golden: expected events (seq, role, kind, ts, first 80 chars)."""

import pytest

from tests.goldens import GOLDENS, describe, fixture_nodes, golden_name, render

NODES = fixture_nodes()


@pytest.mark.parametrize("name, node", NODES, ids=[name for name, _ in NODES])
def test_golden(name, node):
    expected = (GOLDENS / golden_name(name)).read_text(encoding="utf-8")
    assert render(describe(node)) == expected, "run `python -m tests.goldens` and review the diff"


def test_every_fixture_file_has_a_golden():
    names = {golden_name(name) for name, _ in NODES}
    assert names == {path.name for path in GOLDENS.glob("*.json")}
    kinds = {node.kind for _, node in NODES}
    assert kinds == {"cc-session", "cc-subagent", "cursor-transcript", "cursor-db", "openclaw-session",
                     "codex-rollout"}
