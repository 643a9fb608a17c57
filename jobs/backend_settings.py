"""Each model backend's settings (`[llamacpp]`, `[openai]`, `[vllm]` in TOML), part of the one
settings tree of `jobs/settings.py`."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class EmbeddedSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")
    prompt: Literal["extract"] = Field(
        "extract", description="extract: the learned statement head picks the window's own "
                               "sentences and they are the memories (bench/real)")


class LlamaCppSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")
    model_path: str | None = Field(None, description="GGUF file; default: the embedded SmolLM2")
    n_ctx: int = Field(8192, ge=512, description="context window in tokens")
    threads: int = Field(2, ge=1, description="CPU threads per model actor")
    max_tokens: int = Field(2048, ge=64, description="answer budget per chunk in tokens")
    temperature: float = Field(0.2, ge=0, le=2, description="sampling temperature (reference 0.2)")
    repeat_penalty: float = Field(1.3, ge=1, description="keeps a small model from looping")
    max_chunk_chars: int = Field(9_000, ge=1000, description="chunk budget this context can take")
    max_items: int = Field(2, ge=1, le=15, description="items per section the schema allows")
    max_item_chars: int = Field(160, ge=40, description="characters per item the schema allows")
    prompt: Literal["extract", "extract-cues", "contract", "lean"] = Field(
        "extract", description="extract: the model labels the statements the learned head "
                               "picked and those it keeps are the memories; extract-cues: the "
                               "same over the hand cues' shortlist (before bench/real); contract: the "
                               "contract's generative interview; lean: a shorter generative prompt")
    verify: bool = Field(False, description="verify pass: the model judges each item against its "
                                            "events (off: a 135M model cannot)")


class OpenAISettings(BaseModel):
    model_config = ConfigDict(extra="forbid")
    base_url: str = Field("http://127.0.0.1:8000/v1", description="OpenAI-compatible server")
    model: str = Field("default", description="model name the server serves")
    api_key: str | None = Field(None, description="bearer token, if the server wants one")
    timeout_s: float = Field(300.0, gt=0, description="per-request timeout")
    retries: int = Field(3, ge=0, description="retries on timeouts, 429 and 5xx, with backoff")
    backoff_s: float = Field(1.0, ge=0, description="first backoff; doubles each retry")
    concurrency: int = Field(8, ge=1, description="requests in flight per model actor")
    max_tokens: int = Field(4096, ge=64, description="answer budget per chunk")
    temperature: float = Field(0.2, ge=0, le=2, description="sampling temperature")
    max_chunk_chars: int | None = Field(None, description="chunk budget; default the contract's")
    max_items: int = Field(15, ge=1, le=15, description="items per section")
    max_item_chars: int = Field(600, ge=40, description="characters per item")
    verify: bool = Field(True, description="verify pass: one more call per window in which the "
                                           "model judges each item against its cited events")


class VllmSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")
    model_path: str | None = Field(None, description="HF model folder; default the embedded SmolLM2")
    tensor_parallel_size: int = Field(1, ge=1, description="GPUs per engine")
    max_model_len: int = Field(32768, ge=512, description="context length in tokens")
    dtype: str = Field("auto", description="weights dtype (float32 on CPU)")
    gpu_memory_utilization: float = Field(0.9, gt=0, le=1, description="share of GPU memory")
    enforce_eager: bool = Field(False, description="skip graph capture (CPU, debugging)")
    max_num_seqs: int = Field(64, ge=1, description="sequences batched per engine step")
    enable_prefix_caching: bool = Field(True, description="reuse the shared prompt prefix")
    max_tokens: int = Field(4096, ge=64, description="answer budget per chunk")
    temperature: float = Field(0.2, ge=0, le=2, description="sampling temperature (reference 0.2)")
    repetition_penalty: float = Field(1.0, ge=1, description=">1 keeps a small model from looping")
    max_chunk_chars: int | None = Field(None, description="chunk budget; default from context")
    max_items: int = Field(15, ge=1, le=15, description="items per section")
    max_item_chars: int = Field(600, ge=40, description="characters per item")
    verify: bool = Field(True, description="verify pass: one more call per window in which the "
                                           "model judges each item against its cited events")
