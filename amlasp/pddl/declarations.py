"""What a domain or problem declares, read from its s-expression with the line of every name.

The `pddl` package forgets where a name came from; these lists keep each name's token, so
that the checks (`check`) and the conversion (`convert`) can point at its line. Reading
refuses only what cannot be read at all (a malformed typed list, a predicate or action
without a name, an unknown section); whether the names make sense is `check`'s job.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from . import sexpr
from .check import known_section
from .suggest import ACTION_KEYS, did_you_mean
from ..errors import InputError, UnsupportedError

Named = list[tuple[sexpr.Token, str]]  # (name, its type, or a type's parent), in the order declared

DOMAIN_SECTIONS = (":requirements", ":types", ":constants", ":predicates")  # besides :action


@dataclass(frozen=True)
class DomainDeclarations:
    """A domain's declarations, after the checks: what `convert` needs to build a Domain."""

    types: Named
    constants: Named
    predicates: dict[str, sexpr.List]  # name -> its declaration (name ?x - t ...), in order
    actions: dict[str, sexpr.List]  # name -> (:action name ...), in order

    @property
    def type_names(self) -> set[str]:
        return type_names(self.types)


def sections(root: sexpr.List) -> dict[str, sexpr.List]:
    """The sections after `(define (kind NAME)`, by head (the last of a repeated one)."""
    return {s.head(): s for s in root[2:]}


def typed_names(items: list[sexpr.SExpr], file: str) -> Named:
    """Parse a PDDL typed list `a b - t c - u d` (untyped items are `object`)."""
    out: Named = []
    pending: list[sexpr.Token] = []
    i = 0
    while i < len(items):
        it = items[i]
        if isinstance(it, sexpr.List):
            raise InputError("unexpected '(' in a typed list", file, it.line)
        if it == "-":
            if i + 1 >= len(items):
                raise InputError("'-' without a type", file, it.line)
            t = items[i + 1]
            if isinstance(t, sexpr.List):
                if t.head() == "either":
                    raise UnsupportedError("unsupported feature: (either ...) types", file, t.line)
                raise InputError("expected a type name after '-'", file, t.line)
            if not pending:
                raise InputError(f"type '{t}' given to no name", file, t.line)
            out.extend((p, str(t)) for p in pending)
            pending = []
            i += 2
        else:
            pending.append(it)
            i += 1
    out.extend((p, "object") for p in pending)
    return out


def typed_section(found: dict[str, sexpr.List], head: str, file: str) -> Named:
    """The typed list of a section such as `(:constants ...)` or `(:objects ...)`; empty when absent."""
    return typed_names(list(found[head][1:]), file) if head in found else []


def types(found: dict[str, sexpr.List], file: str) -> Named:
    """The `(:types ...)` list; `object`, the built-in root, is not declared again."""
    return [(t, parent) for t, parent in typed_section(found, ":types", file) if t != "object"]


def type_names(declared: Iterable[tuple[str, str]]) -> set[str]:
    """The names of the declared types, and `object`."""
    return {"object"} | {str(t) for t, _ in declared}


def predicates(found: dict[str, sexpr.List], file: str) -> dict[str, sexpr.List]:
    out: dict[str, sexpr.List] = {}
    for p in found[":predicates"][1:] if ":predicates" in found else ():
        if not isinstance(p, sexpr.List) or p.head() is None:
            raise InputError("expected a predicate declaration like (on ?x ?y)", file, getattr(p, "line", None))
        if p.head() in out:
            raise InputError(f"predicate '{p.head()}' declared twice", file, p.line)
        out[p.head()] = p
    return out


def actions(root: sexpr.List, file: str) -> dict[str, sexpr.List]:
    """The `(:action NAME ...)` sections by name; every other section must be a known one.

    One pass over the sections in file order, so that the first error in the file is the one reported."""
    out: dict[str, sexpr.List] = {}
    for s in root[2:]:
        if s.head() == ":action":
            if len(s) < 2 or not isinstance(s[1], sexpr.Token):
                raise InputError("action without a name", file, s.line)
            if s[1] in out:
                raise InputError(f"action '{s[1]}' declared twice", file, s.line)
            action_keys(s, file)
            out[s[1]] = s
        else:
            known_section(s, DOMAIN_SECTIONS, file)
    return out


def action_keys(action: sexpr.List, file: str) -> None:
    """Each `:key` after the action's name is one PDDL knows (a typo is named, with the key it was
    meant to be, rather than left to the parser's "syntax error" at the end of the action)."""
    for key in action[2::2]:
        if isinstance(key, sexpr.Token) and key.startswith(":") and key not in ACTION_KEYS:
            hint = did_you_mean(key, ACTION_KEYS) or f" (expected {', '.join(ACTION_KEYS)})"
            raise InputError(f"unknown action key '{key}'{hint}", file, key.line)


def domain_name(found: dict[str, sexpr.List], root: sexpr.List, file: str) -> str:
    """The NAME of a problem's `(:domain NAME)` ("" when it is empty)."""
    if ":domain" not in found:
        raise InputError("missing (:domain NAME)", file, root.line)
    return str(found[":domain"][1]) if len(found[":domain"]) > 1 else ""


__all__ = ["Named", "DomainDeclarations", "DOMAIN_SECTIONS", "sections", "typed_names", "typed_section", "types",
           "type_names", "predicates", "actions", "action_keys", "domain_name"]
