"""val (ACPBench's validation): the index of the first inapplicable action of a sequence."""

from __future__ import annotations

from typing import Any

from ...reasoning.engine import execute, execute_many
from ..answers import Reader, read_int
from ..gold import Case, quoted
from ..grade import Graded, unmet_text, unmet_words
from ..registry import Task
from ..universe import similar_actions
from .common import Draft, Situation, Skip, TaskEntry, choice, sequence_text, yes_no


class Val:
    """val: the index of the first inapplicable action of a sequence (-1 when every one applies)."""

    def __init__(self, sit: Situation):
        self.sit = sit
        rng = sit.rng
        walk = sit.sequel
        if walk is None or walk.depth < 2:
            raise Skip("no sequence of two applicable actions")
        self.clean = list(walk.actions)
        # a corrupted copy: step j replaced by a plausible action that is not applicable there
        options = [(j, b) for j in range(walk.depth)
                   for b in similar_actions(sit.source.universe, walk.actions[j]) if b not in set(walk.applicable[j])]
        self.broken = None
        if options:
            j, b = rng.choice(options)
            self.broken = (j, self.clean[:j] + [b] + self.clean[j + 1:])
        self.checked = execute_many(sit.domain, sit.current, [self.clean] + ([self.broken[1]] if self.broken else []),
                                    states=False)
        if self.checked[0].failed_step is not None or (self.broken and self.checked[1].failed_step != self.broken[0]):
            raise RuntimeError("internal error: a generated sequence does not behave as built")

    def _pick(self, broken: bool):
        if broken:
            assert self.broken is not None  # asked for only when there is one
            j, seq = self.broken
            return seq, j, {"first_inapplicable": j, "unmet": [str(u) for u in self.checked[1].unmet]}
        return self.clean, -1, {"first_inapplicable": -1}

    def gen(self) -> Draft:
        seq, j, evidence = self._pick(self.broken is not None and self.sit.rng.random() < 0.5)
        plan = " ".join(map(str, seq))
        return Draft(f'What is the first inapplicable action in the next sequence of actions: "{plan}"? '
                     "Give its 0-based index, or -1 if every action is applicable.", j, {**evidence, "sequence": plan})

    def boolean(self, yes: bool) -> Draft | None:
        if not yes and self.broken is None:
            return None
        seq, _, evidence = self._pick(not yes)
        q = ("Can the following sequence of actions be executed, in this order, from the current state: "
             f"{sequence_text(self.sit.book, seq)}?")
        return Draft(q, yes_no(yes), {**evidence, "sequence": " ".join(map(str, seq))})

    def mcq(self) -> Draft | None:
        if self.broken is None:
            return None
        seq, j, evidence = self._pick(True)
        book = self.sit.book
        text = lambda k: "every action of the sequence is applicable" if k < 0 else \
            f"step {k + 1}, {book.action(seq[k])}"  # noqa: E731
        q = f"Which is the first action that cannot be executed in the sequence {sequence_text(book, seq)}?"
        return choice(self.sit.rng, q, text(j), [text(k) for k in range(-1, len(seq)) if k != j],
                      {**evidence, "sequence": " ".join(map(str, seq))})

def names(c: Case) -> dict:
    evidence = c.item.get("evidence") or {}
    return {"sequence": c.actions(evidence.get("sequence") or quoted(c.item["question"]), "its sequence")}


def derive(c: Case, _time_limit: float) -> tuple[int, dict]:
    ex = execute(c.domain, c.problem, c.named["sequence"], states=False)
    return (-1 if ex.failed_step is None else ex.failed_step), {"unmet": [str(u) for u in ex.unmet]}


def grade(g: Graded, item: dict, c: Case, answer: Any, _r: Reader, _t: float) -> Graded:
    got = read_int(answer)
    g.correct = got == int(item["answer"])
    if not g.correct:
        seq = c.named["sequence"]
        j = int(item["answer"])
        g.reason = ("The answer gives no index. " if got is None else "") + \
            ("Every action of the sequence is applicable, so the answer is -1." if j < 0 else
             f"The first inapplicable action is at index {j}, {seq[j]}{_unmet(c, seq)}.")
    return g


def _unmet(c: Case, seq) -> str:
    """Why the sequence's first failing step fails, from a run (ACPBench's items carry no evidence)."""
    said = unmet_words(execute(c.domain, c.problem, seq, states=False).unmet)
    return f": {said}" if said else ""


def because(c: Case | None, ev: dict) -> str:
    j = ev.get("first_inapplicable", -1)
    if j < 0 or c is None:
        return ""
    seq = c.actions(ev["sequence"])
    said = unmet_text(ev)
    return f": step {j + 1}, {seq[j]}, is not applicable" + (f": {said}" if said else _unmet(c, seq))


TASK = TaskEntry(
    task=Task.VAL, cost=0.026,
    question="the 0-based index of the first inapplicable action of a sequence, -1 if none",
    answer="an integer", analyse=Val, derive=derive, grade=grade, sequel=(3, 8), names=names, because=because)
