"""Grading answers semantically, by the encodings: accuracy per task and form, and why each wrong answer is wrong.

A free (gen) answer is read as PDDL or English (answers.py) and judged by what it means: a set of
actions or facts is compared as a set (with precision and recall beside exact match), any optimal
first action is a right next action, any provably impossible fact a right reach answer, any valid
plan one action or two consecutive ones shorter a right simplification. A yes/no answer to reach or
areach may come with a witness plan instead, which is validated. With `check_gold`, each gen item's
own answer is re-derived from its PDDL and disagreements are listed (gold.py). What is particular to
a task (how its free answer is read and judged) is its entry's (`catalog.entry`); what all share is here.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ..errors import InputError, Unreadable
from ..reasoning.engine import execute
from . import acpbench
from .answers import Reader, as_text, read_choices, read_verdicts
from .case import Case
from .catalog import entry
from .gold import Items, Undecided, case_of, check
from .graded import Graded
from .items import Form, Task
from .language import Phrasebook
from .templates import templates_for


@dataclass
class Grades:
    results: list[Graded] = field(default_factory=list)
    gold: list[dict] = field(default_factory=list)  # {"id", "task", "form", "disagreement"}
    undecided: list[dict] = field(default_factory=list)  # {"id", "task", "form", "why"}: gold checks left open
    checked: list[tuple[Task, Form, str]] = field(default_factory=list)  # each gold check: agree/disagree/undecided
    unreadable: list[dict] = field(default_factory=list)  # {"id", "task", "form", "problem"}: items not graded
    unknown_answers: list[Any] = field(default_factory=list)  # answer ids no item has
    #: item and answer records that could not be read (a partial run: status error); an answer's item is unanswered
    errors: list[Unreadable] = field(default_factory=list)

    def table(self) -> list[dict]:
        """Per task and form, then `all`: accuracy over the answered items, coverage (answered / items),
        and mean precision and recall of set answers."""
        groups: dict[tuple[Task, Form], list[Graded]] = defaultdict(list)
        for r in self.results:
            groups[r.task, r.form].append(r)
        order = {tf: k for k, tf in enumerate((t, f) for t in Task for f in Form)}
        rows = [_row(str(task), str(form), rs)
                for (task, form), rs in sorted(groups.items(), key=lambda x: order[x[0]])]
        if rows:
            rows.append(_row("all", "all", self.results, sets=False))
        return rows

    def wrong_rows(self) -> list[dict]:
        """The answered items graded wrong or ambiguous (unanswered ones are counted by coverage)."""
        return [{"id": r.id, "task": str(r.task), "form": str(r.form), "answer": r.answer[:80],
                 "reason": sentence(r.reason)} for r in self.results if r.answered and not r.correct]

    def gold_rows(self) -> list[dict]:
        return list(self.gold)

    def gold_summary(self) -> list[dict]:
        """Per task and form: gen items checked, agreeing, disagreeing, undecided."""
        counts: dict[tuple[str, str], dict[str, int]] = {}
        for task, form, verdict in self.checked:
            row = counts.setdefault((str(task), str(form)), {"agree": 0, "disagree": 0, "undecided": 0})
            row[verdict] += 1
        rows = [{"task": t, "form": f, "checked": sum(v.values()), **v} for (t, f), v in counts.items()]
        if rows:
            rows.append({"task": "all", "form": "all", **{k: sum(r[k] for r in rows)
                                                           for k in ("checked", "agree", "disagree", "undecided")}})
        return rows

    def to_dict(self) -> dict:
        return {"accuracy": self.table(), "wrong": self.wrong_rows(), "gold_check": self.gold_summary(),
                "gold_disagreements": self.gold, "gold_undecided": self.undecided, "unreadable_items": self.unreadable,
                "unknown_answer_ids": self.unknown_answers,
                **({"unreadable_records": self.error_rows(), "errors": self.erred} if self.errors else {})}

    def error_rows(self) -> list[dict]:
        """The records that could not be read, one row each (`input` is `file:line`)."""
        return [{"input": u.input, "status": "error", "error": u.message, "error_class": u.error_class}
                for u in self.errors]

    @property
    def erred(self) -> int:
        """How many inputs could not be read: item and answer records, and items whose PDDL could not be."""
        return len(self.errors) + len(self.unreadable)


def sentence(reason: str) -> str:
    """A reason as a sentence: a capital first letter (unless it starts with PDDL), a full stop, and
    counts that agree ("1 action(s)" → "1 action", "4 step(s)" → "4 steps": the proofs say "(s)")."""
    reason = re.sub(r"\b(\d+) leave\(s\)", lambda m: f"{m.group(1)} leave{'s' if m.group(1) == '1' else ''}",
                    reason.strip())  # a verb: "1 leaves", "2 leave"
    reason = re.sub(r"\b(\d+) ((?:\w+ )?\w+)\(s\)",
                    lambda m: f"{m.group(1)} {m.group(2)}{'' if m.group(1) == '1' else 's'}", reason)
    if not reason:
        return reason
    if reason[0].isalpha():
        reason = reason[0].upper() + reason[1:]
    return reason if reason.endswith((".", "?", "!")) else reason + "."


def _row(task: str, form: str, rs: list[Graded], sets: bool = True) -> dict:
    answered = [r for r in rs if r.answered]
    p = [r.precision for r in answered if r.precision is not None] if sets else []
    q = [r.recall for r in answered if r.recall is not None] if sets else []
    right = sum(r.correct for r in rs)
    return {"task": task, "form": form, "items": len(rs), "answered": len(answered), "correct": right,
            "ambiguous": sum(r.ambiguous for r in rs),
            "accuracy": right / len(answered) if answered else None, "coverage": len(answered) / len(rs),
            "precision": sum(p) / len(p) if p else None, "recall": sum(q) / len(q) if q else None}


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
          progress: Callable[[str, int, int], None] | None = None, scoring: str = "exact",
          acpbench_seconds: float | None = None, unread: Sequence[Unreadable] = ()) -> Grades:
    """Grade `answers` (id → answer) against `items`; with `check_gold`, re-derive each gen item's answer.
    `scoring`: "exact" (by meaning, this module) or "acpbench" (ACPBench's own evaluator, acpbench.py, its
    planner runs limited to `acpbench_seconds` each, by default ACPBench's own limits).
    `unread`: the item and answer records that could not be read (`load_items`, `read_answers` given a
    list of errors), kept in `Grades.errors`."""
    out = Grades(errors=list(unread))
    reader = _books()
    known = {str(i["id"]) for i in items}
    out.unknown_answers = sorted(k for k in answers if k not in known)
    for n, item in enumerate(items, 1):
        try:
            _grade_one(out, item, answers, reader, check_gold, time_limit, (scoring, acpbench_seconds))
        except InputError as e:  # this item's own trouble: reported as its problem, the rest graded
            where = items.error(n - 1, str(e)) if isinstance(items, Items) else e
            out.unreadable.append({"id": item["id"], "task": str(item["task"]), "form": str(item["form"]),
                                   "problem": str(where)})

        if progress is not None:
            progress("grade", n, len(items))
    return out


def _grade_one(out: Grades, item: dict, answers: dict[str, Any], reader, check_gold: bool, time_limit: float,
               scoring: tuple[str, float | None]) -> None:
    task, form = Task(item["task"]), Form(item["form"])
    c = case_of(item) if "PDDL_domain" in item else None
    if check_gold and c is not None and form is Form.GEN:
        _check_gold(out, item, c, time_limit)
    if answers:
        key = str(item["id"])
        if key not in answers:
            out.results.append(Graded(item["id"], task, form, False, False, "The item has no answer."))
        elif scoring[0] == "acpbench" and acpbench.scored(item):
            out.results.append(_acpbench(item, c, answers[key], scoring[1]))
        else:
            try:
                out.results.append(grade_item(item, c, answers[key], reader, time_limit))
            except (KeyError, TypeError, ValueError) as e:  # a gold answer of another task's shape
                raise InputError(f"item {item['id']}: the gold answer {str(item['answer'])[:60]!r} is not a "
                                 f"{task} {form} answer ({type(e).__name__}: {e})") from None


def _acpbench(item: dict, c: Case | None, answer: Any, seconds: float | None) -> Graded:
    """One answer scored by ACPBench's evaluator (acpbench.py)."""
    g = Graded(item["id"], Task(item["task"]), Form(item["form"]), True, False, answer=as_text(answer))
    if g.form is Form.GEN:
        g.correct, g.reason = acpbench.score_gen(item, c, answer, seconds)
    else:
        g.correct = acpbench.score_choice(item, answer)
        g.reason = "" if g.correct else \
            f"The first match of ACPBench's answer pattern in the answer is not {item['answer']}, so it scores 0."
    return g


def _check_gold(out: Grades, item: dict, c: Case, time_limit: float) -> None:
    """The item's gen answer re-derived: its disagreements, and what a limit left open, kept apart."""
    key = {"id": item["id"], "task": str(c.task), "form": str(c.form)}
    try:
        found = check(c, time_limit)
        open_ = ""
    except Undecided as e:
        found, open_ = e.found, str(e)
    out.gold += [{**key, "disagreement": d} for d in found]
    if open_:
        out.undecided.append({**key, "why": open_})
    out.checked.append((c.task, c.form, "disagree" if found else "undecided" if open_ else "agree"))


def grade_item(item: dict, c: Case | None, answer: Any, reader, time_limit: float = 10.0) -> Graded:
    task, form = Task(item["task"]), Form(item["form"])
    g = Graded(item["id"], task, form, True, False, answer=as_text(answer))
    gold = item["answer"]
    if form is Form.MCQ:
        found = read_choices(answer, (item.get("choices") or {}).get("text"))
        if len(found) > 1:
            g.ambiguous = True
            g.reason = f"The answer is ambiguous: it names {' and '.join(found)}."
        elif not found:
            g.reason = "The answer names no choice: neither a label A-D nor the text of a choice."
        else:
            g.correct = found[0] == gold
            g.reason = "" if g.correct else f"The answer chose {found[0]}; the right choice is {gold}."
        return g
    if form is Form.BOOL:
        return _grade_bool(g, item, c, answer, reader)
    if c is None:
        g.reason = "The item has no PDDL to grade a free answer against."
        return g
    return entry(task).grade(g, item, c, answer, reader(c), time_limit)


def _grade_bool(g: Graded, item: dict, c: Case | None, answer: Any, reader) -> Graded:
    gold = item["answer"] == "yes"
    verdicts = read_verdicts(answer)
    got = verdicts[0] if len(verdicts) == 1 else None
    ev = item.get("evidence") or {}
    witness = entry(g.task).witness
    if c is not None and witness is not None and ("(" in as_text(answer)):
        plan, _ = reader(c).actions_in(answer)
        target = ev.get("fact") or ev.get("action")
        if plan and target:  # a witness plan stands for "yes"
            return _grade_witness(g, c, plan, target, witness, gold)
    if len(verdicts) > 1:
        g.ambiguous = True
        g.reason = "The answer is ambiguous: it says both yes and no."
        return g
    if got is None:
        g.reason = "The answer says neither yes nor no."
        return g
    g.correct = got == gold
    if not g.correct:
        g.reason = f"The right answer is {item['answer']}" + _because(g.task, c, ev)
    return g


def _grade_witness(g: Graded, c: Case, plan: list, target: str, witness, gold: bool) -> Graded:
    """A yes/no answer given as a witness plan: it must run, and its end state show the yes."""
    ex = execute(c.domain, c.problem, plan)
    if not ex.executable:
        g.reason = (f"The witness plan fails at step {ex.failed_step + 1}, {plan[ex.failed_step]}, where "
                    f"{unmet_words(ex.unmet)}.")
        return g
    shown, what = witness(c, ex.states[-1], target)
    g.correct = shown and gold
    g.reason = "" if g.correct else \
        f"The witness plan runs, but it does not reach a state where {target} {what}." if gold else \
        f"The right answer is no, so no witness plan can show it; this one reaches a state where {target} {what}."
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


def unmet_words(unmet) -> str:
    """Unmet preconditions (`engine.Unmet`) in words: "(at c0 l1) is false; (on c1) is true"."""
    return "; ".join(f"{u} is false" if u.kind == "pos" else f"{u.atom} is true" if u.kind == "neg" else str(u)
                     for u in unmet)


def why_not(c: Case, a) -> str:
    """Why a ground action named in an answer is not applicable in the item's state (or that it is)."""
    unknown = [o for o in a.args if o not in c.problem.object_types(c.domain)]
    if unknown:
        return f"{a} names {unknown[0]}, which is no object of the problem"
    ex = execute(c.domain, c.problem, [a], states=False)
    if ex.executable:
        return f"{a} is applicable"
    return f"{a} is not applicable in the state: {unmet_words(ex.unmet)}"


def score_sets(g: Graded, got: set, gold: set) -> None:
    """A set answer: exact match, with precision and recall beside it."""
    g.precision = len(got & gold) / len(got) if got else (1.0 if not gold else 0.0)
    g.recall = len(got & gold) / len(gold) if gold else 1.0
    g.correct = got == gold


def cannot_read(g: Graded, answer: Any, bad: list[str], what: str = "an action or a fact") -> Graded:
    """A free answer in which nothing of the asked kind was read."""
    g.reason = unreadable(bad[0] if bad else as_text(answer), what)
    return g


def unreadable(piece: str, what: str) -> str:
    """Why a piece of an answer is not read, as a sentence."""
    piece = piece.strip()
    if not piece:
        return "The answer is empty."
    return (f"The answer's '{piece[:80]}' is not {what} of this problem (neither PDDL with the domain's names "
            f"and the problem's objects nor one of the context's sentences).")


__all__ = ["Graded", "Grades", "grade", "grade_item", "why_not", "unmet_words", "score_sets", "unmet_text",
           "cannot_read", "unreadable", "listing"]


def listing(items: list, last: str = "and") -> str:
    """"(a)", "(a) and (b)", "(a), (b) and (c)"."""
    parts = [str(x) for x in items]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + f" {last} " + parts[-1] if parts else ""
