"""What verify, count and value share (Banerjee et al.): a question about the state a walk leads to.

The context describes the problem's initial state; the question names the walk's actions and
asks about the state they lead to, so that the reasoner has to simulate them.
"""

from __future__ import annotations

from functools import cached_property

from ...model import Atom
from ..universe import similar_atoms
from .common import Situation, pddl_list, sequence_text


def prefix(sit: Situation) -> str:
    if not sit.walk.actions:
        return "In the initial state, with no action performed"
    return ("After performing the following actions in order, starting from the initial state: "
            f"{sequence_text(sit.book, sit.walk.actions)}")


class AfterWalk:
    """The walk's start and end, the fluent facts true at its end, and those it changed."""

    def __init__(self, sit: Situation):
        self.sit = sit
        self.init = sit.walk.states[0]
        self.end = sit.state
        u = sit.source.universe
        self.fluent_true = sorted((f for f in self.end if f.predicate in u.fluents), key=str)
        self.changed = sorted(set(self.end) ^ set(self.init), key=str)

    def evidence(self) -> dict:
        return {"walk": [str(a) for a in self.sit.walk.actions], "made_true": pddl_list(self.end - self.init),
                "made_false": pddl_list(self.init - self.end)}

    @cached_property
    def false_near(self) -> list[Atom]:
        """False facts like a true one, one object changed (the substitution of Banerjee et al.)."""
        u = self.sit.source.universe
        near = {g for f in self.fluent_true for g in similar_atoms(u, f)}
        return sorted((g for g in near if g not in self.end), key=str)


__all__ = ["prefix", "AfterWalk"]
