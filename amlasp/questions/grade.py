"""Grading answers semantically, by the encodings: accuracy per task and form, and why each wrong answer is wrong.

A free (gen) answer is read as PDDL or English (answers.py) and judged by what it means: a set of
actions or facts is compared as a set (with precision and recall beside exact match), any optimal
first action is a right next action, any provably impossible fact a right reach answer, any valid
plan one action or two consecutive ones shorter a right simplification. A yes/no answer to reach or
areach may come with a witness plan instead, which is validated. With `check_gold`, each gen item's
own answer is re-derived from its PDDL and disagreements are listed (gold.py).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ..reasoning.engine import execute
from ..reasoning.optimal import OptimalStatus, optimal_first_actions
from .answers import Reader, as_text, is_none, read_bool, read_choice, read_int
from ..enums import Verdict
from .decide import Landmarks, Reachability
from ..errors import InputError
from .gold import Case, Items, Undecided, case_of, check, read_actions, read_atom
from .items import Form, Task
from .language import Phrasebook
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
                out.results.append(grade_item(item, c, answers[key], reader, time_limit))
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
    return GEN[task](g, item, c, answer, reader(c), time_limit)


def _grade_bool(g: Graded, item: dict, c: Case | None, answer: Any, reader) -> Graded:
    gold = item["answer"] == "yes"
    got = read_bool(answer)
    ev = item.get("evidence") or {}
    if c is not None and g.task in (Task.REACH, Task.AREACH) and ("(" in as_text(answer)):
        plan, _ = reader(c).actions_in(answer)
        target = ev.get("fact") or ev.get("action")
        if plan and target:  # a witness plan stands for "yes"
            ex = execute(c.domain, c.problem, plan)
            if not ex.executable:
                g.reason = f"the witness fails at step {ex.failed_step + 1}, {plan[ex.failed_step]}: " + \
                           "; ".join(f"{u} is false" if u.kind == "pos" else str(u) for u in ex.unmet)
                return g
            end = ex.states[-1]
            if g.task is Task.REACH:
                ok = read_atom(target) in end
            else:
                ok = execute(c.domain, c.problem, [read_actions(target)[0]], start=end, states=False).executable
            g.correct = ok and gold
            g.reason = "" if g.correct else f"the witness does not reach a state where {target} " + \
                ("holds" if g.task is Task.REACH else "is applicable")
            return g
    if got is None:
        g.reason = "no yes/no found"
        return g
    g.correct = got == gold
    if not g.correct:
        g.reason = f"the answer is {item['answer']}" + _because(g.task, ev)
    return g


def _because(task: Task, ev: dict) -> str:
    """Why a yes/no item's answer is what it is, from its evidence (empty when it says nothing)."""
    unmet = "; ".join(f"{u} is false" for u in ev.get("unmet", []))  # the failed precondition literals
    if task is Task.VAL and ev.get("first_inapplicable", -1) >= 0:
        j = ev["first_inapplicable"]
        return f": step {j + 1}, {read_actions(ev['sequence'])[j]}, is not applicable: {unmet}"
    if task is Task.APP and unmet:
        return f": {ev['action']} is not applicable: {unmet}"
    if "proof" in ev:
        return f": {ev['proof']}"
    return ""


def _why_not(c: Case, a) -> str:
    unknown = [o for o in a.args if o not in c.problem.object_types(c.domain)]
    if unknown:
        return f"action {a} names an unknown object {unknown[0]}"
    ex = execute(c.domain, c.problem, [a], states=False)
    if ex.executable:
        return f"{a} is applicable"
    return f"action {a} is not applicable: " + "; ".join(f"{u} is false" if u.kind == "pos" else
                                                       f"{u.atom} is true" if u.kind == "neg" else str(u)
                                                       for u in ex.unmet)


def _pr(g: Graded, got: set, gold: set) -> None:
    g.precision = len(got & gold) / len(got) if got else (1.0 if not gold else 0.0)
    g.recall = len(got & gold) / len(gold) if gold else 1.0
    g.correct = got == gold


def _app(g, item, c, answer, r, _t):
    got, bad = r.actions_in(answer)
    gold = set(read_actions(" ".join(item["answer"])))
    _pr(g, set(got), gold)
    why = [_why_not(c, a) for a in sorted(set(got) - gold, key=str)]
    if gold - set(got):
        why.append("missing: " + " ".join(map(str, sorted(gold - set(got), key=str))))
    why += [f"cannot read '{b}'" for b in bad]
    g.reason = "; ".join(why)
    return g


def _progression(g, item, c, answer, r, _t):
    read = r.progression(answer)
    if read is None:
        g.reason = "no positive and negative lists found"
        return g
    pos, neg = read
    gp, gn = ({read_atom(x) for x in item["answer"][k]} for k in ("pos", "neg"))
    got = {("+", x) for x in pos} | {("-", x) for x in neg}
    gold = {("+", x) for x in gp} | {("-", x) for x in gn}
    _pr(g, got, gold)
    why = [f"{x} is not made {'true' if s == '+' else 'false'}" for s, x in sorted(got - gold, key=str)]
    why += [f"missing: {x} made {'true' if s == '+' else 'false'}" for s, x in sorted(gold - got, key=str)]
    g.reason = "; ".join(why)
    return g


def _val(g, item, c, answer, r, _t):
    got = read_int(answer)
    g.correct = got == int(item["answer"])
    if not g.correct:
        seq = c.named["sequence"]
        j = int(item["answer"])
        g.reason = ("every action is applicable" if j < 0 else
                    f"the first inapplicable action is at index {j}, {seq[j]}: " +
                    "; ".join((item.get("evidence") or {}).get("unmet", [])))
    return g


def _removed(plan: list, key: list) -> list | None:
    """The plan without the removal ACPBench's key names: [a, k] (k-th occurrence of a), [a1, a2, "-1"]."""
    acts = read_actions(" ".join(str(x) for x in key[:2]))
    if len(key) == 3 and len(acts) == 2:
        i = next((i for i in range(len(plan) - 1) if plan[i:i + 2] == acts), None)
        return None if i is None else plan[:i] + plan[i + 2:]
    if len(key) == 2 and len(acts) == 1 and str(key[1]).isdigit():
        at = [i for i, a in enumerate(plan) if a == acts[0]]
        k = int(key[1])
        return plan[:at[k - 1]] + plan[at[k - 1] + 1:] if 0 < k <= len(at) else None
    return None


def _just(g, item, c, answer, r, _t):
    plan = c.named["plan"]
    if isinstance(answer, list) and answer and isinstance(answer[0], list):  # removal keys, as in the gold
        shorter, bad = _removed(plan, answer[0]), [str(answer[0])]
        if shorter is None:
            g.reason = f"no such removal in the plan: {answer[0]}"
            return g
    else:
        shorter, bad = r.actions_in(answer)
    removals = [plan[:i] + plan[i + 1:] for i in range(len(plan))] + \
               [plan[:i] + plan[i + 2:] for i in range(len(plan) - 1)]
    if shorter not in removals:
        g.reason = "not the plan with one action, or two consecutive ones, removed" + \
                   (f" (cannot read '{bad[0]}')" if bad else "")
        return g
    ex = execute(c.domain, c.problem, shorter, states=False)
    g.correct = ex.valid
    if not ex.valid:
        g.reason = "the shortened plan is not valid: " + (
            f"step {ex.failed_step + 1}, {shorter[ex.failed_step]}, is not applicable" if ex.failed_step is not None
            else "the goal does not hold at its end: " + " ".join(map(str, ex.goal_unmet)))
    return g


def _reach(g, item, c, answer, r, t):
    gold = item["answer"]
    if is_none(answer):
        g.correct = not gold
        g.reason = "" if g.correct else f"some can never hold, e.g. {gold[0]}"
        return g
    reach = g.task is Task.REACH
    xs, bad = (r.atoms_in(answer) if reach else r.actions_in(answer))
    if not xs:
        g.reason = f"cannot read '{bad[0] if bad else as_text(answer)}'"
        return g
    x = xs[0]
    listed = {" ".join(str(y).lower().strip("()").split()) for y in gold}
    if " ".join(str(x).strip("()").split()) in listed:
        g.correct = True
        return g
    rr = Reachability(c.domain, c.problem, c.state, time_limit=t)
    d = rr.atom(x) if reach else rr.action(x)
    g.correct = d.answer is Verdict.NO
    if d.answer is Verdict.YES:
        g.reason = f"{x} can {'hold' if reach else 'become applicable'}: {d.proof}: " + " ".join(map(str, d.witness))
    elif d.answer is Verdict.UNKNOWN:
        g.reason = f"undecided: {d.proof}"
    return g


def _land(g, item, c, answer, r, t):
    """Each fact named must be a non-trivial landmark (one, or a list: precision over the facts named,
    recall over every landmark where the gold lists them all, i.e. our own items)."""
    yes = {" ".join(y.lower().strip("()").split()) for y in item["answer"]["yes"]}
    if isinstance(answer, dict):  # the gold's own shape: its landmarks are the answer
        answer = answer.get("yes", [])
    if is_none(answer):
        g.correct = not yes
        g.reason = "" if g.correct else f"there are landmarks, e.g. ({sorted(yes)[0]})"
        return g
    xs, bad = r.atoms_in(answer)
    if not xs:
        g.reason = f"cannot read '{bad[0] if bad else as_text(answer)}'"
        return g
    goals = {l.atom for l in c.problem.goal if l.positive}
    decide = None
    right, why = set(), []
    for f in dict.fromkeys(xs):
        if " ".join(str(f).strip("()").split()) in yes:
            right.add(f)
        elif f in c.state or f in goals:
            why.append(f"{f} holds in the state or is a goal: a trivial landmark")
        else:
            decide = decide or Landmarks(c.domain, c.problem, c.state, t)
            d = decide.fact(f)
            if d.answer is Verdict.YES:
                right.add(f)
            else:
                why.append(f"{f} is no landmark: {d.proof}" if d.answer is Verdict.NO else f"{f}: undecided: {d.proof}")
    named = len(dict.fromkeys(xs))
    g.correct = not why and not bad
    why += [f"cannot read '{b}'" for b in bad]
    g.reason = "; ".join(why)
    if named > 1:
        g.precision = len(right) / named
        if "evidence" in item and yes:  # our items list every landmark
            g.recall = len({" ".join(str(f).strip("()").split()) for f in right} & yes) / len(yes)
    return g


def _nexta(g, item, c, answer, r, t):
    acts, bad = r.actions_in(answer)
    if not acts:
        g.reason = f"cannot read '{bad[0] if bad else as_text(answer)}'"
        return g
    a = acts[0]
    gold = item["answer"]
    if str(a) in {x.lower() for x in gold["yes"]}:
        g.correct = True
        return g
    ex = execute(c.domain, c.problem, [a], states=False)
    if not ex.executable:
        g.reason = _why_not(c, a)
        return g
    if "evidence" not in item:  # ACPBench lists some optimal first actions only: decide
        opt = optimal_first_actions(c.domain, c.problem, time_limit=t)
        if opt.status is OptimalStatus.SOLVED and a in opt.optimal:
            g.correct = True
            return g
    g.reason = f"{a} is applicable but starts no shortest plan (the shortest has {gold.get('opt')} steps)"
    return g


def _count(g, item, c, answer, r, _t):
    got = read_int(answer)
    g.correct = got == int(item["answer"])
    g.reason = "" if g.correct else f"the answer is {item['answer']}"
    return g


def _value(g, item, c, answer, r, _t):
    objects = set(c.problem.object_types(c.domain))
    words = [w for w in as_text(answer).lower().replace(",", " ").split() if w.strip(".\"'") in objects]
    got = words[0].strip(".\"'") if words else None
    g.correct = got == str(item["answer"]).lower()
    g.reason = "" if g.correct else f"the answer is {item['answer']}" if got else "no object of the problem named"
    return g


GEN: dict[Task, Callable] = {Task.APP: _app, Task.PROG: _progression, Task.VERIFY: _progression, Task.VAL: _val,
                             Task.JUST: _just, Task.REACH: _reach, Task.AREACH: _reach, Task.LAND: _land,
                             Task.NEXTA: _nexta, Task.COUNT: _count, Task.VALUE: _value}


__all__ = ["Graded", "Grades", "grade", "grade_item"]
