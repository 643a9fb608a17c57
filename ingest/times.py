"""Timestamps from trail data → ISO 8601 in UTC with milliseconds and a `Z`."""

from __future__ import annotations

from datetime import UTC, datetime


def iso_z(moment: datetime) -> str:
    offset = moment.utcoffset()
    if offset is None:  # naive: UTC
        return moment.isoformat(timespec="milliseconds") + "Z"
    if offset:
        moment = moment.astimezone(UTC)
    return moment.isoformat(timespec="milliseconds")[:-6] + "Z"


def iso_utc(value: object) -> str | None:
    """Epoch seconds or milliseconds (told apart by size), or an ISO string (naive = UTC);
    None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)) and value > 0:
        seconds = value / 1000 if value > 10**11 else value
        try:
            return iso_z(datetime.fromtimestamp(seconds, UTC))
        except (OverflowError, OSError, ValueError):
            return None
    if isinstance(value, str) and value.strip():
        try:
            return iso_z(datetime.fromisoformat(value.strip().replace("Z", "+00:00")))
        except ValueError:
            return None
    return None
