"""Resource guards on inputs: how large a file and how deep a nesting amlasp reads before refusing.

A broken or hostile file (`/dev/zero`, a formula nested 100,000 deep, a 5 MB generated
domain) must end in a clear refusal, not in a MemoryError, a RecursionError or an hour of
work. Each limit is read from the environment when it is checked, so a user who really has
such an input raises it for one run (`AMLASP_MAX_DOMAIN_MB=10 amlasp compare ...`); the
refusal message names the variable. docs/limits.md gives the measured costs behind the defaults.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

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
#: A domain: every IPC domain file below 4 MiB is read (the largest, IPC 2006's tpp-propositional
#: domain-22, is 3.9 MB; cybersec's up to 1.6 MB); reading costs about 1.2-1.6 s of CPU per MB with our
#: reader, and every command then works per action (docs/input.md, "Why 5 MB"). Some per-problem
#: grounded domains of IPC 2004-2008 are larger (not measured: see there).
MAX_DOMAIN_MB = Limit("AMLASP_MAX_DOMAIN_MB", 5, "MB")
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


#: The tokens that matter for nesting: strings (skipped whole, brackets inside them do not count) and brackets.
#: (Strings as an unrolled loop, `"[^"\\]*(?:\\.[^"\\]*)*"`: eight times faster than an alternation per character.)
_JSON_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]')
_TOML_TOKENS = re.compile(r'"""[\s\S]*?(?:"""|$)|\'\'\'[\s\S]*?(?:\'\'\'|$)|"[^"\\\n]*(?:\\.[^"\\\n]*)*"?'
                          r'|\'[^\'\n]*\'?|#[^\n]*|[\[\]{}]')


#: Python refuses to read an integer of more digits than this (`sys.get_int_max_str_digits`): a ValueError.
MAX_DIGITS = 4300
_DIGITS = re.compile(r"[0-9_]{%d,}" % (MAX_DIGITS + 1))


def check_digits(text: str, file: str | Path | None, line: int = 1) -> None:
    """Refuse a number of more than MAX_DIGITS digits where it is, before `json` or `tomllib` fails on it."""
    m = _DIGITS.search(text)
    if m is not None:
        at = m.start()
        raise InputError(f"a number of more than {MAX_DIGITS} digits", file, line + text.count("\n", 0, at),
                         at - text.rfind("\n", 0, at))


def check_nesting(text: str, file: str | Path | None, line: int = 1, toml: bool = False, extra: int = 0) -> None:
    """Refuse JSON (or TOML) nested deeper than MAX_DEPTH (plus `extra` levels of a wrapper, such as the list
    of a file of records), at the bracket that goes too deep; `line`: the line `text` starts on.

    Python's `json` and `tomllib` are recursive: 100,000 `[` end in a RecursionError, not a message. A scan
    of the brackets outside strings, before parsing, is the same limit PDDL's reader has."""
    limit = int(MAX_DEPTH.value()) + extra
    if text.count("[") + text.count("{") <= limit:
        return
    depth = 0
    for m in (_TOML_TOKENS if toml else _JSON_TOKENS).finditer(text):
        c = m.group()
        if c in "[{":
            depth += 1
            if depth > limit:
                at = m.start()
                row = text.count("\n", 0, at)
                raise InputError(f"nesting deeper than {limit - extra} levels ({MAX_DEPTH.hint()})", file, line + row,
                                 at - text.rfind("\n", 0, at))
        elif c in "]}":
            depth = max(0, depth - 1)


__all__ = ["Limit", "MAX_INPUT_MB", "MAX_DOMAIN_MB", "MAX_DEPTH", "MAX_DIGITS", "MAX_GROUNDING", "max_bytes",
           "check_nesting", "check_digits"]
