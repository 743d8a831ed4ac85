"""The optimal cost of a problem, for `validate --optimal`: a plan's cost against the best possible, as
LLM-planning papers report it. Fast Downward's optimal search (A* with LM-cut; blind A* with derived
predicates: `external.fast_downward.optimal_plan`) on the PDDL our writer makes; the optimal plan's cost
is `costs.plan_cost`'s, the cost a verdict gives. A problem is searched once per run, whatever its file:
the results are kept by the hash of the domain's and the problem's PDDL text. A problem the search proves
unsolvable, or does not solve within the time limit, has no optimal cost, and says which."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Iterable

from ..costs import plan_cost
from ..enums import TextEnum
from ..model import Domain, Number, Problem


class OptimumStatus(TextEnum):
    """What the optimal search said of a problem."""

    SOLVED = "solved"  # `cost` is the optimal cost
    UNSOLVABLE = "unsolvable"  # proven: no plan at all
    TIMEOUT = "timeout"
    MEMOUT = "memout"
    ERROR = "error"  # the planner's own trouble (`detail`), or a cost without a value (an undefined function)


@dataclass(frozen=True)
class Optimum:
    """A problem's optimal cost, or why there is none (`status`, `detail`)."""

    status: OptimumStatus
    cost: Number | None = None
    detail: str = ""

    def ratio(self, cost: Number | None) -> float | None:
        """`cost` over the optimal cost: 1.0 for an optimal plan; None when either is unknown (a plan
        that is not valid has no cost to compare) or the optimum is 0 and the cost is not."""
        if cost is None or self.cost is None:
            return None
        if self.cost == 0:
            return 1.0 if cost == 0 else None
        return cost / self.cost


#: Seconds the optimal search of one problem may take (`validate --optimal-timeout`).
DEFAULT_TIMEOUT = 60.0


def task_key(domain: Domain, problem: Problem) -> str:
    """The hash of the PDDL texts the planner is given: equal problems in two files are one search."""
    from ..pddl.writer import problem_to_pddl, to_pddl
    return hashlib.sha256(f"{to_pddl(domain)}\0{problem_to_pddl(problem)}".encode()).hexdigest()


class Optima:
    """The optimal costs of one run's problems, each searched once (by `task_key`)."""

    def __init__(self, domain: Domain, timeout: float = DEFAULT_TIMEOUT):
        self.domain, self.timeout = domain, timeout
        self._by_key: dict[str, Optimum] = {}
        self._by_problem: dict[int, tuple[Problem, Optimum]] = {}  # id → (the problem, kept alive; its optimum)

    def __call__(self, problem: Problem) -> Optimum:
        hit = self._by_problem.get(id(problem))
        if hit is not None:
            return hit[1]
        key = task_key(self.domain, problem)
        if key not in self._by_key:
            self._by_key[key] = _search(self.domain, problem, self.timeout)
        self._by_problem[id(problem)] = (problem, self._by_key[key])
        return self._by_key[key]

    def searches(self) -> int:
        """How many searches were run (distinct problems)."""
        return len(self._by_key)


def optima(domain: Domain, problems: Iterable[Problem], timeout: float = DEFAULT_TIMEOUT) -> list[Optimum]:
    """The optimal cost of each problem (in order), each distinct problem searched once."""
    find = Optima(domain, timeout)
    return [find(p) for p in problems]


def _search(domain: Domain, problem: Problem, timeout: float) -> Optimum:
    from ..external.fast_downward import PlannerStatus, optimal_plan
    r = optimal_plan(domain, problem, timeout=timeout)
    if r.status == PlannerStatus.PLAN and r.plan is not None:
        cost = plan_cost(domain, problem, list(r.plan))
        if cost.value is None:
            return Optimum(OptimumStatus.ERROR, None, f"{cost.undefined} has no value")
        return Optimum(OptimumStatus.SOLVED, cost.value)
    status = {PlannerStatus.NO_PLAN: OptimumStatus.UNSOLVABLE, PlannerStatus.TIMEOUT: OptimumStatus.TIMEOUT,
              PlannerStatus.MEMOUT: OptimumStatus.MEMOUT}.get(r.status, OptimumStatus.ERROR)
    return Optimum(status, None, r.detail)


__all__ = ["DEFAULT_TIMEOUT", "Optimum", "OptimumStatus", "Optima", "optima", "task_key"]
