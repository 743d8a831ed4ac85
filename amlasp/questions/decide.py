"""Proven answers to "can F ever hold / can A ever be applied" and "is F a landmark", with evidence.

Cheap proofs first, the planner last, and "unknown" when a limit is reached (the item is then
skipped and counted, never emitted):

- reachability: a witness from breadth-first search (validated); the whole reachable state space
  explored; the delete relaxation (static facts and relaxed reachability); h^2 mutual exclusions;
  then Fast Downward's complete search with the fact (the action's precondition) as the goal.
- landmarks: holds now or is a goal; the delete relaxation with the fact forbidden (sound);
  absent from the states of a known plan (a proof it is no landmark); then Fast Downward on the
  task in which no action may make the fact true (reasoning/forbid.py).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

from ..enums import Verdict
from ..external.fast_downward import PlannerStatus
from ..model import Action, And, Atom, Domain, Effect, GroundAction, Literal, Predicate, Problem
from ..reasoning.engine import applicable_many, execute
from ..reasoning.forbid import decide_landmark
from ..reasoning.landmarks import landmarks as relaxed_landmarks
from ..reasoning.mutex import mutexes
from ..reasoning.planner import plan as fast_downward
from ..reasoning.relaxed import relax
from .walks import explore


@dataclass(frozen=True)
class Decision:
    answer: Verdict
    proof: str
    witness: tuple[GroundAction, ...] | None = None

    def evidence(self) -> dict:
        out: dict = {"proof": self.proof}
        if self.witness is not None:
            out["witness"] = [str(a) for a in self.witness]
        return out


def target_task(domain: Domain, problem: Problem, atoms: list[Atom], actions: list[GroundAction], every: bool
                ) -> tuple[Domain, Problem, frozenset[str]]:
    """The task "make each of `atoms` true and each of `actions` applicable at some point" (`every`), or
    "... one of them" (not `every`). Per predicate (action) with a target: a static `amlasp-target-X`
    listing the targets, and a marking action whose precondition is the atom (the action's precondition)
    and the target fact; it adds `amlasp-done-X` for that target (the goal of `every`: all of them) or
    `amlasp-reached` (the goal otherwise). Returns the marking actions' names too (to strip from plans)."""
    taken = {p.name for p in domain.predicates} | {a.name for a in domain.actions}

    def fresh(base: str) -> str:
        name = next(n for n in (base if k == 0 else f"{base}-{k}" for k in range(1000)) if n not in taken)
        taken.add(name)
        return name

    reached = Atom(fresh("amlasp-reached"))
    preds, marks, init, goal = [Predicate(reached.predicate)], [], set(), []
    groups = [("atom", p.name, p.parameters, None, [f for f in atoms if f.predicate == p.name])
              for p in domain.predicates] + \
             [("action", a.name, a.parameters, a.precondition, [g for g in actions if g.name == a.name])
              for a in domain.actions]
    for kind, name, params, pre, targets in groups:
        if not targets:
            continue
        target, done = fresh(f"amlasp-target-{kind}-{name}"), fresh(f"amlasp-done-{kind}-{name}")
        variables = tuple(v for v, _ in params)
        preds += [Predicate(target, params), Predicate(done, params)]
        effect = Atom(done, variables) if every else reached
        cond = Atom(name, variables) if pre is None else pre
        marks.append(Action(fresh(f"amlasp-mark-{kind}-{name}"), params, And((cond, Atom(target, variables))),
                            (Effect(Literal(effect)),)))
        init |= {Atom(target, x.args) for x in targets}
        goal += [Literal(Atom(done, x.args)) for x in targets]
    d = replace(domain, predicates=domain.predicates + tuple(preds), actions=domain.actions + tuple(marks))
    task = replace(problem, init=problem.init | init, goal=tuple(goal) if every else (Literal(reached),))
    return d, task, frozenset(m.name for m in marks)


GROUP = 32  # targets of one search at most (see `Reachability.settle`)
GROUP_SECONDS = 3.0  # a group's search time at most


class Reachability:
    """Decides reachability of atoms and actions from one state, caching what each proof costs."""

    def __init__(self, domain: Domain, problem: Problem, state: frozenset[Atom], explore_states: int = 300,
                 time_limit: float = 10.0, planner_calls: int = 20):
        self.domain, self.problem, self.state = domain, replace(problem, init=state), state
        self.explore_states, self.time_limit, self.calls_left = explore_states, time_limit, planner_calls
        self.static = domain.static_predicates()
        self.seen_atoms: dict[Atom, tuple[GroundAction, ...]] = {}  # witnesses from planner runs
        self.seen_actions: dict[GroundAction, tuple[GroundAction, ...]] = {}
        self.never: dict[Atom | GroundAction, str] = {}  # proven by the planner

    @cached_property
    def explored(self):
        return explore(self.domain, self.problem, self.state, self.explore_states)

    @cached_property
    def relaxation(self):
        return relax(self.domain, self.problem, self.state, ())

    @cached_property
    def mutex(self) -> frozenset[tuple[Atom, Atom]]:
        fluent = [a for a in self.relaxation.atoms if a.predicate not in self.static]
        r = mutexes(self.domain, self.problem, self.state, fluent, self.relaxation)
        return frozenset() if r is None else frozenset(r.pairs) | frozenset((g, f) for f, g in r.pairs)

    def _known(self, x: Atom | GroundAction) -> Decision | None:
        """What search already settled: a witness (breadth-first search, or a planner run's states),
        the whole state space explored, or the planner's proof that none is reachable."""
        is_atom = isinstance(x, Atom)
        w = self.explored.atom_witness(x) if is_atom else self.explored.action_witness(x)
        if w is None:
            w = self.seen_atoms.get(x) if isinstance(x, Atom) else self.seen_actions.get(x)
        there = "holds" if is_atom else "is applicable"
        if w is not None:
            return Decision(Verdict.YES, f"a sequence of {len(w)} action(s) reaches a state where {x} {there}",
                            tuple(w))
        if self.explored.complete:
            return Decision(Verdict.NO, f"all {self.explored.size} states reachable from the current state were "
                                        f"explored, and {x} {there} in none")
        if x in self.never:
            return Decision(Verdict.NO, self.never[x])
        return None

    def atom(self, f: Atom, planner: bool = True, mutex: bool = True) -> Decision:
        """Cheap proofs, then (`mutex`) h^2, then (`planner`) Fast Downward (see `settle`)."""
        known = self._known(f)
        if known is not None:
            return known
        if f.predicate in self.static:
            return Decision(Verdict.NO, f"{f} is a static fact (no action changes {f.predicate}) and is false")
        if f not in self.relaxation.atoms:
            return Decision(Verdict.NO, f"{f} is not reachable even ignoring delete effects")
        if not mutex:
            return Decision(Verdict.UNKNOWN, "not decided")
        if (f, f) in self.mutex:
            return Decision(Verdict.NO, f"{f} never holds (h^2 reachability: mutually exclusive with itself)")
        if not planner:
            return Decision(Verdict.UNKNOWN, "not decided")
        self.settle([f], [])
        return self.atom(f, False)

    def action(self, a: GroundAction, planner: bool = True, mutex: bool = True) -> Decision:
        """As `atom`, for the states where an action is applicable."""
        known = self._known(a)
        if known is not None:
            return known
        if a not in self.relaxation.actions:
            return Decision(Verdict.NO, f"{a} is not applicable in any state even ignoring delete effects "
                                       "(a static or unreachable precondition)")
        if not mutex:
            return Decision(Verdict.UNKNOWN, "not decided")
        pre = self._preconditions(a)
        if pre is not None:
            pos = [l.atom for l in pre if l.positive]
            for i, f in enumerate(pos):
                for g in pos[i:]:
                    if (f, g) in self.mutex:
                        return Decision(Verdict.NO, f"its preconditions {f} and {g} never hold together "
                                                   "(h^2 reachability)")
        if not planner:
            return Decision(Verdict.UNKNOWN, "not decided")
        self.settle([], [a])
        return self.action(a, False)

    def _preconditions(self, a: GroundAction) -> list[Literal] | None:
        lits = self.domain.action_named(a.name).ground_precondition(a.args)
        return None if lits is None else [l for l in lits if l.atom.predicate != "="]

    def settle(self, atoms: list[Atom], actions: list[GroundAction]) -> None:
        """Decide the given atoms and actions with few searches: one search for a run that makes every
        one true (applicable) at some point (`target_task`); when there is none (or it times out), the
        same for each half, down to single ones, whose "no plan" proves them impossible. Every plan
        witnesses all atoms and actions along it. Stops when the planner budget is spent (what is open
        then stays undecided).

        Groups start at `GROUP` targets and search for `GROUP_SECONDS` at most: a greedy search for a
        run through a hundred targets tends to time out where a few dozen take a second (rovers 4:
        178 targets, 14 s to a timeout), and a failed group is only split; single targets, whose
        failure is a proof, get the full time limit."""
        todo = list(atoms) + list(actions)
        stack: list[list] = [todo[i:i + GROUP] for i in range(0, len(todo), GROUP)][::-1]
        while stack and self.calls_left > 0:
            group = [x for x in stack.pop() if x not in self.seen_atoms and x not in self.seen_actions
                     and x not in self.never]
            if not group:
                continue
            self.calls_left -= 1
            targets = ([x for x in group if isinstance(x, Atom)], [x for x in group if isinstance(x, GroundAction)])
            d, task, marks = target_task(self.domain, self.problem, *targets, every=len(group) > 1)
            r = fast_downward(d, task, "greedy", self.time_limit if len(group) == 1 else
                              min(self.time_limit, GROUP_SECONDS))
            if r.status is PlannerStatus.PLAN:
                self._learn([a for a in r.plan or () if a.name not in marks])
            elif len(group) == 1 and r.status is PlannerStatus.NO_PLAN:
                self.never[group[0]] = f"no reachable state has it (Fast Downward: {r.detail})"
            elif len(group) > 1:
                half = len(group) // 2
                stack += [group[half:], group[:half]]

    def _learn(self, plan: list[GroundAction]) -> None:
        """Every atom and applicable action along a validated plan prefix, with the prefix reaching it."""
        ex = execute(self.domain, self.problem, plan)
        if not ex.executable:
            raise RuntimeError("internal error: Fast Downward's witness fails validation")
        apps = applicable_many(self.domain, [(self.problem, ex.states)])[0]
        for t, (s, acts) in enumerate(zip(ex.states, apps)):
            for f in s:
                self.seen_atoms.setdefault(f, tuple(plan[:t]))
            for a in acts:
                self.seen_actions.setdefault(a, tuple(plan[:t]))


class Landmarks:
    """Decides which facts are landmarks of the task from one state (the problem's goal)."""

    def __init__(self, domain: Domain, problem: Problem, state: frozenset[Atom], time_limit: float = 10.0,
                 planner_calls: int = 20):
        self.domain, self.problem, self.state = domain, replace(problem, init=state), state
        self.time_limit, self.calls_left = time_limit, planner_calls
        self.goals = {l.atom for l in problem.goal if l.positive}
        self.avoided: dict[Atom, tuple[GroundAction, ...]] = {}  # fact → a plan whose states never have it

    @cached_property
    def plan(self) -> tuple[GroundAction, ...] | None:
        """Some plan from the state (Fast Downward, greedy), validated; None when none is known."""
        r = fast_downward(self.domain, self.problem, "greedy", self.time_limit)
        if r.status is not PlannerStatus.PLAN:
            return None
        self._learn(r.plan or [])
        return tuple(r.plan or ())

    def _learn(self, plan) -> None:
        ex = execute(self.domain, self.problem, list(plan))
        if not ex.valid:
            raise RuntimeError("internal error: Fast Downward's plan fails validation")
        seen = set().union(*ex.states)
        for f in self.candidates:
            if f not in seen:
                self.avoided.setdefault(f, tuple(plan))

    @cached_property
    def relaxed(self):
        return relaxed_landmarks(self.domain, self.problem, self.state)

    @cached_property
    def candidates(self) -> list[Atom]:
        """Facts of fluent predicates that are type-correct, false now, and no goal (ACPBench's non-trivial ones)."""
        from .universe import Universe
        return [f for f in Universe(self.domain, self.problem).fluent_atoms
                if f not in self.state and f not in self.goals]

    def fact(self, f: Atom) -> Decision:
        if f in self.state:
            return Decision(Verdict.YES, "holds in the current state")
        if f in self.goals:
            return Decision(Verdict.YES, "is a goal fact")
        if self.relaxed.unsolvable:
            return Decision(Verdict.UNKNOWN, "the task is unsolvable: every fact is vacuously a landmark")
        lm = self.relaxed.is_landmark(f)
        if lm is not None:
            return Decision(Verdict.YES, lm.proof)
        _ = self.plan
        if f in self.avoided:
            return Decision(Verdict.NO, f"a plan of {len(self.avoided[f])} step(s) in which {f} never holds",
                            self.avoided[f])
        if self.plan is None or self.calls_left <= 0:
            return Decision(Verdict.UNKNOWN, "no plan known" if self.plan is None else "planner budget spent")
        self.calls_left -= 1
        d = decide_landmark(self.domain, self.problem, f, self.state, self.time_limit)
        if d.verdict is Verdict.NO:
            self._learn(d.plan)
            return Decision(Verdict.NO, d.proof, d.plan)
        return Decision(d.verdict, d.proof)


__all__ = ["Decision", "Reachability", "Landmarks"]
