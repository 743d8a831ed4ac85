"""value (Banerjee et al.'s object value): which object fills a relation after the sequence."""

from __future__ import annotations

from typing import Any

from ...model import Atom
from ..answers import Reader, as_text
from ..gold import Case, Undecided
from ..grade import Graded
from ..language import words
from ..registry import Task
from ..universe import Universe
from .common import Draft, Situation, Skip, TaskEntry, choice, yes_no
from .sequence import AfterWalk, prefix


class Value(AfterWalk):
    """value: which object fills a relation after the sequence (one with exactly one such object)."""

    def __init__(self, sit: Situation):
        super().__init__(sit)
        u = sit.source.universe
        options = []
        for f in self.fluent_true:
            for i, x in enumerate(f.args):
                t = sit.domain.predicate_named(f.predicate).parameters[i][1]
                others = [o for o in u.objects(t) if o != x and Atom(f.predicate, f.args[:i] + (o,) + f.args[i + 1:])
                          not in self.end]
                if len(others) == len(u.objects(t)) - 1 and others:  # x is the only one
                    options.append((f in self.changed, f, i, t, others))
        if not options:
            raise Skip("no relation with exactly one object")
        changed = [o for o in options if o[0]]
        _, self.fact, self.i, self.type, self.others = sit.rng.choice(changed or options)
        self.value = self.fact.args[self.i]
        args = list(self.fact.args)
        args[self.i] = "x"
        noun = "object" if self.type == "object" else words(self.type)
        self.what = f"which {noun} x is such that {sit.book.facts[self.fact.predicate].fill(tuple(args))}"

    def evidence(self) -> dict:
        return {**super().evidence(), "fact": str(self.fact), "position": self.i + 1}

    def gen(self) -> Draft:
        return Draft(f"{prefix(self.sit)}, {self.what}? Answer with the object's name.", self.value, self.evidence())

    def boolean(self, yes: bool) -> Draft:
        o = self.value if yes else self.sit.rng.choice(self.others)
        q = f"{prefix(self.sit)}, {self.what}: is it {o}?"
        return Draft(q, yes_no(yes), {**self.evidence(), "asked": o})

    def mcq(self) -> Draft | None:
        return choice(self.sit.rng, f"{prefix(self.sit)}, {self.what}?", self.value, self.others, self.evidence())


def derive(c: Case, _time_limit: float) -> tuple[Any, dict]:
    """The objects that fill the relation the item's evidence names (the one, when it is one)."""
    ev = c.item.get("evidence") or {}
    if "fact" not in ev:
        raise Undecided(f"re-deriving {c.task} needs the item's evidence (what its question names)")
    f, i = c.atom(ev["fact"]), int(ev["position"]) - 1
    t = c.domain.predicate_named(f.predicate).parameters[i][1]
    hits = [o for o in Universe(c.domain, c.problem).objects(t)
            if Atom(f.predicate, f.args[:i] + (o,) + f.args[i + 1:]) in c.state]
    if len(hits) != 1:
        return hits, {}
    return hits[0], {}


def grade(g: Graded, item: dict, c: Case, answer: Any, _r: Reader, _t: float) -> Graded:
    """The first word that names an object of the problem."""
    objects = set(c.problem.object_types(c.domain))
    found = [w for w in as_text(answer).lower().replace(",", " ").split() if w.strip(".\"'") in objects]
    got = found[0].strip(".\"'") if found else None
    g.correct = got == str(item["answer"]).lower()
    g.reason = "" if g.correct else f"The right object is {item['answer']}, not {got}." if got else \
        f"The answer names no object of the problem; the right one is {item['answer']}."
    return g


TASK = TaskEntry(
    task=Task.VALUE, cost=0.013,
    question="after the sequence: which object fills a relation (e.g. where is the ferry) — only relations with "
             "exactly one such object",
    answer="an object's name", analyse=Value, derive=derive, grade=grade, after_sequence=True)
