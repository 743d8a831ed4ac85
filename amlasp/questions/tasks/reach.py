"""reach (ACPBench's reachable_atom): can a fact ever hold; name one that never can."""

from __future__ import annotations

from functools import cached_property
from typing import Any

from ...model import Atom
from ..answers import Reader
from ..decide import Decision, Reachability
from ..gold import Case
from ..registry import Task
from ..universe import Universe, similar_atoms
from .common import TaskEntry
from .reachability import Reaching, Target, proven_no, reach_text


class Reach(Reaching):
    """reach: can a fact ever hold."""

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


class Atoms(Target):
    """reach checks and grades atoms."""

    NOUN, CAN_DO, NEVER_DO, SHOWN = "atom", "hold", "hold", "holds"

    def read(self, c: Case, text: str) -> Atom:
        return c.atom(text)

    def decider(self, r: Reachability):
        return r.atom

    def candidates(self, u: Universe) -> tuple[Atom, ...]:
        return u.fluent_atoms

    def settle(self, r: Reachability, xs: list) -> None:
        r.settle(xs, [])

    def written(self, x: Atom) -> str:
        return reach_text(x)

    def answered(self, r: Reader, answer: Any) -> tuple[list, list[str]]:
        return r.atoms_in(answer)

    def shown(self, c: Case, end: frozenset[Atom], target: str) -> bool:
        return c.atom(target) in end


TASK = TaskEntry(
    task=Task.REACH, cost=0.8,
    question='a proposition that can never hold in any reachable state ("None" if there is none)',
    answer="every such atom, written as ACPBench does (`at c0 l1`, no parentheses); `[]` for None",
    analyse=Reach, **Atoms().hooks())
