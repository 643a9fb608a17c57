"""Synthetic Claude Code trails with the real mix of line types and sizes, and a seeded share of
secrets: N project sessions of M lines each, written as a projects folder.

    python bench/gen_trails.py OUT_DIR --nodes 20 --lines 2000 [--secret-share 0.01] [--seed 1]

Lines are compact JSON, as Claude Code writes them (ccusage only reads compact lines). The mix
follows the staged 2.1.39 session (trail-formats §1): most lines are `progress` and
tool-result user lines carrying file contents; a few are real prompts and assistant text.
"""

from __future__ import annotations

import argparse
import json
import random
import string
from pathlib import Path

SECRETS = ["AKIA" + "Q" * 4 + "7X2M9K4L1P3R", "ghp_" + "a1B2c3D4" * 4 + "e5F6",
           "sk-ant-api03-" + "x" * 40, "xoxb-123456789012-123456789012-" + "z" * 24]
WORDS = ("the build test cache index parser window watermark lake memory node trail fix add "
         "remove refactor deploy retry timeout config schema chunk ray duckdb").split()


def sentence(rng, words):
    return " ".join(rng.choice(WORDS) for _ in range(words)).capitalize() + "."


def line(rng, session, i, secret_share):
    timestamp = (f"2026-11-{1 + i // 86400 % 28:02d}T{i // 3600 % 24:02d}:{i // 60 % 60:02d}:"
                 f"{i % 60:02d}.000Z")
    base = {"parentUuid": f"{session}-{i - 1}", "isSidechain": False, "userType": "external",
            "cwd": "/home/me/proj", "sessionId": session, "version": "2.1.39", "gitBranch": "main",
            "uuid": f"{session}-{i}", "timestamp": timestamp}
    roll = rng.random()
    secret = f" token {rng.choice(SECRETS)}" if rng.random() < secret_share else ""
    if roll < 0.55:
        return {"type": "progress", "data": {"type": "hook_progress", "hookEvent": "PostToolUse",
                                             "hookName": "PostToolUse:Bash", "output": sentence(rng, 20)},
                "parentToolUseID": f"toolu_{i}", "toolUseID": f"toolu_{i}", **base}
    if roll < 0.80:
        body = "\n".join(sentence(rng, 12) for _ in range(rng.randint(5, 60)))
        return {"type": "user", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": f"toolu_{i}", "content": body + secret}]},
            "toolUseResult": {"stdout": body, "stderr": ""}, **base}
    if roll < 0.88:
        return {"type": "assistant", "message": assistant_message(rng, session, i, [
            {"type": "tool_use", "id": f"toolu_{i}", "name": "Bash", "input": {"command": "pytest -q"}}]),
            "requestId": f"req_{session}_{i}", **base}
    if roll < 0.94:
        text = " ".join(sentence(rng, 15) for _ in range(rng.randint(1, 8))) + secret
        return {"type": "assistant", "message": assistant_message(rng, session, i, [{"type": "text", "text": text}]),
                "requestId": f"req_{session}_{i}", **base}
    if roll < 0.97:
        return {"type": "user", "message": {"role": "user", "content": sentence(rng, 25) + secret}, **base}
    return {"type": "file-history-snapshot", "messageId": f"m{i}",
            "snapshot": {"messageId": f"m{i}", "trackedFileBackups": {}, "timestamp": timestamp},
            "isSnapshotUpdate": False}


def assistant_message(rng, session, i, content):
    """An assistant message as the API returns it, with the usage block token counters read."""
    cached = rng.randint(5_000, 60_000)
    return {"model": "claude-opus-4-6", "id": f"msg_{session}_{i}", "type": "message", "role": "assistant",
            "content": content, "stop_reason": None, "stop_sequence": None,
            "usage": {"input_tokens": rng.randint(1, 50), "cache_creation_input_tokens": cached // 10,
                      "cache_read_input_tokens": cached, "output_tokens": rng.randint(5, 800),
                      "service_tier": "standard"}}


def generate(out: Path, nodes: int, lines: int, secret_share: float = 0.01, seed: int = 1) -> int:
    rng = random.Random(seed)
    project = out / "proj"
    project.mkdir(parents=True, exist_ok=True)
    total = 0
    for n in range(nodes):
        session = "".join(rng.choice(string.hexdigits.lower()) for _ in range(8)) + f"-{n:04d}"
        text = "".join(json.dumps(line(rng, session, i, secret_share), separators=(",", ":")) + "\n"
                       for i in range(lines))
        (project / f"{session}.jsonl").write_text(text)
        total += len(text.encode())
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--nodes", type=int, default=20)
    parser.add_argument("--lines", type=int, default=2000)
    parser.add_argument("--secret-share", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    size = generate(args.out, args.nodes, args.lines, args.secret_share, args.seed)
    print(f"wrote {args.nodes} sessions x {args.lines} lines, {size / 1e6:.1f} MB under {args.out}")


if __name__ == "__main__":
    main()
