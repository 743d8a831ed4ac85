"""app (ACPBench's applicable_actions): which ground actions are applicable in the state."""

from __future__ import annotations

from functools import cached_property
from typing import Any

from ...model import GroundAction
from ...reasoning.engine import applicable, execute_many
from ..answers import Reader
from ..gold import Case
from ..grade import Graded, listing, score_sets, unmet_text, unreadable, why_not
from ..registry import Task
from ..universe import similar_actions
from .common import Draft, Situation, TaskEntry, choice, pddl_list, sample, yes_no


def unmet_of(sit: Situation, actions: list[GroundAction], starts=None) -> dict[GroundAction, list[str]]:
    """Why each action is not applicable in the state (or in its own start state): the failed conjuncts."""
    runs = execute_many(sit.domain, sit.current, [[a] for a in actions], states=False, starts=starts)
    return {a: [str(u) for u in ex.unmet] for a, ex in zip(actions, runs)}


class App:
    """app: which ground actions are applicable in the state."""

    def __init__(self, sit: Situation):
        self.sit = sit
        self.apps = sit.applicable

    @cached_property
    def inapplicable(self) -> list[GroundAction]:
        """Plausible inapplicable actions: an applicable action's schema with one object changed."""
        ok = set(self.apps)
        pool = {b for a in self.apps for b in similar_actions(self.sit.source.universe, a)} - ok
        if not pool:  # nothing applicable: any type-correct action is inapplicable
            pool = set(self.sit.source.universe.ground_actions[:200])
        return sorted(pool, key=str)

    def gen(self) -> Draft:
        return Draft("Generate the list of all ground actions that are applicable in this state.",
                     pddl_list(self.apps), {"applicable": len(self.apps)})

    def boolean(self, yes: bool) -> Draft | None:
        pool = self.apps if yes else self.inapplicable
        if not pool:
            return None
        a = self.sit.rng.choice(pool)
        evidence: dict[str, Any] = {"action": str(a)}
        if not yes:
            evidence["unmet"] = unmet_of(self.sit, [a])[a]
        return Draft(f"Is the following action applicable in the current state: {self.sit.book.action(a)}?",
                     yes_no(yes), evidence)

    def mcq(self) -> Draft | None:
        if not self.apps or len(self.inapplicable) < 3:
            return None
        rng = self.sit.rng
        right = rng.choice(self.apps)
        wrong = sample(rng, self.inapplicable, 3)
        unmet = unmet_of(self.sit, wrong)
        book = self.sit.book
        return choice(rng, "Which of the following actions is applicable in the current state?", book.action(right),
                      [book.action(w) for w in wrong],
                      {"action": str(right), "distractors": {str(w): unmet[w] for w in wrong}})


def derive(c: Case, _time_limit: float) -> tuple[list[str], dict]:
    return sorted(str(a) for a in applicable(c.domain, c.problem)[0]), {}


def grade(g: Graded, item: dict, c: Case, answer: Any, r: Reader, _t: float) -> Graded:
    """A set of actions: precision and recall; each extra one says why it is not applicable."""
    got, bad = r.actions_in(answer)
    gold = set(c.actions(" ".join(item["answer"])))
    score_sets(g, set(got), gold)
    why = [why_not(c, a) for a in sorted(set(got) - gold, key=str)]
    missing = sorted(gold - set(got), key=str)
    if missing:
        why.append(f"the answer leaves out the applicable action{'s' if len(missing) > 1 else ''} "
                   f"{listing(missing)}")
    g.reason = "; ".join(why) + (". " if why and bad else "") + " ".join(unreadable(b, "an action") for b in bad)
    return g


def because(_c: Case | None, ev: dict) -> str:
    unmet = unmet_text(ev)
    return f": {ev['action']} is not applicable: {unmet}" if unmet else ""


TASK = TaskEntry(
    task=Task.APP, cost=0.013, question="which ground actions are applicable in the state",
    answer='list of actions `["(sail l1 l0)", ...]`', analyse=App, derive=derive, grade=grade, because=because)
