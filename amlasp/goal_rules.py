"""Goal conditions meet the domain here: a goal conjunct that is no literal (`model.GoalCondition`) is a
0-ary derived predicate whose one rule's body is the conjunct, as Fast Downward compiles it."""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable

from .identity import by_identity
from .model import GOAL_PREFIX, Derived, Domain, GoalCondition, Literal, Predicate, Problem


def goal_rules(problem: Problem) -> tuple[Derived, ...]:
    """The derived rules of a problem's goal conditions (`GoalCondition`), in goal order."""
    return tuple(Derived(g.atom.predicate, (), g.formula) for g in problem.goal if isinstance(g, GoalCondition))


def with_goal_rules(domain: Domain, problems: Iterable[Problem]) -> Domain:
    """The domain a command runs `problems` on: `domain` itself when their goals are conjunctions of literals
    (as before goal conditions were read), else `domain` with the goal conditions' 0-ary predicates and
    rules added (each once). The one place goal conditions meet the domain; kept for the last domains
    asked, so that a command asking again gets the same object (the engines cache by identity)."""
    rules = {r.predicate: r for p in problems for r in goal_rules(p)}
    if not rules:
        return domain
    if all(domain.predicate(name) is not None for name in rules):  # asked again with the domain it gave
        return domain
    return by_identity(_WITH_GOALS, 16, (domain,), tuple(sorted(rules)), lambda: _extended(domain, rules.values()))


def _extended(domain: Domain, rules: Iterable[Derived]) -> Domain:
    new = tuple(r for r in rules if domain.predicate(r.predicate) is None)
    return replace(domain, predicates=domain.predicates + tuple(Predicate(r.predicate, ()) for r in new),
                   derived=domain.derived + new)


_WITH_GOALS: dict = {}


def unmet_as_written(problem: Problem, unmet: list[Literal]) -> list[Literal]:
    """The unmet goal conjuncts, sorted by their text: a goal condition's atom read back from clingo is
    the problem's `GoalCondition`, which reads as its formula (as VAL names an unmet goal conjunct)."""
    conditions = {Literal(g.atom, g.positive): g for g in problem.goal if isinstance(g, GoalCondition)}
    return sorted((conditions.get(lit, lit) for lit in unmet), key=str)


def is_goal_predicate(name: str) -> bool:
    """A predicate `with_goal_rules` added: not the domain's own (the writer leaves it out)."""
    return name.startswith(GOAL_PREFIX)


__all__ = ["goal_rules", "with_goal_rules", "is_goal_predicate", "unmet_as_written"]
