"""Kinds of program text: what run.py may keep between calls (no clingo import here)."""

from __future__ import annotations


class Reused(str):
    """Program text that recurs across calls in a process (an encoding, a model's compiled rules, a
    problem's facts): run.py keeps clingo's parse of it once it is seen a second time."""


__all__ = ["Reused"]
