"""Processes as the signal tests see them: a process's children (Linux's /proc), and whether one is gone."""

from __future__ import annotations

import os
from pathlib import Path


def children(pid: int) -> list[int]:
    """The children of `pid` now ([] where /proc does not list them)."""
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(x) for x in path.read_text().split()] if path.exists() else []


def gone(pid: int) -> bool:
    """Whether no process `pid` exists any more (ended and reaped)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False
