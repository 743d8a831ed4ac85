"""PDDL names ↔ clingo symbols.

PDDL names are case-insensitive and may contain `-`; clingo identifiers may not. We
lower-case and map `-` (and any other non-identifier character) to `_`, so that names
differing only in case or `-`/`_` meet as one symbol, which is how learned and
reference models are matched. Everything else about a name is kept.

Reading answers back (clingo identifiers → PDDL names) is asp/decode.py's job.
"""

from __future__ import annotations

import re
from functools import lru_cache

# Model tags: the first argument of every domain fact and compiled rule (`action(M,...)`, `app(M,S,A)`),
# saying which model it belongs to, so that two models can share one program.
MODEL = "m"  # the one model asked about (applicable, validate, plan, reach, justify, landmarks)
REF, LEARNED = "ref", "learned"  # two models side by side (diff, compare)
# eval's pair (eval.lp): the reference and the learned model, and EVAL_SHARED for a change rule that both
# models have (derived once for both).
EVAL_REF, EVAL_LEARNED, EVAL_SHARED = "r", "l", "b"

_RESERVED = {"not", "eq", "v", "c", "q", "pos", "neg", "object", "aux"}


@lru_cache(maxsize=1 << 16)
def asp_name(name: str) -> str:
    """Clingo identifier for a PDDL name (predicates, actions, objects, types)."""
    s = re.sub(r"[^a-z0-9_]", "_", name.lower())
    if not re.match(r"[a-z]", s):
        s = "n_" + s
    if s in _RESERVED and name != "object":
        s = s + "_"
    return s


def term(name: str) -> str:
    """An object or constant as a clingo term (text)."""
    return asp_name(name)


def atom_text(predicate: str, args: tuple[str, ...] | list[str]) -> str:
    p = asp_name(predicate)
    return f"{p}({','.join(args)})" if args else p
