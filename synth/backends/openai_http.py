"""Any OpenAI-compatible chat server by URL (`vllm serve`, llama.cpp's server, …), with the report's
JSON schema as `response_format`, a timeout, retries with backoff, and a concurrency limit.

Standard library HTTP only: the request is one JSON POST, and one fewer dependency is one fewer
thing to pin."""

from __future__ import annotations

import concurrent.futures
import json
import logging
import threading
import time
import urllib.error
import urllib.request

from ingest.errors import BackendError
from synth.backends import Backend, Completion, Request
from synth.prompt import ChunkPrompt, chat_messages

log = logging.getLogger(__name__)

_RETRY_STATUS = {408, 409, 425, 429, 500, 502, 503, 504}


class OpenAIHttpBackend(Backend):
    name = "openai"

    def __init__(
        self,
        base_url: str = "http://127.0.0.1:8000/v1",
        model: str = "default",
        api_key: str | None = None,
        timeout_s: float = 300.0,
        retries: int = 3,
        backoff_s: float = 1.0,
        concurrency: int = 8,
        max_tokens: int = 4096,
        temperature: float = 0.2,
        max_chunk_chars: int | None = None,
        max_items: int = 15,
        max_item_chars: int = 600,
        verify: bool = True,  # the verify pass (synth.support.verify); the map asks for it
    ) -> None:
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model = model
        self.verify = verify
        self.api_key = api_key
        self.timeout_s = timeout_s
        self.retries = retries
        self.backoff_s = backoff_s
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.max_chunk_chars = max_chunk_chars
        self.schema_caps = {"max_items": max_items, "max_chars": max_item_chars}
        self._slots = threading.BoundedSemaphore(concurrency)
        # A batch of chunks goes out as `concurrency` requests at once, so the server's own
        # batching sees them together.
        self.max_batch = concurrency
        self._calls = concurrent.futures.ThreadPoolExecutor(concurrency, thread_name_prefix="openai")

    def request_body(self, prompt: ChunkPrompt, schema: dict, repair: str | None) -> dict:
        messages = chat_messages(prompt, repair)
        return {
            "model": self.model,
            "messages": messages,
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "response_format": {"type": "json_schema",
                                "json_schema": {"name": "interview_report", "schema": schema}},
        }

    def complete(self, prompt: ChunkPrompt, schema: dict, *, repair: str | None = None) -> Completion:
        payload = json.dumps(self.request_body(prompt, schema, repair)).encode()
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        last_error = "no attempt"
        with self._slots:
            for attempt in range(self.retries + 1):
                if attempt:
                    time.sleep(self.backoff_s * 2 ** (attempt - 1))
                started = time.perf_counter()
                request = urllib.request.Request(self.url, data=payload, headers=headers, method="POST")
                try:
                    with urllib.request.urlopen(request, timeout=self.timeout_s) as response:
                        answer = json.loads(response.read())
                except urllib.error.HTTPError as error:
                    with error:
                        last_error = f"HTTP {error.code} from {self.url}: {error.read()[:300]!r}"
                    if error.code not in _RETRY_STATUS:
                        break
                    continue
                except (urllib.error.URLError, TimeoutError, ConnectionError, json.JSONDecodeError) as error:
                    last_error = f"{self.url}: {getattr(error, 'reason', error)}"
                    continue
                return self._completion(answer, time.perf_counter() - started)
        raise BackendError(last_error)

    def _completion(self, answer: dict, seconds: float) -> Completion:
        try:
            choice = answer["choices"][0]
            text = choice["message"].get("content") or ""
        except (KeyError, IndexError, TypeError, AttributeError):
            raise BackendError(f"server answered without choices: {str(answer)[:300]}",
                               seconds=seconds) from None
        if choice.get("finish_reason") == "length":
            raise BackendError(f"answer cut at max_tokens={self.max_tokens}", seconds=seconds)
        usage = answer.get("usage") or {}
        details = usage.get("prompt_tokens_details") or {}
        return Completion(
            text=text,
            prompt_tokens=int(usage.get("prompt_tokens") or 0),
            completion_tokens=int(usage.get("completion_tokens") or 0),
            cached_tokens=int(details.get("cached_tokens") or 0),
            seconds=seconds,
        )

    def complete_many(self, requests: list[Request]) -> list[Completion | BackendError]:
        if len(requests) <= 1:
            return super().complete_many(requests)
        return list(self._calls.map(self.complete_one, requests))

    def close(self) -> None:
        self._calls.shutdown(wait=False)
