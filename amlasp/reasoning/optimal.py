"""Shortest plans from a state and every action that starts one, by Fast Downward's optimal search.

ASP planning proves a horizon too short by exhausting it, which is slow on mid-size problems;
Fast Downward's A* with LM-cut (`opt`, admissible, so its plans are optimal) answers in seconds.
All optimal first actions come from a few optimal searches: after one optimal plan of length L is
found, its first action is excluded *as a first action* (a fresh atom `started` that every action
adds, and a precondition `started or not (= params args)` for the excluded instance) and the task
is solved again; an optimal length still L gives another first action, a longer one (or none)
proves that the excluded actions are all. Every plan is validated by the encodings before use.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable

from ..enums import TextEnum
from ..external.fast_downward import PlannerStatus
from ..model import And, Atom, Domain, Effect, GroundAction, Literal, Not, Or, Predicate, Problem
from .engine import applicable, execute
from .planner import plan as fast_downward


class OptimalStatus(TextEnum):
    """Solved (length and first actions proven), the goal holds already, unsolvable, or unknown (a limit)."""

    SOLVED = "solved"
    GOAL = "goal"
    UNSOLVABLE = "unsolvable"
    UNKNOWN = "unknown"


@dataclass
class FirstActions:
    status: OptimalStatus
    length: int | None = None  # the optimal plan length from the state
    optimal: dict[GroundAction, list[GroundAction]] = field(default_factory=dict)  # first action → optimal plan
    others: list[GroundAction] = field(default_factory=list)  # applicable, but start no optimal plan
    without: int | None = None  # optimal length once every optimal first action is excluded (None: no plan)
    searches: int = 0
    detail: str = ""


def fresh_name(domain: Domain, base: str) -> str:
    taken = {p.name for p in domain.predicates}
    name, k = base, 0
    while name in taken:
        k += 1
        name = f"{base}-{k}"
    return name


def exclude_first(domain: Domain, problem: Problem, excluded: Iterable[GroundAction]) -> Domain:
    """`domain` where no action of `excluded` may be the first step of a plan (see the module's doc).

    The excluded actions' objects become constants of the domain (a precondition may only name
    constants); the planner's problem then leaves them out of its objects."""
    excluded = list(excluded)
    started = Atom(fresh_name(domain, "amlasp-started"))
    types = problem.object_types(domain)
    named = {o for g in excluded for o in g.args} - {c for c, _ in domain.constants}
    actions = []
    for a in domain.actions:
        guards = []
        for g in (g for g in excluded if g.name == a.name):
            differs = [Not(Atom("=", (v, o))) for (v, _), o in zip(a.parameters, g.args)]
            guards.append(Or((started, *differs)))
        pre = And((a.precondition, *guards)) if guards else a.precondition
        actions.append(replace(a, precondition=pre, effects=a.effects + (Effect(Literal(started)),)))
    return replace(domain, predicates=domain.predicates + (Predicate(started.predicate),),
                   constants=domain.constants + tuple((o, types[o]) for o in sorted(named)),
                   actions=tuple(actions))


def _optimal(domain: Domain, problem: Problem, time_limit: float):
    return fast_downward(domain, problem, "opt", time_limit)


def optimal_first_actions(domain: Domain, problem: Problem, state: Iterable[Atom] | None = None,
                          time_limit: float = 60.0) -> FirstActions:
    """The optimal plan length from `state` (default: the initial state) and every applicable action
    that starts an optimal plan, each with such a plan; `time_limit` is per search."""
    start = frozenset(problem.init if state is None else state)
    task = replace(problem, init=start)
    goal_ok = all((l.atom in start) == l.positive for l in problem.goal)
    if goal_ok:
        return FirstActions(OptimalStatus.GOAL, 0, detail="the goal holds in the state")
    first = _optimal(domain, task, time_limit)
    result = FirstActions(OptimalStatus.UNKNOWN, searches=1)
    if first.status is PlannerStatus.NO_PLAN:
        return FirstActions(OptimalStatus.UNSOLVABLE, searches=1, detail=f"Fast Downward: {first.detail}")
    if first.status is not PlannerStatus.PLAN:
        result.detail = f"Fast Downward: {first.status}: {first.detail}"
        return result
    length = len(first.plan)
    _validate(domain, task, list(first.plan), length)
    result.length = length
    result.optimal[first.plan[0]] = list(first.plan)
    while True:
        again = _optimal(exclude_first(domain, task, result.optimal), task, time_limit)
        result.searches += 1
        if again.status is PlannerStatus.PLAN and len(again.plan) == length:
            plan = list(again.plan)
            if plan[0] in result.optimal:
                raise RuntimeError(f"internal error: excluded first action {plan[0]} was used")
            _validate(domain, task, plan, length)
            result.optimal[plan[0]] = plan
            continue
        if again.status is PlannerStatus.PLAN:
            result.without = len(again.plan)
        elif again.status is not PlannerStatus.NO_PLAN:
            result.detail = f"Fast Downward: {again.status}: {again.detail}"
            return result
        break
    result.status = OptimalStatus.SOLVED
    result.optimal = dict(sorted(result.optimal.items(), key=lambda x: str(x[0])))
    result.others = [a for a in applicable(domain, task)[0] if a not in result.optimal]
    result.detail = (f"optimal length {length} (Fast Downward, A* with LM-cut); with the {len(result.optimal)} "
                     "optimal first action(s) excluded, " +
                     (f"the optimal length is {result.without}" if result.without is not None else "there is no plan"))
    return result


def _validate(domain: Domain, problem: Problem, plan: list[GroundAction], length: int) -> None:
    ex = execute(domain, problem, plan, states=False)
    if not ex.valid or len(plan) != length:
        raise RuntimeError(f"internal error: Fast Downward's plan {' '.join(map(str, plan))} fails validation")


__all__ = ["OptimalStatus", "FirstActions", "optimal_first_actions", "exclude_first", "fresh_name"]
