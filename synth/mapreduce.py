"""The map on Ray: a pool of model actors, each holding one engine built once in `__init__`,
serving chunk prompts. The driver keeps a bounded number of windows in flight."""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable
from typing import Any

import ray

from synth.backends import EngineDead, ModelBackend, create_backend
from synth.interview import ChunkAnswer, ask_model
from synth.prompt import ChunkPrompt

log = logging.getLogger(__name__)


class ModelWorker:
    """Runs inside a Ray actor: the expensive engine is built once, per-chunk work is cheap."""

    def __init__(
        self, backend: str, options: dict[str, Any], factory: Callable[[], ModelBackend] | None
    ) -> None:
        self.backend = factory() if factory is not None else create_backend(backend, options)

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.backend.name,
            "model": self.backend.model,
            "max_chunk_chars": self.backend.max_chunk_chars,
        }

    def interview(self, prompt: ChunkPrompt) -> ChunkAnswer:
        return ask_model(self.backend, prompt)

    def shutdown(self) -> None:
        self.backend.close()


class ModelPool:
    """`actors` model actors with round-robin placement; `submit` returns an ObjectRef."""

    def __init__(
        self,
        backend: str,
        options: dict[str, Any],
        *,
        actors: int = 1,
        num_cpus: float = 1.0,
        num_gpus: float = 0.0,
        factory: Callable[[], ModelBackend] | None = None,
    ) -> None:
        remote_worker = ray.remote(ModelWorker).options(num_cpus=num_cpus, num_gpus=num_gpus)
        self._actors = [remote_worker.remote(backend, options, factory) for _ in range(actors)]
        self._next = itertools.cycle(range(actors))
        try:
            self.info = ray.get(self._actors[0].describe.remote())
        except ray.exceptions.RayActorError as error:
            self.shutdown()
            raise EngineDead(f"the model actor failed to start: {error}") from None

    def submit(self, prompt: ChunkPrompt) -> ray.ObjectRef:
        return self._actors[next(self._next)].interview.remote(prompt)

    @staticmethod
    def result(ref: ray.ObjectRef) -> ChunkAnswer:
        try:
            return ray.get(ref)
        except ray.exceptions.RayActorError as error:
            raise EngineDead(f"a model actor died: {error}") from None

    def shutdown(self) -> None:
        for actor in self._actors:
            try:
                ray.get(actor.shutdown.remote(), timeout=30)
            except Exception:  # noqa: BLE001 - a dead actor needs no shutdown
                pass
            ray.kill(actor)
        self._actors = []
