"""PDDL names ↔ clingo symbols.

PDDL names are case-insensitive and may contain `-`; clingo identifiers may not. A symbol is
built on the name's `model.canonical_name` (lower case, `-` and any other non-identifier
character as `_`), so that names differing only in case or `-`/`_` meet as one symbol, which is
how learned and reference models are matched, and names the PDDL checks tell apart stay apart.
Everything else about a name is kept.

Reading answers back (clingo identifiers → PDDL names) is asp/decode.py's job.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..model import canonical_name, type_members

# Model tags: the first argument of every domain fact and compiled rule (`action(M,...)`, `app(M,S,A)`),
# saying which model it belongs to, so that two models can share one program.
MODEL = "m"  # the one model asked about (applicable, validate, plan, reach, justify, landmarks)
REF, LEARNED = "ref", "learned"  # two models side by side (diff, compare)
# eval's pair (eval.lp): the reference and the learned model, and EVAL_SHARED for a change rule that both
# models have (derived once for both).
EVAL_REF, EVAL_LEARNED, EVAL_SHARED = "r", "l", "b"

#: Words of the encodings: a name that is one gets a `_` (`v` → `v_`), and so does a name that is one
#: followed by `_`s (`v_` → `v__`), so that no two canonical names meet as one symbol. `object`, the
#: root type, is the encodings' own `object`.
_RESERVED = {"not", "eq", "v", "c", "q", "pos", "neg", "aux"}


@lru_cache(maxsize=1 << 16)
def asp_name(name: str) -> str:
    """Clingo identifier for a PDDL name (predicates, actions, objects, types): its canonical name,
    made a clingo constant. One symbol per canonical name of a PDDL name (a letter first), so the
    PDDL checks on canonical names (`pddl.check.distinct_symbols`) are the symbols' checks."""
    if name.startswith("(either "):  # an either type (model.either_type) is the term either(a,b,...)
        return "either(" + ",".join(asp_name(m) for m in type_members(name)) + ")"
    s = canonical_name(name)
    if not re.match(r"[a-z]", s):
        s = "n_" + s
    if s.rstrip("_") in _RESERVED:
        s = s + "_"
    return s


def term(name: str) -> str:
    """An object or constant as a clingo term (text)."""
    return asp_name(name)


def atom_text(predicate: str, args: tuple[str, ...] | list[str]) -> str:
    p = asp_name(predicate)
    return f"{p}({','.join(args)})" if args else p
