"""Reachability questions: reach (can a fact ever hold) and areach (can an action ever be applied).

The free-answer forms are ACPBench's: name a proposition (an action) that can never hold (become
applicable); the gold answer lists every one among the type-correct atoms of changing predicates
(type-correct ground actions), so every atom (action) must be decided: an item with one left
undecided is skipped. ACPBench writes reach's atoms without parentheses; so do we.
"""

from __future__ import annotations

from functools import cached_property

from ...model import Atom, GroundAction
from ..decide import Answer, Decision, Reachability
from ..items import Form, Task
from ..universe import TooLarge, similar_actions, similar_atoms
from .common import Draft, Situation, Skip, TaskSpec, choice, yes_no

ALL = frozenset(Form)


def classify(items, decide, settle) -> dict:
    """Every item decided: cheap proofs first for all, then h^2, then the planner for the rest, together."""
    out = {x: decide(x, False, False) for x in items}
    for x, d in out.items():
        if d.answer is Answer.UNKNOWN:
            out[x] = decide(x, False, True)
    open_ = [x for x, d in out.items() if d.answer is Answer.UNKNOWN]
    if open_:
        settle(open_)
        out.update({x: decide(x, False, True) for x in open_})
    unknown = [x for x, d in out.items() if d.answer is Answer.UNKNOWN]
    if unknown:
        raise Skip(f"undecided: {unknown[0]} ({out[unknown[0]].proof})")
    return out


def proven_no(candidates, decide) -> list:
    """Candidates proven impossible without the planner: by the relaxation first, by h^2 only if need be."""
    pool = [x for x in candidates if decide(x, False, False).answer is Answer.NO]
    return pool or [x for x in candidates if decide(x, False, True).answer is Answer.NO]


class _Reach:
    """Shared by reach and areach: the decider, and the candidates for each answer."""

    def __init__(self, sit: Situation):
        self.sit = sit
        src = sit.source
        self.r = Reachability(sit.domain, sit.source.problem, sit.state, src.explore_states, src.time_limit)


class Reach(_Reach):
    @cached_property
    def universe(self) -> tuple[Atom, ...]:
        try:
            return self.sit.source.universe.fluent_atoms
        except TooLarge as e:
            raise Skip(str(e)) from None

    def gen(self) -> Draft:
        decided = classify(self.universe, self.r.atom, lambda xs: self.r.settle(xs, []))
        never = [f for f, d in decided.items() if d.answer is Answer.NO]
        answer = sorted(" ".join((f.predicate, *f.args)) for f in never)
        evidence = {"reachable": sum(d.answer is Answer.YES for d in decided.values()),
                    "proofs": {str(f): decided[f].proof for f in sorted(never, key=str)}}
        return Draft("What proposition can never hold in any potentially reachable state? "
                     "Answer None if there is none.", answer, evidence)

    @cached_property
    def yes_pool(self) -> list[Atom]:
        return sorted((f for f in self.r.explored.atom_state if f not in self.sit.state
                       and f.predicate in self.sit.source.universe.fluents), key=str)

    @cached_property
    def no_pool(self) -> list[Atom]:
        """Proven unreachable without the planner, the plausible ones (like a true fact) first."""
        near = {g for f in self.sit.state if f.predicate in self.sit.source.universe.fluents
                for g in similar_atoms(self.sit.source.universe, f)}
        return proven_no(sorted(near, key=str), self.r.atom) or proven_no(self.universe, self.r.atom)

    def _q(self, f: Atom) -> str:
        return f"Is it possible to reach a state where the following holds: {self.sit.book.fact(f)}?"

    def boolean(self, yes: bool) -> Draft | None:
        pool = self.yes_pool if yes else self.no_pool
        if not pool:
            return None
        f = self.sit.rng.choice(pool)
        d = self.r.atom(f)
        assert d.answer is (Answer.YES if yes else Answer.NO)
        return Draft(self._q(f), yes_no(yes), {"fact": str(f), **d.evidence()})

    def mcq(self) -> Draft | None:
        rng, book = self.sit.rng, self.sit.book
        if self.no_pool and len(self.yes_pool) >= 3:
            right, wrong = rng.choice(self.no_pool), rng.sample(self.yes_pool, 3)
            query = "Which of the following facts can never hold in any state reachable from the current state?"
        elif self.yes_pool and len(self.no_pool) >= 3:
            right, wrong = rng.choice(self.yes_pool), rng.sample(self.no_pool, 3)
            query = "Which of the following facts can hold in some state reachable from the current state?"
        else:
            return None
        evidence = {"fact": str(right), **self.r.atom(right).evidence(),
                    "distractors": {str(w): self.r.atom(w).proof for w in wrong}}
        return choice(rng, query, book.fact(right), [book.fact(w) for w in wrong], evidence)


class AReach(_Reach):
    @cached_property
    def universe(self) -> tuple[GroundAction, ...]:
        try:
            return self.sit.source.universe.ground_actions
        except TooLarge as e:
            raise Skip(str(e)) from None

    def gen(self) -> Draft:
        decided = classify(self.universe, self.r.action, lambda xs: self.r.settle([], xs))
        never = sorted((a for a, d in decided.items() if d.answer is Answer.NO), key=str)
        evidence = {"reachable": sum(d.answer is Answer.YES for d in decided.values()),
                    "proofs": {str(a): decided[a].proof for a in never}}
        return Draft("What action can never become applicable, in any state reachable from the current state? "
                     "Answer None if there is none.", [str(a) for a in never], evidence)

    @cached_property
    def yes_pool(self) -> list[GroundAction]:
        now = set(self.sit.applicable)
        return sorted((a for a in self.r.explored.action_state if a not in now), key=str)

    @cached_property
    def no_pool(self) -> list[GroundAction]:
        near = {b for a in self.sit.applicable for b in similar_actions(self.sit.source.universe, a)}
        return proven_no(sorted(near, key=str), self.r.action) or proven_no(self.universe, self.r.action)

    def _q(self, a: GroundAction) -> str:
        return f"Is it possible to reach a state where the action \"{self.sit.book.action(a)}\" can be applied?"

    def boolean(self, yes: bool) -> Draft | None:
        pool = self.yes_pool if yes else self.no_pool
        if not pool:
            return None
        a = self.sit.rng.choice(pool)
        d: Decision = self.r.action(a)
        assert d.answer is (Answer.YES if yes else Answer.NO)
        return Draft(self._q(a), yes_no(yes), {"action": str(a), **d.evidence()})

    def mcq(self) -> Draft | None:
        rng, book = self.sit.rng, self.sit.book
        if self.no_pool and len(self.yes_pool) >= 3:
            right, wrong = rng.choice(self.no_pool), rng.sample(self.yes_pool, 3)
            query = "Which of the following actions can never become applicable in any state reachable from " \
                    "the current state?"
        elif self.yes_pool and len(self.no_pool) >= 3:
            right, wrong = rng.choice(self.yes_pool), rng.sample(self.no_pool, 3)
            query = "Which of the following actions can become applicable in some state reachable from " \
                    "the current state?"
        else:
            return None
        evidence = {"action": str(right), **self.r.action(right).evidence(),
                    "distractors": {str(w): self.r.action(w).proof for w in wrong}}
        return choice(rng, query, book.action(right), [book.action(w) for w in wrong], evidence)


SPECS = [TaskSpec(Task.REACH, ALL, False, Reach), TaskSpec(Task.AREACH, ALL, False, AReach)]
