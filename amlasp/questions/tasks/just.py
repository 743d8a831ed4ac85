"""just (ACPBench's action_justification): the single actions and consecutive pairs of a valid plan
whose removal leaves a valid plan."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ...errors import InputError
from ...external.fast_downward import PlannerStatus
from ...model import GroundAction
from ...reasoning.engine import applicable_many, execute
from ...reasoning.justify import justify
from ...reasoning.planner import plan as fast_downward
from ...reasoning.transitions import changes_many
from ..answers import Reader
from ..gold import Case, Undecided, quoted, set_diff
from ..grade import Graded, listing, unreadable
from ..registry import Task
from .common import Draft, Situation, Skip, TaskEntry, choice, sequence_text, yes_no


def removal_key(plan: list[GroundAction], i: int, pair: bool) -> list[str]:
    """ACPBench's name of a removal: [a1, a2, "-1"] for steps i, i+1; [a, k] for step i, the k-th
    occurrence (1-based) of its action."""
    if pair:
        return [str(plan[i]), str(plan[i + 1]), "-1"]
    return [str(plan[i]), str(plan[:i + 1].count(plan[i]))]


class Just:
    """just: the single actions and consecutive pairs whose removal leaves a valid plan."""

    def __init__(self, sit: Situation):
        self.sit = sit
        task = sit.current
        r = fast_downward(sit.domain, task, "greedy", sit.source.time_limit)
        if r.status is not PlannerStatus.PLAN:
            raise Skip("no plan from the state" if r.status is PlannerStatus.NO_PLAN else "undecided: no plan found")
        if not r.plan:
            raise Skip("the goal holds already")
        self.plan = self._detour(list(r.plan))
        self.j = justify(sit.domain, task, self.plan)
        if not self.j.valid:
            raise RuntimeError("internal error: a plan with a detour is not valid")
        if self.j.well_justified:
            raise Skip("no removable action")

    def _detour(self, plan: list[GroundAction]) -> list[GroundAction]:
        """The plan with one action and its inverse inserted at a random step (when there is such a pair)."""
        sit, rng = self.sit, self.sit.rng
        states = execute(sit.domain, sit.current, plan).states
        i = rng.randrange(len(plan) + 1)
        s = states[i]
        apps = applicable_many(sit.domain, [(sit.current, [s])])[0][0]
        if not apps:
            return plan
        firsts = changes_many(sit.domain, sit.current, [(s, apps)])[0]
        after = [c.apply(s) for c in firsts]  # type: ignore[union-attr]  # applicable: each has its change
        backs = applicable_many(sit.domain, [(sit.current, after)])[0]
        seconds = changes_many(sit.domain, sit.current, list(zip(after, backs)))
        pairs = [(a, b) for a, t, bs, cs in zip(apps, after, backs, seconds)
                 for b, c in zip(bs, cs) if t != s and c.apply(t) == s]  # type: ignore[union-attr]  # as above
        if not pairs:
            return plan
        a, b = rng.choice(pairs)
        return plan[:i] + [a, b] + plan[i:]

    def _plan_text(self, nl: bool) -> str:
        return sequence_text(self.sit.book, self.plan) if nl else " ".join(map(str, self.plan))

    def evidence(self) -> dict:
        return {"plan": [str(a) for a in self.plan], "removable_steps": self.j.removable_single,
                "removable_pairs": self.j.removable_pairs}

    def gen(self) -> Draft:
        keys = [removal_key(self.plan, i, False) for i in self.j.removable_single] + \
               [removal_key(self.plan, i, True) for i in self.j.removable_pairs]
        q = (f'Simplify the plan "{self._plan_text(False)}" by removing either a single action or a pair of '
             "consecutive actions, while still maintaining a valid plan. Provide the resulting simplified plan.")
        return Draft(q, keys, self.evidence())

    def _removal(self, i: int, pair: bool) -> str:
        book = self.sit.book
        if pair:
            return f"remove steps {i + 1} and {i + 2}, {book.action(self.plan[i])} and {book.action(self.plan[i + 1])}"
        return f"remove step {i + 1}, {book.action(self.plan[i])}"

    def boolean(self, yes: bool) -> Draft | None:
        singles = set(self.j.removable_single)
        pool = sorted(singles) if yes else [i for i in range(len(self.plan)) if i not in singles]
        if not pool:
            return None
        i = self.sit.rng.choice(pool)
        q = (f"Consider the plan {self._plan_text(True)}. Is it still a valid plan when step {i + 1}, "
             f"\"{self.sit.book.action(self.plan[i])}\", is removed?")
        return Draft(q, yes_no(yes), {**self.evidence(), "step": i + 1})

    def mcq(self) -> Draft | None:
        rng = self.sit.rng
        good = [(i, False) for i in self.j.removable_single] + [(i, True) for i in self.j.removable_pairs]
        bad = [(i, False) for i in range(len(self.plan)) if i not in self.j.removable_single] + \
              [(i, True) for i in range(len(self.plan) - 1) if i not in self.j.removable_pairs]
        if not good or len(bad) < 3:
            return None
        right = rng.choice(good)
        wrong = rng.sample(bad, 3)
        q = f"Consider the plan {self._plan_text(True)}. Which of the following removals leaves a valid plan?"
        return choice(rng, q, self._removal(*right), [self._removal(*w) for w in wrong],
                      {**self.evidence(), "removal": removal_key(self.plan, right[0], right[1])})


def names(c: Case) -> dict:
    evidence = c.item.get("evidence") or {}
    plan = " ".join(evidence["plan"]) if "plan" in evidence else quoted(c.item["question"])
    return {"plan": c.actions(plan, "its plan")}


def derive(c: Case, _time_limit: float) -> tuple[list, dict]:
    plan = c.named["plan"]
    r = justify(c.domain, c.problem, plan)
    if not r.valid:
        raise Undecided("the plan to simplify is not valid")
    return ([removal_key(plan, i, False) for i in r.removable_single] +
            [removal_key(plan, i, True) for i in r.removable_pairs]), {}


def compare(gold: list, derived: list) -> list[str]:
    """The removals as a multiset (a plan may repeat one)."""
    g = Counter(tuple(x.lower() for x in k) for k in gold)
    o = Counter(tuple(k) for k in derived)
    return set_diff(set(g.elements()), set(o.elements())) if g != o else []


def _removed(c: Case, plan: list, key: list) -> list | None:
    """The plan without the removal ACPBench's key names: [a, k] (k-th occurrence of a), [a1, a2, "-1"]."""
    try:
        acts = c.actions(" ".join(str(x) for x in key[:2 if len(key) == 3 else 1]))
    except InputError:  # not actions of the item's problem: no removal of its plan
        return None
    if len(key) == 3 and len(acts) == 2:
        i = next((i for i in range(len(plan) - 1) if plan[i:i + 2] == acts), None)
        return None if i is None else plan[:i] + plan[i + 2:]
    if len(key) == 2 and len(acts) == 1 and str(key[1]).isdigit():
        at = [i for i, a in enumerate(plan) if a == acts[0]]
        k = int(key[1])
        return plan[:at[k - 1]] + plan[at[k - 1] + 1:] if 0 < k <= len(at) else None
    return None


def grade(g: Graded, item: dict, c: Case, answer: Any, r: Reader, _t: float) -> Graded:
    """A removal key or the shortened plan: one action or two consecutive ones removed, and valid."""
    plan = c.named["plan"]
    if isinstance(answer, list) and answer and isinstance(answer[0], list):  # removal keys, as in the gold
        shorter, bad = _removed(c, plan, answer[0]), [str(answer[0])]
        if shorter is None:
            g.reason = f"The plan has no removal {answer[0]}."
            return g
    else:
        shorter, bad = r.actions_in(answer)
    removals = [plan[:i] + plan[i + 1:] for i in range(len(plan))] + \
               [plan[:i] + plan[i + 2:] for i in range(len(plan) - 1)]
    if shorter not in removals:
        g.reason = "The answer is not the plan with one action, or two consecutive ones, removed." + \
                   (" " + unreadable(bad[0], "an action") if bad else "")
        return g
    ex = execute(c.domain, c.problem, shorter, states=False)
    g.correct = ex.valid
    if not ex.valid:
        g.reason = "The shortened plan is not valid: " + (
            f"step {ex.failed_step + 1}, {shorter[ex.failed_step]}, is not applicable." if ex.failed_step is not None
            else f"at its end the goal {listing(list(ex.goal_unmet))} does not hold.")
    return g


TASK = TaskEntry(
    task=Task.JUST, cost=1.0,
    question="simplify a valid plan by removing one action or two consecutive ones, keeping it valid",
    answer='every such removal, as ACPBench names it: `[a, k]` (the k-th occurrence of a) or `[a1, a2, "-1"]` '
           "(a pair)", analyse=Just, derive=derive, grade=grade, needs_goal=True, names=names, compare=compare)
