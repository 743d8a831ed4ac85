"""Bound variables in an order that does not depend on their names.

compare matches the variables a quantifier or a `forall` effect binds by position (docs/compare.md,
"Inside"), and the reader lists them sorted by name, so a copy with its variables renamed would list
them in another order and match nothing. Before comparing, each such list of two or more variables
is ordered by where its variables occur (the arity and position of each atom argument they are):
for a `forall` effect, in the atoms (or function terms) of its effects, then in its condition; for
a quantifier, in the atoms of its body. Only variables that occur alike keep the reader's order
between them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable, TypeVar

from ...logic import Quantified, atoms, children, fold, rebuild, subformulas
from ...model import Action, Atom, Domain, Effect, Exists, Forall, Formula, NumericEffect, Typed

E = TypeVar("E", Effect, NumericEffect)

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


def _group_order(variables: tuple[Typed, ...], heads: list[Atom], condition: Formula) -> tuple[Typed, ...]:
    def key(v: str) -> tuple[Occurrences, Occurrences]:
        return tuple(sorted((len(a.args), i) for a in heads for i, x in enumerate(a.args) if x == v)), \
            _occurrences(condition, v)
    return _ordered(variables, key)


def _in_groups(effects: tuple[E, ...], atoms_of: Callable[[E], list[Atom]]) -> tuple[E, ...]:
    """`effects` with the variables of each `forall` in order of occurrence. The effects of one
    `forall` (the same variables and condition) are ordered alike, by the atoms of all of them, so
    that they keep one condition (compare reports conditional effects per condition)."""
    groups: dict[tuple[tuple[Typed, ...], Formula], list[E]] = {}
    for e in effects:
        if len(e.variables) > 1:
            groups.setdefault((e.variables, e.condition), []).append(e)
    order: dict[tuple[tuple[Typed, ...], Formula], tuple[Typed, ...]] = {}
    for (vs, cond), group in groups.items():
        order[(vs, cond)] = _group_order(vs, [a for e in group for a in atoms_of(e)], cond)
    out = []
    for e in effects:
        cond = formula(e.condition)
        vs = order.get((e.variables, e.condition), e.variables)
        out.append(e if vs == e.variables and cond is e.condition else replace(e, variables=vs, condition=cond))
    return tuple(out)


def _action(a: Action) -> Action:
    pre = formula(a.precondition)
    effects = _in_groups(a.effects, lambda e: [e.literal.atom])
    numeric = _in_groups(a.numeric_effects, lambda e: [Atom(e.fluent.function, e.fluent.args)])
    if pre is a.precondition and all(x is y for x, y in zip(effects + numeric, a.effects + a.numeric_effects)):
        return a
    return replace(a, precondition=pre, effects=effects, numeric_effects=numeric)


def in_order(d: Domain) -> Domain:
    """`d` with the bound variables of every action in order of occurrence (`d` itself if none moves)."""
    actions = tuple(_action(a) for a in d.actions)
    return d if all(x is y for x, y in zip(actions, d.actions)) else replace(d, actions=actions)


__all__ = ["in_order", "formula"]
