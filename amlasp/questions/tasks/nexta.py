"""nexta (ACPBench's goal_closer): every action that starts a shortest plan, and the shortest length."""

from __future__ import annotations

from functools import cached_property
from typing import Any

from ...model import GroundAction
from ...reasoning.engine import execute
from ...reasoning.optimal import OptimalStatus, optimal_first_actions
from ..answers import Reader
from ..gold import Case, Undecided, norm_list, set_diff
from ..grade import Graded, cannot_read, why_not
from ..registry import Task
from ..universe import similar_actions
from .common import Draft, Situation, Skip, TaskEntry, choice, pddl_list, yes_no


class NextA:
    """nexta: every action that starts a shortest plan, and the shortest length (Fast Downward, optimal)."""

    def __init__(self, sit: Situation):
        self.sit = sit
        r = optimal_first_actions(sit.domain, sit.source.problem, sit.state, sit.source.time_limit)
        if r.status is OptimalStatus.GOAL:
            raise Skip("the goal holds already")
        if r.status is OptimalStatus.UNSOLVABLE:
            raise Skip("no plan from the state")
        if r.status is not OptimalStatus.SOLVED:
            raise Skip(f"undecided: {r.detail}")
        self.r = r
        self.optimal = list(r.optimal)

    def evidence(self) -> dict:
        return {"optimal_length": self.r.length, "proof": self.r.detail,
                "cost_to_go": {str(a): c for a, c in self.r.cost_to_go.items()},
                "plans": {str(a): [str(b) for b in p] for a, p in self.r.optimal.items()}}

    def gen(self) -> Draft:
        answer = {"yes": pddl_list(self.optimal), "no": pddl_list(self.r.others), "maybe": [],
                  "opt": str(self.r.length)}
        return Draft("What is the next action that takes us towards the goal?", answer, self.evidence())

    @cached_property
    def wrong(self) -> list[GroundAction]:
        """Applicable actions that start no shortest plan, then plausible inapplicable ones."""
        inapplicable = sorted({b for a in self.sit.applicable for b in similar_actions(self.sit.source.universe, a)}
                              - set(self.sit.applicable), key=str)
        return list(self.r.others) + inapplicable

    def _q(self, a: GroundAction) -> str:
        return f"Is the action \"{self.sit.book.action(a)}\" the first step of some shortest plan from the " \
               "current state to the goal?"

    def boolean(self, yes: bool) -> Draft | None:
        pool = self.optimal if yes else list(self.r.others)
        if not pool:
            return None
        a = self.sit.rng.choice(pool)
        return Draft(self._q(a), yes_no(yes), {"action": str(a), **self.evidence()})

    def mcq(self) -> Draft | None:
        rng, book = self.sit.rng, self.sit.book
        right = rng.choice(self.optimal)
        others = list(self.r.others)
        wrong = rng.sample(others, min(3, len(others)))
        if len(wrong) < 3:
            rest = [a for a in self.wrong if a not in wrong]
            wrong += rng.sample(rest, min(3 - len(wrong), len(rest)))
        q = "Which of the following actions is the first step of some shortest plan from the current state to the goal?"
        return choice(rng, q, book.action(right), [book.action(w) for w in wrong],
                      {"action": str(right), **self.evidence()})


def derive(c: Case, time_limit: float) -> tuple[dict, dict]:
    r = optimal_first_actions(c.domain, c.problem, time_limit=time_limit)
    if r.status is not OptimalStatus.SOLVED:
        raise Undecided(r.detail or str(r.status))
    return {"yes": sorted(map(str, r.optimal)), "no": sorted(map(str, r.others)), "maybe": [],
            "opt": str(r.length)}, {"cost_to_go": {str(a): x for a, x in r.cost_to_go.items()},
                                    "plans": {str(a): [str(b) for b in x] for a, x in r.optimal.items()}}


def check(c: Case, time_limit: float) -> list[str]:
    """Each listed `yes` must start a shortest plan, each `no` must not, and the optimal length must
    agree; our items (complete) must list every optimal first action."""
    gold = c.item["answer"]
    derived, _ = derive(c, time_limit)
    yes = set(norm_list(derived["yes"]))
    out = [f"({a}) is listed as a next action but starts no shortest plan" for a in norm_list(gold["yes"])
           if a not in yes]
    out += [f"({a}) is listed as no next action but starts a shortest plan" for a in norm_list(gold["no"])
            if a in yes]
    if "evidence" in c.item and yes != set(norm_list(gold["yes"])):
        out.append("optimal first actions: " + "; ".join(set_diff(set(norm_list(gold["yes"])), yes)))
    if str(gold.get("opt")) != str(derived["opt"]):
        out.append(f"the gold's optimal length is {gold.get('opt')}, the encodings' {derived['opt']}")
    return out


def grade(g: Graded, item: dict, c: Case, answer: Any, r: Reader, t: float) -> Graded:
    """Any optimal first action is right (ACPBench's items list some: another one is decided)."""
    acts, bad = r.actions_in(answer)
    if not acts:
        return cannot_read(g, answer, bad, "an action")
    a = acts[0]
    gold = item["answer"]
    if str(a) in {x.lower() for x in gold["yes"]}:
        g.correct = True
        return g
    ex = execute(c.domain, c.problem, [a], states=False)
    if not ex.executable:
        g.reason = why_not(c, a)
        return g
    if "evidence" not in item:  # ACPBench lists some optimal first actions only: decide
        opt = optimal_first_actions(c.domain, c.problem, time_limit=t)
        if opt.status is OptimalStatus.SOLVED and a in opt.optimal:
            g.correct = True
            return g
    g.reason = f"{a} is applicable but starts no shortest plan (the shortest has {gold.get('opt')} steps)."
    return g


TASK = TaskEntry(
    task=Task.NEXTA, cost=5.0, question="an action that starts a shortest plan to the goal",
    answer='`{"yes": [every optimal first action], "no": [the other applicable ones], "maybe": [], "opt": "5"}`',
    analyse=NextA, derive=derive, grade=grade, needs_goal=True, check=check, near_goal=True)
