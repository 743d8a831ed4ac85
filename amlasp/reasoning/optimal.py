"""Shortest plans from a state and every action that starts one, by comparing successors' optimal costs.

A first action `a` is optimal iff `1 + h*(succ(s, a)) = h*(s)`. One optimal search from the state
gives `h*(s) = L` and one optimal plan; then one optimal search per other applicable action, from its
successor, bounded to plans shorter than `L` (A* with LM-cut and `bound`; blind A* for a domain with
derived predicates, whose axioms LM-cut refuses): a plan of `L - 1`
steps makes `a` optimal, and "none under the bound" proves a cost-to-go of at least `L`, so a plan
of at least `L + 1` steps through `a` (`a` is not optimal). The bound is what makes the other
actions cheap to decide: A* then never expands a node of f-value `L` or more (with the bound `L + 1`,
which would give the exact cost-to-go of most non-optimal actions, one ACPBench ferry item needed
more than 10 s for one successor). No search excludes anything, so each one is
as hard as a plain optimal search (the earlier exclusion of found first actions added a disjunction
per action and slowed Fast Downward exponentially: 0.2, 0.4, 1.4, 6.5, 32.6 s on an ACPBench swap
item). The task is translated once and each search is Fast Downward's search component on it with
the successor as initial state (`planner.Translated`); every plan is validated by the encodings.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable

from ..enums import TextEnum
from ..external.fast_downward import SEARCH_NAMES, PlannerStatus, optimal_config
from ..goal_rules import with_goal_rules
from ..model import Atom, Domain, GroundAction, Problem
from .engine import applicable, execute
from .planner import NotEncodable, Search, Translated
from .transitions import changes_many


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
    cost_to_go: dict[GroundAction, str] = field(default_factory=dict)  # each applicable action's h*(succ): "4",
    # ">= 7" (no plan under the bound), "no plan" (a dead end)
    searches: int = 0
    seconds: float = 0.0  # the searches' wall time, translation included
    detail: str = ""


def _goal_holds(domain: Domain, problem: Problem, state: frozenset[Atom]) -> bool:
    """Does `state` satisfy the goal? A goal on a derived predicate is checked by the encodings."""
    domain = with_goal_rules(domain, [problem])
    derived = domain.derived_predicates()
    if any(lit.atom.predicate in derived for lit in problem.goal):
        return execute(domain, replace(problem, init=state), [], states=False).valid
    return all((lit.atom in state) == lit.positive for lit in problem.goal)


def optimal_first_actions(domain: Domain, problem: Problem, state: Iterable[Atom] | None = None,
                          time_limit: float = 60.0) -> FirstActions:
    """The optimal plan length from `state` (default: the initial state) and every applicable action
    that starts an optimal plan, each with such a plan; `time_limit` is per search."""
    start = frozenset(problem.init if state is None else state)
    task = replace(problem, init=start)
    if _goal_holds(domain, problem, start):
        return FirstActions(OptimalStatus.GOAL, 0, detail="the goal holds in the state")
    with Translated(domain, task, time_limit) as fd:
        result = FirstActions(OptimalStatus.UNKNOWN, seconds=fd.seconds)
        first = fd.search(time_limit=time_limit)
        result.searches, result.seconds = 1, result.seconds + first.seconds
        if first.status is PlannerStatus.NO_PLAN:
            return replace(result, status=OptimalStatus.UNSOLVABLE, detail=f"Fast Downward: {first.detail}")
        if first.status is not PlannerStatus.PLAN or first.plan is None:
            result.detail = _stopped(first, "from the state")
            return result
        plan = list(first.plan)
        _validate(domain, task, plan, len(plan))
        result.length = len(plan)
        apps = applicable(domain, task)[0]
        if not _successors(fd, domain, task, apps, plan, result, time_limit):
            return result
    result.status = OptimalStatus.SOLVED
    result.optimal = dict(sorted(result.optimal.items(), key=lambda x: str(x[0])))
    result.cost_to_go = dict(sorted(result.cost_to_go.items(), key=lambda x: str(x[0])))
    result.others = [a for a in apps if a not in result.optimal]
    search = SEARCH_NAMES[optimal_config(with_goal_rules(domain, [problem]))]
    result.detail = (f"optimal length {len(plan)} (Fast Downward, {search}); each of the {len(apps)} "
                     f"applicable action(s) decided by an optimal search from its successor: "
                     f"{len(result.optimal)} leave(s) {len(plan) - 1} step(s) to go, the others more")
    return result


def _successors(fd: Translated, domain: Domain, task: Problem, apps: list[GroundAction], plan: list[GroundAction],
                result: FirstActions, time_limit: float) -> bool:
    """Each applicable action's cost-to-go into `result` (the first step of `plan`, optimal, needs no
    search); False when a search stops short (`result.detail` says where and why)."""
    length = len(plan)
    for a, change in zip(apps, changes_many(domain, task, [(task.init, apps)])[0]):
        if a == plan[0]:
            result.optimal[a], result.cost_to_go[a] = plan, str(length - 1)
            continue
        if change is None:
            raise RuntimeError(f"internal error: {a} was listed applicable but is not")
        rest = _successor(fd, domain, task, change.apply(task.init), length, time_limit)
        if isinstance(rest, Search):
            result.searches += 1
            result.seconds += rest.seconds
            if rest.status is PlannerStatus.TIMEOUT or rest.status is PlannerStatus.ERROR:
                result.detail = _stopped(rest, f"after {a}")
                return False
        cost, tail = _cost(rest)
        result.cost_to_go[a] = cost
        if tail is not None and len(tail) == length - 1:
            _validate(domain, task, [a, *tail], length)
            result.optimal[a] = [a, *tail]
    return True


def _successor(fd: Translated, domain: Domain, task: Problem, succ: frozenset[Atom], length: int,
               time_limit: float) -> Search | tuple[()]:
    """An optimal search from `succ` for plans shorter than `length`; `()` when the goal holds there."""
    if _goal_holds(domain, task, succ):
        return ()
    try:
        return fd.search(succ, bound=length, time_limit=time_limit)
    except NotEncodable:  # not expected (succ is reachable): translate the successor's own task
        with Translated(domain, replace(task, init=succ), time_limit) as own:
            return own.search(bound=length, time_limit=time_limit)


def _cost(rest: Search | tuple[()]) -> tuple[str, list[GroundAction] | None]:
    """A successor's cost-to-go in words, and its optimal plan when one was found."""
    if not isinstance(rest, Search):
        return "0", []
    if rest.status is PlannerStatus.PLAN and rest.plan is not None:
        return str(len(rest.plan)), list(rest.plan)
    if rest.at_least is not None:
        return f">= {rest.at_least}", None
    return "no plan", None


def _stopped(r: Search, where: str) -> str:
    """Why an optimal search gave no answer, with the lower bound it proved before it stopped."""
    bound = f"; no plan shorter than {r.at_least} step(s) exists (the last f-layer finished)" \
        if r.at_least is not None else ""
    return f"Fast Downward's optimal search {where}: {r.status}: {r.detail}{bound}"


def _validate(domain: Domain, problem: Problem, plan: list[GroundAction], length: int) -> None:
    ex = execute(domain, problem, plan, states=False)
    if not ex.valid or len(plan) != length:
        raise RuntimeError(f"internal error: Fast Downward's plan {' '.join(map(str, plan))} fails validation")


__all__ = ["OptimalStatus", "FirstActions", "optimal_first_actions"]
