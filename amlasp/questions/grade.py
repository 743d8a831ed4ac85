"""Grading answers semantically, by the encodings: accuracy per task and form, and why each wrong answer is wrong.

A free (gen) answer is read as PDDL or English (answers.py) and judged by what it means: a set of
actions or facts is compared as a set (with precision and recall beside exact match), any optimal
first action is a right next action, any provably impossible fact a right reach answer, any valid
plan one action or two consecutive ones shorter a right simplification. A yes/no answer to reach or
areach may come with a witness plan instead, which is validated. With `check_gold`, each gen item's
own answer is re-derived from its PDDL and disagreements are listed (gold.py). What is particular to
a task (how its free answer is read and judged) is its entry's (`registry.py`); what all share is here.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ..errors import InputError
from ..reasoning.engine import execute
from .answers import Reader, as_text, read_bool, read_choice
from .gold import Case, Items, Undecided, case_of, check
from .items import Form, Task
from .language import Phrasebook
from .registry import entry
from .templates import templates_for


@dataclass
class Graded:
    id: Any
    task: Task
    form: Form
    answered: bool
    correct: bool
    reason: str = ""
    answer: str = ""
    precision: float | None = None
    recall: float | None = None


@dataclass
class Grades:
    results: list[Graded] = field(default_factory=list)
    gold: list[dict] = field(default_factory=list)  # {"id", "task", "form", "disagreement"}
    unknown_answers: list[Any] = field(default_factory=list)  # answer ids no item has

    def table(self) -> list[dict]:
        groups: dict[tuple[Task, Form], list[Graded]] = defaultdict(list)
        for r in self.results:
            groups[r.task, r.form].append(r)
        rows = []
        order = {tf: k for k, tf in enumerate((t, f) for t in Task for f in Form)}
        for (task, form), rs in sorted(groups.items(), key=lambda x: order[x[0]]):
            p = [r.precision for r in rs if r.precision is not None]
            q = [r.recall for r in rs if r.recall is not None]
            rows.append({"task": str(task), "form": str(form), "items": len(rs),
                         "answered": sum(r.answered for r in rs), "correct": sum(r.correct for r in rs),
                         "accuracy": sum(r.correct for r in rs) / len(rs),
                         "precision": sum(p) / len(p) if p else None, "recall": sum(q) / len(q) if q else None})
        if rows:
            n = len(self.results)
            rows.append({"task": "all", "form": "all", "items": n, "answered": sum(r.answered for r in self.results),
                         "correct": sum(r.correct for r in self.results),
                         "accuracy": sum(r.correct for r in self.results) / n, "precision": None, "recall": None})
        return rows

    def wrong_rows(self) -> list[dict]:
        return [{"id": r.id, "task": str(r.task), "form": str(r.form), "answer": r.answer[:80], "reason": r.reason}
                for r in self.results if not r.correct]

    def gold_rows(self) -> list[dict]:
        return list(self.gold)

    def to_dict(self) -> dict:
        return {"accuracy": self.table(), "wrong": self.wrong_rows(), "gold_disagreements": self.gold,
                "unknown_answer_ids": self.unknown_answers}


def _books():
    cache: dict[int, tuple[Phrasebook, Reader]] = {}

    def get(c: Case) -> Reader:
        key = id(c.domain)
        if key not in cache:
            book = Phrasebook(c.domain, templates_for(c.domain))
            cache[key] = (book, Reader(c.domain, book))
        return cache[key][1]
    return get


def grade(items: Sequence[dict], answers: dict[str, Any], check_gold: bool = False, time_limit: float = 10.0,
          progress: Callable[[str, int, int], None] | None = None) -> Grades:
    """Grade `answers` (id → answer) against `items`; with `check_gold`, re-derive each gen item's answer."""
    out = Grades()
    reader = _books()
    known = {str(i["id"]) for i in items}
    out.unknown_answers = sorted(k for k in answers if k not in known)
    for n, item in enumerate(items, 1):
        task, form = Task(item["task"]), Form(item["form"])
        try:
            c = case_of(item) if "PDDL_domain" in item else None
        except InputError as e:
            if isinstance(items, Items):
                raise items.error(n - 1, str(e)) from None
            raise
        if check_gold and c is not None and form is Form.GEN:
            try:
                for d in check(c, time_limit):
                    out.gold.append({"id": item["id"], "task": str(task), "form": str(form), "disagreement": d})
            except Undecided as e:
                out.gold.append({"id": item["id"], "task": str(task), "form": str(form),
                                 "disagreement": f"not checked: {e}"})
        if answers:
            key = str(item["id"])
            if key not in answers:
                out.results.append(Graded(item["id"], task, form, False, False, "no answer"))
            else:
                try:
                    out.results.append(grade_item(item, c, answers[key], reader, time_limit))
                except (KeyError, TypeError, ValueError) as e:  # a gold answer of another task's shape
                    if not isinstance(items, Items):
                        raise
                    raise items.error(n - 1, f"item {item['id']}: the gold answer {str(item['answer'])[:60]!r} "
                                             f"is not a {task} {form} answer ({type(e).__name__}: {e})") from None
        if progress is not None:
            progress("grade", n, len(items))
    return out


def grade_item(item: dict, c: Case | None, answer: Any, reader, time_limit: float = 10.0) -> Graded:
    task, form = Task(item["task"]), Form(item["form"])
    g = Graded(item["id"], task, form, True, False, answer=as_text(answer))
    gold = item["answer"]
    if form is Form.MCQ:
        got = read_choice(answer, (item.get("choices") or {}).get("text"))
        if got is None:
            g.reason = "no choice A-D found"
        else:
            g.correct = got == gold
            g.reason = "" if g.correct else f"chose {got}, the answer is {gold}"
        return g
    if form is Form.BOOL:
        return _grade_bool(g, item, c, answer, reader)
    if c is None:
        g.reason = "the item has no PDDL to grade a free answer against"
        return g
    return entry(task).grade(g, item, c, answer, reader(c), time_limit)


def _grade_bool(g: Graded, item: dict, c: Case | None, answer: Any, reader) -> Graded:
    gold = item["answer"] == "yes"
    got = read_bool(answer)
    ev = item.get("evidence") or {}
    witness = entry(g.task).witness
    if c is not None and witness is not None and ("(" in as_text(answer)):
        plan, _ = reader(c).actions_in(answer)
        target = ev.get("fact") or ev.get("action")
        if plan and target:  # a witness plan stands for "yes"
            return _grade_witness(g, c, plan, target, witness, gold)
    if got is None:
        g.reason = "no yes/no found"
        return g
    g.correct = got == gold
    if not g.correct:
        g.reason = f"the answer is {item['answer']}" + _because(g.task, c, ev)
    return g


def _grade_witness(g: Graded, c: Case, plan: list, target: str, witness, gold: bool) -> Graded:
    """A yes/no answer given as a witness plan: it must run, and its end state show the yes."""
    ex = execute(c.domain, c.problem, plan)
    if not ex.executable:
        g.reason = f"the witness fails at step {ex.failed_step + 1}, {plan[ex.failed_step]}: " + \
                   "; ".join(f"{u} is false" if u.kind == "pos" else str(u) for u in ex.unmet)
        return g
    shown, what = witness(c, ex.states[-1], target)
    g.correct = shown and gold
    g.reason = "" if g.correct else f"the witness does not reach a state where {target} {what}"
    return g


def _because(task: Task, c: Case | None, ev: dict) -> str:
    """Why a yes/no item's answer is what it is, from its evidence (empty when it says nothing)."""
    because = entry(task).because
    said = because(c, ev) if because is not None else ""
    if said:
        return said
    if "proof" in ev:
        return f": {ev['proof']}"
    return ""


def unmet_text(ev: dict) -> str:
    """The failed precondition literals an item's evidence lists."""
    return "; ".join(f"{u} is false" for u in ev.get("unmet", []))


def why_not(c: Case, a) -> str:
    """Why a ground action named in an answer is not applicable in the item's state (or that it is)."""
    unknown = [o for o in a.args if o not in c.problem.object_types(c.domain)]
    if unknown:
        return f"action {a} names an unknown object {unknown[0]}"
    ex = execute(c.domain, c.problem, [a], states=False)
    if ex.executable:
        return f"{a} is applicable"
    return f"action {a} is not applicable: " + "; ".join(f"{u} is false" if u.kind == "pos" else
                                                       f"{u.atom} is true" if u.kind == "neg" else str(u)
                                                       for u in ex.unmet)


def score_sets(g: Graded, got: set, gold: set) -> None:
    """A set answer: exact match, with precision and recall beside it."""
    g.precision = len(got & gold) / len(got) if got else (1.0 if not gold else 0.0)
    g.recall = len(got & gold) / len(gold) if gold else 1.0
    g.correct = got == gold


def cannot_read(g: Graded, answer: Any, bad: list[str]) -> Graded:
    """A free answer in which nothing of the asked kind was read."""
    g.reason = f"cannot read '{bad[0] if bad else as_text(answer)}'"
    return g


__all__ = ["Graded", "Grades", "grade", "grade_item", "why_not", "score_sets", "unmet_text", "cannot_read"]
