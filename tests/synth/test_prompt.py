from pathlib import Path

from ingest.events import Event
from synth.prompt import PROMPT_VERSION, build_prompt

GOLDEN = Path(__file__).resolve().parent.parent / "goldens" / f"prompt-{PROMPT_VERSION}.txt"

EVENTS = [
    Event(3, "2026-02-12T20:24:52.480Z", "spotter:S1", "user", "prompt",
          "Please make scrolling work in the xterm.js pane."),
    Event(9, "2026-02-12T20:25:10.000Z", None, "agent", "task_result", "task ended: done",
          tool="codex", outcome="succeeded"),
]


def render() -> str:
    prompt = build_prompt(EVENTS, agent_id="cc-me@host", part=2, parts=3)
    return f"=== system ===\n{prompt.system}\n=== user ===\n{prompt.user}\n"


def test_prompt_matches_golden():
    # Regenerate deliberately with: python -c "from tests.synth.test_prompt import write; write()"
    assert PROMPT_VERSION == "interview-v2"
    assert render() == GOLDEN.read_text(encoding="utf-8")


def test_static_part_is_identical_for_every_chunk_and_comes_first():
    a = build_prompt(EVENTS[:1], agent_id="x", part=1, parts=2)
    b = build_prompt(EVENTS[1:], agent_id="y")
    assert a.system == b.system
    assert "ACTIVITY TRAIL" not in a.system and "ACTIVITY TRAIL:" in a.user
    assert "(part 1 of 2)" in a.user and "part" not in b.user.split("\n")[0]


def test_event_line_format():
    user = build_prompt(EVENTS, agent_id="a").user
    assert "[3] 2026-02-12T20:24:52.480Z (session spotter:S1) user/prompt: Please make" in user
    assert "[9] 2026-02-12T20:25:10.000Z (session -) agent/task_result tool=codex outcome=succeeded: task" in user


def write() -> None:
    GOLDEN.write_text(render(), encoding="utf-8")


def test_the_lean_variant_is_shorter_asks_evidence_first_and_is_versioned():
    from synth.interview import schema_for
    from synth.prompt import INSTRUCTIONS, prompt_version
    from tests.scripted import ScriptedBackend

    lean = build_prompt(EVENTS, agent_id="a", variant="lean")
    contract = build_prompt(EVENTS, agent_id="a")
    assert len(lean.system) * 2 < len(INSTRUCTIONS) and lean.user == contract.user
    assert "migrate to X" not in lean.system  # no example for a small model to copy
    item = schema_for(ScriptedBackend(), lean)["properties"]["decisions"]["items"]["properties"]
    assert list(item)[0] == "evidence" and item["evidence"]["items"]["enum"] == [3, 9]
    contract_item = schema_for(ScriptedBackend(), contract)["properties"]["decisions"]["items"]
    assert list(contract_item["properties"])[-1] == "evidence"
    assert prompt_version("lean") == "interview-v2-lean" and prompt_version() == "interview-v2"
