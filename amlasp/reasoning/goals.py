"""Goal conditions (`forall`, `or`, ...: `model.GoalCondition`) in validation's answers: each unmet one
shown as the problem's condition (its formula's text), and the false instances of an unmet `forall`, as
VAL's repair advice lists them. The engine validates; this module says what to ask it and reads the answer."""

from __future__ import annotations

import itertools
import math
from dataclasses import replace
from typing import TYPE_CHECKING, Callable, Sequence

from ..logic import goal_condition, map_atoms, nnf
from ..model import Atom, Domain, Forall, Formula, GoalCondition, GroundAction, Literal, Not, Problem

if TYPE_CHECKING:
    from .execution import Execution

#: A run to validate: its problem, its plan and its start state.
Task = tuple[Problem, list[GroundAction], frozenset[Atom]]

#: A `forall` goal condition with more ground instances than this is reported without them.
MAX_GOAL_INSTANCES = 1000


def explain(domain: Domain, runs: Sequence[Task], results: Sequence[Execution],
            validate: Callable[[list[Task]], list[Execution]]) -> None:
    """For each executable run that misses a goal condition that is a `forall` (in negation normal form;
    `(not (exists ...))` too), which of its instances are false at the end (`Execution.goal_instances`):
    the runs validated again by `validate` (in one grounding) with those instances as their goal. Runs that
    reach their goal cost nothing."""
    asked: list[tuple[Execution, dict[GoalCondition, list[Literal]]]] = []
    probes: list[Task] = []
    for (problem, plan, start), result in zip(runs, results):
        if not result.executable or result.valid:
            continue
        found = {g: xs for g in result.goal_unmet if isinstance(g, GoalCondition)
                 for xs in [instances(g, problem, domain)] if xs}
        if found:
            asked.append((result, found))
            goal = tuple(dict.fromkeys(x for xs in found.values() for x in xs if x.atom.predicate != "="))
            probes.append((replace(problem, goal=goal), plan, start))
    if not probes:
        return
    for (result, found), probe in zip(asked, validate(probes)):
        false = set(probe.goal_unmet)
        result.goal_instances = {g: [x for x in xs if x in false or _false_equality(x)] for g, xs in found.items()}


def instances(g: GoalCondition, problem: Problem, domain: Domain) -> list[Literal]:
    """The ground instances of a `forall` goal condition's body, over the objects and constants of their
    types (a literal, or a goal condition of its own); none for another condition or too many instances."""
    f = nnf(g.formula)
    if not isinstance(f, Forall):
        return []
    names = problem.object_types(domain)
    domains = [[o for o, t in names.items() if domain.fits(t, want)] for _, want in f.variables]
    if math.prod(len(d) for d in domains) > MAX_GOAL_INSTANCES:
        return []
    out: list[Literal] = []
    for values in itertools.product(*domains):
        body = _bound(f.body, dict(zip((v for v, _ in f.variables), values)))
        if isinstance(body, Atom):
            out.append(Literal(body, True))
        elif isinstance(body, Not) and isinstance(body.arg, Atom):
            out.append(Literal(body.arg, False))
        else:
            out.append(goal_condition(body))
    return out


def _bound(f: Formula, sub: dict[str, str]) -> Formula:
    """`f` with its free variables replaced by `sub`'s objects (a variable an inner quantifier binds is kept)."""
    return map_atoms(f, lambda a, bound: a.bind({v: o for v, o in sub.items() if v not in bound}))


def _false_equality(lit: Literal) -> bool:
    """A ground `(= a b)` instance (left out of the probe's goal) that is false."""
    return lit.atom.predicate == "=" and (lit.atom.args[0] == lit.atom.args[1]) != lit.positive


__all__ = ["MAX_GOAL_INSTANCES", "explain", "instances"]
