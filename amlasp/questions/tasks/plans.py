"""Questions about plans to the goal: just (justification), land (landmarks), nexta (next action)."""

from __future__ import annotations

from functools import cached_property

from ...external.fast_downward import PlannerStatus
from ...reasoning.planner import plan as fast_downward
from ...model import GroundAction
from ...reasoning.engine import applicable_many, execute
from ...reasoning.justify import justify
from ...reasoning.optimal import OptimalStatus, optimal_first_actions
from ...reasoning.transitions import changes_many
from ...enums import Verdict
from ..decide import Landmarks
from ..items import Form, Task
from ..universe import similar_actions, similar_atoms
from .common import Draft, Situation, Skip, TaskSpec, choice, pddl_list, sequence_text, yes_no

ALL = frozenset(Form)


# ---------------------------------------------------------------- nexta

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


# ---------------------------------------------------------------- land

class Land:
    """land: facts that hold at some point of every plan from the state (exactly decided)."""

    QUESTION = "a landmark (must hold at some point along any plan) for the current state"

    def __init__(self, sit: Situation):
        self.sit = sit
        self.l = Landmarks(sit.domain, sit.source.problem, sit.state, sit.source.time_limit)
        if self.l.relaxed.unsolvable:
            raise Skip("no plan from the state")
        if self.l.plan is None:
            raise Skip("undecided: no plan found from the state")

    def gen(self) -> Draft:
        decided = {f: self.l.fact(f) for f in self.l.candidates}
        unknown = [f for f, d in decided.items() if d.answer is Verdict.UNKNOWN]
        if unknown:
            raise Skip(f"undecided: {unknown[0]} ({decided[unknown[0]].proof})")
        yes = sorted((f for f, d in decided.items() if d.answer is Verdict.YES), key=str)
        no = sorted((f for f, d in decided.items() if d.answer is Verdict.NO), key=str)
        plans: list[list[str]] = []  # each non-landmark's proof: a plan in which it never holds (few distinct)
        avoided_by = {}
        for f in no:
            steps = [str(a) for a in decided[f].witness]
            if steps not in plans:
                plans.append(steps)
            avoided_by[str(f)] = plans.index(steps)
        return Draft("Generate a non-trivial fact landmark, one that does not hold in the initial state or goal. "
                     "Answer None if there is none.", {"yes": [str(f) for f in yes], "no": [str(f) for f in no]},
                     {"proofs": {str(f): decided[f].proof for f in yes + no}, "plans": plans,
                      "avoided_by": avoided_by})

    @cached_property
    def relaxed_yes(self) -> list:
        return sorted((x.fact for x in self.l.relaxed.landmarks if x.fact in set(self.l.candidates)), key=str)

    @cached_property
    def plausible_no(self) -> list:
        """Non-landmarks like a landmark or a fact of the state (one object changed), avoided by the plan."""
        u = self.sit.source.universe
        near = {g for f in list(self.sit.state) + self.relaxed_yes if f.predicate in u.fluents
                for g in similar_atoms(u, f)}
        cands = set(self.l.candidates)
        return sorted((f for f in near if f in cands and f in self.l.avoided), key=str)

    def boolean(self, yes: bool) -> Draft | None:
        pool = self.relaxed_yes if yes else self.plausible_no
        if not pool:
            return None
        f = self.sit.rng.choice(pool)
        d = self.l.fact(f)
        assert d.answer is (Verdict.YES if yes else Verdict.NO)
        return Draft(f"Is the following fact {self.QUESTION}: {self.sit.book.fact(f)}?", yes_no(yes),
                     {"fact": str(f), **d.evidence()})

    def mcq(self) -> Draft | None:
        if not self.relaxed_yes or len(self.plausible_no) < 3:
            return None
        rng, book = self.sit.rng, self.sit.book
        right = rng.choice(self.relaxed_yes)
        wrong = rng.sample(self.plausible_no, 3)
        return choice(rng, f"Which of the following facts is {self.QUESTION}?", book.fact(right),
                      [book.fact(w) for w in wrong],
                      {"fact": str(right), **self.l.fact(right).evidence(),
                       "distractors": {str(w): self.l.fact(w).proof for w in wrong}})


# ---------------------------------------------------------------- just

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
        after = [c.apply(s) for c in firsts]
        backs = applicable_many(sit.domain, [(sit.current, after)])[0]
        seconds = changes_many(sit.domain, sit.current, list(zip(after, backs)))
        pairs = [(a, b) for a, t, bs, cs in zip(apps, after, backs, seconds)
                 for b, c in zip(bs, cs) if t != s and c.apply(t) == s]
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


SPECS = [TaskSpec(Task.JUST, ALL, True, Just), TaskSpec(Task.LAND, ALL, True, Land),
         TaskSpec(Task.NEXTA, ALL, True, NextA)]
