"""The definitions a recovering read left out of a learned model (`model.Broken`), said for people:
compare, eval and solve list them under their tables."""

from __future__ import annotations

from typing import Iterable

from ..model import Broken


def broken_lines(broken: Iterable[Broken], scored: str) -> list[str]:
    """One line per definition of the learned model left out by its recovering read: what, where, why."""
    out = []
    for b in broken:
        what = f"{b.kind} {b.name}" if b.name is not None else f"an {b.kind} without a readable name"
        verb = scored if b.kind in ("action", "derived") else "left out"
        out.append(f"broken learned {what} ({verb}): {b.location}: {b.message} [{b.error}]")
    return out


__all__ = ["broken_lines"]
