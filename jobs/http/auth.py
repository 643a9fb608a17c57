"""API keys of the server: stored as SHA-256, compared in constant time, with the contract's
messages (§1.1, §1.3) for what a key may not do."""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from ingest.errors import SubmitRejected
from jobs.settings import ApiKey

KEY_FILE = "server.key"  # in the lake folder, when no key is configured


class AuthFailed(SubmitRejected):
    """A key that may not do what it asks: 401 or the contract's 403s."""


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def new_key() -> str:
    return "ti_" + secrets.token_urlsafe(32)


@dataclass(frozen=True)
class Caller:
    tenant_id: str
    capabilities: frozenset[str]
    name: str = ""

    @property
    def admin(self) -> bool:
        return "admin" in self.capabilities

    def require_write(self) -> None:
        if "write" not in self.capabilities:
            raise AuthFailed(403, "This API key is read-only and cannot perform write operations.")

    def require_admin(self) -> None:
        if not self.admin:
            raise AuthFailed(403, "Admin access required")

    def may_write(self, tenant_id: str) -> None:
        if tenant_id != self.tenant_id and not self.admin:
            raise AuthFailed(403, f"API key is not authorized for tenant '{tenant_id}'")

    def may_read(self, tenant_id: str) -> None:
        if "read" not in self.capabilities and not self.admin:
            raise AuthFailed(403, "This API key cannot read.")
        if tenant_id != self.tenant_id and not self.admin:
            raise AuthFailed(403, f"API key is not authorized to read tenant '{tenant_id}'")


class KeyRing:
    def __init__(self, keys: list[ApiKey]) -> None:
        self._keys = [(bytes.fromhex(key.sha256), key) for key in keys]

    def __len__(self) -> int:
        return len(self._keys)

    def caller(self, presented: str | None) -> Caller:
        """The caller a key stands for; 401 without a key or with an unknown one. Every stored
        hash is compared (in constant time), so timing tells nothing about which matched."""
        if not presented:
            raise AuthFailed(401, "Missing API key: send it in the X-API-Key header")
        digest = hashlib.sha256(presented.encode()).digest()
        found = None
        for stored, key in self._keys:
            if hmac.compare_digest(stored, digest):
                found = key
        if found is None:
            raise AuthFailed(401, "Invalid API key")
        return Caller(found.tenant, frozenset(found.capabilities), found.name)


def local_key(lake: Path, tenant_id: str) -> tuple[ApiKey, Path]:
    """With no key configured, one key for the run's tenant (write, read, admin), kept in
    `<lake>/server.key` (mode 0600) so that a restart and `interview push` on this machine use it."""
    path = Path(lake) / KEY_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        key = new_key()
        with open(path, "x", opener=lambda p, flags: os.open(p, flags, 0o600)) as out:
            out.write(key + "\n")
    key = path.read_text().strip()
    return ApiKey(sha256=hash_key(key), tenant=tenant_id, capabilities=["write", "read", "admin"],
                  name=f"local key ({path})"), path
