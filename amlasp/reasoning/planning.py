"""Shortest plans: incremental ASP planning with clingo's multi-shot solving (encodings/plan.lp), or
Fast Downward's optimal search (`downward`), whichever `--prover` says (docs/plan.md).

The horizon grows one step at a time: each step grounds only the new step's rules, and
the goal is asked through an external, so the first satisfiable horizon is the length of
a shortest sequential plan. Fast Downward's A* proves that length at a planner's pace; with
`--top K`/`--all`, clingo then enumerates the plans of that length, with no shorter horizon to
refute. Every plan is validated by the core validator before it is returned. "No plan" is said
only as "none up to N steps", unless a proof says more (static facts, the delete relaxation,
h^2 mutexes, or Fast Downward's complete search).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Iterable

from ..choices import Prover
from ..enums import TextEnum, Verdict
from ..goal_rules import with_goal_rules
from ..identity import by_identity
from ..model import Atom, Domain, GroundAction, Literal, Number, Problem
from ..watchdog import finishing, forkable, sigterm_raises, stage, within
from . import downward

if TYPE_CHECKING:
    import pandas as pd

    from ..asp.decode import Decoder
    from ..asp.run import Program

# clingo's modules (asp/, engine, relaxed, mutex) are imported where they are used: Fast Downward's search
# starts before they are loaded, and they load while it runs (`_plan`)


class PlanStatus(TextEnum):
    """A plan found; the goal proven unreachable; or no plan up to a horizon (nothing proven)."""

    PLAN = "plan"
    UNSOLVABLE = "unsolvable"
    NO_PLAN_WITHIN = "no_plan_within"


#: Reachable (a validated witness), unreachable (a proof), or neither up to the bound.
ReachAnswer = Verdict


@dataclass
class PlanResult:
    """Shortest plans found (all of the same length), or why there are none."""

    status: PlanStatus
    plans: list[list[GroundAction]] = field(default_factory=list)
    horizon: int = 0  # steps searched
    reason: str = ""
    costs: list[Number] = field(default_factory=list)  # each plan's cost (costs.plan_cost), with action costs
    optimal: bool | None = None  # with action costs: the plans are proven the cheapest
    #: who proved it: clingo (its horizons, or with action costs its optimisation), fast-downward (A* with
    #: LM-cut), or "clingo + fast-downward" (one proved the bound, the other the plans at it); "" for a proof
    #: before any search (static facts, the delete relaxation)
    method: str = ""
    shortest: int | None = None  # no plan within the bound: the length of the shortest, when a prover found it

    @property
    def prover(self) -> str | None:
        """`method` in `--prover`'s names (asp, fd, "asp + fd"), None when no prover's search answered."""
        return {"clingo": "asp", "fast-downward": "fd", "clingo + fast-downward": "asp + fd"}.get(self.method)

    @property
    def length(self) -> int | None:
        return len(self.plans[0]) if self.plans else None

    def to_frame(self) -> pd.DataFrame:
        """One row per step of each plan (`plan` and `step` 1-based)."""
        import pandas as pd
        rows: list[dict] = [{"plan": k, "step": i, "action": str(a)} for k, x in enumerate(self.plans, 1)
                            for i, a in enumerate(x, 1)]
        if self.costs:  # action costs: each plan's cost on its rows
            for row in rows:
                row["cost"] = self.costs[row["plan"] - 1]
        return pd.DataFrame(rows, columns=["plan", "step", "action"] + (["cost"] if self.costs else []))


def unreachable_reason(domain: Domain, problem: Problem, init: frozenset[Atom], goal: tuple[Literal, ...],
                       target: GroundAction | None = None) -> str | None:
    """A proof that the goal (or target action) can never be reached, or None."""
    from .engine import UnmetKind, execute
    from .relaxed import relax
    static = domain.static_predicates()
    for lit in goal:
        a = lit.atom
        if a.predicate in static:
            if lit.positive and a not in init:
                return f"{a} is a static fact (no action changes {a.predicate}) and is false"
            if not lit.positive and a in init:
                return f"{a} is a static fact (no action changes {a.predicate}) and is true"
    if target is not None:
        for u in execute(domain, problem, [target], start=init, states=False).unmet:
            if u.kind in (UnmetKind.EQ, UnmetKind.NEQ, UnmetKind.TYPE, UnmetKind.UNKNOWN):
                return f"{target} can never be applied: {u} is not satisfied (it does not depend on the state)"
            if u.kind in (UnmetKind.POS, UnmetKind.NEG) and u.atom is not None and u.atom.predicate in static:
                return f"{target} can never be applied: its precondition {u} is false and static " \
                       f"(no action changes it)"
    relaxation = relax(domain, problem, init, goal)
    if not relaxation.goal_reachable:
        missing = " ".join(map(str, relaxation.goal_missing))
        return f"not reachable even ignoring delete effects: {missing}"
    if target is not None and target not in relaxation.actions:
        return f"{target} is not applicable in any state even ignoring delete effects"
    return None


def plan(domain: Domain, problem: Problem, max_steps: int = 30, top: int = 1,
         init: Iterable[Atom] | None = None, goal: Iterable[Literal] | None = None,
         target: GroundAction | None = None, time_limit: float | None = None,
         prover: str | Prover = Prover.AUTO) -> PlanResult:
    """Shortest plans (up to `top` distinct ones; 0 = all) from `init` to `goal` (default: the problem's;
    none when a `target` action is asked: then the plans make it applicable).

    `prover` (`choices.Prover`): `asp`, clingo's horizons; `fd`, Fast Downward's optimal search proves the
    length (and gives the plan, or with `top` other than 1 clingo enumerates the plans of that length);
    `auto`: `fd` where Fast Downward is installed, else `asp`. With `time_limit` (seconds), the search
    stops when it is spent; the answer then says up to which horizon there is no plan (a horizon counts
    only when its search finished). Grounding counts too (`watchdog.within`): one that outlasts the
    limit ends with `TimeLimitReached`."""
    return _limited("plan", time_limit, domain, problem, max_steps, top, init, goal, target, Prover.parse(prover))


def _limited(what: str, time_limit: float | None, *args) -> PlanResult:
    """`_plan`, in a child that is ended 1 s past `time_limit` (the search stops by it on its own). With Fast
    Downward, a process of its own that `Running` ends at the limit, `_plan` runs here and only clingo's work
    after its search goes to a child (`_after_search`): no fork, and no result sent back, on the way of a
    plan (issue 33: a watchdog's child cost about 0.1 s of a 0.3 s call), and clingo's modules load here
    while it searches."""
    if time_limit is None:
        return _plan(*args, time_limit=None)
    if downward.asked(args[-1]) and forkable():
        with sigterm_raises():  # as while a watchdog's child runs: Fast Downward is ended on the way out
            return _plan(*args, time_limit=time_limit, guarded=what)
    return within(time_limit, what, _plan, *args, grace=1.0, time_limit=time_limit)


def _plan(domain: Domain, problem: Problem, max_steps: int, top: int, init: Iterable[Atom] | None,
          goal: Iterable[Literal] | None, target: GroundAction | None, prover: Prover, *,
          time_limit: float | None, guarded: str | None = None) -> PlanResult:
    """The answer; `guarded` (the command's name): running outside a watchdog's child, with Fast Downward,
    whose search the time limit ends; what clingo grounds after it runs in one (`_after_search`)."""
    started = time.monotonic()
    deadline = None if time_limit is None else started + time_limit
    domain = with_goal_rules(domain, [problem])
    state = frozenset(problem.init if init is None else init)
    goal = tuple(() if target is not None else problem.goal) if goal is None else tuple(goal)
    if not downward.asked(prover):
        reason = unreachable_reason(domain, problem, state, goal, target)
        if reason is not None:
            return PlanResult(PlanStatus.UNSOLVABLE, reason=reason)
        return _search(domain, problem, state, goal, target, max_steps, top, deadline, time_limit)
    if not goal and target is None:  # nothing to search for (and LM-cut refuses a task without a goal)
        return PlanResult(PlanStatus.PLAN, [[]], 0)
    # Fast Downward grounds every reachable action instance, as our horizons do a step's: the same size
    # guard, for one step, before it starts (a model with free parameters would fill memory there)
    from ..asp import size
    size.guard("plan", domain, [(problem, 1)], start=lambda _: state)
    # Fast Downward first: our proofs of unsolvability are asked only when it finds no plan (they cost
    # about as much CPU as its whole search on a small task)
    fd = downward.start(domain, problem, state, goal, target, math.inf if time_limit is None else time_limit)
    try:
        stage("Fast Downward's search for a shortest plan")
        _warm_check(domain, problem, state, goal)  # while it searches
        result = fd.wait()
        assert result is not None
    finally:
        fd.stop()
    found = downward.answer(result, domain, target)
    if guarded is None or found.plan is not None and top == 1:  # validating its plan grounds only its steps
        return _after_search(domain, problem, state, goal, target, max_steps, top, deadline, time_limit, prover,
                             found)
    assert time_limit is not None
    return within(time_limit, guarded, _after_search, domain, problem, state, goal, target, max_steps, top, deadline,
                  time_limit, prover, found, grace=1.0, since=started)


def _after_search(domain: Domain, problem: Problem, state: frozenset[Atom], goal: tuple[Literal, ...],
                  target: GroundAction | None, max_steps: int, top: int, deadline: float | None,
                  time_limit: float | None, prover: Prover, found: downward.Answer) -> PlanResult:
    """The answer once Fast Downward's search has ended (`found`): its plan validated, or clingo's proofs,
    horizons or plans of its length."""
    if found.plan is None:
        stage("looking for a proof that no plan exists", None if time_limit is None else finishing(time_limit))
        reason = unreachable_reason(domain, problem, state, goal, target)
        if reason is not None:
            return PlanResult(PlanStatus.UNSOLVABLE, reason=reason)
    if found.unsolvable:  # our own proof, where h^2 has one, says more (and is ours)
        proof = mutex_reason(domain, problem, state, goal, target)
        return PlanResult(PlanStatus.UNSOLVABLE, reason=proof) if proof is not None else \
            PlanResult(PlanStatus.UNSOLVABLE, method="fast-downward",
                       reason=f"no plan exists: Fast Downward's complete search proved it ({found.detail})")
    if found.plan is None:  # no answer: clingo's horizons with `auto`, with the time left
        if prover is Prover.FD:
            return PlanResult(PlanStatus.NO_PLAN_WITHIN, horizon=-1, method="fast-downward",
                              reason=f"Fast Downward gave no answer ({found.detail})")
        return _search(domain, problem, state, goal, target, max_steps, top, deadline, time_limit)
    steps = list(found.plan)
    _check(domain, problem, state, goal, steps, target)
    if found.length is not None and found.length > max_steps:
        return PlanResult(PlanStatus.NO_PLAN_WITHIN, horizon=max_steps, method="fast-downward", shortest=len(steps),
                          reason=f"no plan up to {max_steps} steps: the shortest has {len(steps)} (Fast Downward's "
                                 "optimal search)")
    if top == 1:
        return PlanResult(PlanStatus.PLAN, [steps], len(steps), method="fast-downward")
    return _plans_of(domain, problem, state, goal, target, len(steps) + (target is not None), top, deadline, steps)


def _plans_of(domain: Domain, problem: Problem, state: frozenset[Atom], goal: tuple[Literal, ...],
              target: GroundAction | None, length: int, top: int, deadline: float | None,
              known: list[GroundAction]) -> PlanResult:
    """Up to `top` plans (0: all) of `length` steps, proven the shortest by Fast Downward: clingo grounds
    that horizon at once and searches it alone. `known`, Fast Downward's own (validated), is the answer
    when the time limit comes first."""
    from ..asp import size
    from ..asp.decode import decoder
    size.guard("plan", domain, [(problem, length)], start=lambda _: state)
    stage(f"grounding the plans of {length} step(s) (Fast Downward proved none shorter)")
    program = _program(domain, problem, state, goal, target, checked=length)
    if length > 0:
        program.ground(*[("step", [t]) for t in range(1, length + 1)], ("check", [length]))
    stage(f"searching plans of {length} step(s)")
    found = _horizon(program, length, top, deadline, decoder(domain, problem))
    if found is None:
        found = [known + ([target] if target is not None else [])]
    if not found:
        raise RuntimeError(f"internal error: Fast Downward's plan of {length} steps is no plan of clingo's horizon")
    return PlanResult(PlanStatus.PLAN, _checked(domain, problem, state, goal, found, target), length,
                      method="clingo + fast-downward")


def _checked(domain: Domain, problem: Problem, state: frozenset[Atom], goal: tuple[Literal, ...],
             found: list[list[GroundAction]], target: GroundAction | None) -> list[list[GroundAction]]:
    """clingo's plans of one horizon, in order, each validated by our own validator (`_check`); with a
    `target` action, its step (the last) left out."""
    plans = sorted(found, key=lambda p: [str(a) for a in p])
    if target is not None:
        plans = [p[:-1] for p in plans]
    for p in plans:
        _check(domain, problem, state, goal, p, target)
    return plans


def _search(domain: Domain, problem: Problem, state: frozenset[Atom], goal: tuple[Literal, ...],
            target: GroundAction | None, max_steps: int, top: int, deadline: float | None,
            time_limit: float | None) -> PlanResult:
    """clingo's horizons 0, 1, 2, ...: the first with a plan is the length of the shortest."""
    from ..asp import size
    from ..asp.decode import decoder
    # a horizon of max_steps: a state per step, at most
    size.guard("plan", domain, [(problem, max_steps)], start=lambda _: state)
    stage("grounding the initial state")
    program = _program(domain, problem, state, goal, target)
    dec = decoder(domain, problem)
    for t in range(0, max_steps + 1):
        if deadline is not None and time.monotonic() >= deadline:
            return _timed_out(time_limit, t - 1)
        if t > 0:
            stage(f"grounding step {t} (no plan of fewer steps)")
            program.ground(("step", [t]), ("check", [t]))
        stage(f"searching plans of {t} step(s)")
        found = _horizon(program, t, top, deadline, dec)
        if found is None:  # cancelled at the time limit, horizon t not refuted
            return _timed_out(time_limit, t - 1)
        if found:
            stage(f"checking the plans of {t} step(s) found", None if time_limit is None else finishing(time_limit))
            return PlanResult(PlanStatus.PLAN, _checked(domain, problem, state, goal, found, target), t,
                              method="clingo")
    stage(f"looking for a proof that no plan exists (none of {max_steps} steps or fewer)",
          None if time_limit is None else finishing(time_limit))
    proof = mutex_reason(domain, problem, state, goal, target)
    if proof is not None:
        return PlanResult(PlanStatus.UNSOLVABLE, horizon=max_steps, reason=proof, method="clingo")
    return PlanResult(PlanStatus.NO_PLAN_WITHIN, horizon=max_steps, method="clingo",
                      reason=f"no plan up to {max_steps} steps (not proven unsolvable)")


def _program(domain: Domain, problem: Problem, state: frozenset[Atom], goal: tuple[Literal, ...],
             target: GroundAction | None, checked: int = 0) -> Program:
    """plan.lp with the task, grounded at horizon 0 (its goal check too when `checked` is 0); part
    `step(t)` holds the rules of step t."""
    from ..asp.compile import compile_domain, derived_program
    from ..asp.facts import action_term, domain_facts, goal_facts, problem_facts, start_facts
    from ..asp.names import MODEL
    from ..asp.run import Program, encoding
    from ..asp.schema import PLAN_MODEL, TARGET_ACTION
    # atoms of static predicates are given once (fixed/2) instead of being carried from step to step;
    # static goal literals hold (unreachable_reason checked them)
    static = domain.static_predicates()
    step_rules = compile_domain(domain, MODEL, enumerate=True, check=False, effects=True, state="(t-1)",
                                static=static, derived=False).text
    base = [encoding("types"), encoding("semantics"), encoding("plan"), domain_facts(domain, MODEL),
            PLAN_MODEL.fact(MODEL),
            problem_facts(problem, 0, init=False, goal=False),
            start_facts(state, static, 0),
            goal_facts(l for l in goal if l.atom.predicate not in static),
            derived_program(domain, MODEL, "0", static)]
    if target is not None:
        base.append(TARGET_ACTION.fact(action_term(target)))
    # clasp's "trendy" configuration: faster than the default on 9 of 10 IPC problems that took the
    # default 2-46 s (e.g. matchingbw 25.9 -> 3.9 s, goldminer 46.0 -> 15.2 s; one blocksworld 6.7 -> 10.5 s),
    # though slower on tiny unsatisfiable horizons
    program = Program(base, ["--configuration=trendy"])
    program.add(step_rules, "step", ["t"])
    program.add(encoding("frame"), "step", ["t"])
    program.add(derived_program(domain, MODEL, "t", static), "step", ["t"])
    return program.ground(("base", []), *([("check", [0])] if checked == 0 else []))


def _horizon(program: Program, t: int, top: int, deadline: float | None,
             dec: Decoder) -> list[list[GroundAction]] | None:
    """Up to `top` plans of exactly `t` steps (0: all); [] when there is none, None when the
    deadline came first."""
    from ..asp.schema import HORIZON_QUERY, OCCURS
    query = HORIZON_QUERY(t)
    program.assign(query, True)
    found = []
    for symbols in program.models(top, deadline):
        steps = sorted((r.step.number, r.action) for r in OCCURS.select(symbols))
        found.append([dec.action(a) for _, a in steps])
    if not found and not program.exhausted:
        return None
    if not found:
        program.assign(query, None)  # this horizon is refuted for good
    return found


def mutex_reason(domain: Domain, problem: Problem, init: frozenset[Atom], goal: tuple[Literal, ...],
                 target: GroundAction | None = None) -> str | None:
    """A mutual exclusion among the goal's atoms (or the target's preconditions), or None.

    Asked only once the bounded search failed: h^2 costs more than the relaxation (amlasp/mutex.py).
    None for a domain with derived predicates, which h^2 over ground actions does not model."""
    from .mutex import mutexes
    from .relaxed import relax
    if domain.derived:
        return None
    if target is not None:
        schema = domain.action(target.name)
        pre = schema.ground_precondition(target.args) if schema is not None else None
        if not pre:
            return None
        asked = [l.atom for l in pre if l.positive and l.atom.predicate != "="]
    else:
        asked = [l.atom for l in goal if l.positive]
    if not asked:
        return None
    result = mutexes(domain, problem, init, asked, relax(domain, problem, init, ()))
    why = result.reason() if result is not None else None
    if why is None:
        return None
    return f"{target} can never be applied: {why}" if target is not None else why


def _timed_out(time_limit: float | None, horizon: int) -> PlanResult:
    return PlanResult(PlanStatus.NO_PLAN_WITHIN, horizon=max(horizon, -1), method="clingo",
                      reason=f"no plan up to {horizon} steps (time limit of {time_limit:g} s reached; "
                             "not proven unsolvable)" if horizon >= 0 else
                      f"time limit of {time_limit:g} s reached before any horizon was searched")


def _check(domain: Domain, problem: Problem, state: frozenset[Atom], goal: tuple[Literal, ...],
           steps: list[GroundAction], target: GroundAction | None) -> None:
    """Every witness goes through the core validator before anyone sees it."""
    from .engine import execute
    ex = execute(domain, _asked(problem, goal), steps + ([target] if target else []), start=state, states=False)
    ok = ex.valid if target is None else ex.executable
    if not ok:
        raise RuntimeError(f"internal error: the planner's witness {[str(a) for a in steps]} fails validation")


def _asked(problem: Problem, goal: tuple[Literal, ...]) -> Problem:
    """`problem` with the goal a plan is validated with (a derived atom's is computed), the same object for the
    same problem and goal: the validator keeps what it computes of a problem by its identity."""
    return by_identity(_ASKED, 4, (problem,), tuple(goal), lambda: replace(problem, goal=tuple(goal)))


_ASKED: dict = {}


def _warm_check(domain: Domain, problem: Problem, state: frozenset[Atom], goal: tuple[Literal, ...]) -> None:
    """The validator's modules loaded (clingo's), and what it keeps of the model and the problem made, by
    validating the empty plan: done while Fast Downward searches, the check of its plan takes a third of the
    time (blocksworld, 10 steps: 4-8 ms instead of 11-21)."""
    from .engine import execute
    try:
        execute(domain, _asked(problem, goal), [], start=state, states=False)
    except Exception:  # noqa: BLE001 — not our answer: the check of a plan says the same, if it comes to it
        pass


@dataclass
class ReachResult:
    """`yes` with a validated witness plan, `no` with a proof, or `unknown` up to a bound."""

    answer: ReachAnswer
    witness: list[GroundAction] | None = None
    reason: str = ""
    prover: str | None = None  # who answered, in `--prover`'s names (PlanResult.prover)

    def to_frame(self) -> pd.DataFrame:
        """One row per witness step (none for `no` and `unknown`), with the answer and reason."""
        import pandas as pd
        rows = [{"answer": self.answer, "step": i, "action": str(a), "reason": self.reason}
                for i, a in enumerate(self.witness or [], 1)]
        return pd.DataFrame(rows or [{"answer": self.answer, "step": None, "action": None, "reason": self.reason}])


def reach(domain: Domain, problem: Problem, literals: Iterable[Literal] = (), init: Iterable[Atom] | None = None,
          max_steps: int = 30, action: GroundAction | None = None, time_limit: float | None = None,
          prover: str | Prover = Prover.AUTO) -> ReachResult:
    """Can a state satisfying `literals` (or one where `action` is applicable) be reached?

    A witness has at most `max_steps` steps (the asked action is not counted). `prover` as `plan`'s."""
    extra = 1 if action is not None else 0  # the planner's last step is the asked action
    result = _limited("reach", time_limit, domain, problem, max_steps + extra, 1, init, tuple(literals), action,
                      Prover.parse(prover))
    by = result.prover
    if result.status is PlanStatus.PLAN:
        return ReachResult(ReachAnswer.YES, result.plans[0], f"witness of {len(result.plans[0])} step(s) (shortest)",
                           by)
    if result.status is PlanStatus.UNSOLVABLE:
        return ReachResult(ReachAnswer.NO, None, result.reason, by)
    if result.horizon < 0 and result.prover == "fd":  # Fast Downward gave no answer
        return ReachResult(ReachAnswer.UNKNOWN, None, f"unknown: {result.reason}", by)
    horizon = result.horizon - extra
    if result.shortest is not None:
        return ReachResult(ReachAnswer.UNKNOWN, None, f"unknown up to {horizon} steps: no witness that long; "
                                                      f"the shortest has {result.shortest} (Fast Downward's optimal "
                                                      "search)", by)
    why = "" if result.horizon == max_steps + extra else f" (time limit of {time_limit:g} s reached)"
    return ReachResult(ReachAnswer.UNKNOWN, None, f"unknown up to {horizon} steps: no witness that long{why}, "
                                                  "and no proof of unreachability", by)
