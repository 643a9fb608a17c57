"""One backend protocol, one registry: names, defaults tied to settings, the default batch loop."""

import inspect

import pytest

from ingest.errors import BackendError
from jobs.settings import Settings, SettingsError, load_settings
from synth.backends import (
    NO_MODEL,
    Backend,
    Completion,
    backend_factory,
    backend_names,
    check_backend_name,
    register_backend,
)
from tests.synth.test_misbehaviour import PROMPT


@pytest.mark.parametrize("name", [name for name in backend_names() if name != NO_MODEL])
def test_backend_defaults_are_the_settings_defaults(name):
    """The constructor's keyword defaults and the settings section's defaults never drift apart:
    a backend built without settings behaves as one built from the default settings."""
    section = getattr(Settings.model_construct(), name).model_dump()
    signature = inspect.signature(backend_factory(name))
    defaults = {key: parameter.default for key, parameter in signature.parameters.items()
                if parameter.default is not inspect.Parameter.empty}
    assert defaults == section


def test_a_wrong_backend_name_lists_the_valid_ones():
    with pytest.raises(ValueError, match="choose one of: none, (.*, )?llamacpp, openai, (.*, )?vllm"):
        # (the benchmark's backends join the list once a bench test has registered them)
        check_backend_name("gpt")
    with pytest.raises(SettingsError, match="choose one of"):
        load_settings(backend="gpt")


def test_a_registered_backend_is_choosable_and_none_is_reserved():
    register_backend("scripted-test", "tests.scripted:ScriptedBackend", "tests only")
    try:
        assert "scripted-test" in backend_names()
        assert load_settings(backend="scripted-test").backend == "scripted-test"
    finally:
        from synth import backends

        backends._REGISTRY.pop("scripted-test")
    with pytest.raises(ValueError, match="reserved"):
        register_backend(NO_MODEL, "x:y")


def test_the_default_complete_many_loops_and_returns_failures_as_values():
    class Alternating(Backend):
        calls = 0

        def complete(self, prompt, schema, *, repair=None):
            self.calls += 1
            if self.calls % 2 == 0:
                raise BackendError("timeout", seconds=0.5)
            return Completion(text="{}")

    results = Alternating().complete_many([(PROMPT, {}, None)] * 3)
    assert [type(r).__name__ for r in results] == ["Completion", "BackendError", "Completion"]
    assert results[1].seconds == 0.5 and Backend.max_batch == 1 and Backend.schema_caps == {}
