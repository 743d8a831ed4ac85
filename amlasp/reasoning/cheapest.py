"""Cost-optimal planning under `:action-costs` (encodings/cheapest.lp), its optimality proven by clingo.

The shortest plan (planning.plan) gives a first horizon H and a first cost. At horizon H, steps
may be idle (a plan of n <= H steps ends with H - n idle steps), and clingo minimises the sum of
the steps' costs, then the number of steps. A plan of more steps than H costs at least
(H + 1) x c_min, with c_min the least cost a step can have; so a best plan of cost C at horizon H
is optimal among all plans when C / c_min <= H. Otherwise the horizon grows to C / c_min (C
only falls as it grows), up to `max_steps`. When a step may cost 0 there is no such bound: the
plan is then the cheapest of at most `max_steps` steps; Fast Downward's optimal cost C*, a lower
bound on every plan, proves those of cost C* (`_zero_cost_proof`), and the result says which are not.
`top` K: the K cheapest plans, each found by the same loop with the ones before it excluded.
"""

from __future__ import annotations

import time
from typing import Sequence

import clingo

from ..asp.compile import compile_domain
from ..asp.costs import cost_rules, integer, problem_cost_facts
from ..asp.decode import Decoder, decoder
from ..asp.facts import avoid_plan, domain_facts, goal_facts, problem_facts, start_facts
from ..asp.names import MODEL
from ..asp.run import Program, encoding
from ..asp.schema import HORIZON_QUERY, OCCURS, PLAN_MODEL
from ..choices import Prover
from ..costs import plan_cost
from ..errors import InputError, UnsupportedError
from ..goal_rules import with_goal_rules
from ..model import Atom, Domain, GoalCondition, GroundAction, Number, Problem
from ..watchdog import finishing, stage, within
from . import downward
from .planning import PlanResult, PlanStatus, mutex_reason, unreachable_reason


def step_costs(domain: Domain, problem: Problem) -> tuple[int, int]:
    """The least and the greatest cost a step can have (over the constants and the function values
    the actions may take; an action without a cost effect costs 0)."""
    costs: list[int] = []
    for a in domain.actions:
        if a.cost is None:
            costs.append(0)
        elif isinstance(a.cost, Atom):
            values = [integer(v, "plan") for f, v in problem.costs if f.predicate == a.cost.predicate]
            costs += values or [0]
        else:
            costs.append(integer(a.cost, "plan"))
    return min(costs, default=0), max(costs, default=0)


class _Search:
    """cheapest.lp grounded to a horizon that only grows; the plans found are excluded at each horizon."""

    def __init__(self, domain: Domain, problem: Problem):
        static = domain.static_predicates()
        step_rules = compile_domain(domain, MODEL, enumerate=True, check=False, effects=True, state="(t-1)",
                                    static=static).text
        base = [encoding("types"), encoding("semantics"), encoding("cheapest"), domain_facts(domain, MODEL),
                PLAN_MODEL.fact(MODEL), problem_facts(problem, 0, init=False, goal=False),
                problem_cost_facts(problem, 0), start_facts(problem.init, static, 0),
                goal_facts(l for l in problem.goal if l.atom.predicate not in static)]
        self.program = Program(base, [x for x in "--opt-strategy=usc,k,0,4".split() if x])
        self.program.add(step_rules + cost_rules(domain, MODEL, "(t-1)", where="plan"), "step", ["t"])
        self.program.add(encoding("frame"), "step", ["t"])
        self.program.ground(("base", []), ("check", [0]))
        self.horizon = 0
        self.asked: int | None = None  # the horizon whose goal query is on
        self.avoided: dict[int, int] = {}  # horizon -> plans excluded at it so far

    def solve(self, horizon: int, avoid: Sequence[Sequence[GroundAction]], deadline: float | None,
              dec: Decoder, optimise: bool = True) -> tuple[list[GroundAction] | None, bool]:
        """The cheapest plan of at most `horizon` steps other than `avoid` (without `optimise`, any),
        and whether the search ended (the plan is the cheapest; or there is none)."""
        if horizon > self.horizon:
            self.program.ground(*[p for t in range(self.horizon + 1, horizon + 1)
                                  for p in (("step", [t]), ("check", [t]))])
            self.horizon = horizon
        if self.asked is not None and self.asked != horizon:
            self.program.assign(HORIZON_QUERY(self.asked), False)
        self.asked = horizon
        done = self.avoided.get(horizon, 0)
        if len(avoid) > done:
            rules = "".join(avoid_plan(p, horizon) for p in avoid[done:])
            name = f"avoid_{horizon}_{done}"
            self.program.add(rules, name)
            self.program.ground((name, []))
        self.avoided[horizon] = len(avoid)
        self.program.assign(HORIZON_QUERY(horizon), True)
        found: tuple[Sequence[clingo.Symbol], list[int], bool] | None
        if not optimise:
            models = list(self.program.models(1, deadline))
            if not models:
                return None, self.program.exhausted
            found = (models[0], [], False)
        else:
            found = self.program.best(deadline)
        if found is None:
            return None, False
        symbols, _, proven = found
        steps = sorted((r.step.number, r.action) for r in OCCURS.select(symbols))
        return [dec.action(a) for _, a in steps], proven


def cheapest(domain: Domain, problem: Problem, max_steps: int = 30, top: int = 1,
             time_limit: float | None = None, prover: str | Prover = Prover.AUTO) -> PlanResult:
    """Up to `top` cheapest plans (0: all of the least cost), cheapest first, each validated.

    The first horizon with a plan is found by doubling (1, 2, 4, ... steps: with idle steps, a plan
    of n steps is an answer at every horizon from n on), in the same grounding as the optimisation.
    `prover` (`choices.Prover`): who proves the optimum of one plan: `asp` (clingo); `fd` (A* with LM-cut);
    `auto`: Fast Downward for one plan when clingo's bound is weak, that is when a step may cost 0
    (no bound) or steps' costs differ by more than a factor of 2 (the bound grows with it, and the
    horizon with it: woodworking's first problem would need 39 steps for a 13-step plan); else clingo.
    Grounding counts towards `time_limit` too (`watchdog.within`): one that outlasts it ends with
    `TimeLimitReached`."""
    prover = Prover.parse(prover)
    if time_limit is None:
        return _cheapest(domain, problem, max_steps, top, prover, time_limit=None)
    # ended 2 s past the limit: the search stops by it on its own, Fast Downward up to 1 s after
    return within(time_limit, "plan", _cheapest, domain, problem, max_steps, top, prover, grace=2.0,
                  time_limit=time_limit)


def _cheapest(domain: Domain, problem: Problem, max_steps: int, top: int, prover: Prover, *,
              time_limit: float | None) -> PlanResult:
    deadline = None if time_limit is None else time.monotonic() + time_limit
    domain = with_goal_rules(domain, [problem])
    init = frozenset(problem.init)
    reason = unreachable_reason(domain, problem, init, problem.goal)
    if reason is not None:
        return PlanResult(PlanStatus.UNSOLVABLE, reason=reason)
    c_min, c_max = step_costs(domain, problem)
    if any(isinstance(g, GoalCondition) for g in problem.goal):
        return _goal_condition_by_fast_downward(domain, problem, top, deadline)
    weak = c_min == 0 or c_max > 2 * c_min  # clingo's bound is far: Fast Downward proves the optimum
    if top == 1 and (prover is Prover.FD or weak) and downward.asked(prover):
        stage("Fast Downward's search for a cheapest plan")
        by_fd = _by_fast_downward(domain, problem, deadline)
        if by_fd is not None:
            return by_fd
    stage("grounding the initial state")
    search = _Search(domain, problem)
    dec = decoder(domain, problem)
    horizon = 0
    plans: list[list[GroundAction]] = []
    proven = True
    first = True  # no plan found yet: find any plan, at horizons 1, 2, 4, ...
    while top == 0 or len(plans) < top:
        stage(f"grounding and searching plans of at most {horizon} step(s) ({len(plans)} found)")
        steps, ended = search.solve(horizon, plans, deadline, dec, optimise=not first)
        if steps is None:
            if not ended and deadline is not None and time.monotonic() >= deadline:
                proven = False
                break
            if horizon >= max_steps:
                break
            horizon = min(max(1, 2 * horizon), max_steps) if not plans else max_steps
            continue
        cost = _cost(domain, problem, steps) - problem.cost_table.get(Atom("total-cost"), 0)
        bound = max_steps if c_min == 0 else min(int(cost // c_min), max_steps)
        if first:
            first = False
            continue  # optimise at this horizon
        if bound > horizon:
            horizon = bound
            continue
        if top == 0 and plans and _cost(domain, problem, steps) != _cost(domain, problem, plans[0]):
            break
        proven = proven and ended and c_min > 0 and cost // c_min <= horizon
        _check(domain, problem, steps)
        plans.append(steps)
    stage(f"checking the {len(plans)} plan(s) found", None if time_limit is None else finishing(time_limit))
    if not plans:
        return _none(domain, problem, horizon, max_steps, time_limit, deadline)
    costs = [_cost(domain, problem, p) for p in plans]
    if c_min == 0 and top > 1:  # one plan: `prover` says who proves it (clingo alone here)
        proven, why = _zero_cost_proof(domain, problem, costs, horizon, deadline)
        return PlanResult(PlanStatus.PLAN, plans, horizon, costs=costs, optimal=proven,
                          method="clingo + fast-downward", reason=why)
    why = "a step may cost 0" if c_min == 0 else "time limit or --max-steps reached"
    return PlanResult(PlanStatus.PLAN, plans, horizon, costs=costs, optimal=proven, method="clingo",
                      reason="" if proven else f"cheapest among plans of at most {horizon} steps; not proven "
                                               f"optimal beyond ({why})")


def _zero_cost_proof(domain: Domain, problem: Problem, costs: list[Number], horizon: int,
                     deadline: float | None) -> tuple[bool, str]:
    """Which of clingo's plans (cheapest first) are proven among the cheapest when a step may cost 0.

    A zero-cost step makes clingo's horizon bound nothing (a plan longer than any horizon may cost as
    little). Fast Downward's optimal cost C* does: no plan costs less, so each plan found of cost C*
    is among the cheapest, at the rank it has (a zero-cost loop makes infinitely many such plans).
    A plan costing more than C* is only the cheapest of at most `horizon` steps. Returns (all of
    them proven, what is proven and what is not)."""
    from ..external.fast_downward import PlannerStatus, optimal_plan
    left = 600.0 if deadline is None else max(deadline - time.monotonic(), 1.0)
    r = optimal_plan(domain, problem, timeout=left)
    if r.status is not PlannerStatus.PLAN or r.plan is None:
        return False, (f"cheapest among plans of at most {horizon} steps; not proven optimal beyond (a step may "
                       f"cost 0, and Fast Downward's optimal search gave no bound: {r.status}: {r.detail})")
    _check(domain, problem, list(r.plan))
    best = _cost(domain, problem, r.plan)
    if costs[0] < best:
        raise RuntimeError(f"internal error: a plan costs {costs[0]}, less than Fast Downward's optimum {best}")
    j = next((k for k, c in enumerate(costs) if c != best), len(costs))
    if j == len(costs):
        return True, ""
    said = "none of the plans costs" if j == 0 else f"plans 1 to {j} cost"
    return False, (f"{said} the optimum {best} (Fast Downward's optimal cost, a lower bound on every plan); "
                   f"plans {j + 1} to {len(costs)} are the cheapest of at most {horizon} steps, not proven beyond "
                   "(a step may cost 0)")


def _none(domain: Domain, problem: Problem, horizon: int, max_steps: int, time_limit: float | None,
          deadline: float | None) -> PlanResult:
    """No plan: out of time, proven unsolvable by a mutex, or none up to `max_steps` steps."""
    if deadline is not None and time.monotonic() >= deadline:
        return PlanResult(PlanStatus.NO_PLAN_WITHIN, horizon=horizon,
                          reason=f"no plan found within the time limit of {time_limit:g} s")
    proof = mutex_reason(domain, problem, frozenset(problem.init), problem.goal)
    if proof is not None:
        return PlanResult(PlanStatus.UNSOLVABLE, horizon=max_steps, reason=proof)
    return PlanResult(PlanStatus.NO_PLAN_WITHIN, horizon=max_steps,
                      reason=f"no plan up to {max_steps} steps (not proven unsolvable)")


def _by_fast_downward(domain: Domain, problem: Problem, deadline: float | None) -> PlanResult | None:
    """Fast Downward's optimal plan (validated), None if it gives none (then clingo searches)."""
    from ..external.fast_downward import PlannerStatus, optimal_plan
    left = 600.0 if deadline is None else max(deadline - time.monotonic(), 1.0)
    result = optimal_plan(domain, problem, timeout=left)
    if result.status is PlannerStatus.PLAN and result.plan is not None:
        steps = list(result.plan)
        _check(domain, problem, steps)
        return PlanResult(PlanStatus.PLAN, [steps], len(steps), costs=[_cost(domain, problem, steps)], optimal=True,
                          method="fast-downward")
    if result.status is PlannerStatus.NO_PLAN:
        return PlanResult(PlanStatus.UNSOLVABLE, reason="Fast Downward's complete search found no plan")
    return None


def _goal_condition_by_fast_downward(domain: Domain, problem: Problem, top: int,
                                     deadline: float | None) -> PlanResult:
    """A goal condition (`forall`, `or`, ...) with action costs: cheapest.lp reads goal atoms from states only,
    not from the derived rules that decide a goal condition, so Fast Downward's optimal search (blind A*: it
    makes the condition an axiom) finds the one cheapest plan, validated by the encodings; several are refused."""
    if top != 1:
        condition = next(g for g in problem.goal if isinstance(g, GoalCondition))
        raise UnsupportedError(f"unsupported feature: several cheapest plans of a goal condition that is no literal "
                               f"({condition}) with action costs: ask for one (Fast Downward's)", problem.file)
    by_fd = _by_fast_downward(domain, problem, deadline)
    if by_fd is not None:
        return by_fd
    return PlanResult(PlanStatus.NO_PLAN_WITHIN, reason="Fast Downward's optimal search gave no plan in time (a goal "
                      "condition is decided by derived rules, which the cost-optimal encoding does not read)")


def _cost(domain: Domain, problem: Problem, steps: Sequence[GroundAction]) -> Number:
    cost = plan_cost(domain, problem, steps)
    if cost.value is None:
        raise InputError(f"a plan uses a cost left undefined: {cost.undefined} has no value in :init", problem.file)
    return cost.value


def _check(domain: Domain, problem: Problem, steps: list[GroundAction]) -> None:
    """Every plan goes through the core validator before anyone sees it."""
    from .engine import execute
    ex = execute(domain, problem, steps, states=False)
    if not ex.valid:
        raise RuntimeError(f"internal error: the planner's plan {[str(a) for a in steps]} fails validation")


__all__ = ["cheapest", "step_costs"]
