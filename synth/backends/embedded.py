"""The embedded default: no generative model. The learned statement head
(`synth/extract/choose.py`) picks the window's own sentences while the driver plans its prompt,
so an `extract` prompt arrives here already answered: its picks are the memories. Nothing to
download beyond the embedder, nothing to load, no tokens.

Measured on the real-session benchmark (bench/real): the 135M model's K/S labels on the head's
picks did not raise precision on dev, so the default stopped calling it (`llamacpp` still can).
"""

from __future__ import annotations

from ingest.errors import BackendError
from synth.backends import Backend, Completion
from synth.extract.choose import HEAD_NAME
from synth.prompt import ChunkPrompt


class EmbeddedBackend(Backend):
    name = "embedded"
    model = HEAD_NAME
    labels_statements = False  # the picks are the answer: `ask_model_many` asks nothing
    max_batch = 64

    def __init__(self, prompt: str = "extract") -> None:
        if prompt != "extract":
            raise ValueError("the embedded backend reads only the `extract` prompt (the head's "
                             "picks); use llamacpp, openai or vllm for a generative prompt")

    def complete(self, prompt: ChunkPrompt, schema: dict, *, repair: str | None = None) -> Completion:
        raise BackendError("the embedded backend has no model to answer a prompt: its picks "
                           "are the memories (an `extract` prompt never reaches here)")
