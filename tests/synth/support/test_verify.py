"""The verify pass: one schema-constrained call per window, through a backend, over a real HTTP
server on loopback (a scripted one, and llama.cpp's own with the embedded model)."""

import json

import pytest

from ingest.events import Event
from synth.backends.openai_http import OpenAIHttpBackend
from synth.report import SECTIONS
from synth.support.verify import (
    InvalidVerdicts,
    apply_verdicts,
    ask_verify,
    parse_verdicts,
    verify_request,
)
from tests.openai_stub import Scripted, ok, scripted_server

__all__ = ["scripted_server"]  # the fixture

EVENTS = [
    Event(1, "2026-01-01T00:00:01.000Z", "s", "user", "prompt",
          "Please don't run the iOS build locally, CI does it."),
    Event(2, "2026-01-01T00:00:02.000Z", "s", "assistant", "reply",
          "Raising the timeout did not reduce the 502s."),
    Event(5, "2026-01-01T00:00:05.000Z", "s", "assistant", "reply", "Checked the gateway logs."),
    Event(9, "2026-01-01T00:00:09.000Z", "s", "assistant", "reply", "Unrelated later event."),
]
REPORT = {name: [] for name in SECTIONS} | {
    "outcomes": [{"summary": "Raising the timeout did not reduce the 502s", "evidence": [2]},
                 {"summary": "Raising the timeout fixed the 502s", "evidence": [2]}],
    "preferences_learned": [{"summary": "Builds of iOS happen in CI", "evidence": [1]}],
}


def verdicts(*pairs):
    return json.dumps({"verdicts": [{"item": i, "verdict": v} for i, v in pairs]})


def test_the_request_numbers_the_items_and_shows_their_events():
    request = verify_request(REPORT, EVENTS)
    assert request.keys == (("outcomes", 0), ("outcomes", 1), ("preferences_learned", 0))
    assert "1. (outcomes) Raising the timeout did not reduce" in request.prompt.user
    assert "[2] " in request.prompt.user and "Unrelated later event" not in request.prompt.user
    schema = request.schema["properties"]["verdicts"]
    assert schema["minItems"] == schema["maxItems"] == 3
    assert verify_request({name: [] for name in SECTIONS}, EVENTS) is None


@pytest.mark.parametrize(("text", "error"), [
    (verdicts((1, "supported"), (2, "supported"), (3, "supported")), None),
    ("not json", "not JSON"),
    (json.dumps({"verdicts": [{"item": 1, "verdict": "maybe"}]}), "not a verdict"),
    (verdicts((1, "supported"), (4, "supported"), (3, "supported")), "no item 4"),
    (verdicts((1, "supported"), (2, "supported")), "2 verdicts for 3 items"),
])
def test_parse_verdicts(text, error):
    if error is None:
        assert parse_verdicts(text, 3) == {1: "supported", 2: "supported", 3: "supported"}
    else:
        with pytest.raises(InvalidVerdicts, match=error):
            parse_verdicts(text, 3)


def test_contradicted_and_unaddressed_items_are_dropped_and_counted():
    request = verify_request(REPORT, EVENTS)
    kept, dropped = apply_verdicts(REPORT, request,
                                   {1: "supported", 2: "contradicted", 3: "not_addressed"})
    assert [item["summary"] for item in kept["outcomes"]] == [
        "Raising the timeout did not reduce the 502s"]
    assert kept["preferences_learned"] == [] and dropped == {"contradicted": 1, "not_addressed": 1}


def test_one_schema_constrained_call_with_its_cost(scripted_server):
    judge = scripted_server
    Scripted.replies = [ok(verdicts((1, "supported"), (2, "contradicted"), (3, "supported")),
                           prompt_tokens=321, completion_tokens=45)]
    request = verify_request(REPORT, EVENTS)
    answer = ask_verify(OpenAIHttpBackend(base_url=judge, backoff_s=0.01), request)
    assert answer.verdicts == {1: "supported", 2: "contradicted", 3: "supported"}
    assert len(Scripted.bodies) == 1 and answer.tokens == 366 and answer.seconds > 0
    sent = Scripted.bodies[0]
    assert sent["response_format"]["json_schema"]["schema"] == request.schema
    assert "verdict" in sent["messages"][0]["content"]


def test_an_answer_off_the_schema_gets_one_repair_then_fails(scripted_server):
    judge = scripted_server
    Scripted.replies = [ok("All good!"), ok("still not JSON")]
    answer = ask_verify(OpenAIHttpBackend(base_url=judge, backoff_s=0.01),
                        verify_request(REPORT, EVENTS))
    assert answer.verdicts is None and answer.tries == 2 and "not JSON" in answer.error
    assert "previous answer was rejected" in Scripted.bodies[-1]["messages"][-1]["content"]


@pytest.mark.model
def test_against_llama_cpp_http_server():
    """The embedded model behind llama.cpp's server answers the verify schema (its verdicts are
    weak: that is why the pass is off for it by default)."""
    import socket

    import xllamacpp

    from synth.model_store import ensure_model

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    params = xllamacpp.CommonParams()
    params.model.path = str(ensure_model())
    params.n_ctx = 4096
    params.cpuparams.n_threads = 2
    params.cpuparams_batch.n_threads = 2
    params.verbosity = -1
    params.hostnames = ["127.0.0.1"]
    params.port = port
    server = xllamacpp.Server(params)
    try:
        backend = OpenAIHttpBackend(base_url=f"http://127.0.0.1:{port}/v1", max_tokens=200,
                                    timeout_s=120)
        answer = ask_verify(backend, verify_request(REPORT, EVENTS))
        assert answer.verdicts is not None and set(answer.verdicts) == {1, 2, 3}, answer.error
        assert answer.prompt_tokens > 100
    finally:
        del server
