"""Questions about the effects of a sequence of actions (Banerjee et al.): verify, count, value.

The context describes the problem's initial state; the question names the walk's actions and
asks about the state they lead to, so that the reasoner has to simulate them.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cached_property

from ...model import Atom
from ...reasoning.engine import applicable
from ..items import Form, Task
from ..language import plural, words
from ..universe import similar_atoms
from .common import Draft, Situation, Skip, TaskSpec, choice, pddl_list, sample, sequence_text, yes_no

ALL = frozenset(Form)


def prefix(sit: Situation) -> str:
    if not sit.walk.actions:
        return "In the initial state, with no action performed"
    return ("After performing the following actions in order, starting from the initial state: "
            f"{sequence_text(sit.book, sit.walk.actions)}")


class _Sequence:
    def __init__(self, sit: Situation):
        self.sit = sit
        self.init = sit.walk.states[0]
        self.end = sit.state
        u = sit.source.universe
        self.fluent_true = sorted((f for f in self.end if f.predicate in u.fluents), key=str)
        self.changed = sorted(set(self.end) ^ set(self.init), key=str)

    def evidence(self) -> dict:
        return {"walk": [str(a) for a in self.sit.walk.actions], "made_true": pddl_list(self.end - self.init),
                "made_false": pddl_list(self.init - self.end)}

    @cached_property
    def false_near(self) -> list[Atom]:
        """False facts like a true one, one object changed (the substitution of Banerjee et al.)."""
        u = self.sit.source.universe
        near = {g for f in self.fluent_true for g in similar_atoms(u, f)}
        return sorted((g for g in near if g not in self.end), key=str)


class Verify(_Sequence):
    """verify: is this fact true after the sequence (false items: an object substituted, or negated)."""

    def gen(self) -> Draft | None:
        if not self.sit.walk.actions:
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


class Count(_Sequence):
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
            self.query = {"executable": [str(a) for a in acts]}
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

    def mcq(self) -> Draft:
        return choice(self.sit.rng, f"{prefix(self.sit)}, {self.what}?", str(self.count),
                      [str(n) for n in self._others()], {**self.evidence(), **self.query, "count": self.count})


class Value(_Sequence):
    """value: which object fills a relation after the sequence (one with exactly one such object)."""

    def __init__(self, sit: Situation):
        super().__init__(sit)
        u = sit.source.universe
        options = []
        for f in self.fluent_true:
            for i, x in enumerate(f.args):
                t = sit.domain.predicate(f.predicate).parameters[i][1]
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


SPECS = [TaskSpec(Task.VERIFY, ALL, False, Verify), TaskSpec(Task.COUNT, ALL, False, Count),
         TaskSpec(Task.VALUE, ALL, False, Value)]
