"""Model backends behind one small protocol, chosen by name.

A backend turns one chunk prompt into the model's raw answer text. Heavy imports (the llama.cpp
binding, vllm) happen inside the backend module that needs them, so `import jobs.cli` pulls in
neither.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Protocol

from synth.prompt import ChunkPrompt


class BackendError(Exception):
    """A model call failed in a way a retry may fix (timeout, transport, bad answer).

    `seconds` is the engine time the failed call still spent (an answer cut at max_tokens ran to
    the end), so model time counts every call, refused or not.
    """

    def __init__(self, message: str, *, seconds: float = 0.0) -> None:
        super().__init__(message)
        self.seconds = seconds


class EngineDead(Exception):
    """The engine is gone (actor died, CUDA error): stop the run after committing what finished."""


class MissingDependency(Exception):
    """A backend's package is not installed; the message says what to install."""


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

    def complete(self, prompt: ChunkPrompt, schema: dict, *, repair: str | None = None) -> Completion:
        """One chunk → the model's answer. `repair` carries why the previous answer failed."""
        ...

    def close(self) -> None: ...


# name → "module:factory". `none` has no entry: it needs no model (the driver writes the
# unsynthesized episode without calling anything).
_REGISTRY: dict[str, str] = {
    "llamacpp": "synth.backends.llamacpp:LlamaCppBackend",
    "openai": "synth.backends.openai_http:OpenAIHttpBackend",
    "vllm": "synth.backends.vllm_engine:VllmBackend",
}
NO_MODEL = "none"


def backend_names() -> list[str]:
    return [NO_MODEL, *sorted(_REGISTRY)]


def register_backend(name: str, target: str) -> None:
    _REGISTRY[name] = target


def check_backend_name(name: str) -> str:
    if name != NO_MODEL and name not in _REGISTRY:
        raise ValueError(
            f"unknown backend {name!r}; choose one of: {', '.join(backend_names())}"
        )
    return name


def create_backend(name: str, options: dict[str, Any]) -> ModelBackend:
    """Build a backend by name with its options (a dict from settings)."""
    check_backend_name(name)
    if name == NO_MODEL:
        raise ValueError("the 'none' backend has no model to create")
    module_name, _, attr = _REGISTRY[name].partition(":")
    factory = getattr(importlib.import_module(module_name), attr)
    return factory(**options)
