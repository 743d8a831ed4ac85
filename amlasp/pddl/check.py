"""Our checks on a domain or problem, each pointing at the line of the first offence.

The `pddl` package checks little of what makes a model unusable for us (two names meeting
as one clingo symbol, an undeclared type, a cycle of types) and nothing of what we do not
support; a refusal here beats a silently wrong number later. The checks run on the
s-expression and on our declarations (`declarations`), before any repair.
"""

from __future__ import annotations

from typing import Iterable

from . import sexpr
from .suggest import did_you_mean
from ..asp.names import asp_name
from ..errors import InputError, UnsupportedError
from ..model import Domain

_UNSUPPORTED_REQUIREMENTS = {
    ":numeric-fluents", ":fluents", ":durative-actions", ":derived-predicates",
    ":timed-initial-literals", ":preferences", ":constraints", ":non-deterministic",
    ":probabilistic-effects", ":continuous-effects", ":duration-inequalities",
    ":object-fluents", ":time",
}
_UNSUPPORTED_SECTIONS = {
    ":functions": "numeric fluents (:functions)", ":durative-action": "durative actions",
    ":derived": "derived predicates (:derived)", ":process": "processes", ":event": "events",
    ":constraints": "constraints", ":metric": None,
}
_UNSUPPORTED_OPERATORS = {
    "increase": "numeric effects", "decrease": "numeric effects", "assign": "numeric effects",
    "scale-up": "numeric effects", "scale-down": "numeric effects", "oneof": "non-deterministic effects",
    "<": "numeric comparisons", ">": "numeric comparisons", "<=": "numeric comparisons",
    ">=": "numeric comparisons", "preference": "preferences", "at": None,
}


# --------------------------------------------------------------------------- structure

def expect_define(root: sexpr.List, kind: str, file: str) -> sexpr.List:
    """`(define (KIND NAME) (:section ...) ...)`; returns the header `(KIND NAME)`."""
    if root.head() != "define" or len(root) < 2 or not isinstance(root[1], sexpr.List):
        raise InputError(f"expected (define ({kind} NAME) ...)", file, root.line)
    header = root[1]
    if header.head() != kind or len(header) != 2 or not isinstance(header[1], sexpr.Token):
        other = "problem" if kind == "domain" else "domain"
        if header.head() == other:
            raise InputError(f"this is a {other} file, expected a {kind} file", file, header.line)
        raise InputError(f"expected ({kind} NAME)", file, header.line)
    for section in root[2:]:
        if not isinstance(section, sexpr.List) or section.head() is None:
            raise InputError("expected a section like (:predicates ...)", file, getattr(section, "line", root.line))
    return header


def known_section(section: sexpr.List, allowed: tuple[str, ...], file: str) -> None:
    if section.head() not in allowed:
        words = allowed + ((":action",) if ":predicates" in allowed else ())
        raise InputError(f"unknown section {section.head()}{did_you_mean(section.head(), words)}", file, section.line)


def known_sections(root: sexpr.List, allowed: tuple[str, ...], file: str) -> None:
    for section in root[2:]:
        known_section(section, allowed, file)


def complete_problem(sections: dict[str, sexpr.List], root: sexpr.List, file: str) -> None:
    if ":init" not in sections or ":goal" not in sections:
        raise InputError("a problem needs (:init ...) and (:goal ...)", file, root.line)


# --------------------------------------------------------------------------- unsupported features

def refuse_unsupported(root: sexpr.List, file: str) -> None:
    """Numeric fluents, durative actions, derived predicates, preferences...: refused where they appear."""
    for section in root[2:]:
        head = section.head()
        if head in _UNSUPPORTED_SECTIONS and _UNSUPPORTED_SECTIONS[head] is not None:
            raise UnsupportedError(f"unsupported feature: {_UNSUPPORTED_SECTIONS[head]}", file, section.line)
        if head == ":requirements":
            for req in section[1:]:
                if req in _UNSUPPORTED_REQUIREMENTS:
                    raise UnsupportedError(f"unsupported requirement {req}", file, req.line)
        if head in (":action", ":goal", ":init"):
            _refuse_operators(section, file, head)


def _refuse_operators(node: sexpr.SExpr, file: str, where: str) -> None:
    if not isinstance(node, sexpr.List):
        return
    h = node.head()
    if h in _UNSUPPORTED_OPERATORS and not (h == "at" and where != ":goal" or h == "at" and len(node) != 3):
        if h != "at" or (isinstance(node[1], sexpr.Token) and node[1] in ("start", "end")):
            raise UnsupportedError(f"unsupported feature: {_UNSUPPORTED_OPERATORS[h] or 'timed literals'} ({h})",
                                   file, node.line)
    if h == "=" and where == ":init":
        raise UnsupportedError("unsupported feature: numeric fluents (= in :init)", file, node.line)
    for child in node:
        _refuse_operators(child, file, where)


# --------------------------------------------------------------------------- names and types

def unique_names(names: list[tuple[sexpr.Token, str]], what: str, file: str) -> None:
    seen: set[str] = set()
    for tok, _ in names:
        if tok in seen:
            raise InputError(f"{what} '{tok}' declared twice", file, tok.line)
        seen.add(tok)


def known_types(names: list[tuple[sexpr.Token, str]], type_names: set[str], file: str, where: str = "") -> None:
    """The type of every constant or object is declared (`where` tells the user where to look)."""
    for name, t in names:
        if t not in type_names:
            raise InputError(f"undeclared type '{t}'{where}", file, name.line)


def acyclic_types(types: list[tuple[sexpr.Token, str]], file: str) -> None:
    parent = {str(t): p for t, p in types}
    for t, _ in types:
        seen = {str(t)}
        cur = parent.get(str(t))
        while cur is not None and cur != "object":
            if cur in seen:
                raise InputError(f"type hierarchy has a cycle through '{t}'", file, t.line)
            seen.add(cur)
            cur = parent.get(cur)


def declared_types(node: sexpr.SExpr, type_names: set[str], file: str) -> None:
    """Every type in a predicate declaration, action parameter list or quantifier is declared."""
    if not isinstance(node, sexpr.List):
        return
    lists = []
    if node.head() == ":predicates":
        lists = [p[1:] for p in node[1:] if isinstance(p, sexpr.List)]
    elif node.head() in ("forall", "exists") and len(node) > 1 and isinstance(node[1], sexpr.List):
        lists = [node[1]]
    lists += [node[i + 1] for i, x in enumerate(node[:-1]) if x == ":parameters" and isinstance(node[i + 1], sexpr.List)]
    for items in lists:
        for i, x in enumerate(items[:-1]):
            t = items[i + 1]
            if x == "-" and isinstance(t, sexpr.Token) and t not in type_names:
                raise InputError(f"undeclared type '{t}'", file, t.line)
    for child in node:
        declared_types(child, type_names, file)


def distinct_symbols(names: Iterable[tuple[str, str]], file: str | None, model: str | None = None) -> None:
    """Two different names that clingo would see as one symbol (`a-b`, `a_b`) are refused.

    Names are matched across models case- and `-`/`_`-insensitively (names.asp_name); within
    one model, two such names would silently become one object or predicate. `names` are
    (name, kind) pairs sharing one namespace; a name that is a token gives the error its line.
    `model` ("learned", "reference") says which of two compared models the names are from."""
    seen: dict[str, tuple[str, str]] = {}
    for name, kind in names:
        first, first_kind = seen.setdefault(asp_name(str(name)), (str(name), kind))
        if first == str(name):
            continue
        if model is not None:
            raise InputError(f"{kind}s '{first}' and '{name}' of the {model} model differ only in "
                             f"case or -/_ and cannot be told apart", file)
        raise InputError(f"{kind} '{name}' and {first_kind} '{first}' differ only in case or -/_ and cannot be "
                         f"told apart: rename one", file, getattr(name, "line", None) or None)


def spelling_differences(learned: Domain, reference: Domain) -> list[str]:
    """Learned names that meet a reference name only as one symbol (they differ in `-`/`_` or case):
    matched, as the README says, and said."""
    out = []
    for kind, mine, theirs in (("action", learned.actions, reference.actions),
                               ("predicate", learned.predicates, reference.predicates)):
        by_symbol = {asp_name(x.name): x.name for x in theirs}
        for x in mine:
            other = by_symbol.get(asp_name(x.name))
            if other is not None and other != x.name:
                out.append(f"learned {kind} '{x.name}' is matched with the reference's '{other}' (names differing "
                           f"only in case or -/_ are one name)")
    return out


__all__ = ["expect_define", "known_section", "known_sections", "complete_problem", "refuse_unsupported",
           "unique_names", "known_types", "acyclic_types", "declared_types", "distinct_symbols",
           "spelling_differences"]
