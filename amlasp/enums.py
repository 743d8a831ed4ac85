"""The base of every status and kind Enum (plan status, reach answer, unmet kind, planner outcome …).

As unified-planning's `engines/results.py`, outcomes are Enums rather than bare strings, so a
misspelt status is an AttributeError, not a silent mismatch. Ours are also `str`s whose value is
the text we always printed: `==` with that text, `json.dumps`, f-strings and dict look-ups by
that text behave as before, so every output stays byte-identical. (`enum.StrEnum` does this
from Python 3.11; we support 3.10.)
"""

from __future__ import annotations

from enum import Enum


class TextEnum(str, Enum):
    """An Enum whose members are their text: `str(m)` and `f"{m}"` give `m.value`, not `Class.MEMBER`."""

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)


class Verdict(TextEnum):
    """A proven yes (with a witness), a proven no (with a proof), or unknown (a limit was reached first):
    the answer of every decision that may stop short (reach, landmarks, the proofs behind questions)."""

    YES = "yes"
    NO = "no"
    UNKNOWN = "unknown"


__all__ = ["TextEnum", "Verdict"]
