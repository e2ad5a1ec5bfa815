"""Durations as the CLI writes them: ``90s``, ``15m``, ``1h``, ``2d``, ``1h30m``, or seconds."""

from __future__ import annotations

import re
from datetime import timedelta

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_PART = re.compile(r"(\d+(?:\.\d+)?)([smhd])")


def parse_duration(by: str | int | float | timedelta) -> int:
    """Whole seconds (rounded), as ``svc-sandbox clock advance`` reads its argument."""
    if isinstance(by, timedelta):
        return round(by.total_seconds())
    if isinstance(by, bool):
        raise TypeError("svc-sandbox: a duration is seconds or text such as 90s, 15m, 1h, 2d")
    if isinstance(by, (int, float)):
        return round(by)
    text = by.strip()
    if text.isdigit():
        return int(text)
    parts = list(_PART.finditer(text))
    if not parts or "".join(p.group(0) for p in parts) != text:
        raise ValueError(f"svc-sandbox: not a duration: {by!r} (use e.g. 90s, 15m, 1h, 2d or seconds)")
    return round(sum(float(p.group(1)) * _UNITS[p.group(2)] for p in parts))
