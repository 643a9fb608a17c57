"""The embedded CPU default: a small instruct model run in-process by llama.cpp (xllamacpp),
with JSON-schema constrained output. Slow and small, but real: the same pipeline as vLLM."""

from __future__ import annotations

import logging
import time

from ingest.errors import BackendError, MissingDependency
from synth.backends import Backend, Completion
from synth.extract.prompt import labels_grammar
from synth.prompt import EXTRACT_VARIANTS, ChunkPrompt, chat_messages

log = logging.getLogger(__name__)


class LlamaCppBackend(Backend):
    name = "llamacpp"

    def __init__(
        self,
        model_path: str | None = None,
        n_ctx: int = 8192,
        threads: int = 2,
        max_tokens: int = 2048,
        temperature: float = 0.2,
        repeat_penalty: float = 1.3,
        max_chunk_chars: int = 9_000,
        max_items: int = 2,
        max_item_chars: int = 160,
        prompt: str = "extract",  # the driver builds the prompts; named here for `info`
        verify: bool = False,  # the verify pass (synth.support.verify); the map asks for it
    ) -> None:
        try:
            import xllamacpp
        except ImportError:  # pragma: no cover - the package is a runtime dependency
            raise MissingDependency(
                "the llamacpp backend needs xllamacpp: pip install xllamacpp"
            ) from None
        from synth.model_store import SMOLLM2, ensure_model

        path = model_path or str(ensure_model())
        params = xllamacpp.CommonParams()
        params.model.path = path
        params.n_ctx = n_ctx
        params.n_parallel = 1
        params.cpuparams.n_threads = threads
        params.cpuparams_batch.n_threads = threads
        params.warmup = False
        params.verbosity = -1
        started = time.perf_counter()
        self._server = xllamacpp.Server(params)
        log.info("llamacpp: loaded %s in %.1fs", path, time.perf_counter() - started)
        self.model = SMOLLM2.name if model_path is None else path
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.repeat_penalty = repeat_penalty
        self.max_chunk_chars = max_chunk_chars
        # A 135M model fills long arrays with repeats: tight caps and a repeat penalty keep its
        # answers short, bounded in time, and valid.
        self.schema_caps = {"max_items": max_items, "max_chars": max_item_chars}
        self.prompt = prompt
        self.verify = verify

    def complete(
        self, prompt: ChunkPrompt, schema: dict, *, repair: str | None = None
    ) -> Completion:
        messages = chat_messages(prompt, repair)
        request = {
            "messages": messages,
            "max_tokens": self.max_tokens,
            "temperature": self.temperature,
            "repeat_penalty": self.repeat_penalty,
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "interview_report", "schema": schema},
            },
        }
        if prompt.variant in EXTRACT_VARIANTS:
            # One letter per statement: a grammar with no room for JSON's whitespace, which a
            # small model fills instead of answering.
            del request["response_format"]
            request |= {"grammar": labels_grammar(len(prompt.picks)), "temperature": 0.0,
                        "repeat_penalty": 1.0, "max_tokens": 2 * len(prompt.picks) + 4}
        started = time.perf_counter()
        try:
            answer = self._server.handle_chat_completions(request)
        except (ValueError, RuntimeError) as error:
            raise BackendError(f"llama.cpp refused the request: {error}") from None
        seconds = time.perf_counter() - started
        if not isinstance(answer, dict) or "choices" not in answer:
            raise BackendError(f"llama.cpp returned no choices: {str(answer)[:300]}", seconds=seconds)
        choice = answer["choices"][0]
        if choice.get("finish_reason") == "length":
            raise BackendError(f"answer cut at max_tokens={self.max_tokens}", seconds=seconds)
        usage = answer.get("usage") or {}
        return Completion(
            text=choice["message"].get("content") or "",
            prompt_tokens=int(usage.get("prompt_tokens", 0)),
            completion_tokens=int(usage.get("completion_tokens", 0)),
            cached_tokens=int((usage.get("prompt_tokens_details") or {}).get("cached_tokens", 0)),
            seconds=seconds,
        )

    def close(self) -> None:
        self._server = None
