"""Fact landmarks: facts true in some state of every plan, each with its proof.

The method is sound, not complete: a fact F is a landmark when it holds initially, is a
goal, or when the goal is not reachable in the delete relaxation (encodings/relaxed.lp)
once F may never hold: no effect adds F, and no action with an unconditional add effect F
is applied (a plan in which F never holds uses none of them). The relaxation is grounded once; each candidate is one
solve under the assumption `forbid(F)`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable

from ..enums import TextEnum
from ..goal_rules import with_goal_rules
from ..model import Atom, Domain, Literal, Problem
from .relaxed import achievers, relax

if TYPE_CHECKING:
    import pandas as pd


class LandmarkKind(TextEnum):
    """Why a fact is a landmark: it holds initially, it is a goal, or the relaxation needs it."""

    INITIAL = "initial"
    GOAL = "goal"
    RELAXED = "relaxed"


@dataclass(frozen=True)
class Landmark:
    fact: Atom
    kind: LandmarkKind
    proof: str


@dataclass
class LandmarkResult:
    landmarks: list[Landmark] = field(default_factory=list)
    candidates: int = 0  # relaxed-reachable facts tested
    unsolvable: str = ""  # set when the goal is not even relaxed-reachable

    def is_landmark(self, fact: Atom) -> Landmark | None:
        return next((l for l in self.landmarks if l.fact == fact), None)

    def to_frame(self) -> pd.DataFrame:
        import pandas as pd
        return pd.DataFrame([{"fact": str(l.fact), "kind": l.kind, "proof": l.proof} for l in self.landmarks],
                            columns=["fact", "kind", "proof"])


def landmarks(domain: Domain, problem: Problem, init: Iterable[Atom] | None = None,
              goal: Iterable[Literal] | None = None, only: Iterable[Atom] | None = None) -> LandmarkResult:
    """All fact landmarks found by the test (or only those among `only`)."""
    domain = with_goal_rules(domain, [problem])
    state = frozenset(problem.init if init is None else init)
    goal = tuple(problem.goal if goal is None else goal)
    first = relax(domain, problem, state, goal)
    asked = set(only) if only is not None else None
    candidates = sorted((a for a in first.atoms if a not in state and (asked is None or a in asked)), key=str)
    result = LandmarkResult(candidates=len(candidates))
    if not first.goal_reachable:
        result.unsolvable = "the goal is not reachable even ignoring delete effects: every fact is vacuously a landmark"
        return result
    goals = {l.atom for l in goal if l.positive}
    for a in sorted(state, key=str):
        if asked is None or a in asked:
            result.landmarks.append(Landmark(a, LandmarkKind.INITIAL, "holds in the initial state"))
    relaxation = relax(domain, problem, state, goal, forbiddable=candidates,
                       achieved_by=achievers(domain, first.actions, candidates))
    for a in candidates:
        if a in goals:
            result.landmarks.append(Landmark(a, LandmarkKind.GOAL, "is a goal fact, false initially"))
        elif not relaxation.goal_reachable_without(a):
            result.landmarks.append(Landmark(
                a, LandmarkKind.RELAXED, "false initially, and the goal is not reachable even ignoring delete effects "
                              "when it never holds (no effect adds it, no action that always adds it is applied)"))
    return result
