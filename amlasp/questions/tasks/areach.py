"""areach (ACPBench's reachable_action): can an action ever become applicable; name one that never can."""

from __future__ import annotations

from functools import cached_property
from typing import Any

from ...model import Atom, GroundAction
from ...reasoning.engine import execute
from ..answers import Reader
from ..decide import Decision, Reachability
from ..gold import Case
from ..registry import Task
from ..universe import Universe, similar_actions
from .common import TaskEntry
from .reachability import Reaching, Target, proven_no


class AReach(Reaching):
    """areach: can an action ever become applicable."""

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


class Actions(Target):
    """areach checks and grades ground actions."""

    NOUN, CAN_DO, NEVER_DO, SHOWN = "action", "become applicable", "be applied", "is applicable"

    def read(self, c: Case, text: str) -> GroundAction:
        return c.action(text)

    def decider(self, r: Reachability):
        return r.action

    def candidates(self, u: Universe) -> tuple[GroundAction, ...]:
        return u.ground_actions

    def settle(self, r: Reachability, xs: list) -> None:
        r.settle([], xs)

    def answered(self, r: Reader, answer: Any) -> tuple[list, list[str]]:
        return r.actions_in(answer)

    def shown(self, c: Case, end: frozenset[Atom], target: str) -> bool:
        return execute(c.domain, c.problem, [c.action(target)], start=end, states=False).executable


TASK = TaskEntry(
    task=Task.AREACH, cost=3.9, question="an action that can never become applicable",
    answer="every such action", analyse=AReach, **Actions().hooks())
