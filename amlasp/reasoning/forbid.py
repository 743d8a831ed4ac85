"""Exact fact landmarks: F is a landmark iff no plan avoids it, decided by a complete planner.

A fact F that is false in the state holds at some point of every plan iff the task has no plan in
which F never holds, i.e. none in which no applied action adds F. `forbid_fact` writes that task:
each action whose effect could add F gets the precondition "not (this effect adds F here)" (its
condition and the equalities of its arguments with F's, existentially closed over `forall`
variables). Fast Downward's search then decides it: a plan (validated here, and checked to never
make F true) proves F is no landmark; exhausting the reachable states proves it is one. The sound
relaxation test (reasoning/landmarks.py) is the fast first filter, a plan the fast second.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable

from ..enums import Verdict
from ..external.fast_downward import PlannerStatus
from ..model import TRUE, And, Atom, Domain, Exists, Formula, GroundAction, Not, Problem, is_var
from .engine import execute
from .planner import plan as fast_downward


@dataclass(frozen=True)
class LandmarkDecision:
    """Whether F is a landmark: a proof (`yes`), a plan that never makes F true (`no`), or unknown."""

    fact: Atom
    verdict: Verdict
    proof: str
    plan: tuple[GroundAction, ...] | None = None


def forbid_fact(domain: Domain, problem: Problem, fact: Atom) -> Domain:
    """`domain` in which no action may make `fact` true (the objects it names become constants)."""
    actions = []
    for a in domain.actions:
        blocks = []
        for e in a.effects:
            lit = e.literal
            if not lit.positive or lit.atom.predicate != fact.predicate or len(lit.atom.args) != len(fact.args):
                continue
            eqs: list[Formula] = []
            possible = True
            for x, o in zip(lit.atom.args, fact.args):
                if is_var(x):
                    eqs.append(Atom("=", (x, o)))
                elif x != o:
                    possible = False
            if not possible:
                continue
            cond = And(tuple(([e.condition] if e.condition != TRUE else []) + eqs))
            blocks.append(Not(Exists(e.variables, cond) if e.variables else cond))
        actions.append(replace(a, precondition=And((a.precondition, *blocks))) if blocks else a)
    types = problem.object_types(domain)
    named = sorted(set(fact.args) - {c for c, _ in domain.constants})
    return replace(domain, actions=tuple(actions), constants=domain.constants + tuple((o, types[o]) for o in named))


def decide_landmark(domain: Domain, problem: Problem, fact: Atom, state: Iterable[Atom] | None = None,
                    time_limit: float = 60.0) -> LandmarkDecision:
    """Is `fact` (false in `state`) a landmark of the task from `state`? Fast Downward decides."""
    start = frozenset(problem.init if state is None else state)
    if fact in start:
        return LandmarkDecision(fact, Verdict.YES, "holds in the state")
    task = replace(problem, init=start)
    r = fast_downward(forbid_fact(domain, task, fact), task, "greedy", time_limit)
    if r.status is PlannerStatus.PLAN:
        assert r.plan is not None  # the planner's PLAN status comes with its plan
        plan = list(r.plan)
        ex = execute(domain, task, plan)
        if not ex.valid or any(fact in s for s in ex.states):
            raise RuntimeError(f"internal error: the plan avoiding {fact} fails validation")
        return LandmarkDecision(fact, Verdict.NO, f"a plan of {len(plan)} step(s) in which {fact} never holds",
                                tuple(plan))
    if r.status is PlannerStatus.NO_PLAN:
        return LandmarkDecision(fact, Verdict.YES, f"no plan exists when no action may make {fact} true "
                                                   f"(Fast Downward: {r.detail})")
    return LandmarkDecision(fact, Verdict.UNKNOWN, f"Fast Downward: {r.status}: {r.detail}")


__all__ = ["Verdict", "LandmarkDecision", "forbid_fact", "decide_landmark"]
