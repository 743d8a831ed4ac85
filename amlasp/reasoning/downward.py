"""Fast Downward as the prover of a shortest plan, for `plan` and `reach` (`--prover fd|auto`).

A shortest plan is an optimal plan under unit costs: Fast Downward's A* with LM-cut (blind A* for derived
predicates, `optimal_config`) on the task our writer makes, with any action costs left out (a plan's
length is what `plan` minimises when the problem has no `(:metric minimize (total-cost))`). `reach`'s
state and literals become the task's initial state and goal; an asked action A (`reach --action`) becomes
a copy of A's schema, its parameters bound to A's arguments by one static unary predicate per parameter,
whose one effect is a fresh 0-ary goal atom: an optimal plan ends with the copy (it reaches the goal, so
nothing after it is needed), and what precedes it is a shortest prefix after which A is applicable.

Its translator and then its search binary run without its driver (a third of its CPU time on a small
task), chained by a shell in a session of its own (`external.fast_downward.Running`), started as soon as the
task is known, so that clingo's modules load while it searches; it is ended by its `stop`, by `stop_planners` (a
watchdog child told to end) and at its time limit. Its plan is checked by our validator before anyone sees
it (planning._check): it is an external program.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

from ..choices import Prover
from ..errors import UnsupportedError
from ..external.fast_downward import (
    PlannerResult,
    PlannerStatus,
    Running,
    installed,
    optimal_config,
    start_driver,
)
from ..external.planner_task import PlannerTask
from ..model import Action, And, Atom, Domain, Effect, GoalCondition, GroundAction, Literal, Predicate, Problem
from ..pddl.writer import problem_to_pddl, to_pddl

#: The names of the target's copy and of its goal atom (made distinct from the domain's names).
TARGET_ACTION, TARGET_REACHED, TARGET_ARG = "amlasp-target", "amlasp-target-reached", "amlasp-target-arg"


@dataclass(frozen=True)
class Answer:
    """What Fast Downward proved: `plan` (its steps, without the target's copy) of `length` steps (the
    copy counted), or that there is none (`unsolvable`); neither when it gave no answer (`detail` why)."""

    plan: tuple[GroundAction, ...] | None
    length: int | None
    unsolvable: bool
    detail: str
    seconds: float


def asked(prover: Prover) -> bool:
    """Whether Fast Downward is to prove the answer: with `fd` (refused when it is not installed), and with
    `auto` where it is installed (without it, clingo alone answers, as before issue 33)."""
    if prover is Prover.ASP:
        return False
    if not installed():
        if prover is Prover.FD:
            raise UnsupportedError("--prover fd: Fast Downward is not installed (pip install up-fast-downward); "
                                   "--prover asp or auto plan with clingo alone")
        return False
    return True


def start(domain: Domain, problem: Problem, init: frozenset[Atom], goal: Sequence[Literal | GoalCondition],
          target: GroundAction | None, timeout: float) -> Running:
    """Fast Downward's optimal search for the task (`domain`, with the goal rules of `problem`'s goal
    conditions), started and not waited for."""
    d, p = _unit_costs(domain, replace(problem, init=init, goal=tuple(goal)))
    if target is not None:
        d, p = _with_target(d, p, target)
    return start_driver(PlannerTask(to_pddl(d), problem_to_pddl(p)), optimal_config(d), timeout, direct=True)


def answer(result: PlannerResult, domain: Domain, target: GroundAction | None) -> Answer:
    """Fast Downward's outcome read back: its plan's names as the domain spells them, the target's copy
    dropped (not yet validated: the caller does that)."""
    if result.status is PlannerStatus.PLAN and result.plan is not None:
        names = {a.name.lower(): a.name for a in domain.actions}
        steps = tuple(GroundAction(names.get(a.name.lower(), a.name), a.args) for a in result.plan)
        if target is not None:
            if not steps or not steps[-1].name.lower().startswith(TARGET_ACTION):
                raise RuntimeError(f"internal error: Fast Downward's plan {[str(a) for a in steps]} does not end "
                                   f"with the asked action's copy")
            return Answer(steps[:-1], len(steps), False, "", result.seconds)
        return Answer(steps, len(steps), False, "", result.seconds)
    if result.status is PlannerStatus.NO_PLAN:
        return Answer(None, None, True, result.detail, result.seconds)
    return Answer(None, None, False, f"{result.status}: {result.detail}", result.seconds)


def _unit_costs(domain: Domain, problem: Problem) -> tuple[Domain, Problem]:
    """The task without action costs: its optimal plans are its shortest ones."""
    if not domain.action_costs and not problem.metric and not problem.costs:
        return domain, problem
    actions = tuple(replace(a, cost=None) for a in domain.actions)
    return replace(domain, actions=actions, cost_functions=()), replace(problem, metric=False, costs=())


def _with_target(domain: Domain, problem: Problem, target: GroundAction) -> tuple[Domain, Problem]:
    """The task whose goal is "`target` has been applied": its schema's copy, bound to its arguments."""
    schema = domain.action(target.name)
    if schema is None or schema.arity != len(target.args):
        raise RuntimeError(f"internal error: {target} is no action of the domain")
    taken = {p.name for p in domain.predicates} | {a.name for a in domain.actions}
    suffix = ""
    while any(n + suffix in taken for n in (TARGET_ACTION, TARGET_REACHED)) or \
            any(f"{TARGET_ARG}{i}{suffix}" in taken for i in range(schema.arity)):
        suffix += "-"
    binds = [Predicate(f"{TARGET_ARG}{i}{suffix}", ((v, t),)) for i, (v, t) in enumerate(schema.parameters)]
    reached = Predicate(TARGET_REACHED + suffix)
    precondition = And((schema.precondition, *(Atom(b.name, (v,)) for b, (v, _) in zip(binds, schema.parameters))))
    copy = Action(TARGET_ACTION + suffix, schema.parameters, precondition, (Effect(Literal(Atom(reached.name))),))
    domain = replace(domain, predicates=domain.predicates + (*binds, reached), actions=domain.actions + (copy,))
    init = problem.init | {Atom(b.name, (a,)) for b, a in zip(binds, target.args)}
    return domain, replace(problem, init=frozenset(init), goal=(Literal(Atom(reached.name)),))


__all__ = ["Answer", "asked", "start", "answer"]
