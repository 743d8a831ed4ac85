"""land (ACPBench's landmarks): facts that hold at some point of every plan from the state (exactly decided)."""

from __future__ import annotations

from functools import cached_property
from typing import Any

from ...enums import Verdict
from ..answers import Reader, is_none
from ..decide import Landmarks
from ..gold import Case, compare_lists, open_parts
from ..grade import Graded, cannot_read, unreadable
from ..registry import Task
from ..universe import similar_atoms
from .common import Draft, Situation, Skip, TaskEntry, choice, yes_no


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
            steps = [str(a) for a in decided[f].witness or ()]
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


def decide_all(c: Case, time_limit: float, calls: int = 200) -> dict:
    """Every candidate fact decided on its own (one left open does not stop the others)."""
    lm = Landmarks(c.domain, c.problem, c.state, time_limit, planner_calls=calls)
    return {f: lm.fact(f) for f in lm.candidates}


def derive(c: Case, time_limit: float) -> tuple[dict, dict]:
    decided = decide_all(c, time_limit)
    open_parts({f: x.proof for f, x in decided.items() if x.answer is Verdict.UNKNOWN}, [])
    return {"yes": sorted(str(f) for f, x in decided.items() if x.answer is Verdict.YES),
            "no": sorted(str(f) for f, x in decided.items() if x.answer is Verdict.NO)}, \
        {"proofs": {str(f): x.proof for f, x in decided.items()}}


def check(c: Case, time_limit: float) -> list[str]:
    """Each fact the item lists decided on its own: it must be (not be) a landmark; our items list
    every candidate, so a decided candidate missing from its lists is a disagreement too. Facts left
    undecided are named (`gold.Undecided`), apart from the disagreements."""
    gold = {kind: {c.atom(f) for f in c.item["answer"][kind]} for kind in ("yes", "no")}
    ours = "evidence" in c.item
    if ours:
        decided = decide_all(c, time_limit)
    else:
        lm = Landmarks(c.domain, c.problem, c.state, time_limit, planner_calls=500)
        decided = {f: lm.fact(f) for kind in ("yes", "no") for f in sorted(gold[kind], key=str)}
    out, undecided = [], {}
    for f, d in decided.items():
        if d.answer is Verdict.UNKNOWN:
            undecided[f"({f})"] = d.proof
            continue
        said = "yes" if f in gold["yes"] else "no" if f in gold["no"] else None
        real = "yes" if d.answer is Verdict.YES else "no"
        if said is None:
            out.append(f"({f}) is not listed, but it is {'a' if real == 'yes' else 'no'} landmark: {d.proof}")
        elif said != real:
            out.append(f"({f}) is listed as {'a' if said == 'yes' else 'no'} landmark, but "
                       f"{'it is one' if real == 'yes' else 'it is none'}: {d.proof}")
    if ours:
        out += [f"({f}) is listed, but it is no candidate (false now, no goal, type-correct)"
                for f in sorted(gold["yes"] | gold["no"], key=str) if f not in decided]
    open_parts(undecided, out)
    return out


def grade(g: Graded, item: dict, c: Case, answer: Any, r: Reader, t: float) -> Graded:
    """Each fact named must be a non-trivial landmark (one, or a list: precision over the facts named,
    recall over every landmark where the gold lists them all, i.e. our own items)."""
    yes = {" ".join(y.lower().strip("()").split()) for y in item["answer"]["yes"]}
    if isinstance(answer, dict):  # the gold's own shape: its landmarks are the answer
        answer = answer.get("yes", [])
    if is_none(answer):
        g.correct = not yes
        g.reason = "" if g.correct else f"There are landmarks, for example ({sorted(yes)[0]}), so None is wrong."
        return g
    xs, bad = r.atoms_in(answer)
    if not xs:
        return cannot_read(g, answer, bad, "a fact")
    goals = {l.atom for l in c.problem.goal if l.positive}
    decide = None
    right, why = set(), []
    for f in dict.fromkeys(xs):
        if " ".join(str(f).strip("()").split()) in yes:
            right.add(f)
        elif f in c.state or f in goals:
            why.append(f"{f} holds in the state or is a goal, so it is a trivial landmark, which the question "
                       "excludes")
        else:
            decide = decide or Landmarks(c.domain, c.problem, c.state, t)
            d = decide.fact(f)
            if d.answer is Verdict.YES:
                right.add(f)
            else:
                why.append(f"{f} is not a landmark: {d.proof}" if d.answer is Verdict.NO else
                           f"whether {f} is a landmark is undecided: {d.proof}")
    named = len(dict.fromkeys(xs))
    g.correct = not why and not bad
    g.reason = "; ".join(why) + (". " if why and bad else "") + " ".join(unreadable(b, "a fact") for b in bad)
    if named > 1:
        g.precision = len(right) / named
        if "evidence" in item and yes:  # our items list every landmark
            g.recall = len({" ".join(str(f).strip("()").split()) for f in right} & yes) / len(yes)
    return g


def because(_c: Case | None, ev: dict) -> str:
    """Why a yes/no landmark question's answer is what it is: the fact, and the proof in parentheses
    (the proofs are of several shapes: "false initially, and ...", "a plan of 5 steps in which ...")."""
    if "fact" not in ev or "proof" not in ev:
        return ""
    landmark = "witness" not in ev  # a non-landmark's proof is a plan in which it never holds
    return f": {ev['fact']} is {'' if landmark else 'not '}a landmark ({ev['proof']})"


TASK = TaskEntry(
    task=Task.LAND, cost=0.9,
    question='a non-trivial fact landmark: false now, no goal, true at some point of every plan ("None" if '
             "there is none)",
    answer='`{"yes": [every landmark], "no": [every other candidate]}`', analyse=Land, derive=derive, grade=grade,
    needs_goal=True, check=check, compare=compare_lists("yes", "no"), because=because, goal_literals=True)
