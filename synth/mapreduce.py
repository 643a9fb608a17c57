"""The map on Ray: a pool of model actors, each holding one engine built once in `__init__`,
serving chunk prompts. The driver keeps a bounded number of windows in flight."""

from __future__ import annotations

import asyncio
import concurrent.futures
import itertools
import logging
from collections.abc import Callable
from typing import Any

import ray

from ingest.errors import BackendError, EngineDead
from synth.backends import Completion, ModelBackend, Request, create_backend
from synth.interview import ChunkAnswer, ask_model_many
from synth.prompt import ChunkPrompt
from synth.support.verify import VerifyAnswer, VerifyRequest, ask_verify

log = logging.getLogger(__name__)


class ModelWorker:
    """Runs inside a Ray actor: the expensive engine is built once, per-chunk work is cheap.

    The actor is asynchronous: chunks from many windows arrive concurrently and are handed to the
    backend's `complete_many` in batches of up to its `max_batch`, gathered for at most
    `batch_wait_s`, so vLLM's continuous batching and prefix cache work across windows and an
    HTTP backend keeps its server busy; a one-at-a-time engine gets one chunk per call.
    """

    def __init__(
        self,
        backend: str,
        options: dict[str, Any],
        factory: Callable[[], ModelBackend] | None,
        max_batch: int = 64,
        batch_wait_s: float = 0.05,
    ) -> None:
        self.backend = factory() if factory is not None else create_backend(backend, options)
        self.max_batch = max(1, min(max_batch, self.backend.max_batch))
        self.batch_wait_s = batch_wait_s
        self._executor = concurrent.futures.ThreadPoolExecutor(max_workers=1)
        self._queue: asyncio.Queue | None = None
        self._loop_task = None

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.backend.name,
            "model": self.backend.model,
            "max_chunk_chars": self.backend.max_chunk_chars,
            "max_batch": self.max_batch,
            "verify": bool(getattr(self.backend, "verify", False)),
        }

    async def verify(self, request: VerifyRequest) -> VerifyAnswer:
        """One window's verify pass, on the engine's own thread (between chunk batches)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, ask_verify, self.backend, request)

    async def interview(self, prompt: ChunkPrompt) -> ChunkAnswer:
        loop = asyncio.get_running_loop()
        if self._queue is None:
            self._queue = asyncio.Queue()
            self._loop_task = loop.create_task(self._drain())
        future = loop.create_future()
        await self._queue.put((prompt, future))
        return await future

    async def _drain(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            batch = [await self._queue.get()]
            deadline = loop.time() + self.batch_wait_s
            while len(batch) < self.max_batch:
                timeout = deadline - loop.time()
                if timeout <= 0:
                    break
                try:
                    batch.append(await asyncio.wait_for(self._queue.get(), timeout))
                except TimeoutError:
                    break
            prompts = [prompt for prompt, _ in batch]
            try:
                answers = await loop.run_in_executor(
                    self._executor, ask_model_many, self.backend, prompts)
            except Exception as error:  # noqa: BLE001 - handed to every waiting chunk
                for _, future in batch:
                    future.set_exception(error)
                continue
            for (_, future), answer in zip(batch, answers):
                future.set_result(answer)

    async def complete(self, requests: list[Request]) -> list[Completion | BackendError]:
        """Raw answers to questions that are not interviews (consolidation's pairs)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, self.backend.complete_many, requests)

    def shutdown(self) -> None:
        self.backend.close()
        self._executor.shutdown(wait=False)


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
        # The engines load in their actors while the caller goes on (planning, say); `info` waits.
        self._described = self._actors[0].describe.remote()
        self._info: dict[str, Any] | None = None

    @property
    def info(self) -> dict[str, Any]:
        """What the first actor's engine says of itself; waits until that engine has loaded."""
        if self._info is None:
            try:
                self._info = ray.get(self._described)
            except ray.exceptions.RayActorError as error:
                self.shutdown()
                raise EngineDead(f"the model actor failed to start: {error}") from None
        return self._info

    def submit(self, prompt: ChunkPrompt) -> ray.ObjectRef:
        return self._actors[next(self._next)].interview.remote(prompt)

    def verify(self, request: VerifyRequest) -> ray.ObjectRef:
        return self._actors[next(self._next)].verify.remote(request)

    def complete(self, requests: list[Request]) -> list[Completion | BackendError]:
        """`requests` answered by the actors (split evenly), in order."""
        if not requests:
            return []
        share = -(-len(requests) // len(self._actors))
        refs = [actor.complete.remote(requests[i:i + share])
                for actor, i in zip(self._actors, range(0, len(requests), share))]
        try:
            return [answer for part in ray.get(refs) for answer in part]
        except ray.exceptions.RayActorError as error:
            raise EngineDead(f"a model actor died: {error}") from None

    @staticmethod
    def result(ref: ray.ObjectRef) -> ChunkAnswer | VerifyAnswer:
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


def pool_size(model_actors: int, actor_num_gpus: float) -> int:
    """`model_actors`, or with 0 as many engines as the cluster's GPUs hold (at least one)."""
    if model_actors:
        return model_actors
    gpus = ray.cluster_resources().get("GPU", 0)
    return max(1, int(gpus // (actor_num_gpus or 1)))
