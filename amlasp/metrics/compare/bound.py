"""Bound variables in an order that does not depend on their names.

compare matches the variables a quantifier or a `forall` effect binds by position (docs/compare.md,
"Inside"), and the reader lists them sorted by name, so a copy with its variables renamed would list
them in another order and match nothing. Before comparing, each such list of two or more variables
is ordered by where its variables occur: for an effect, their positions in the effect's atom (or
function term), then in its condition; for a quantifier, in the atoms of its body (arity and
position). Only variables that occur alike keep the reader's order between them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from ...logic import Quantified, atoms, children, fold, rebuild, subformulas
from ...model import Action, Atom, Domain, Effect, Exists, Forall, Formula, NumericEffect, Typed

#: Where a variable occurs in a formula: (arity, position) of each atom argument that it is.
Occurrences = tuple[tuple[int, int], ...]


def _occurrences(f: Formula, v: str) -> Occurrences:
    return tuple(sorted((len(a.args), i) for a in atoms(f) for i, x in enumerate(a.args) if x == v))


def _ordered(variables: tuple[Typed, ...], key: Callable[[str], tuple]) -> tuple[Typed, ...]:
    if len(variables) < 2:
        return variables
    return tuple(x for _, _, x in sorted((key(v), i, (v, t)) for i, (v, t) in enumerate(variables)))


def formula(f: Formula) -> Formula:
    """`f` with the variables of each quantifier in order of occurrence (the formula itself if none moves)."""
    def leaf(a: Atom, _env: None) -> Formula:
        return a

    def node(g: Formula, kids: list[Formula], _env: None) -> Formula:
        if isinstance(g, (Exists, Forall)):
            vs = _ordered(g.variables, lambda v: _occurrences(kids[0], v))
            if vs != g.variables or kids[0] is not g.body:
                return type(g)(vs, kids[0])
            return g
        return g if all(k is c for k, c in zip(kids, children(g))) else rebuild(g, kids)
    if not any(isinstance(g, Quantified) for g in subformulas(f)):
        return f
    return fold(f, leaf, node)


def _effect(e: Effect) -> Effect:
    cond = formula(e.condition)
    vs = _ordered(e.variables, lambda v: (tuple(i for i, x in enumerate(e.literal.atom.args) if x == v),
                                          _occurrences(cond, v)))
    return e if vs == e.variables and cond is e.condition else replace(e, variables=vs, condition=cond)


def _numeric_effect(e: NumericEffect) -> NumericEffect:
    cond = formula(e.condition)
    vs = _ordered(e.variables, lambda v: (tuple(i for i, x in enumerate(e.fluent.args) if x == v),
                                          _occurrences(cond, v)))
    return e if vs == e.variables and cond is e.condition else replace(e, variables=vs, condition=cond)


def _action(a: Action) -> Action:
    pre = formula(a.precondition)
    effects = tuple(_effect(e) for e in a.effects)
    numeric = tuple(_numeric_effect(e) for e in a.numeric_effects)
    if pre is a.precondition and all(x is y for x, y in zip(effects + numeric, a.effects + a.numeric_effects)):
        return a
    return replace(a, precondition=pre, effects=effects, numeric_effects=numeric)


def in_order(d: Domain) -> Domain:
    """`d` with the bound variables of every action in order of occurrence (`d` itself if none moves)."""
    actions = tuple(_action(a) for a in d.actions)
    return d if all(x is y for x, y in zip(actions, d.actions)) else replace(d, actions=actions)


__all__ = ["in_order", "formula"]
