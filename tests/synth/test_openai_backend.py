"""The `openai` backend against real OpenAI-compatible servers on loopback: llama.cpp's own HTTP
server with the embedded model, and a tiny scripted server for failures and retries."""

import json
import socket

import pytest

from ingest.errors import BackendError
from ingest.events import Event
from synth.backends.openai_http import OpenAIHttpBackend
from synth.interview import ask_model
from synth.prompt import build_prompt
from tests.openai_stub import Scripted, ok, scripted_server

__all__ = ["scripted_server"]  # the fixture

PROMPT = build_prompt([Event(0, "2026-01-01T10:00:00.000Z", "p:S", "user", "prompt",
                             "Please raise the login test timeout to 30s; it flakes on CI.")],
                      agent_id="agent")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_retries_with_backoff_then_succeeds(scripted_server):
    Scripted.replies = [(503, {"error": "busy"}), (429, {"error": "slow down"}), ok('{"worked_on": []}')]
    backend = OpenAIHttpBackend(base_url=scripted_server, model="m", backoff_s=0.01)
    completion = backend.complete(PROMPT, {"type": "object"})
    assert completion.text == '{"worked_on": []}' and completion.cached_tokens == 64
    body = Scripted.bodies[-1]
    assert body["model"] == "m" and body["temperature"] == 0.2
    assert body["response_format"]["type"] == "json_schema"
    assert body["messages"][0]["role"] == "system" and "ACTIVITY TRAIL" in body["messages"][1]["content"]


def test_client_errors_are_not_retried(scripted_server):
    Scripted.replies = [(400, {"error": "bad request"}), ok("{}")]
    with pytest.raises(BackendError, match="HTTP 400"):
        OpenAIHttpBackend(base_url=scripted_server, backoff_s=0.01).complete(PROMPT, {})
    assert len(Scripted.replies) == 1


def test_non_json_answer_gets_one_repair_then_fails(scripted_server):
    Scripted.replies = [ok("Sure! Here is the report."), ok("still not json")]
    answer = ask_model(OpenAIHttpBackend(base_url=scripted_server, backoff_s=0.01), PROMPT)
    assert not answer.ok and answer.tries == 2 and "not JSON" in answer.error
    assert "previous answer was rejected" in Scripted.bodies[-1]["messages"][-1]["content"]


def test_unreachable_server_is_a_backend_error():
    backend = OpenAIHttpBackend(base_url=f"http://127.0.0.1:{free_port()}/v1", retries=1, backoff_s=0.01,
                                timeout_s=2)
    with pytest.raises(BackendError, match="127.0.0.1"):
        backend.complete(PROMPT, {})


@pytest.mark.model
@pytest.mark.slow  # the real llama.cpp HTTP server on CPU: about 16 minutes on 2 cores
def test_against_llama_cpp_http_server():
    import xllamacpp

    from synth.model_store import ensure_model
    from synth.report import parse_report

    port = free_port()
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
        backend = OpenAIHttpBackend(base_url=f"http://127.0.0.1:{port}/v1", max_tokens=1024,
                                    max_items=1, max_item_chars=120, timeout_s=120)
        answer = ask_model(backend, PROMPT)
        assert answer.ok, answer.error
        parse_report(json.dumps(answer.report))
        assert answer.prompt_tokens > 100
    finally:
        del server
