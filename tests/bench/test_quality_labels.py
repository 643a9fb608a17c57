"""The quality set's labels hold together: each ideal statement states its own fact, no true
statement falls into a trap, every source is a turn the model sees, the traps reach the model,
the split is the shared rule, and nothing of the prompt's own text or examples is in the set."""

import json
import re
from pathlib import Path

import pytest

from bench.quality_stories import STORIES
from bench.split import split_of
from bench.strict_match import split_term, states, term_polarities, violates
from ingest.sources import read_node
from jobs.api import discover_nodes
from jobs.settings import load_settings
from synth.masking import mask_events
from synth.prompt import VARIANTS

ROOT = Path(__file__).resolve().parent.parent.parent
SET = ROOT / "bench" / "quality"
LABELS = json.loads((SET / "labels.json").read_text())
SEEN = ("user", "assistant", "recall")  # turns that become events (tool results never do)
REACH = ("abandoned", "inverted preference", "resolved blocker", "injection",
         "open question as decided")
NEVER = ("credential", "recalled")  # masked, or cut by the recall guard, before any prompt


def spoken(story: dict) -> list[str]:
    return [text for role, text in story["turns"] if role in SEEN]


def test_the_split_is_the_shared_rule():
    assert split_of("ci-pipeline") == split_of("dashboard-ui") == "test"
    assert split_of("semantic-search") == "test" and split_of("ratelimit-api") == "dev"
    for name, story in LABELS["stories"].items():
        assert story["split"] == split_of(name)
    assert {t["split"] for t in LABELS["trails"]} == {"dev", "test"}


def test_labels_json_is_the_stories_output():
    for story in STORIES:
        written = LABELS["stories"][story["project"]]
        for key in ("facts", "acceptable", "traps"):
            assert written[key] == json.loads(json.dumps(story[key])), (story["project"], key)
    assert len(LABELS["trails"]) == 4 * len(STORIES)


@pytest.mark.parametrize("story", STORIES, ids=lambda s: s["project"])
def test_every_ideal_statement_states_its_fact_and_no_trap(story):
    for claim in story["facts"] + story["acceptable"]:
        assert states(claim["statement"], claim), claim["statement"]
        for trap in story["traps"]:
            assert not violates(claim["statement"], claim.get("type", "fact"), trap), \
                (claim["statement"], trap["statement"])
    for trap in story["traps"]:
        assert violates(trap["statement"], (trap.get("types") or ["fact"])[0], trap), \
            trap["statement"]


@pytest.mark.parametrize("story", STORIES, ids=lambda s: s["project"])
def test_every_source_is_one_turn_the_model_sees(story):
    others = [text for other in STORIES if other is not story for text in spoken(other)]
    for fact in story["facts"]:
        for source in fact["source"]:
            assert sum(source in text for text in spoken(story)) == 1, source
            assert not any(source in text for text in others), source
    for trap in story["traps"]:
        if trap.get("after"):
            assert sum(trap["after"] in text for text in spoken(story)) == 1, trap["after"]


def test_the_facts_and_traps_reach_the_model():
    """Every fact's source turns, the turn that makes a trap wrong, and the words of every trap
    but the credential and the recalled memories are in the masked events of every trail of its
    story (a turn under 60 characters never is: the length floor); those two never are."""
    events: dict[str, str] = {}
    for shape, (key, root) in {"claude-code": ("claude_code_roots", "claude-code"),
                               "cursor": ("cursor_roots", "cursor/projects"),
                               "openclaw": ("openclaw_roots", "openclaw"),
                               "codex": ("codex_roots", "codex")}.items():
        settings = load_settings(sources=[shape], all_projects=True, since_hours=0,
                                 **{key: [str(SET / "trails" / root)]})
        for node in discover_nodes(settings).nodes:
            masked, _ = mask_events(list(read_node(node, 0)[0].events))
            name = str(Path(node.path).resolve().relative_to(SET))
            events[name] = "\n".join(event.content for event in masked)
    assert len(events) == sum(len(t["files"]) for t in LABELS["trails"])
    for trail in LABELS["trails"]:
        text = "\n".join(events[name] for name in trail["files"])
        story = LABELS["stories"][trail["story"]]
        for fact in story["facts"]:
            assert all(source in text for source in fact["source"]), (trail["files"], fact)
        for trap in story["traps"]:
            assert trap.get("after", "") in text, (trail["files"], trap["after"])
            held = [any(term_polarities(text, alt) for alt in split_term(term)[0])
                    for term in trap["terms"]]
            assert trap["kind"] in REACH + NEVER
            if trap["kind"] in REACH:
                assert all(held), (trail["files"], trap["statement"])
            else:
                assert not all(held), (trail["files"], trap["statement"])


def _label_texts() -> list[str]:
    texts = []
    for story in LABELS["stories"].values():
        for claim in story["facts"] + story["acceptable"] + story["traps"]:
            texts += [claim["statement"], *claim["terms"], *claim["figures"],
                      *claim.get("source", []), claim.get("after") or ""]
            texts += [term for terms in claim.get("either", []) for term in terms]
    return [t for t in texts if t]


def _shingles(text: str, n: int = 4) -> set[tuple[str, ...]]:
    words = re.findall(r"[a-z0-9@%.'-]+", text.casefold())
    return {tuple(words[i:i + n]) for i in range(len(words) - n + 1)}


def test_nothing_of_the_prompts_text_or_examples_is_in_the_labels():
    prompt = "\n".join(VARIANTS.values())
    examples = re.findall(r'\("([^"]+)"', prompt)  # the quoted examples: ("recall@10 0.87 ...")
    assert examples, "the prompt's examples were not found: update this test"
    specifics = {w for example in examples for w in re.findall(r"\S*\d\S*", example.casefold())}
    specifics = {w.strip(",.;()") for w in specifics}
    labels = _label_texts()
    turns = [text for story in STORIES for _, text in story["turns"]]
    for text in labels + turns:
        tokens = set(re.findall(r"[^\s,;()]+", text.casefold()))
        assert not tokens & specifics, (text, tokens & specifics)
        assert not _shingles(text) & _shingles(prompt), (text, _shingles(text) & _shingles(prompt))
    for example in examples:
        assert not any(example.casefold() in text.casefold() for text in labels + turns)
