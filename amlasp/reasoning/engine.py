"""Run the encodings: facts + compiled rules → clingo → decoded answers.

One grounding and one solve per question: all the states of a question go into one
program. Python only builds text and reads the shown atoms.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from operator import itemgetter
from typing import Iterable, Sequence

import clingo

from ..asp import size
from ..asp.compile import compile_domain, compile_validation, runs_apply
from ..asp.decode import Decoder, argument_texts, decoder
from ..asp.facts import domain_facts, ground, problem_rows, run_tree
from ..asp.names import MODEL
from ..asp.run import Program, encoding, rows_of, solve_once
from ..asp.schema import (
    APP,
    APP_RUN,
    CHECK,
    CONDITION,
    EQUALITY,
    EXECUTABLE,
    FAILED,
    FIXED,
    GOAL_UNMET,
    HOLDS,
    PREFIX_GOALS,
    PROBLEM_NAME,
    SHOW_ENDS,
    SHOW_STATES,
    SIGNED,
    START,
    TYPED,
    VALID,
    WHY,
    Pred,
)
from ..asp.states import RANGES, many_states
from ..asp.text import Reused
from ..costs import plan_cost
from ..goal_rules import unmet_as_written, with_goal_rules
from ..identity import by_identity
from ..model import Atom, Domain, GoalCondition, GroundAction, Literal, Problem
from .execution import Execution, Unmet, UnmetKind


def applicable(domain: Domain, problem: Problem, states: Sequence[Iterable[Atom]] | None = None
               ) -> list[list[GroundAction]]:
    """The applicable ground actions of each state (default: the problem's initial state), sorted."""
    return applicable_many(domain, [(problem, [problem.init] if states is None else states)])[0]


def applicable_many(domain: Domain, sets: Sequence[tuple[Problem, Sequence[Iterable[Atom]]]],
                    runs: bool | None = None) -> list[list[list[GroundAction]]]:
    """`applicable` for the states of several problems, in one grounding: per set, per state.

    For speed over thousands of states (benchmarks/bench_applicable.py): each distinct atom is
    given once with the ranges of states that hold it, static atoms once per group of states
    (asp/states.py); parameters that a state atom binds are typed by `not not_a(...)`, checked
    after the join (compile.py `typing="negative"`), or not at all where the atom's declaration
    types them and every atom is well-typed. Where preconditions allow (`compile.runs_apply`), the
    states are joined a run at a time (`Compiler.run_applicability`): neighbouring states of a
    trajectory share most atoms, and depots, rovers, floortile and sokoban ground 4-8x faster so;
    states that are not long runs (random ones) are joined a state at a time (`ManyStates.runs_pay`).
    `runs`: force that choice (None: decide so).
    """
    size.guard("applicable", domain, ((p, len(states)) for p, states in sets), effects=False,
               start=lambda p: {a for q, states in sets if q is p
                                for s in states if isinstance(s, Collection) for a in s})
    facts = many_states(domain, sets)
    if runs is None:
        runs = runs_apply(domain, facts.static) and facts.runs_pay()
    rules = compile_domain(domain, MODEL, effects=False, typing="negative", static=facts.static,
                           typed_atoms=facts.well_typed, runs=runs)
    typing = [encoding("types"), encoding("semantics"),
              domain_facts(domain, MODEL, schema=False)] if rules.typing else []
    shown = APP_RUN if runs else APP
    syms = solve_once([*typing, rules.text, facts.text(objects=rules.typing), RANGES, shown.show()],
                      given=facts.given(runs))
    dec = decoder(domain)
    dec.add(*{o for problem, _ in sets for o, _ in problem.objects})
    flat: list[list[tuple[str, GroundAction]]] = [[] for _ in range(facts.count)]
    # read as text, all the symbols in one C call (asp/decode.py), at the fields' positions: the action
    # is the last argument, which `argument_texts` alone keeps whole; each action is decoded once, with
    # the text it is sorted by
    made: dict[str, tuple[str, GroundAction]] = {}

    def action(text: str) -> tuple[str, GroundAction]:
        a = dec.action(text)
        made[text] = (str(a), a)
        return made[text]

    rows = argument_texts(syms, shown.name, shown.arity)
    at = shown.at("action")
    if runs:  # applicable in the states low..high
        low, high = APP_RUN.at("low"), APP_RUN.at("high")
        for args in rows:
            a = made.get(args[at]) or action(args[at])
            for i in range(int(args[low]), int(args[high]) + 1):
                flat[i].append(a)
    else:
        state = APP.at("state")
        for args in rows:
            flat[int(args[state])].append(made.get(args[at]) or action(args[at]))
    ends = facts.firsts[1:] + [facts.count]
    first = itemgetter(0)
    return [[[a for _, a in sorted(x, key=first)] for x in flat[start:end]] for start, end in zip(facts.firsts, ends)]


def execute(domain: Domain, problem: Problem, plan: Sequence[GroundAction],
            start: Iterable[Atom] | None = None, states: bool = True, explain: bool = False) -> Execution:
    """Apply `plan` from `start` (default: the initial state); check the goal at the end (`explain`: goals.explain)."""
    return execute_many(domain, problem, [plan], start, states, explain=explain)[0]


def execute_many(domain: Domain, problem: Problem, plans: Sequence[Sequence[GroundAction]],
                 start: Iterable[Atom] | None = None, states: bool = True,
                 starts: Sequence[Iterable[Atom]] | None = None, reasons: bool = True, ends: bool = False,
                 explain: bool = False) -> list[Execution]:
    """Validate many plans in one grounding (each plan is a run of validate.lp), all from `start`
    or each from its own state in `starts`. For justify, which executes thousands of short runs and
    needs no more of each: `reasons=False`, a failed step's unmet conjuncts are not asked; `ends`
    (with `states=False`), each Execution's states are its start and the state it ends in."""
    if starts is not None and len(starts) != len(plans):
        raise ValueError(f"{len(plans)} plans but {len(starts)} start states")
    first = frozenset(problem.init if start is None else start)
    own = [first] * len(plans) if starts is None else [frozenset(s) for s in starts]
    return execute_parts(domain, [Run(problem, list(p), s) for p, s in zip(plans, own)], states, reasons, ends,
                          explain)


#: Steps of one plan validated in one grounding: a longer plan is validated a part at a time, each
#: part from the state the last one ended in, so that memory stays bounded and time linear (one
#: grounding of 1,000,000 steps took 3.2 GB and 91 s; issue 20, benchmarks/README.md).
PART_STEPS = 50000


def execute_parts(domain: Domain, runs: Sequence[Run], states: bool, reasons: bool = True, ends: bool = False,
                   explain: bool = False) -> list[Execution]:
    """`_execute_runs`, with each run longer than PART_STEPS validated alone, a part at a time (`ends`:
    the parts' own); `explain`: `goals.explain`."""
    short = [r for r in runs if len(r.plan) <= PART_STEPS]
    done = iter(_execute_runs(domain, short, states, ends, reasons) if short else [])
    out = [next(done) if len(r.plan) <= PART_STEPS else _execute_long(domain, r, states, reasons) for r in runs]
    if explain and any(isinstance(g, GoalCondition) for r in runs for g in r.problem.goal):
        from . import goals  # goal conditions only: not on a plain validation's path
        goals.explain(domain, [(r.problem, r.plan, r.start) for r in runs], out,
                      lambda probes: execute_parts(domain, [Run(*x) for x in probes], states=False))
    return out


def _execute_long(domain: Domain, run: Run, states: bool, reasons: bool = True) -> Execution:
    """One long run, PART_STEPS at a time: a part's last state starts the next; the goal is checked
    after the last part; a failed step is numbered in the whole plan."""
    out = Execution(run.plan, [run.start] if states else [])
    state = run.start
    for first in range(0, len(run.plan), PART_STEPS):
        part = Run(run.problem, run.plan[first:first + PART_STEPS], state)
        ex = _execute_runs(domain, [part], states, ends=not states, reasons=reasons)[0]
        if states:
            out.states += ex.states[1:]
        out.goal_size, out.prefix_goal_unmet = ex.goal_size, ex.prefix_goal_unmet
        if ex.failed_step is not None:
            out.failed_step, out.unmet = first + ex.failed_step, ex.unmet
            return out
        state = ex.states[-1]
    out.executable, out.valid, out.goal_unmet = True, ex.valid, ex.goal_unmet
    cost = plan_cost(domain, run.problem, run.plan)
    out.cost, out.cost_undefined = cost.value, cost.undefined
    return out


@dataclass(frozen=True)
class Run:
    """One plan to execute: on `problem`, from `start` (a whole state, static atoms included)."""

    problem: Problem
    plan: list[GroundAction]
    start: frozenset[Atom]


def _execute_runs(domain: Domain, runs: Sequence[Run], states: bool, ends: bool = False,
                  reasons: bool = True) -> list[Execution]:
    """All runs in one program (encodings/validate.lp): each problem's facts and static atoms
    (`fixed/2`) once per group of runs that share them, each distinct start state once, and the
    steps as a tree of states, runs that begin alike sharing the states of their common steps.
    Part `why` is grounded only when a run fails. `ends`: each Execution's states are its start and
    the state its run ends in (a long plan's parts, `_execute_long`), not every state."""
    domain = with_goal_rules(domain, (run.problem for run in runs))
    _guard(domain, runs)
    model = _model(domain)
    static = model.static
    groups: dict[tuple[int, frozenset[Atom]], int] = {}  # (problem, its static atoms) → problem id
    starts: dict[frozenset[Atom], int] = {}  # the other atoms of a start state → its id
    names: dict[int, frozenset[str]] = {}  # problem id → the names a step may use
    steps: list[tuple[int, int | str, Sequence[GroundAction]]] = []
    fixed_of: list[frozenset[Atom]] = []
    given: list[dict[Pred, list]] = []  # the problems' facts, as terms kept with the problem
    starts_given: list[str] = []  # start/2 of the start states other than a problem's initial one
    for run in runs:
        kept = _kept(run.problem, domain, static)
        initial = run.start is run.problem.init or run.start == run.problem.init
        fixed = kept.fixed if initial else frozenset(a for a in run.start if a.predicate in static)
        pid = groups.get((id(run.problem), fixed))
        if pid is None:
            pid = groups[id(run.problem), fixed] = len(groups)
            given.append(kept.facts(pid, fixed))
            names[pid] = kept.names
        if initial:
            sid: int | str = f"i({pid})"  # the problem's initial state, whose atoms its text gives
        else:
            fluents = run.start - fixed
            number = starts.get(fluents)
            if number is None:
                number = starts[fluents] = len(starts)
                starts_given.extend(START.row(number, ground(a)) for a in fluents if a.predicate != "=")
            sid = number
        steps.append((pid, sid, run.plan))
        fixed_of.append(fixed)

    arity = model.arity

    def unknown(pid: int, a: GroundAction) -> bool:
        return arity.get(a.name) != len(a.args) or not names[pid].issuperset(a.args)

    tree = run_tree(steps, unknown)
    results = [Execution(run.plan, []) for run in runs]
    dec = decoder(domain)
    dec.add(*{o for run in runs for o, _ in run.problem.objects})
    facts = [(pred, terms) for problem in given for pred, terms in problem.items()]
    facts += [*tree.rows.items(), (START, starts_given)]
    holds = _solve(domain, model, facts, _SHOW_STATES if states else _SHOW_ENDS if ends else None, results, dec,
                   reasons)
    _finish(domain, runs, results, tree.paths, fixed_of, holds, states, ends, reasons)
    return results


def _finish(domain: Domain, runs: Sequence[Run], results: list[Execution], paths, fixed_of: list[frozenset[Atom]],
            holds: dict, states: bool, ends: bool, reasons: bool = True) -> None:
    """Each run's states (all, or its start and end), its reasons in order, and its cost."""
    sizes: dict[int, int] = {}  # problem id → its distinct goal conjuncts (hashing them is not free)
    for run, result, path, fixed in zip(runs, results, paths, fixed_of):
        if ends and not states:
            result.states = [run.start, frozenset(holds.get(path[len(run.plan)], ())) | fixed]
        if states:
            last = len(run.plan) if result.failed_step is None else result.failed_step
            result.states = [run.start] + [frozenset(holds.get(n, ())) | fixed for n in path[1:last + 1]]
        result.unmet.sort(key=lambda u: (u.kind, u.text))
        result.prefix_goal_unmet = unmet_as_written(run.problem, result.goal_unmet)
        result.goal_unmet = result.prefix_goal_unmet if result.failed_step is None else []
        size_ = sizes.get(id(run.problem))
        if size_ is None:
            size_ = sizes[id(run.problem)] = len(set(run.problem.goal))
        result.goal_size = size_ if reasons or result.failed_step is None else None
        if result.executable:
            cost = plan_cost(domain, run.problem, run.plan)
            result.cost, result.cost_undefined = cost.value, cost.undefined


def guard_runs(domain: Domain, runs: Sequence[Run]) -> None:
    """The size guard `_execute_runs` applies to `runs` (`reasoning.replay`: before it replays them)."""
    _guard(with_goal_rules(domain, (run.problem for run in runs)), runs)


def _guard(domain: Domain, runs: Sequence[Run]) -> None:
    """The size guard (asp/size.py) of the runs' steps, problem by problem."""
    by_problem: dict[int, tuple[Problem, list[Sequence[GroundAction]]]] = {}
    for run in runs:
        by_problem.setdefault(id(run.problem), (run.problem, []))[1].append(run.plan)
    size.guard_steps("validate", domain, ((p, (a.name for plan in plans for a in plan))
                                          for p, plans in by_problem.values()))


def _solve(domain: Domain, model: _Model, facts: list[tuple[Pred, list]], show: Reused | None,
           results: list[Execution], dec: Decoder, reasons: bool = True) -> dict[int, set[Atom]]:
    """validate.lp with the model and the runs' `facts` (`Program.given`'s rows or terms, by
    declaration): fill `results`; return the atoms of each state shown (`show`: every state, the
    ends of the runs, or none)."""
    rules, used = model.rules, _used(results)
    parts = [encoding("types"), encoding("semantics"), encoding("frame"), encoding("validate"), model.facts,
             rules.base(used), _CHECK]
    if reasons:  # a verdict's metrics: the goals unmet before a failed step (justify asks for neither)
        parts.append(_PREFIX_GOALS)
    if show is not None:
        parts.append(show)
    program = Program(parts)
    for pred, rows in facts:
        program.given(pred, rows)
    holds = _read_runs(program.ground().answer(), results, dec, rules.conditions, domain)
    failed = {r.plan[r.failed_step].name for r in results if r.failed_step is not None}
    if reasons and failed:  # the rules of the failed steps' actions alone
        program.add(rules.why(failed), "why").ground(("why", ()))
        _read_runs([s for s in program.answer() if WHY.matches(s)], results, dec, rules.conditions, domain)
    return holds


def _used(results: Iterable[Execution]) -> set[str]:
    """The names of the actions the plans of `results` take: the only ones whose rules clingo is given."""
    return {a.name for r in results for a in r.plan}


_CHECK = Reused(CHECK.fact(MODEL))
_SHOW_STATES = Reused(SHOW_STATES.fact())
_SHOW_ENDS = Reused(SHOW_ENDS.fact())
_PREFIX_GOALS = Reused(PREFIX_GOALS.fact())


class _Model:
    """What validate.lp is given of one model, kept for the process (the last 16 models): its
    static predicates, its rules (each action's compiled when a plan first takes it), its facts as
    `Reused` text, and its actions' arities."""

    def __init__(self, domain: Domain):
        self.static = domain.static_predicates()
        self.rules = compile_validation(domain, MODEL, self.static)
        self.facts = Reused(domain_facts(domain, MODEL, schema=False))
        self.arity = {a.name: a.arity for a in domain.actions}


def _model(domain: Domain) -> _Model:
    return by_identity(_MODELS, 16, (domain,), None, lambda: _Model(domain))


_MODELS: dict = {}


class _Kept:
    """What validate.lp is given of one problem, kept for the process (the last 64 problems),
    since a script validates many plans of one problem, call after call: the fixed atoms of its
    initial state, the names a step may use (objects and constants), and its facts as terms for
    `Program.given`, per problem id and set of fixed atoms."""

    def __init__(self, problem: Problem, domain: Domain, static: frozenset[str]):
        self.problem, self.static = problem, static
        self.fixed = frozenset(a for a in problem.init if a.predicate in static)
        self.names = frozenset(problem.object_types(domain))
        self._facts: dict[tuple[int, frozenset[Atom]], dict[Pred, list]] = {}

    def facts(self, pid: int, fixed: frozenset[Atom]) -> dict[Pred, list]:
        """The problem's facts (objects, goal, `fixed` as its static atoms, and the other atoms of
        its initial state as the start state `i(pid)`) as problem `pid`: declaration → terms."""
        out = self._facts.get((pid, fixed))
        if out is None:
            rows = problem_rows(self.problem, pid, init=False)
            del rows[PROBLEM_NAME]
            rows[FIXED] = sorted(FIXED.row(pid, ground(a)) for a in fixed if a.predicate != "=")
            rows[START] = sorted(START.row(f"i({pid})", ground(a)) for a in self.problem.init
                                 if a.predicate not in self.static and a.predicate != "=")
            out = self._facts[pid, fixed] = {pred: rows_of(pred.arity, r) for pred, r in rows.items() if r}
            if len(self._facts) > 8:
                del self._facts[next(iter(self._facts))]
        return out


def _kept(problem: Problem, domain: Domain, static: frozenset[str]) -> _Kept:
    return by_identity(_KEPT, 64, (problem, domain), static, lambda: _Kept(problem, domain, static))


_KEPT: dict = {}


def _read_runs(syms: Sequence[clingo.Symbol], results: list[Execution], dec: Decoder, conditions: dict[int, str],
               domain: Domain) -> dict[int, set[Atom]]:
    """Fill `results` from validate.lp's answer; return the atoms of each shown state. Read at the
    fields' positions, computed once (`_fields`): a named tuple per atom, and making the class of one
    on a process's first call, would cost a twentieth of a short plan's validation."""
    holds: dict[int, set[Atom]] = {}
    atoms: dict[clingo.Symbol, Atom] = {}  # each distinct atom decoded once (a long plan's states repeat them)
    for s in syms:
        name, args = s.name, s.arguments
        if name == _HOLDS:
            state, sym = _HOLDS_AT(args)
            atom = atoms.get(sym)
            if atom is None:
                atom = atoms[sym] = dec.atom(sym)
            holds.setdefault(state.number, set()).add(atom)
        elif name == _FAILED:
            run, step = _FAILED_AT(args)
            results[run.number].failed_step = step.number
        elif name == _WHY:
            run, step, reason = _WHY_AT(args)
            result = results[run.number]
            result.unmet.append(_unmet(dec, reason, conditions, result.plan[step.number], domain))
        elif name == _GOAL_UNMET:
            run, sign = _GOAL_UNMET_AT(args)  # sign: pos(F) or neg(F)
            results[run.number].goal_unmet.append(Literal(dec.atom(SIGNED.read(sign).atom), sign.name == "pos"))
        elif name == _EXECUTABLE:
            results[_EXECUTABLE_AT(args).number].executable = True
        elif name == _VALID:
            results[_VALID_AT(args).number].valid = True
    return holds


def _fields(pred: Pred, *fields: str) -> itemgetter:
    """The getter of `fields` of an atom's arguments (one C call an atom)."""
    return itemgetter(*(pred.at(f) for f in fields))


#: validate.lp's shown atoms, each of one arity: told apart by name (a C call less than `Pred.matches`)
_HOLDS, _FAILED, _WHY, _GOAL_UNMET, _EXECUTABLE, _VALID = (
    p.name for p in (HOLDS, FAILED, WHY, GOAL_UNMET, EXECUTABLE, VALID))
_HOLDS_AT, _FAILED_AT, _WHY_AT = _fields(HOLDS, "state", "atom"), _fields(FAILED, "run", "step"), \
    _fields(WHY, "run", "step", "reason")
_GOAL_UNMET_AT, _EXECUTABLE_AT, _VALID_AT = _fields(GOAL_UNMET, "run", "literal"), _fields(EXECUTABLE, "run"), \
    _fields(VALID, "run")


def _unmet(dec: Decoder, why: clingo.Symbol, conditions: dict[int, str], action: GroundAction,
           domain: Domain) -> Unmet:
    """The text of one failed conjunct `why` (validate.lp's `unmet/4`, last argument)."""
    kind = UnmetKind(why.name)
    if kind is UnmetKind.UNKNOWN:
        d = domain.action(action.name)
        if d is None:
            return Unmet(kind, f"the model has no action '{action.name}'")
        if d.arity != len(action.args):
            return Unmet(kind, f"'{action.name}' takes {d.arity} argument(s), {len(action.args)} given")
        return Unmet(kind, f"an argument of {action} is not an object of the problem")
    if kind in (UnmetKind.POS, UnmetKind.NEG):
        atom = dec.atom(SIGNED.read(why).atom)
        return Unmet(kind, str(atom) if kind is UnmetKind.POS else f"(not {atom})", atom)
    if kind in (UnmetKind.EQ, UnmetKind.NEQ):
        e = EQUALITY.read(why)
        x, y = dec.name(e.left), dec.name(e.right)
        return Unmet(kind, f"(= {x} {y})" if kind is UnmetKind.EQ else f"(not (= {x} {y}))")
    if kind is UnmetKind.TYPE:
        t = TYPED.read(why)
        return Unmet(kind, f"{dec.name(t.object)} - {dec.name(t.type)}")
    return Unmet(kind, conditions.get(CONDITION.read(why).number.number, "a complex precondition"))


__all__ = ["applicable", "applicable_many", "execute", "execute_many", "execute_parts", "guard_runs", "Execution",
           "Run", "Unmet", "UnmetKind"]
