from pathlib import Path

import pytest

from ingest.errors import SettingsError
from jobs.settings import load_settings

ROOT = Path(__file__).resolve().parents[2]


def test_precedence_toml_then_env_then_flags(tmp_path, monkeypatch):
    config = tmp_path / "c.toml"
    config.write_text('tenant_id = "from-toml"\nmax_windows = 3\nmin_events = 7\n[ray]\nmodel_actors = 2\n')
    monkeypatch.setenv("INTERVIEW_MAX_WINDOWS", "5")
    monkeypatch.setenv("INTERVIEW_RAY__MODEL_ACTORS", "4")
    settings = load_settings(config, max_windows=9, tenant_id=None)
    assert settings.tenant_id == "from-toml"  # only in TOML
    assert settings.min_events == 7
    assert settings.ray.model_actors == 4  # env beats TOML
    assert settings.max_windows == 9  # flag beats env


@pytest.mark.parametrize(
    "text, message",
    [
        ("nope = 1", "nope"),
        ("max_windows = 'many'", "max_windows"),
        ("[llamacpp]\nthreads = 0", "llamacpp.threads"),
        ("backend = 'gpt'", "choose one of"),
        ("max_windows = ", "cannot read"),
    ],
)
def test_bad_config_is_a_located_error(tmp_path, text, message):
    config = tmp_path / "bad.toml"
    config.write_text(text)
    with pytest.raises(SettingsError, match=message) as caught:
        load_settings(config)
    assert str(config) in str(caught.value)


def test_shipped_configs_load():
    for config in sorted((ROOT / "configs").glob("*.toml")):
        load_settings(config)


def test_default_toml_matches_the_code_defaults():
    assert load_settings(ROOT / "configs" / "default.toml").model_dump(exclude={"agent_id"}) == \
        load_settings().model_dump(exclude={"agent_id"})


def test_unknown_source_is_refused():
    with pytest.raises(SettingsError, match="unknown source 'vscode'"):
        load_settings(sources=["vscode"])


def test_pool_size_follows_the_cluster_gpus(ray_cluster):
    from jobs.settings import RaySettings
    from synth.mapreduce import pool_size

    def size(ray_settings):
        return pool_size(ray_settings.model_actors, ray_settings.actor_num_gpus)

    assert size(RaySettings(model_actors=3)) == 3
    assert size(RaySettings(model_actors=0, actor_num_gpus=1)) == 1  # no GPU here: at least one
