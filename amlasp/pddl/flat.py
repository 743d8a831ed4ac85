"""A problem of the common shape read without positions: the fast path of `parse.parse_problem`.

Reading a problem with positions (`sexpr.read`: a `Token` per word) and checking it pass by pass cost
4 ms on a sokoban problem of 12 KB, more than VAL's whole validation of a plan on it (benchmarks/README.md,
branch sokoval). Most problems are plain: `(:domain ...)`, `(:objects ...)` of named types, an `:init` of
ground atoms and a `:goal` that is a conjunction of literals. Such a text is read here as nested lists of
words, in C for the most part (one regular expression), and checked as the passes check it; anything
else, and anything a pass would refuse or warn about, gives None, and the caller reads the text again
with the passes, which say where and why. So the Problem is the passes' one whenever this gives one
(tests/pddl/test_flat.py: every problem of the repository read both ways).

Left to the passes: comments aside, any character that is not plain ASCII, a `?` (a variable), a dash
glued to a name, `:requirements`, `:metric` and any other section, `either` types, a domain with action
costs, negative or equality literals in `:init`, equality, derived predicates and goal conditions in
`:goal`, and names that are not PDDL names or clash with the domain's.
"""

from __future__ import annotations

import re
from typing import Union

from ..identity import by_identity
from ..limits import MAX_DEPTH
from ..model import Atom, Domain, Literal, Problem, canonical_name
from .check import KEYWORDS, NAME
from .check import OPERATOR_HEADS as _OPERATORS
from .declarations import type_names

Node = Union[str, list]

_WORD = re.compile(r"[()]|[^\s()]+")
_COMMENT = re.compile(r";[^\n]*")
# what only the passes read: a character other than plain ASCII words and separators, or a variable
_OTHER = re.compile(r"[^\x09-\x0d\x1c-\x7e]|\?|\x7f")
_SECTIONS = frozenset({":domain", ":objects", ":init", ":goal"})


class _Names:
    """What a problem's names are checked against, of one domain (the last 16 kept): predicates and
    their parameter types, derived predicates, type names, the canonical names of its symbols."""

    def __init__(self, domain: Domain):
        self.domain = domain
        self.types = type_names(domain.types)
        self.predicates = {p.name: tuple(t for _, t in p.parameters) for p in domain.predicates}
        self.derived = domain.derived_predicates()
        self.constants = dict(domain.constants)
        self.symbols = {canonical_name(n): n for names in (
            [t for t, _ in domain.types], [c for c, _ in domain.constants], [p.name for p in domain.predicates],
            [a.name for a in domain.actions]) for n in names}


def _names(domain: Domain) -> _Names:
    return by_identity(_KNOWN, 16, (domain,), None, lambda: _Names(domain))


_KNOWN: dict = {}


def _tree(text: str) -> list | None:
    """The one top-level list of `text` as nested lists of lower-cased words; None if it has anything
    but one balanced list (or nests deeper than `limits.MAX_DEPTH`)."""
    depth = int(MAX_DEPTH.value())
    stack: list[list] = [[]]
    top = stack[0]
    for word in _WORD.findall(text):
        if word == "(":
            new: list = []
            top.append(new)
            stack.append(new)
            top = new
            if len(stack) > depth + 1:
                return None
        elif word == ")":
            if len(stack) == 1:
                return None
            stack.pop()
            top = stack[-1]
        else:
            top.append(word)
    if len(stack) != 1 or len(stack[0]) != 1 or not isinstance(stack[0][0], list):
        return None
    return stack[0][0]


def _name(word: Node) -> bool:
    """A PDDL name (`check.name`), and no dash at its end (a dash glued to a type: the passes' repair)."""
    return isinstance(word, str) and NAME.fullmatch(word) is not None and word not in KEYWORDS \
        and not word.endswith("-")


def _objects(items: list, names: _Names) -> list[tuple[str, str]] | None:
    """`:objects`' typed list, every name and type checked (`declarations.typed_names`, `check`)."""
    out: list[tuple[str, str]] = []
    pending: list[str] = []
    i = 0
    while i < len(items):
        word = items[i]
        if word == "-":
            if i + 1 >= len(items) or not pending:
                return None
            t = items[i + 1]
            if not (t == "object" or _name(t)) or t not in names.types:
                return None
            out.extend((p, t) for p in pending)
            pending = []
            i += 2
            continue
        if not _name(word):
            return None
        pending.append(word)
        i += 1
    out.extend((p, "object") for p in pending)
    return out


def _atom(node: Node, names: _Names, table: dict[str, str], goal: bool) -> Atom | None:
    """A ground atom of a basic predicate, checked as `ground.Grounder.atom` checks it (and as
    `check.refuse_unsupported` looks at it: a predicate named like an operator is the passes')."""
    if type(node) is not list or not node:
        return None
    predicate = node[0]
    expect = names.predicates.get(predicate) if type(predicate) is str else None
    if expect is None or len(node) - 1 != len(expect) or predicate in names.derived:
        return None
    if predicate in _OPERATORS and (predicate != "at" or goal and len(node) == 3 and node[1] in ("start", "end")):
        return None
    args = tuple(node[1:])
    fits = names.domain.fits
    for a, t in zip(args, expect):
        if type(a) is not str:
            return None
        have = table.get(a)
        if have is None:
            return None
        if not fits(have, t):
            return None
    return Atom(predicate, args)


def _goal(node: Node, names: _Names, table: dict[str, str]) -> tuple[Literal, ...] | None:
    """A goal that is a conjunction of literals (nested `and`s flattened, in order: `convert`'s)."""
    out: list[Literal] = []
    todo = [node]
    while todo:
        n = todo.pop()
        if not isinstance(n, list) or not n:
            return None
        if n[0] == "and":
            todo.extend(reversed(n[1:]))
            continue
        positive = n[0] != "not"
        if not positive and len(n) != 2:
            return None
        atom = _atom(n if positive else n[1], names, table, goal=True)
        if atom is None:
            return None
        out.append(Literal(atom, positive))
    return tuple(out)


def read_problem(text: str, domain: Domain, file: str) -> Problem | None:
    """The Problem of `text` (unwrapped already) if it has the common shape of the module docstring and the
    passes would read it without an error or a warning; else None."""
    if domain.action_costs or _OTHER.search(text) is not None:
        return None
    text = text.lower()
    root = _tree(_COMMENT.sub("", text) if ";" in text else text)
    if root is None or len(root) < 2 or root[0] != "define":
        return None
    header = root[1]
    if not isinstance(header, list) or len(header) != 2 or header[0] != "problem" or not _name(header[1]):
        return None
    sections: dict[str, list] = {}
    for s in root[2:]:
        if not isinstance(s, list) or not s or s[0] not in _SECTIONS or s[0] in sections:
            return None
        sections[s[0]] = s
    names = _names(domain)
    domain_section, goal_section = sections.get(":domain"), sections.get(":goal")
    if domain_section is None or len(domain_section) != 2 or not _name(domain_section[1]) \
            or canonical_name(domain_section[1]) != canonical_name(domain.name):
        return None  # the passes say what is wrong, or warn of another domain's name
    if ":init" not in sections or goal_section is None or len(goal_section) != 2:
        return None
    objects = _objects(sections[":objects"][1:], names) if ":objects" in sections else []
    if objects is None or len({o for o, _ in objects}) != len(objects):
        return None
    for o, _ in objects:  # `check.distinct_symbols`: one symbol, two names
        other = names.symbols.get(canonical_name(o))
        if other is not None and other != o:
            return None
    if len({canonical_name(o) for o, _ in objects}) != len(objects):
        return None
    table = dict(names.constants)
    table.update(objects)
    init = []
    for item in sections[":init"][1:]:
        atom = _atom(item, names, table, goal=False)
        if atom is None:
            return None
        init.append(atom)
    goal = _goal(goal_section[1], names, table)
    if goal is None:
        return None
    return Problem(header[1], domain_section[1], tuple(objects), frozenset(init), goal, file)


__all__ = ["read_problem"]
