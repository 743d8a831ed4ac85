"""What reach and areach share: deciding every candidate, the questions drawn from the decided ones,
and the gold checks and grading, for atoms (reach) or ground actions (areach) (`Target`).

The free-answer forms are ACPBench's: name a proposition (an action) that can never hold (become
applicable); the gold answer lists every one among the type-correct atoms of changing predicates
(type-correct ground actions), so every atom (action) must be decided: an item with one left
undecided is skipped. ACPBench writes reach's atoms without parentheses; so do we.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any, Callable

from ...enums import Verdict
from ...model import Atom
from ..answers import Reader, is_none
from ..decide import Decision, Reachability
from ..gold import Case, Undecided, norm, open_parts
from ..grade import Graded, cannot_read
from ..universe import TooLarge, Universe
from .common import Draft, Situation, Skip, choice, yes_no


def classify(items, decide, settle, strict: bool = True) -> dict:
    """Every item decided: cheap proofs first for all, then h^2, then the planner for the rest, together;
    `strict`: one left undecided skips the state (generation needs every one), else it stays unknown."""
    out = {x: decide(x, False, False) for x in items}
    for x, d in out.items():
        if d.answer is Verdict.UNKNOWN:
            out[x] = decide(x, False, True)
    open_ = [x for x, d in out.items() if d.answer is Verdict.UNKNOWN]
    if open_:
        settle(open_)
        out.update({x: decide(x, False, True) for x in open_})
    unknown = [x for x, d in out.items() if d.answer is Verdict.UNKNOWN]
    if unknown and strict:
        raise Skip(f"undecided: {len(unknown)} of {len(out)}, e.g. {unknown[0]} ({out[unknown[0]].proof})")
    return out


def _steps(d: Decision) -> str:
    """A witness's steps after its proof (nothing for an empty one: the fact holds now)."""
    return ": " + " ".join(map(str, d.witness)) if d.witness else ""


def reach_text(f: Atom) -> str:
    """An atom as ACPBench writes reach's answers: without parentheses (`at c0 l1`)."""
    return " ".join((f.predicate, *f.args))


def proven_no(candidates, decide) -> list:
    """Candidates proven impossible without the planner: by the relaxation first, by h^2 only if need be."""
    pool = [x for x in candidates if decide(x, False, False).answer is Verdict.NO]
    return pool or [x for x in candidates if decide(x, False, True).answer is Verdict.NO]


class Reaching:
    """Shared by reach and areach: the decider, and the yes/no and multiple-choice questions drawn
    from the candidates for each answer (`yes_pool`, `no_pool`); the subclass says what is asked about."""

    KEY = ""  # the evidence field naming what is asked about
    GEN = NEVER = CAN = ""  # the free-answer and the multiple-choice questions

    def __init__(self, sit: Situation):
        self.sit = sit
        src = sit.source
        self.r = Reachability(sit.domain, sit.source.problem, sit.state, src.explore_states, src.time_limit)

    def decide(self, x, planner: bool = True, mutex: bool = True) -> Decision:
        raise NotImplementedError

    def everything(self) -> tuple:
        """What a question may name: the type-correct fluent atoms (ground actions)."""
        raise NotImplementedError

    @cached_property
    def universe(self) -> tuple:
        try:
            return self.everything()
        except TooLarge as e:
            raise Skip(str(e)) from None

    def phrase(self, x) -> str:
        raise NotImplementedError

    def asked(self, x) -> str:
        raise NotImplementedError

    def settle(self, xs: list) -> None:
        """Decide `xs` with the planner, together."""
        raise NotImplementedError

    def written(self, x) -> str:
        """`x` as the gen answer writes it."""
        raise NotImplementedError

    @property
    def yes_pool(self) -> list:
        """The candidates for a yes answer."""
        raise NotImplementedError

    @property
    def no_pool(self) -> list:
        """The candidates for a no answer."""
        raise NotImplementedError

    def gen(self) -> Draft:
        decided = classify(self.universe, self.decide, self.settle)
        never = sorted((x for x, d in decided.items() if d.answer is Verdict.NO), key=str)
        evidence = {"reachable": sum(d.answer is Verdict.YES for d in decided.values()),
                    "proofs": {str(x): decided[x].proof for x in never}}
        return Draft(self.GEN, sorted(self.written(x) for x in never), evidence)

    def boolean(self, yes: bool) -> Draft | None:
        pool = self.yes_pool if yes else self.no_pool
        if not pool:
            return None
        x = self.sit.rng.choice(pool)
        d = self.decide(x)
        assert d.answer is (Verdict.YES if yes else Verdict.NO)
        return Draft(self.asked(x), yes_no(yes), {self.KEY: str(x), **d.evidence()})

    def mcq(self) -> Draft | None:
        rng = self.sit.rng
        if self.no_pool and len(self.yes_pool) >= 3:
            right, wrong, query = rng.choice(self.no_pool), rng.sample(self.yes_pool, 3), self.NEVER
        elif self.yes_pool and len(self.no_pool) >= 3:
            right, wrong, query = rng.choice(self.yes_pool), rng.sample(self.no_pool, 3), self.CAN
        else:
            return None
        evidence = {self.KEY: str(right), **self.decide(right).evidence(),
                    "distractors": {str(w): self.decide(w).proof for w in wrong}}
        return choice(rng, query, self.phrase(right), [self.phrase(w) for w in wrong], evidence)


class Target:
    """What reach and areach differ in when an item is checked or graded: atoms or ground actions."""

    NOUN = ""  # "atom", "action"
    CAN_DO = ""  # what a reachable one can do: "hold", "become applicable"
    NEVER_DO = ""  # what an impossible one can never do: "hold", "be applied"
    SHOWN = ""  # what a witness's end state shows: "holds", "is applicable"

    def read(self, c: Case, text: str) -> Any:
        """One atom (action) as the gold writes it."""
        raise NotImplementedError

    def decider(self, r: Reachability) -> Callable[..., Decision]:
        raise NotImplementedError

    def candidates(self, u: Universe) -> tuple:
        raise NotImplementedError

    def settle(self, r: Reachability, xs: list) -> None:
        raise NotImplementedError

    def written(self, x) -> str:
        """`x` as the gen answer writes it."""
        return str(x)

    def answered(self, r: Reader, answer: Any) -> tuple[list, list[str]]:
        """The atoms (actions) a free answer names, and the pieces it could not read."""
        raise NotImplementedError

    def shown(self, c: Case, end: frozenset[Atom], target: str) -> bool:
        """Does a witness plan's end state show that `target` can hold (become applicable)?"""
        raise NotImplementedError

    def decide_all(self, c: Case, time_limit: float) -> dict:
        """Every candidate decided: cheap proofs for all, then the planner for the rest, together; the
        ones a limit leaves open stay `Verdict.UNKNOWN` (each with why) without stopping the others."""
        r = Reachability(c.domain, c.problem, c.state, time_limit=time_limit, planner_calls=40)
        try:
            return classify(self.candidates(Universe(c.domain, c.problem)), self.decider(r),
                            lambda xs: self.settle(r, xs), strict=False)
        except TooLarge as e:
            raise Undecided(str(e)) from None

    def derive(self, c: Case, time_limit: float) -> tuple[list[str], dict]:
        """Every candidate that can never hold (be applied), each decided."""
        decided = self.decide_all(c, time_limit)
        open_parts({str(x): d.proof for x, d in decided.items() if d.answer is Verdict.UNKNOWN}, [])
        return sorted(self.written(x) for x, d in decided.items() if d.answer is Verdict.NO), {}

    def check(self, c: Case, time_limit: float) -> list[str]:
        """Our items list every impossible one: each candidate decided on its own and compared.
        ACPBench's list a sample: each listed one must be proven impossible, and "None" is checked by
        a search for a counterexample. What a limit leaves open is named apart (`gold.Undecided`)."""
        gold = c.item["answer"]
        if "evidence" in c.item:
            decided = self.decide_all(c, time_limit)
            listed = {norm(x) for x in gold}
            out = [f"({norm(self.written(x))}) can never {self.NEVER_DO}, but is not listed: {d.proof}"
                   for x, d in decided.items() if d.answer is Verdict.NO and norm(self.written(x)) not in listed]
            out += [f"({norm(self.written(x))}) is listed as impossible, but {d.proof}{_steps(d)}"
                    for x, d in decided.items() if d.answer is Verdict.YES and norm(self.written(x)) in listed]
            open_parts({str(x): d.proof for x, d in decided.items() if d.answer is Verdict.UNKNOWN}, out)
            return out
        r = Reachability(c.domain, c.problem, c.state, time_limit=time_limit, planner_calls=40)
        decide = self.decider(r)
        out, undecided = [], {}
        for x in gold:
            d = decide(self.read(c, x))
            if d.answer is Verdict.UNKNOWN:
                undecided[f"({norm(x)})"] = d.proof
            elif d.answer is Verdict.YES:
                out.append(f"({norm(x)}) is listed as impossible, but {d.proof}{_steps(d)}")
        if not gold:
            never = [x for x in self.candidates(Universe(c.domain, c.problem))
                     if decide(x, False, True).answer is Verdict.NO]
            if never:
                out.append(f"the gold answer is None, but {len(never)} {self.NOUN}(s) can never {self.NEVER_DO}, "
                           f"e.g. {never[0]}: {decide(never[0], False, True).proof}")
        open_parts(undecided, out)
        return out

    def grade(self, g: Graded, item: dict, c: Case, answer: Any, r: Reader, t: float) -> Graded:
        """Any one listed, or proven impossible now, is right; "None" is right iff there is none."""
        gold = item["answer"]
        if is_none(answer):
            return self._grade_none(g, item, c, t)
        xs, bad = self.answered(r, answer)
        if not xs:
            return cannot_read(g, answer, bad, "an action" if self.NOUN == "action" else "a fact")
        x = xs[0]
        listed = {" ".join(str(y).lower().strip("()").split()) for y in gold}
        if " ".join(str(x).strip("()").split()) in listed:
            g.correct = True
            return g
        d = self.decider(Reachability(c.domain, c.problem, c.state, time_limit=t))(x)
        g.correct = d.answer is Verdict.NO
        if d.answer is Verdict.YES:
            g.reason = f"{x} can {self.CAN_DO}: {d.proof}{_steps(d)}"
        elif d.answer is Verdict.UNKNOWN:
            g.reason = f"Whether {x} can {self.CAN_DO} is undecided: {d.proof}."
        return g

    def _grade_none(self, g: Graded, item: dict, c: Case, t: float) -> Graded:
        """"None" is right iff there is none: our items list every one; ACPBench's list a sample, so an
        empty list is checked for one proven impossible (as the gold check does)."""
        gold = item["answer"]
        if gold:
            g.reason = f"Some {self.NOUN}s can never {self.NEVER_DO}, for example ({norm(gold[0])}), so None is wrong."
            return g
        if "evidence" not in item:
            r = Reachability(c.domain, c.problem, c.state, time_limit=t)
            decide = self.decider(r)
            for x in self.candidates(Universe(c.domain, c.problem)):
                d = decide(x, False, True)
                if d.answer is Verdict.NO:
                    g.reason = f"None is wrong: some {self.NOUN}s can never {self.NEVER_DO}, e.g. {x}: {d.proof}."
                    return g
        g.correct = True
        return g

    def witness(self, c: Case, end: frozenset[Atom], target: str) -> tuple[bool, str]:
        return self.shown(c, end, target), self.SHOWN

    def hooks(self) -> dict:
        """The entry's gold and grading functions (`TaskEntry`'s fields)."""
        return {"derive": self.derive, "check": self.check, "grade": self.grade, "witness": self.witness}


__all__ = ["classify", "reach_text", "proven_no", "Reaching", "Target"]
