"""verify (Banerjee et al.'s fact verification): is this fact true after the sequence; which facts changed."""

from __future__ import annotations

from ..gold import Case, compare_lists, problem_of
from ..registry import Task
from .common import Draft, TaskEntry, choice, pddl_list, sample, yes_no
from .prog import grade_effects
from .sequence import AfterWalk, prefix


class Verify(AfterWalk):
    """verify: is this fact true after the sequence (false items: an object substituted, or negated)."""

    def gen(self) -> Draft | None:
        if not self.sit.walk.actions or not self.changed:  # a walk back to the start changes nothing: no item
            return None
        q = (f"{prefix(self.sit)}. List the facts that are true afterwards but were false initially (positive "
             "effects), and those that were true initially but are false afterwards (negative effects).")
        return Draft(q, {"pos": pddl_list(self.end - self.init), "neg": pddl_list(self.init - self.end)},
                     self.evidence())

    def boolean(self, yes: bool) -> Draft | None:
        rng, book = self.sit.rng, self.sit.book
        negated = rng.random() < 0.5
        if yes and not negated:  # a true fact, one the walk changed when there is one
            pool = [f for f in self.changed if f in self.end] or self.fluent_true
        elif yes:  # "not F" for a false F: one the walk made false, or a substituted one
            pool = [f for f in self.changed if f not in self.end] or self.false_near
        elif not negated:  # F false: substituted
            pool = self.false_near
        else:  # "not F" for a true F
            pool = self.fluent_true
        if not pool:
            return None
        f = rng.choice(pool)
        text = book.not_fact(f) if negated else book.fact(f)
        return Draft(f"{prefix(self.sit)}, is the following true: {text}?", yes_no(yes),
                     {**self.evidence(), "fact": str(f), "negated": negated})

    def mcq(self) -> Draft | None:
        rng, book = self.sit.rng, self.sit.book
        pool = [f for f in self.changed if f in self.end] or self.fluent_true
        if not pool or len(self.false_near) < 3:
            return None
        right = rng.choice(pool)
        wrong = sample(rng, self.false_near, 3)
        return choice(rng, f"{prefix(self.sit)}, which of the following facts is true?", book.fact(right),
                      [book.fact(w) for w in wrong], {**self.evidence(), "fact": str(right)})


def derive(c: Case, _time_limit: float) -> tuple[dict, dict]:
    init = problem_of(c.item).init
    return {"pos": sorted(map(str, c.state - init)), "neg": sorted(map(str, init - c.state))}, {}


TASK = TaskEntry(
    task=Task.VERIFY, cost=0.006,
    question="after a sequence of actions from the initial state: is this fact true / which facts changed",
    answer='`{"pos": [...], "neg": [...]}`', analyse=Verify, derive=derive, grade=grade_effects,
    after_sequence=True, compare=compare_lists("pos", "neg"))
