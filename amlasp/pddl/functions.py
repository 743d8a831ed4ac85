"""`(:functions ...)` and number tokens, read in one place for action costs (`pddl/costs.py`) and for
numeric fluents (`pddl/numeric.py`), which both run before the other passes see the domain."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import InputError, UnsupportedError
from . import check, sexpr
from .declarations import typed_names, variable

if TYPE_CHECKING:
    from decimal import Decimal

Declaration = tuple[sexpr.List, list[tuple[sexpr.Token, str]]]  # `(f ?x - t)` and its typed parameters


class ObjectFluents(UnsupportedError):
    """A `:functions` group typed other than `number`: refused by the numeric passes, left alone by costs."""


def decimal(tok: sexpr.SExpr, file: str, what: str = "a number") -> Decimal:
    """A finite number token, exactly (`Decimal`): each reader then keeps it its own way. (`decimal` is
    imported here, by the domains and problems that have numbers.)"""
    from decimal import Decimal, InvalidOperation
    try:
        d = Decimal(str(tok))
    except InvalidOperation:
        raise InputError(f"expected {what}, got '{tok}'", file, at=tok) from None
    if not d.is_finite():
        raise InputError(f"expected {what}, got '{tok}'", file, at=tok)
    return d


def declarations(section: sexpr.List, file: str) -> list[Declaration]:
    """`(:functions (f ?x - t) - number (g) ...)`: each function a name with typed parameters, declared
    once; a type after a group of functions must be `number` (`ObjectFluents` otherwise)."""
    out: list[Declaration] = []
    seen: set[str] = set()
    items = list(section[1:])
    k = 0
    while k < len(items):
        it = items[k]
        if it == "-":
            t = items[k + 1] if k + 1 < len(items) else it
            if t != "number":
                raise ObjectFluents(f"unsupported feature: object fluents (functions of type '{t}')", file, at=t)
            k += 2
            continue
        if not isinstance(it, sexpr.List) or it.head() is None:
            raise InputError("expected a function declaration like (fuel ?t - truck)", file, at=it)
        name = check.name(it[0], "function name", file, allow=("total-cost",))
        if name in seen:
            raise InputError(f"function '{name}' declared twice", file, at=it[0])
        seen.add(name)
        params = typed_names(list(it[1:]), file)
        for v, _ in params:
            variable(v, file)
        out.append((it, params))
        k += 1
    return out


__all__ = ["Declaration", "ObjectFluents", "decimal", "declarations"]
