"""What the state readers share: `StateSet` (the states of one problem, read from a file), the fast
readers' check of an atom's words, the careful reader's of a literal's text, and where a state
file's problem names lead. (pddl/states.py reads trajectories, JSON and problems; pddl/jsonl.py JSON lines.)
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from ..files import within
from ..model import Atom, Domain, GroundAction, Problem
from . import sexpr
from .ground import Grounder
from .parse import load_problem


@dataclass
class StateSet:
    """States of one problem, in order, with where they came from."""

    problem: Problem
    states: list[frozenset[Atom]]
    source: str
    actions: list[GroundAction | None] = field(default_factory=list)  # action after state i (trajectories)
    ignored: int = 0  # literals dropped because their predicate is not in the vocabulary
    first: int = 0  # the position of the first state in its file (a JSON lines file comes in parts)

    def add(self, atoms: list[Atom | None]) -> None:
        """One more state: its `atoms`, each None for a literal ignored (an unknown predicate, read leniently)."""
        ignored = atoms.count(None)
        self.ignored += ignored
        self.states.append(frozenset(a for a in atoms if a is not None) if ignored
                           else frozenset(cast("list[Atom]", atoms)))  # no None: counted


def parse_atom_text(text: str, grounder: Grounder, file: str, line: int, col: int,
                    ignore_unknown_predicates: bool = False) -> Atom | None:
    """One atom of a JSON state file, which starts at `line`, `col` of the file; None for an unknown
    predicate that is to be ignored."""
    node = sexpr.read(text, file, line, col)
    if ignore_unknown_predicates and isinstance(node, sexpr.List) and node.head() is not None \
            and node.head() not in grounder.predicates:
        return None
    return grounder.atom(node, file)


#: A fast reader's signal: leave the file to the careful reader, which says where.
UNUSUAL = object()


class _Pairs(list):
    """A JSON object as the fast readers parse it: its (key, value) pairs in order, repeated keys kept (so that
    they can be refused), and a type of its own, so that `{}` is never taken for `[]`."""


def fast_pairs(text: str | bytes) -> list[tuple[str, Any]] | None:
    """A JSON object by the C parser: its (key, value) pairs in order, repeated keys kept, each nested object
    such pairs too; None for what it cannot read (not JSON, nested too deep) or what is no object."""
    try:
        data = json.loads(text, object_pairs_hook=_Pairs)
    except (ValueError, RecursionError):  # the careful reader says where
        return None
    return data if isinstance(data, _Pairs) else None


def is_array(value: object) -> bool:
    """A JSON array of `fast_pairs`' result (an object is a list too, but a `_Pairs`)."""
    return isinstance(value, list) and not isinstance(value, _Pairs)


def fast_params(domain: Domain) -> dict[str, list[str] | None]:
    """The fast readers' table: each predicate's argument types; None for a derived one, never in a state
    (the careful reader says so, where)."""
    derived = domain.derived_predicates()
    return {p.name: None if p.name in derived else [t for _, t in p.parameters] for p in domain.predicates}


def fast_atom(words: list[str], params: dict[str, list[str] | None], objs, fits,
              ignore_unknown_predicates: bool) -> "Atom | None | object":
    """One atom's words (lowercase) checked as the careful reader checks them, for the fast readers:
    the atom, None for an unknown predicate to ignore, or `UNUSUAL` for anything to report."""
    if not words or words[0] not in params:
        return None if words and ignore_unknown_predicates else UNUSUAL
    types = params[words[0]]
    if types is None:  # a derived predicate
        return UNUSUAL
    if len(types) != len(words) - 1 or any(x not in objs or not fits(x, t) for x, t in zip(words[1:], types)):
        return UNUSUAL
    return Atom(words[0], tuple(words[1:]))


_JSON_ATOM = re.compile(r"\s*\(\s*([^\s();]+(?:\s+[^\s();]+)*)\s*\)\s*")


def fast_literal(lit: object, params: dict[str, list[str] | None], objs, fits,
                 ignore_unknown_predicates: bool) -> "Atom | None | object":
    """A literal of a JSON state ("(on a b)") for the fast readers, its words checked by `fast_atom`;
    `UNUSUAL` for anything not a plain atom's text."""
    m = _JSON_ATOM.fullmatch(lit) if isinstance(lit, str) else None
    if m is None:
        return UNUSUAL
    return fast_atom(m.group(1).lower().split(), params, objs, fits, ignore_unknown_predicates)


def cached_problem(path: Path, domain: Domain, problems: dict[str, Problem] | None) -> Problem:
    """The problem file at `path`, read once when `problems` caches them (keyed by the path's text)."""
    if problems is None:
        return load_problem(path, domain)
    p = problems.get(str(path))
    if p is None:
        p = problems[str(path)] = load_problem(path, domain)
    return p


def problem_path(base: Path, name: str) -> Path | None:
    """`base/name` if it is a file inside `base` (a name that is empty, absolute, leads out of `base` with
    `..`, is a directory or not a path at all is not: a state file names only problems beside it)."""
    try:
        p = within(base, name)
        return p if p is not None and p.is_file() else None
    except (OSError, ValueError):  # a name too long, or with a NUL byte
        return None


def named_problem(base: Path, name: str, domain: Domain, problems: dict[str, Problem] | None) -> Problem | None:
    """The problem a state file names (`problem_path`), read once when `problems` caches them
    (`cached_problem`); None where the name leads to no file inside `base`."""
    path = problem_path(base, name)
    return None if path is None else cached_problem(path, domain, problems)


__all__ = ["StateSet", "parse_atom_text", "UNUSUAL", "fast_pairs", "is_array", "fast_params", "fast_atom",
           "fast_literal", "cached_problem", "problem_path", "named_problem"]
