"""A tiny OpenAI-compatible server on loopback that answers from a script and records what it
was sent: for the `openai` backend's failures and retries, and for the verify pass."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest


class Scripted(BaseHTTPRequestHandler):
    """Each POST pops the next (status, JSON answer) of `replies`; its body goes to `bodies`."""

    replies: list = []
    bodies: list = []

    def do_POST(self):  # noqa: N802 - the http.server API
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        Scripted.bodies.append(body)
        status, answer = Scripted.replies.pop(0)
        payload = json.dumps(answer).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args):
        pass


def ok(text: str, prompt_tokens: int = 100, completion_tokens: int = 20) -> tuple[int, dict]:
    """A 200 answer holding `text`, with its token usage."""
    return 200, {"choices": [{"message": {"content": text}, "finish_reason": "stop"}],
                 "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                           "prompt_tokens_details": {"cached_tokens": 64}}}


@pytest.fixture
def scripted_server():
    """The server's base URL (`.../v1`), with an empty script."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), Scripted)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    Scripted.replies, Scripted.bodies = [], []
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()
