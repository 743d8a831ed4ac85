"""count (Banerjee et al.'s counting): how many objects satisfy a condition, or how many actions are
executable, after the sequence."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...model import Atom
from ...pddl import sexpr
from ...reasoning.engine import applicable
from ..answers import Reader, read_int
from ..gold import Case, Undecided
from ..grade import Graded
from ..language import plural
from ..registry import Task
from ..universe import Universe
from .common import Draft, Situation, TaskEntry, choice, yes_no
from .sequence import AfterWalk, prefix


class Count(AfterWalk):
    """count: how many objects satisfy a condition, or how many actions are executable, after the sequence."""

    def __init__(self, sit: Situation):
        super().__init__(sit)
        rng = sit.rng
        u = sit.source.universe
        preds = [p for p in sit.domain.predicates if p.parameters and p.name in u.fluents]
        if not preds or rng.random() < 1 / 3:
            acts = applicable(sit.domain, replace(sit.source.problem, init=self.end))[0]
            self.count = len(acts)
            self.what = "how many actions can be executed in the resulting state"
            self.query: dict[str, Any] = {"executable": [str(a) for a in acts]}
            return
        p = rng.choice(preds)
        true = [f for f in self.fluent_true if f.predicate == p.name]
        i = rng.randrange(p.arity)
        if true and rng.random() < 0.75:
            args = list(rng.choice(true).args)
        else:
            args = [rng.choice(u.objects(t) or ("?",)) for _, t in p.parameters]
        args[i] = "x"
        t = p.parameters[i][1]
        hits = [o for o in u.objects(t) if Atom(p.name, tuple(args[:i] + [o] + args[i + 1:])) in self.end]
        self.count = len(hits)
        noun = plural(t, sit.book.plurals) if t != "object" else "objects"
        self.what = f"how many {noun} x are there such that {sit.book.facts[p.name].fill(tuple(args))}"
        self.query = {"pattern": f"({p.name} {' '.join('?x' if a == 'x' else a for a in args)})",
                      "objects": hits}

    def gen(self) -> Draft:
        return Draft(f"{prefix(self.sit)}, {self.what}? Answer with a number.", self.count,
                     {**self.evidence(), **self.query})

    def _others(self) -> list[int]:
        return [n for n in range(max(0, self.count - 3), self.count + 4) if n != self.count]

    def boolean(self, yes: bool) -> Draft | None:
        n = self.count if yes else self.sit.rng.choice([x for x in self._others() if abs(x - self.count) <= 2])
        q = f"{prefix(self.sit)}, {self.what}: is the answer exactly {n}?"
        return Draft(q, yes_no(yes), {**self.evidence(), **self.query, "count": self.count})

    def mcq(self) -> Draft | None:
        return choice(self.sit.rng, f"{prefix(self.sit)}, {self.what}?", str(self.count),
                      [str(n) for n in self._others()], {**self.evidence(), **self.query, "count": self.count})


def derive(c: Case, _time_limit: float) -> tuple[int, dict]:
    """What the item's evidence says its question counts, counted in the state after the walk."""
    ev = c.item.get("evidence") or {}
    if "pattern" in ev:
        node = sexpr.read(ev["pattern"], f"item {c.item['id']}")  # `(at ?x l1)`: not ground
        pattern = Atom(str(node.head()), tuple(str(a) for a in node[1:]))
        i = pattern.args.index("?x")
        t = c.domain.predicate_named(pattern.predicate).parameters[i][1]
        return sum(Atom(pattern.predicate, pattern.args[:i] + (o,) + pattern.args[i + 1:]) in c.state
                   for o in Universe(c.domain, c.problem).objects(t)), {}
    if "executable" in ev:
        return len(applicable(c.domain, c.problem)[0]), {}
    raise Undecided(f"re-deriving {c.task} needs the item's evidence (what its question names)")


def grade(g: Graded, item: dict, c: Case, answer: Any, _r: Reader, _t: float) -> Graded:
    got = read_int(answer)
    g.correct = got == int(item["answer"])
    g.reason = "" if g.correct else ("The answer gives no number; " if got is None else "") + \
        f"the right count is {item['answer']}."
    return g


TASK = TaskEntry(
    task=Task.COUNT, cost=0.006,
    question="after the sequence: how many objects x satisfy a relation, or how many actions are executable",
    answer="an integer", analyse=Count, derive=derive, grade=grade, after_sequence=True)
