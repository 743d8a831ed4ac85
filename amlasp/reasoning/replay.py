"""validate_plans' runs of plain actions replayed in Python; clingo asked about a failed step alone.

validate.lp computes every state of a plan in clingo's grounder: each step copies every fluent atom of
its state into the next (encodings/frame.lp), about 55 atoms a step in sokoban, most of the validation
of a plan of the IPC's problems (benchmarks/README.md, branch sokoval). A plan's steps are ground, so
for an action whose precondition is a conjunction of literals (atoms, negated atoms, equalities) and
whose effects are unconditional literals, a step is a few set look-ups and `(S \\ del) u add`
(delete before add, as frame.lp): no join for a grounder to do. Such runs are replayed here; clingo
is asked only about

- the first step whose action is not applicable (or that the model does not have): validate.lp on that
  step alone, from the state before it, gives its unmet conjuncts and the goals unmet there, the
  verdict's reasons exactly as a run of the whole plan would; and
- the runs that take an action with anything richer (conditional or quantified effects, other
  preconditions, derived predicates, numeric effects), on a problem whose goal is no conjunction of
  literals (goal conditions, derived predicates, equality), or longer than `PART_STEPS`: as before.

A replayed run's verdict is the one validate.lp gives (tests/reasoning/test_replay.py compares both on
every plan of the repository's benchmarks and tests); a failed step that clingo finds applicable after
all (never seen) has its whole run validated by clingo.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter
from typing import Callable, Sequence, cast

from ..costs import plan_cost
from ..goal_rules import unmet_as_written
from ..identity import by_identity
from ..model import Action, Atom, Domain, GoalCondition, GroundAction, Literal, Problem, canonical_name
from .engine import PART_STEPS, Run, execute_parts, guard_runs
from .execution import Execution

#: A term of a compiled literal: the index of the action's parameter it names, or a constant.
Term = int | str
#: The arguments of a compiled literal's atom, from a step's arguments (`_grounder`).
Ground = Callable[[tuple[str, ...]], tuple[str, ...]]


@dataclass(frozen=True)
class _Plain:
    """An action whose ground steps Python applies: parameter types, precondition literals
    (positive, predicate, terms; predicate `=` for an equality), deleted and added atoms."""

    types: tuple[str, ...]
    pre: tuple[tuple[bool, str, Ground], ...]
    deletes: tuple[tuple[str, Ground], ...]
    adds: tuple[tuple[str, Ground], ...]


def _plain(action: Action, derived: frozenset[str]) -> _Plain | None:
    """`action` compiled for replay, or None when it is richer than plain (see the module docstring)."""
    literals = action.precondition_literals()
    if literals is None or action.numeric_effects or not all(e.unconditional for e in action.effects):
        return None
    index = {v: i for i, (v, _) in enumerate(action.parameters)}

    def terms(atom: Atom) -> tuple[Term, ...] | None:
        out: list[Term] = []
        for x in atom.args:
            if x.startswith("?"):
                if x not in index:
                    return None
                out.append(index[x])
            else:
                out.append(x)
        return tuple(out)

    pre: list[tuple[bool, str, Ground]] = []
    deletes: list[tuple[str, Ground]] = []
    adds: list[tuple[str, Ground]] = []
    for lit in literals:
        ts = terms(lit.atom)
        if ts is None or lit.atom.predicate in derived:
            return None
        pre.append((lit.positive, lit.atom.predicate, _grounder(ts)))
    for e in action.effects:
        ts = terms(e.literal.atom)
        if ts is None or e.literal.atom.predicate in derived or e.literal.atom.predicate == "=":
            return None
        (adds if e.literal.positive else deletes).append((e.literal.atom.predicate, _grounder(ts)))
    return _Plain(tuple(t for _, t in action.parameters), tuple(pre), tuple(deletes), tuple(adds))


class _Domain:
    """What replay needs of one domain, kept for the process (the last 16): its derived predicates, and each
    action's `_Plain` (None: richer), made when a plan first takes it (a plan of organic-synthesis-split takes
    31 steps of its 1,252 actions)."""

    def __init__(self, domain: Domain):
        self.domain = domain
        self.derived = domain.derived_predicates()
        self.made: dict[str, _Plain | None] = {}

    def plain(self, name: str) -> _Plain | None:
        """The action `name` compiled for replay, None when it is richer, `_UNKNOWN` when the domain has none."""
        if name in self.made:
            return self.made[name]
        action = self.domain.action(name)
        if action is None:  # not kept: the names a plan makes up are not bounded
            return _UNKNOWN
        out = self.made[name] = _plain(action, self.derived)
        return out

    def replays(self, run: Run) -> bool:
        """Whether `run` is replayed: every step's action plain (or unknown: a failed step), a goal of
        literals of basic predicates, and not long enough to be validated in parts."""
        return (len(run.plan) <= PART_STEPS
                and all(isinstance(g, Literal) and not isinstance(g, GoalCondition) and g.atom.predicate != "="
                        and g.atom.predicate not in self.derived for g in run.problem.goal)
                and all(self.plain(a.name) is not None for a in run.plan))


_UNKNOWN = _Plain((), (), (), ())  # an action the model does not have: its step fails


def _grounder(terms: tuple[Term, ...]) -> Ground:
    """The arguments of an atom with `terms`, from a step's: one C call where every term is a parameter."""
    if terms and all(isinstance(t, int) for t in terms):
        if len(terms) == 1:
            only = cast(int, terms[0])
            return lambda args: (args[only],)
        return cast(Ground, itemgetter(*terms))
    return lambda args: tuple(args[t] if isinstance(t, int) else t for t in terms)


def _applies(plain: _Plain, step: GroundAction, objects: dict[str, str], state: set[Atom], known: _Domain) -> bool:
    """Whether `step` is applicable in `state`: validate.lp's `app/3` (and not `unknown/2`)."""
    args = step.args
    if plain is _UNKNOWN or len(args) != len(plain.types) or not all(a in objects for a in args):
        return False
    fits = known.domain.fits
    if not all(fits(objects[a], t) for a, t in zip(args, plain.types)):
        return False
    for positive, predicate, ground in plain.pre:
        if predicate == "=":
            x, y = ground(args)
            if (canonical_name(x) == canonical_name(y)) != positive:  # clingo compares the names' symbols
                return False
        elif (Atom(predicate, ground(args)) in state) != positive:
            return False
    return True


def _replay(known: _Domain, run: Run) -> tuple[int | None, set[Atom]]:
    """The first failing step of `run` (None: none) and the state before it (or at the end)."""
    state = set(run.start)
    objects = run.problem.object_types(known.domain)
    for k, step in enumerate(run.plan):
        plain = known.plain(step.name)
        assert plain is not None  # `replays` said so
        if not _applies(plain, step, objects, state, known):
            return k, state
        args = step.args
        state.difference_update([Atom(p, ground(args)) for p, ground in plain.deletes])
        state.update([Atom(p, ground(args)) for p, ground in plain.adds])
    return None, state


def _goal_unmet(problem: Problem, state: set[Atom]) -> list[Literal]:
    """validate.lp's `goal_unmet/2` in `state` (a whole state: static atoms are `fixed/2` there)."""
    return [g for g in dict.fromkeys(problem.goal) if (g.atom in state) != g.positive]


def execute(domain: Domain, runs: Sequence[Run], explain: bool = True) -> list[Execution]:
    """`engine.execute_parts(domain, runs, states=False, explain=explain)`, the same Executions: plain
    runs replayed, clingo asked about their failed steps and about the other runs, in one call."""
    known = by_identity(_DOMAINS, 16, (domain,), None, lambda: _Domain(domain))
    guard_runs(domain, [r for r in runs if len(r.plan) <= PART_STEPS])  # the size guard's verdict, as before
    out: list[Execution | None] = [None] * len(runs)
    asked: list[Run] = []  # for clingo: a failed step alone, or a whole run
    where: list[tuple[int, int | None]] = []  # the run each asked one is of, and its failed step (None: whole)
    sizes: dict[int, int] = {}
    for i, run in enumerate(runs):
        if not known.replays(run):
            asked.append(run)
            where.append((i, None))
            continue
        failed, state = _replay(known, run)
        if failed is not None:
            start = run.start if failed == 0 else frozenset(state)
            asked.append(Run(run.problem, [run.plan[failed]], start))
            where.append((i, failed))
            continue
        unmet = unmet_as_written(run.problem, _goal_unmet(run.problem, state))
        size = sizes.get(id(run.problem))
        if size is None:
            size = sizes[id(run.problem)] = len(set(run.problem.goal))
        cost = plan_cost(domain, run.problem, run.plan)
        out[i] = Execution(run.plan, [], goal_unmet=unmet, executable=True, valid=not unmet, cost=cost.value,
                           cost_undefined=cost.undefined, prefix_goal_unmet=list(unmet), goal_size=size)
    if asked:
        again: list[int] = []
        for (i, failed), ex in zip(where, execute_parts(domain, asked, states=False, explain=explain)):
            if failed is None:
                out[i] = ex
            elif ex.failed_step == 0:
                ex.plan, ex.failed_step = runs[i].plan, failed
                out[i] = ex
            else:  # clingo finds the step applicable: its verdict on the whole run is the verdict
                again.append(i)
        if again:
            for i, ex in zip(again, execute_parts(domain, [runs[i] for i in again], states=False, explain=explain)):
                out[i] = ex
    assert all(ex is not None for ex in out)  # every run replayed or asked
    return cast("list[Execution]", out)


_DOMAINS: dict = {}


__all__ = ["execute"]
