"""Reachability questions: reach (can a fact ever hold) and areach (can an action ever be applied).

The free-answer forms are ACPBench's: name a proposition (an action) that can never hold (become
applicable); the gold answer lists every one among the type-correct atoms of changing predicates
(type-correct ground actions), so every atom (action) must be decided: an item with one left
undecided is skipped. ACPBench writes reach's atoms without parentheses; so do we.
"""

from __future__ import annotations

from functools import cached_property

from ...model import Atom, GroundAction
from ...enums import Verdict
from ..decide import Decision, Reachability
from ..items import Form, Task
from ..universe import TooLarge, similar_actions, similar_atoms
from .common import Draft, Situation, Skip, TaskSpec, choice, yes_no

ALL = frozenset(Form)


def classify(items, decide, settle) -> dict:
    """Every item decided: cheap proofs first for all, then h^2, then the planner for the rest, together."""
    out = {x: decide(x, False, False) for x in items}
    for x, d in out.items():
        if d.answer is Verdict.UNKNOWN:
            out[x] = decide(x, False, True)
    open_ = [x for x, d in out.items() if d.answer is Verdict.UNKNOWN]
    if open_:
        settle(open_)
        out.update({x: decide(x, False, True) for x in open_})
    unknown = [x for x, d in out.items() if d.answer is Verdict.UNKNOWN]
    if unknown:
        raise Skip(f"undecided: {unknown[0]} ({out[unknown[0]].proof})")
    return out


def reach_text(f: Atom) -> str:
    """An atom as ACPBench writes reach's answers: without parentheses (`at c0 l1`)."""
    return " ".join((f.predicate, *f.args))


def proven_no(candidates, decide) -> list:
    """Candidates proven impossible without the planner: by the relaxation first, by h^2 only if need be."""
    pool = [x for x in candidates if decide(x, False, False).answer is Verdict.NO]
    return pool or [x for x in candidates if decide(x, False, True).answer is Verdict.NO]


class _Reach:
    """Shared by reach and areach: the decider, and the yes/no and multiple-choice questions drawn
    from the candidates for each answer (`yes_pool`, `no_pool`); the subclass says what is asked about."""

    KEY = ""  # the evidence field naming what is asked about
    GEN = NEVER = CAN = ""  # the free-answer and the multiple-choice questions

    def __init__(self, sit: Situation):
        self.sit = sit
        src = sit.source
        self.r = Reachability(sit.domain, sit.source.problem, sit.state, src.explore_states, src.time_limit)

    def decide(self, x, planner: bool = True, mutex: bool = True) -> Decision:
        raise NotImplementedError

    def everything(self) -> tuple:
        """What a question may name: the type-correct fluent atoms (ground actions)."""
        raise NotImplementedError

    @cached_property
    def universe(self) -> tuple:
        try:
            return self.everything()
        except TooLarge as e:
            raise Skip(str(e)) from None

    def phrase(self, x) -> str:
        raise NotImplementedError

    def asked(self, x) -> str:
        raise NotImplementedError

    def settle(self, xs: list) -> None:
        """Decide `xs` with the planner, together."""
        raise NotImplementedError

    def written(self, x) -> str:
        """`x` as the gen answer writes it."""
        raise NotImplementedError

    yes_pool: list
    no_pool: list

    def gen(self) -> Draft:
        decided = classify(self.universe, self.decide, self.settle)
        never = sorted((x for x, d in decided.items() if d.answer is Verdict.NO), key=str)
        evidence = {"reachable": sum(d.answer is Verdict.YES for d in decided.values()),
                    "proofs": {str(x): decided[x].proof for x in never}}
        return Draft(self.GEN, sorted(self.written(x) for x in never), evidence)

    def boolean(self, yes: bool) -> Draft | None:
        pool = self.yes_pool if yes else self.no_pool
        if not pool:
            return None
        x = self.sit.rng.choice(pool)
        d = self.decide(x)
        assert d.answer is (Verdict.YES if yes else Verdict.NO)
        return Draft(self.asked(x), yes_no(yes), {self.KEY: str(x), **d.evidence()})

    def mcq(self) -> Draft | None:
        rng = self.sit.rng
        if self.no_pool and len(self.yes_pool) >= 3:
            right, wrong, query = rng.choice(self.no_pool), rng.sample(self.yes_pool, 3), self.NEVER
        elif self.yes_pool and len(self.no_pool) >= 3:
            right, wrong, query = rng.choice(self.yes_pool), rng.sample(self.no_pool, 3), self.CAN
        else:
            return None
        evidence = {self.KEY: str(right), **self.decide(right).evidence(),
                    "distractors": {str(w): self.decide(w).proof for w in wrong}}
        return choice(rng, query, self.phrase(right), [self.phrase(w) for w in wrong], evidence)


class Reach(_Reach):
    KEY = "fact"
    NEVER = "Which of the following facts can never hold in any state reachable from the current state?"
    CAN = "Which of the following facts can hold in some state reachable from the current state?"
    GEN = "What proposition can never hold in any potentially reachable state? Answer None if there is none."

    def decide(self, x: Atom, planner: bool = True, mutex: bool = True) -> Decision:
        return self.r.atom(x, planner, mutex)

    def everything(self) -> tuple[Atom, ...]:
        return self.sit.source.universe.fluent_atoms

    def phrase(self, x: Atom) -> str:
        return self.sit.book.fact(x)

    def asked(self, x: Atom) -> str:
        return f"Is it possible to reach a state where the following holds: {self.phrase(x)}?"

    def settle(self, xs: list) -> None:
        self.r.settle(xs, [])

    def written(self, x: Atom) -> str:
        return reach_text(x)

    @cached_property
    def yes_pool(self) -> list[Atom]:
        return sorted((f for f in self.r.explored.atom_state if f not in self.sit.state
                       and f.predicate in self.sit.source.universe.fluents), key=str)

    @cached_property
    def no_pool(self) -> list[Atom]:
        """Proven unreachable without the planner, the plausible ones (like a true fact) first."""
        near = {g for f in self.sit.state if f.predicate in self.sit.source.universe.fluents
                for g in similar_atoms(self.sit.source.universe, f)}
        return proven_no(sorted(near, key=str), self.decide) or proven_no(self.universe, self.decide)


class AReach(_Reach):
    KEY = "action"
    NEVER = ("Which of the following actions can never become applicable in any state reachable from the "
             "current state?")
    CAN = "Which of the following actions can become applicable in some state reachable from the current state?"
    GEN = ("What action can never become applicable, in any state reachable from the current state? "
           "Answer None if there is none.")

    def decide(self, x: GroundAction, planner: bool = True, mutex: bool = True) -> Decision:
        return self.r.action(x, planner, mutex)

    def everything(self) -> tuple[GroundAction, ...]:
        return self.sit.source.universe.ground_actions

    def phrase(self, x: GroundAction) -> str:
        return self.sit.book.action(x)

    def asked(self, x: GroundAction) -> str:
        return f"Is it possible to reach a state where the action \"{self.phrase(x)}\" can be applied?"

    def settle(self, xs: list) -> None:
        self.r.settle([], xs)

    def written(self, x: GroundAction) -> str:
        return str(x)

    @cached_property
    def yes_pool(self) -> list[GroundAction]:
        now = set(self.sit.applicable)
        return sorted((a for a in self.r.explored.action_state if a not in now), key=str)

    @cached_property
    def no_pool(self) -> list[GroundAction]:
        near = {b for a in self.sit.applicable for b in similar_actions(self.sit.source.universe, a)}
        return proven_no(sorted(near, key=str), self.decide) or proven_no(self.universe, self.decide)


SPECS = [TaskSpec(Task.REACH, ALL, False, Reach), TaskSpec(Task.AREACH, ALL, False, AReach)]
