"""Types as predicates: a task with `either` types, for the planner that cannot read them.

Fast Downward takes `(either a b)` only in predicate declarations (which it ignores), and
unified-planning's reader not at all; an object declared `(either a b)` has both types, which no
single-parent hierarchy can say. So, for a task with an `either` type, every type `t` becomes a
static unary predicate (`type-t`, a `-` more while the name is taken) that holds of every object
and constant of type `t` (or a subtype, or an either type with a member so: `Domain.ancestors`),
everything is written untyped, and each typed variable gets its type as a condition: a
parameter or an `exists` variable in the precondition's conjunction, a `forall` variable as the
antecedent of an `imply`, a `forall` variable of an effect in its `when` condition, a derived
rule's head variable in its body. `(either a b)` is `(or (type-a ?x) (type-b ?x))`. The plans are
the same: the planner's task is the typed one, spelled without types.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from ..logic import fold, rebuild
from ..model import (
    TRUE,
    And,
    Atom,
    Domain,
    Effect,
    Exists,
    Forall,
    Formula,
    Imply,
    Or,
    Predicate,
    Problem,
    Typed,
    type_members,
)


def has_either(domain: Domain, problem: Problem) -> bool:
    """Does the task name an `either` type anywhere (then `types_as_predicates` is needed)?"""
    from ..asp.facts import domain_types  # not at the top: asp's modules load clingo
    types = domain_types(domain) | {t for _, t in problem.objects}
    return any(t.startswith("(either ") for t in types)


def types_as_predicates(domain: Domain, problem: Problem) -> tuple[Domain, Problem]:
    """The task with its types as predicates (module docstring): untyped, the same plans."""
    from ..asp.facts import domain_types
    taken = {p.name for p in domain.predicates} | {a.name for a in domain.actions}
    used = domain_types(domain) | {t for _, t in problem.objects} | {t for t, _ in domain.types}
    names: dict[str, str] = {}
    for t in sorted({m for u in used for m in type_members(u)} | {"object"}):
        name = f"type-{t}"
        while name in taken:
            name += "-"
        taken.add(name)
        names[t] = name

    def condition(var: str, t: str) -> Formula:
        members = [m for m in type_members(t) if m in names]
        if "object" in type_members(t) or not members:
            return TRUE
        atoms = tuple(Atom(names[m], (var,)) for m in members)
        return atoms[0] if len(atoms) == 1 else Or(atoms)

    def conditions(variables: tuple[Typed, ...]) -> list[Formula]:
        return [c for v, t in variables if (c := condition(v, t)) != TRUE]

    convert = _converter(conditions)
    untyped = _untyped
    actions = tuple(replace(a, parameters=untyped(a.parameters),
                            precondition=_and(conditions(a.parameters) + [convert(a.precondition)]),
                            effects=tuple(_effect(e, conditions, convert) for e in a.effects))
                    for a in domain.actions)
    derived = tuple(replace(r, parameters=untyped(r.parameters),
                            body=_and(conditions(r.parameters) + [convert(r.body)])) for r in domain.derived)
    predicates = tuple(Predicate(p.name, untyped(p.parameters)) for p in domain.predicates) + tuple(
        Predicate(n, (("?x", "object"),)) for t, n in names.items() if t != "object")
    facts = {Atom(names[u], (o,)) for o, t in (*domain.constants, *problem.objects)
             for u in domain.ancestors(t) if u in names and u != "object"}
    new_domain = replace(domain, types=(), constants=untyped(domain.constants), predicates=predicates,
                         actions=actions, derived=derived)
    return new_domain, replace(problem, objects=untyped(problem.objects), init=problem.init | facts)


def _untyped(items: tuple[Typed, ...]) -> tuple[Typed, ...]:
    return tuple((x, "object") for x, _ in items)


def _and(parts: list[Formula]) -> Formula:
    flat = [p for p in parts if p != TRUE]
    return And(tuple(flat))


def _converter(conditions: Callable[[tuple[Typed, ...]], list[Formula]]) -> Callable[[Formula], Formula]:
    """The formula with each quantifier's variables untyped and their types as conditions."""
    def node(g: Formula, parts: list[Formula], _env) -> Formula:
        g = rebuild(g, parts)
        if isinstance(g, Exists):
            return Exists(_untyped(g.variables), _and(conditions(g.variables) + [g.body]))
        if isinstance(g, Forall):
            cond = conditions(g.variables)
            body = Imply(_and(cond), g.body) if cond else g.body
            return Forall(_untyped(g.variables), body)
        return g
    return lambda f: fold(f, lambda a, _env: a, node)


def _effect(e: Effect, conditions: Callable[[tuple[Typed, ...]], list[Formula]],
            convert: Callable[[Formula], Formula]) -> Effect:
    cond = conditions(e.variables) + ([convert(e.condition)] if e.condition != TRUE else [])
    return Effect(e.literal, _and(cond) if cond else TRUE, _untyped(e.variables))


__all__ = ["has_either", "types_as_predicates"]
