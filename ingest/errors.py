"""The one exception tree of trail-interview.

Every error we raise on purpose is an `InterviewError`; the CLI catches that root and prints its
message (which names the file, line, node or window, and what to do next). It lives in `ingest`
because `ingest` is the bottom layer: `synth`, `sinks` and `jobs` all import it.

Two markers say what a caller may do about an error (as dlt's `DltException`):
- `terminal`: retrying the same thing cannot help (bad input, a missing package, a dead engine);
- `transient`: the same call may succeed later (a model timeout, a busy lake).

Errors cross Ray's process boundary (a planning task or a model actor raises, the driver catches),
so each class pickles with its message and extra fields.

    InterviewError
    ├── TrailError ─ TrailRootError, UnreadableTrail
    ├── SubmitRejected                   (contract §1.1 status and detail)
    ├── SettingsError, AllowlistRequired, UsageError ─ NodeNotFound
    ├── LakeError ─ LakeBusy
    ├── ModelError ─ BackendError (transient), EngineDead, MissingDependency, ModelMissing,
    │                EmbedderUnavailable
"""

from __future__ import annotations

from typing import Any


class InterviewError(Exception):
    """Root of every error trail-interview raises on purpose."""

    terminal = False
    transient = False

    def __init__(self, message: str = "", **fields: Any) -> None:
        super().__init__(message)
        self.message = message
        self._fields = fields
        for name, value in fields.items():
            setattr(self, name, value)

    def __reduce__(self):
        return (_rebuild, (type(self), self.message, self._fields))

    def __str__(self) -> str:
        return self.message


def _rebuild(cls: type[InterviewError], message: str, fields: dict[str, Any]) -> InterviewError:
    error = cls.__new__(cls)
    InterviewError.__init__(error, message, **fields)
    return error


class TerminalError(InterviewError):
    terminal = True


class TrailError(TerminalError):
    """A trail or trail root cannot be used."""


class TrailRootError(TrailError):
    """A root folder the user named is not there."""


class UnreadableTrail(TrailError):
    """A trail file exists but cannot be read as its source's format (a corrupt database)."""


class SubmitRejected(TerminalError):
    """A window the contract refuses: `status_code` and `detail` as the reference returns them."""

    def __init__(self, status_code: int, detail: str) -> None:
        super().__init__(f"{status_code}: {detail}", status_code=status_code, detail=detail)

    def __reduce__(self):
        return (SubmitRejected, (self.status_code, self.detail))

    def to_json(self) -> dict[str, Any]:
        return {"status_code": self.status_code, "detail": self.detail}


class UsageError(TerminalError):
    """A command was asked something it cannot do as asked (an empty query, a selector that
    matches nothing); the message says what to change."""


class NodeNotFound(UsageError):
    """No node matches the selector the user gave."""


class SettingsError(TerminalError):
    """A settings file, variable or flag is wrong; the message names the file and the key."""


class AllowlistRequired(TerminalError):
    """No project is allowed yet: the message lists what was found and how to allow it."""


class LakeError(TerminalError):
    """The lake cannot be opened or used; the message says which lake and what to do."""


class LakeBusy(LakeError):
    """Another driver holds the writer lock."""

    terminal = False
    transient = True


class ModelError(InterviewError):
    """The model side: backends, engines and the embedded model files."""


class BackendError(ModelError):
    """A model call failed in a way a retry may fix (timeout, transport, bad answer).

    `seconds` is the engine time the failed call still spent (an answer cut at max_tokens ran to
    the end), so model time counts every call, refused or not.
    """

    transient = True

    def __init__(self, message: str, *, seconds: float = 0.0) -> None:
        super().__init__(message, seconds=seconds)

    def __reduce__(self):
        return (_backend_error, (type(self), self.message, self.seconds))


def _backend_error(cls, message: str, seconds: float) -> BackendError:
    return cls(message, seconds=seconds)


class EngineDead(ModelError):
    """The engine is gone (actor died, CUDA error): stop the run after committing what finished."""

    terminal = True


class MissingDependency(ModelError):
    """A backend's package is not installed; the message says what to install."""

    terminal = True


class ModelMissing(ModelError):
    """An embedded model file is not in the cache and cannot be fetched."""

    terminal = True


class EmbedderUnavailable(ModelError):
    """The recall embedder cannot be loaded."""

    terminal = True
