"""Passwords out of connection strings and the messages that quote them. Both the lake's location
and the Postgres catalog's connections use it, so it sits below them."""

from __future__ import annotations

import re

_PASSWORD = re.compile(r"(password\s*=\s*)('(?:[^'\\]|\\.)*'|\S+)", re.IGNORECASE)
_URI_PASSWORD = re.compile(r"(postgres(?:ql)?://[^:/@\s]+:)([^@\s]+)(@)")


def redact(text: str) -> str:
    """A connection string or message with its passwords replaced by `***`."""
    return _URI_PASSWORD.sub(r"\1***\3", _PASSWORD.sub(r"\1***", text))
