"""The labelled set of `bench/quality.py`: the stories of `bench/quality_stories.py`, each written
as a Claude Code, Cursor, OpenClaw and Codex trail (long and short; some in two sessions), with
their labels in `labels.json`.

    python bench/quality/make_set.py      # rewrites bench/quality/trails/ and labels.json

Deterministic: the committed files are its output, and each trail draws from its own seeded random
stream (story and agent), so editing one story leaves every other trail as it was. `labels.json`
holds each story's split (`bench/split.py`), facts, acceptable statements and traps once, and the
trails (story, agent, files) that carry them; `bench/strict_match.py` says what a memory must hold
to state one.
"""

from __future__ import annotations

import json
import random
import shutil
import sys
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from bench.quality_stories import SECRET, STORIES  # noqa: E402
from bench.split import split_of  # noqa: E402

TRAILS = HERE / "trails"

FILLER = [
    ("assistant", "Read src/{name}.py ({n} lines); nothing relevant to the task there."),
    ("user", "ok, continue"),
    ("assistant", "Ran the linter on src/{name}.py: no warnings."),
]
SHAPES = ("claude-code", "cursor", "openclaw", "codex")


def turns_of(story: dict, long: bool, rng: random.Random) -> list[tuple[str, str]]:
    turns = list(story["turns"])
    if long:  # routine steps between the story's turns: the facts spread over several windows
        padded = []
        for turn in turns:
            padded.append(turn)
            for _ in range(3):
                role, text = rng.choice(FILLER)
                padded.append((role, text.format(name=rng.choice(["util", "io", "cli", "models"]),
                                                 n=rng.randint(40, 400))))
        turns = padded
    return turns


def times(start: datetime, count: int, rng: random.Random) -> list[datetime]:
    out, now = [], start
    for _ in range(count):
        now += timedelta(seconds=rng.randint(20, 90))
        out.append(now)
    return out


def iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def claude_code(story, turns, stamps, rng, sessions: int) -> dict[str, list[dict]]:
    files: dict[str, list[dict]] = {}
    cut = len(turns) // 2 if sessions == 2 else len(turns)
    session = str(uuid.UUID(int=rng.getrandbits(128)))
    parent = None
    for index, ((role, text), stamp) in enumerate(zip(turns, stamps)):
        if index == cut:
            session, parent = str(uuid.UUID(int=rng.getrandbits(128))), None
        line_id = str(uuid.UUID(int=rng.getrandbits(128)))
        base = {"parentUuid": parent, "isSidechain": False, "userType": "external",
                "cwd": f"/home/dev/{story['project']}", "sessionId": session, "version": "2.1.39",
                "uuid": line_id, "timestamp": iso(stamp)}
        if role == "tool":
            line = {**base, "type": "user", "message": {"role": "user", "content": [
                {"tool_use_id": "toolu_" + line_id[:12], "type": "tool_result", "content": text}]},
                "toolUseResult": {"stdout": text, "stderr": ""}}
        elif role == "assistant":
            line = {**base, "type": "assistant", "message": {"role": "assistant", "content": [
                {"type": "text", "text": text}]}}
        else:
            line = {**base, "type": "user", "message": {"role": "user", "content": text}}
        files.setdefault(f"{session}.jsonl", []).append(line)
        parent = line_id
    return files


def cursor_stamp(moment: datetime) -> str:
    hour = moment.hour % 12 or 12
    return (f"{moment.strftime('%A, %b')} {moment.day}, {moment.year}, {hour}:{moment.minute:02d} "
            f"{'PM' if moment.hour >= 12 else 'AM'} (UTC+0)")


def cursor(story, turns, stamps, rng, sessions: int) -> dict[str, list[dict]]:
    lines = []
    for (role, text), stamp in zip(turns, stamps):
        if role == "tool":
            continue  # transcripts hold no tool output
        if role in ("user", "recall"):
            text = f"<user_query>\n{text}\n</user_query>\n<timestamp>{cursor_stamp(stamp)}</timestamp>"
            role = "user"
        lines.append({"role": role, "message": {"content": [{"type": "text", "text": text}]}})
    return {"transcript.jsonl": lines}


def openclaw(story, turns, stamps, rng, sessions: int) -> dict[str, list[dict]]:
    session = str(uuid.UUID(int=rng.getrandbits(128)))
    lines = [{"type": "session", "version": 3, "id": session, "timestamp": iso(stamps[0]),
              "cwd": f"/home/dev/{story['project']}"}]
    parent = None
    for (role, text), stamp in zip(turns, stamps):
        entry_id = f"{rng.getrandbits(32):08x}"
        if role == "tool":
            message = {"role": "toolResult", "toolCallId": "call_" + entry_id, "toolName": "exec",
                       "content": [{"type": "text", "text": text}]}
        else:
            message = {"role": "user" if role == "recall" else role,
                       "content": [{"type": "text", "text": text}]}
        lines.append({"type": "message", "id": entry_id, "parentId": parent,
                      "timestamp": iso(stamp), "message": message})
        parent = entry_id
    return {f"{session}.jsonl": lines}


def codex(story, turns, stamps, rng, sessions: int) -> dict[str, list[dict]]:
    session = str(uuid.UUID(int=rng.getrandbits(128)))
    lines = [{"timestamp": iso(stamps[0]), "type": "session_meta", "payload": {
        "id": session, "timestamp": iso(stamps[0]), "cwd": f"/home/dev/projects/{story['project']}",
        "originator": "codex_cli_rs", "cli_version": "0.63.0", "source": "cli"}}]
    for (role, text), stamp in zip(turns, stamps):
        if role == "tool":
            call = "call_" + f"{rng.getrandbits(48):012x}"
            lines.append({"timestamp": iso(stamp), "type": "response_item", "payload": {
                "type": "function_call", "name": "shell", "arguments": "{\"command\":[\"bash\"]}",
                "call_id": call}})
            lines.append({"timestamp": iso(stamp), "type": "response_item", "payload": {
                "type": "function_call_output", "call_id": call, "output": text}})
            continue
        kind = "output_text" if role == "assistant" else "input_text"
        lines.append({"timestamp": iso(stamp), "type": "response_item", "payload": {
            "type": "message", "role": "assistant" if role == "assistant" else "user",
            "content": [{"type": kind, "text": text}]}})
    name = f"rollout-{stamps[0].strftime('%Y-%m-%dT%H-%M-%S')}-{session}.jsonl"
    return {name: lines}


WRITERS = {"claude-code": claude_code, "cursor": cursor, "openclaw": openclaw, "codex": codex}


def folder(shape: str, story: dict, start: datetime) -> Path:
    project = story["project"]
    if shape == "claude-code":
        return TRAILS / "claude-code" / f"-home-dev-{project}"
    if shape == "cursor":
        return TRAILS / "cursor" / "projects" / project / "agent-transcripts" / f"{project}-chat"
    if shape == "openclaw":
        return TRAILS / "openclaw" / "agents" / project / "sessions"
    return TRAILS / "codex" / "sessions" / start.strftime("%Y/%m/%d")


def main() -> None:
    shutil.rmtree(TRAILS, ignore_errors=True)
    trails = []
    for number, story in enumerate(STORIES):
        for shape_index, shape in enumerate(SHAPES):
            rng = random.Random(f"{story['project']}:{shape}")
            long = (number + shape_index) % 2 == 0
            sessions = 2 if shape == "claude-code" and number % 3 == 0 else 1
            start = datetime(2026, 11, 2 + number, 9, 0, tzinfo=UTC) + timedelta(hours=shape_index)
            turns = turns_of(story, long, rng)
            stamps = times(start, len(turns), rng)
            where = folder(shape, story, start)
            where.mkdir(parents=True, exist_ok=True)
            files = []
            for name, lines in WRITERS[shape](story, turns, stamps, rng, sessions).items():
                if shape == "cursor":
                    name = f"{where.name}.jsonl"
                path = where / name
                path.write_text("".join(json.dumps(line) + "\n" for line in lines))
                files.append(str(path.relative_to(HERE)))
            trails.append({"story": story["project"], "split": split_of(story["project"]),
                           "shape": shape, "long": long, "sessions": sessions, "files": files})
    stories = {story["project"]: {"split": split_of(story["project"]), "facts": story["facts"],
                                  "acceptable": story["acceptable"], "traps": story["traps"]}
               for story in STORIES}
    labels = {"secret": SECRET, "stories": stories, "trails": trails}
    (HERE / "labels.json").write_text(json.dumps(labels, indent=1) + "\n")
    facts = sum(len(stories[t["story"]]["facts"]) for t in trails)
    traps = sum(len(stories[t["story"]]["traps"]) for t in trails)
    print(f"{len(STORIES)} stories, {len(trails)} trails, {facts} planted facts, {traps} traps "
          f"→ {TRAILS}")


if __name__ == "__main__":
    main()
