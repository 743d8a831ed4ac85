"""What a domain or problem declares, read from its s-expression with the line of every name.

The `pddl` package forgets where a name came from; these lists keep each name's token, so
that the checks (`check`) and the conversion (`convert`) can point at its line. Reading
refuses only what cannot be read at all (a malformed typed list, a predicate or action
without a name, an unknown section); whether the names make sense is `check`'s job.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from ..errors import InputError, UnsupportedError
from ..model import either_type
from . import check, sexpr
from .suggest import ACTION_KEYS, did_you_mean

Named = list[tuple[sexpr.Token, str]]  # (name, its type, or a type's parent), in the order declared

DOMAIN_SECTIONS = (":requirements", ":types", ":constants", ":predicates", ":derived")  # besides :action


@dataclass(frozen=True)
class DomainDeclarations:
    """A domain's declarations, after the checks: what `convert` needs to build a Domain."""

    types: Named
    constants: Named
    predicates: dict[str, sexpr.List]  # name -> its declaration (name ?x - t ...), in order
    actions: dict[str, sexpr.List]  # name -> (:action name ...), in order
    derived: tuple[sexpr.List, ...] = ()  # the (:derived (p ?x ...) body) sections, in order

    @property
    def type_names(self) -> set[str]:
        return type_names(self.types)


def sections(root: sexpr.List) -> dict[str, sexpr.List]:
    """The sections after `(define (kind NAME)`, by head (the last of a repeated one)."""
    return {s.head(): s for s in root[2:]}


def typed_names(items: list[sexpr.SExpr], file: str) -> Named:
    """Parse a PDDL typed list `a b - t c - u d` (untyped items are `object`); each type is kept
    as its token, so that an error about it points at it."""
    out: Named = []
    pending: list[sexpr.Token] = []
    rest = iter(items)  # a domain's every action has one: read with no index, no generator
    for it in rest:
        if isinstance(it, sexpr.List):
            raise InputError("unexpected '(' in a typed list", file, at=it)
        if it == "-":
            t = next(rest, None)
            if t is None:
                raise InputError("'-' without a type", file, at=it)
            if isinstance(t, sexpr.List):
                if t.head() != "either":
                    raise InputError("expected a type name after '-'", file, at=t)
                t = either(t, file)
            if not pending:
                raise InputError(f"type '{t}' given to no name", file, at=t)
            out += [(p, t) for p in pending]
            pending = []
        else:
            pending.append(it)
    out += [(p, "object") for p in pending]
    return out


def either(node: sexpr.List, file: str) -> sexpr.Token:
    """`(either a b ...)`: its one name (`model.either_type`) as a token at the list's position."""
    if len(node) < 2:
        raise InputError("'(either)' names no type", file, at=node)
    for m in node[1:]:
        check.name(m, "type name", file, allow=("object",))
    return sexpr.Token(either_type(str(m) for m in node[1:]), node.line, node.col)


def typed_section(found: dict[str, sexpr.List], head: str, file: str) -> Named:
    """The typed list of a section such as `(:constants ...)` or `(:objects ...)`; empty when absent."""
    return typed_names(list(found[head][1:]), file) if head in found else []


def types(found: dict[str, sexpr.List], file: str) -> Named:
    """The `(:types ...)` list; `object`, the built-in root, is not declared again."""
    for item in found[":types"][1:] if ":types" in found else ():
        if isinstance(item, sexpr.List) and item.head() == "either":
            raise UnsupportedError("unsupported feature: an either type as a parent in :types", file, at=item)
    declared = typed_section(found, ":types", file)
    for t, parent in declared:
        if t == "object" and parent != "object":
            raise InputError(f"the type object has no parent (here '{parent}')", file, at=parent)
    return [(t, parent) for t, parent in declared if t != "object"]


def type_names(declared: Iterable[tuple[str, str]]) -> set[str]:
    """The names of the declared types, and `object`."""
    return {"object"} | {str(t) for t, _ in declared}


def predicates(found: dict[str, sexpr.List], file: str) -> dict[str, sexpr.List]:
    """The declarations `(name ?x - t ...)` by name: each name a PDDL name, each parameter a variable."""
    out: dict[str, sexpr.List] = {}
    for p in found[":predicates"][1:] if ":predicates" in found else ():
        if not isinstance(p, sexpr.List) or p.head() is None:
            raise InputError("expected a predicate declaration like (on ?x ?y)", file, at=p)
        check.name(p[0], "predicate name", file)
        name = p.head() or ""  # a checked declaration: a name at its head
        if name in out:
            raise InputError(f"predicate '{name}' declared twice", file, at=p[0], kind="duplicate")
        for v, _ in typed_names(list(p[1:]), file):
            variable(v, file)
        out[name] = p
    return out


def variable(tok: sexpr.Token, file: str) -> sexpr.Token:
    """`?name`: a variable of a parameter list, quantifier or predicate declaration."""
    if not tok.startswith("?"):
        raise InputError(f"expected a variable like ?x, got '{tok}'", file, at=tok)
    if not check.NAME.fullmatch(tok[1:]):  # any name, keywords too: `?object` is no keyword's position
        raise InputError(f"invalid variable '{tok}' (? then a letter, then letters, digits, - or _)", file, at=tok,
                         kind="invalid-name")
    return tok


def actions(root: sexpr.List, file: str) -> dict[str, sexpr.List]:
    """The `(:action NAME ...)` sections by name; every other section must be a known one.

    One pass over the sections in file order, so that the first error in the file is the one reported."""
    out: dict[str, sexpr.List] = {}
    for s in root[2:]:
        if s.head() == ":action":
            if len(s) < 2 or not isinstance(s[1], sexpr.Token) or s[1].startswith(":"):
                raise InputError("action without a name", file, at=s)
            check.name(s[1], "action name", file)
            if s[1] in out:
                raise InputError(f"action '{s[1]}' declared twice", file, at=s[1], kind="duplicate")
            action_keys(s, file)
            out[s[1]] = s
        else:
            check.known_section(s, DOMAIN_SECTIONS, file)
    return out


def action_keys(action: sexpr.List, file: str) -> None:
    """After the name, `:key value` pairs: each key known (a typo named with the key it was meant
    to be), given once, with a list as its value."""
    seen: set[str] = set()
    items = action[2:]
    for i in range(0, len(items), 2):
        key = items[i]
        if not isinstance(key, sexpr.Token) or not key.startswith(":"):
            raise InputError("expected :parameters, :precondition or :effect", file, at=key)
        if key not in ACTION_KEYS:
            hint = did_you_mean(key, ACTION_KEYS) or " (expected :parameters, :precondition or :effect)"
            raise InputError(f"unknown action key '{key}'{hint}", file, at=key)
        if key in seen:
            raise InputError(f"'{key}' given twice in action '{action[1]}'", file, at=key)
        seen.add(key)
        if i + 1 >= len(items) or not isinstance(items[i + 1], sexpr.List):
            raise InputError(f"expected a list after '{key}'", file, at=items[i + 1] if i + 1 < len(items) else key)


def derived(root: sexpr.List, file: str) -> tuple[sexpr.List, ...]:
    """The `(:derived (p ?x - t ...) body)` sections, each of that shape (`formulas.check_derived` checks
    the rest: the predicate declared, the arity, the body)."""
    out = []
    for s in root[2:]:
        if s.head() == ":derived":
            if len(s) != 3 or not isinstance(s[1], sexpr.List) or s[1].head() is None:
                raise InputError("expected (:derived (predicate ?x - type ...) condition)", file, at=s)
            check.name(s[1][0], "predicate name", file)
            out.append(s)
    return tuple(out)


def domain_name(found: dict[str, sexpr.List], root: sexpr.List, file: str) -> str:
    """The NAME of a problem's `(:domain NAME)` ("" when it is empty)."""
    if ":domain" not in found:
        raise InputError("missing (:domain NAME)", file, at=root)
    section = found[":domain"]
    if len(section) != 2:
        raise InputError("expected (:domain NAME)", file, at=section)
    return str(check.name(section[1], "domain name", file))


__all__ = ["Named", "DomainDeclarations", "DOMAIN_SECTIONS", "sections", "typed_names", "either", "typed_section",
           "types", "type_names", "predicates", "variable", "actions", "action_keys", "derived",
           "domain_name"]
