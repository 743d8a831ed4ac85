"""Resource guards on inputs: how large a file and how deep a nesting amlasp reads before refusing.

A broken or hostile file (`/dev/zero`, a formula nested 100,000 deep, a 5 MB generated
domain) must end in a clear refusal, not in a MemoryError, a RecursionError or an hour of
work. Each limit is read from the environment when it is checked, so a user who really has
such an input raises it for one run (`AMLASP_MAX_DOMAIN_MB=10 amlasp compare ...`); the
refusal message names the variable. docs/limits.md gives the measured costs behind the defaults.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from .errors import InputError


@dataclass(frozen=True)
class Limit:
    """A limit with its environment variable, default and unit (for the message)."""

    env: str
    default: float
    unit: str

    def value(self) -> float:
        raw = os.environ.get(self.env, "").strip()
        if not raw:
            return self.default
        try:
            v = float(raw)
        except ValueError:
            raise InputError(f"{self.env} must be a number, got '{raw}'") from None
        if v <= 0:
            raise InputError(f"{self.env} must be positive, got '{raw}'")
        return v

    def hint(self) -> str:
        return f"set {self.env} to raise the limit of {self.value():g} {self.unit}"


#: Any input file (problems, plans, trajectories, JSON states): the largest shipped one is 0.4 MB.
MAX_INPUT_MB = Limit("AMLASP_MAX_INPUT_MB", 100, "MB")
#: A domain: the largest IPC domain is 5.5 KB; reading costs about 4 s of CPU per MB (the `pddl`
#: package's parser), and every command then works per action (docs/limits.md).
MAX_DOMAIN_MB = Limit("AMLASP_MAX_DOMAIN_MB", 1, "MB")
#: Nesting of parentheses (PDDL) or brackets (JSON): real models nest less than 10 deep; the
#: `pddl` package's parser and the model's comparisons are recursive.
MAX_DEPTH = Limit("AMLASP_MAX_DEPTH", 100, "levels")
#: Rule instances a grounding may make (the size guard, asp/size.py): estimated before clingo is
#: asked, since its grounder cannot be stopped; a learned model's unconstrained parameters made
#: 3.4 GB in a minute. About 110 bytes each (measured on eval): the default is about 2 GB at worst
#: (eval splits a larger batch of files first). `amlasp --max-grounding N` sets it for one run.
MAX_GROUNDING = Limit("AMLASP_MAX_GROUNDING", 2e7, "rule instances")


def max_bytes(limit: Limit) -> int:
    return int(limit.value() * 1024 * 1024)


__all__ = ["Limit", "MAX_INPUT_MB", "MAX_DOMAIN_MB", "MAX_DEPTH", "MAX_GROUNDING", "max_bytes"]
