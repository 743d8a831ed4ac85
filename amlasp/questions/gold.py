"""Re-deriving an item's answer from its PDDL, for any item file (ours or ACPBench's).

`load_items` reads JSON lines (ours) or a JSON list (ACPBench's files), each item with its task and
form (ACPBench's from its `group`). `Case` is one item made concrete: its domain, problem, the state
asked about and what the question names (an action, a plan). `derive` recomputes the gen answer
with the encodings, in the item's shape; `disagreements` compares it with the item's answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..model import Atom, Domain, GroundAction, Problem
from ..pddl.parse import parse_domain, parse_problem
from ..reasoning.engine import applicable, execute
from ..reasoning.justify import justify
from ..reasoning.optimal import OptimalStatus, optimal_first_actions
from ..reasoning.transitions import changes_many
from ..enums import Verdict
from .decide import Landmarks, Reachability
from .items import AFTER_SEQUENCE, Form, Task, read_records, task_form_of_group
from .tasks.plans import removal_key
from .tasks.reach import classify, reach_text
from .universe import Universe

ACTION = re.compile(r"\(\s*([^()\s]+)((?:\s+[^()\s]+)*)\s*\)")


def read_actions(text: str) -> list[GroundAction]:
    """`(move a b) (STACK x y)` → ground actions, lower case."""
    return [GroundAction(m.group(1).lower(), tuple(m.group(2).lower().split())) for m in ACTION.finditer(text)]


def read_atom(text: str) -> Atom:
    """`(on b1 b2)` or `on b1 b2` → an atom, lower case."""
    name, *args = text.strip().strip("()").lower().split()
    return Atom(name, tuple(args))


class Items(list):
    """Items read from a file, with the file and where each item starts (for located errors)."""

    def __init__(self, items: list[dict], path: str | Path, places: list[tuple[int, int]]):
        super().__init__(items)
        self.path, self.places = str(path), places

    def error(self, k: int, message: str) -> InputError:
        """An error about item `k`, at its place in the file."""
        line, col = self.places[k]
        return InputError(message, self.path, line, col)


def load_items(path: str | Path) -> Items:
    """Items of a JSON-lines file or of a JSON list; each gets `task` and `form` (from `group` if need be)."""
    records = read_records(path)
    items = Items([r for r, _, _ in records], path, [(line, col) for _, line, col in records])
    for k, item in enumerate(items):
        if not isinstance(item, dict) or "id" not in item:
            line, col = items.places[k]
            raise InputError("an item is a JSON object with an 'id'", path, line, col)
        if "task" not in item or "form" not in item:
            tf = task_form_of_group(str(item.get("group", "")))
            if tf is None:
                raise items.error(k, f"item {item['id']}: unknown group '{item.get('group')}' and no task/form")
            item["task"], item["form"] = str(tf[0]), str(tf[1])
        try:
            Task(item["task"]), Form(item["form"])
        except ValueError:
            raise items.error(k, f"item {item['id']}: unknown task/form {item['task']}/{item['form']}") from None
    return items


@lru_cache(maxsize=64)
def _domain(text: str) -> Domain:
    return parse_domain(text, "PDDL_domain")


@lru_cache(maxsize=256)
def _problem(text: str, domain_text: str) -> Problem:
    return parse_problem(text, _domain(domain_text), "PDDL_problem")


@dataclass
class Case:
    """One item made concrete: the state asked about, and what its question names."""

    item: dict
    domain: Domain
    problem: Problem  # the problem with the state asked about as its initial state
    task: Task
    form: Form
    named: dict = field(default_factory=dict)  # "action", "plan", "sequence" when the question names one

    @property
    def state(self) -> frozenset[Atom]:
        return self.problem.init


def case_of(item: dict) -> Case:
    """The item's domain and problem parsed, the state it asks about, and what it names."""
    if "PDDL_domain" not in item or "PDDL_problem" not in item:
        raise InputError(f"item {item['id']}: no PDDL_domain/PDDL_problem (ACPBench's bool and mcq files have none)")
    try:
        d = _domain(item["PDDL_domain"])
        p = _problem(item["PDDL_problem"], item["PDDL_domain"])
    except InputError as e:  # located in the item's own PDDL text: say which item
        raise InputError(f"item {item['id']}: {e}") from None
    task, form = Task(item["task"]), Form(item["form"])
    if task in AFTER_SEQUENCE and item.get("walk"):
        ex = execute(d, p, read_actions(" ".join(item["walk"])))
        if not ex.executable:
            raise InputError(f"item {item['id']}: its walk is not executable")
        p = replace(p, init=ex.states[-1])
    c = Case(item, d, p, task, form)
    evidence = item.get("evidence") or {}
    if task is Task.PROG:
        c.named["action"] = read_actions(evidence["action"])[0] if "action" in evidence else _prog_action(c)
    elif task is Task.VAL:
        c.named["sequence"] = read_actions(evidence.get("sequence") or _quoted(item["question"]))
    elif task is Task.JUST:
        c.named["plan"] = read_actions(" ".join(evidence["plan"]) if "plan" in evidence else _quoted(item["question"]))
    return c


def _quoted(question: str) -> str:
    m = re.search(r'"(.*?)"', question)
    return m.group(1) if m else ""


def _prog_action(c: Case) -> GroundAction:
    """The action an ACPBench prog question names in English: the applicable action whose arguments are
    exactly the objects the sentence names (all such actions must have the same effects)."""
    from .language import Phrasebook
    from .templates import templates_for
    sentence = re.search(r'action "(.*?)"', c.item["question"]).group(1)
    read = Phrasebook(c.domain, templates_for(c.domain)).read_action(sentence)
    if read is not None:
        return read
    objects = set(c.problem.object_types(c.domain))
    named = {w for w in re.findall(r"[\w-]+", sentence.lower()) if w in objects}
    cands = [a for a in applicable(c.domain, c.problem)[0] if set(a.args) == named]
    if not cands:
        raise InputError(f"item {c.item['id']}: no applicable action names exactly {sorted(named)}")
    changes = changes_many(c.domain, c.problem, [(c.state, cands)])[0]
    if len({(x.added, x.deleted) for x in changes}) > 1:
        raise InputError(f"item {c.item['id']}: '{sentence}' names several actions with different effects")
    return cands[0]


# ---------------------------------------------------------------- re-deriving gen answers

def derive(c: Case, time_limit: float = 10.0) -> tuple[Any, dict]:
    """The gen answer of the item's question, computed by the encodings, and its evidence; raises
    `Undecided` when a limit leaves it open."""
    d, p = c.domain, c.problem
    t = c.task
    if t is Task.APP:
        return sorted(str(a) for a in applicable(d, p)[0]), {}
    if t in (Task.PROG, Task.VERIFY):
        if t is Task.PROG:
            ch = changes_many(d, p, [(c.state, [c.named["action"]])])[0][0]
            if ch is None:
                raise Undecided(f"{c.named['action']} is not applicable in the state")
            pos, neg = ch.added, ch.deleted
        else:
            init = _problem(c.item["PDDL_problem"], c.item["PDDL_domain"]).init
            pos, neg = c.state - init, init - c.state
        return {"pos": sorted(map(str, pos)), "neg": sorted(map(str, neg))}, {}
    if t is Task.VAL:
        ex = execute(d, p, c.named["sequence"], states=False)
        return (-1 if ex.failed_step is None else ex.failed_step), {"unmet": [str(u) for u in ex.unmet]}
    if t is Task.JUST:
        plan = c.named["plan"]
        r = justify(d, p, plan)
        if not r.valid:
            raise Undecided("the plan to simplify is not valid")
        return ([removal_key(plan, i, False) for i in r.removable_single] +
                [removal_key(plan, i, True) for i in r.removable_pairs]), {}
    if t in (Task.REACH, Task.AREACH, Task.LAND, Task.NEXTA):
        return _derive_searched(c, time_limit)
    return _derive_after(c)


def _derive_searched(c: Case, time_limit: float) -> tuple[Any, dict]:
    """reach, areach, land, nexta: every candidate decided (`Undecided` when a limit leaves one open)."""
    d, p, t = c.domain, c.problem, c.task
    if t in (Task.REACH, Task.AREACH):
        r = Reachability(d, p, c.state, time_limit=time_limit, planner_calls=40)
        u = Universe(d, p)
        if t is Task.REACH:
            decided = _classify(u.fluent_atoms, r.atom, lambda xs: r.settle(xs, []))
            never = sorted(reach_text(f) for f, x in decided.items() if x.answer is Verdict.NO)
        else:
            decided = _classify(u.ground_actions, r.action, lambda xs: r.settle([], xs))
            never = sorted(str(a) for a, x in decided.items() if x.answer is Verdict.NO)
        return never, {}
    if t is Task.LAND:
        lm = Landmarks(d, p, c.state, time_limit, planner_calls=200)
        decided = {f: lm.fact(f) for f in lm.candidates}
        open_ = [f for f, x in decided.items() if x.answer is Verdict.UNKNOWN]
        if open_:
            raise Undecided(f"{open_[0]}: {decided[open_[0]].proof}")
        return {"yes": sorted(str(f) for f, x in decided.items() if x.answer is Verdict.YES),
                "no": sorted(str(f) for f, x in decided.items() if x.answer is Verdict.NO)}, \
            {"proofs": {str(f): x.proof for f, x in decided.items()}}
    r = optimal_first_actions(d, p, time_limit=time_limit)  # nexta
    if r.status is not OptimalStatus.SOLVED:
        raise Undecided(r.detail or str(r.status))
    return {"yes": sorted(map(str, r.optimal)), "no": sorted(map(str, r.others)), "maybe": [],
            "opt": str(r.length)}, {"plans": {str(a): [str(b) for b in x] for a, x in r.optimal.items()}}


def _derive_after(c: Case) -> tuple[Any, dict]:
    """count and value, after the walk: what the item's evidence says its question names, counted or found."""
    d, p, t = c.domain, c.problem, c.task
    ev = c.item.get("evidence") or {}
    if t is Task.COUNT and "pattern" in ev:
        pattern = read_atom(ev["pattern"])
        i = pattern.args.index("?x")
        t_ = d.predicate(pattern.predicate).parameters[i][1]
        return sum(Atom(pattern.predicate, pattern.args[:i] + (o,) + pattern.args[i + 1:]) in c.state
                   for o in Universe(d, p).objects(t_)), {}
    if t is Task.COUNT and "executable" in ev:
        return len(applicable(d, p)[0]), {}
    if t is Task.VALUE and "fact" in ev:
        f, i = read_atom(ev["fact"]), int(ev["position"]) - 1
        t_ = d.predicate(f.predicate).parameters[i][1]
        hits = [o for o in Universe(d, p).objects(t_)
                if Atom(f.predicate, f.args[:i] + (o,) + f.args[i + 1:]) in c.state]
        if len(hits) != 1:
            return hits, {}
        return hits[0], {}
    raise Undecided(f"re-deriving {t} needs the item's evidence (what its question names)")


class Undecided(Exception):
    """A limit (time, planner calls) left the answer open."""


def _classify(items, decide, settle) -> dict:
    from .tasks.common import Skip
    try:
        return classify(items, decide, settle)
    except Skip as e:
        raise Undecided(str(e)) from None


# ---------------------------------------------------------------- comparing with the item's answer

def _norm(x) -> str:
    return " ".join(str(x).lower().strip().strip("()").split())


def _norm_list(xs) -> list[str]:
    return sorted(_norm(x) for x in xs)


def check(c: Case, time_limit: float = 10.0) -> list[str]:
    """Where the item's gen answer and the encodings disagree, in words (empty when they agree).

    Complete answers (app, prog, val, just, verify, count, value; and every list of our own items)
    are re-derived and compared. ACPBench's reach, areach and land lists are samples of correct
    answers (its evaluator runs a planner on any other answer), and its nexta lists some optimal
    first actions (`maybe`: undecided ones): there every listed atom, action and fact is decided and
    must agree, and an empty reach/areach list (the answer "None") is checked against a proof."""
    if c.form is not Form.GEN:
        raise Undecided("only gen items carry an answer to re-derive")
    complete = "evidence" in c.item
    t, gold = c.task, c.item["answer"]
    if t in (Task.REACH, Task.AREACH) and not complete:
        return _check_sample(c, gold, time_limit)
    if t is Task.LAND and not complete:
        lm = Landmarks(c.domain, c.problem, c.state, time_limit, planner_calls=500)
        out = []
        for kind, want in (("yes", Verdict.YES), ("no", Verdict.NO)):
            for f in gold[kind]:
                d = lm.fact(read_atom(f))
                if d.answer is Verdict.UNKNOWN:
                    raise Undecided(f"{f}: {d.proof}")
                if d.answer is not want:
                    out.append(f"({_norm(f)}) is listed as {'a' if want is Verdict.YES else 'no'} landmark, but "
                               f"{'it is none' if d.answer is Verdict.NO else 'it is one'}: {d.proof}")
        return out
    derived, _ = derive(c, time_limit)
    if t is Task.NEXTA:
        yes = set(_norm_list(derived["yes"]))
        out = [f"({a}) is listed as a next action but starts no shortest plan" for a in _norm_list(gold["yes"])
               if a not in yes]
        out += [f"({a}) is listed as no next action but starts a shortest plan" for a in _norm_list(gold["no"])
                if a in yes]
        if complete and yes != set(_norm_list(gold["yes"])):
            out.append("optimal first actions: " + "; ".join(_set_diff(set(_norm_list(gold["yes"])), yes)))
        if str(gold.get("opt")) != str(derived["opt"]):
            out.append(f"the gold's optimal length is {gold.get('opt')}, the encodings' {derived['opt']}")
        return out
    return disagreements(c, derived)


def _check_sample(c: Case, gold: list, time_limit: float) -> list[str]:
    """ACPBench's reach/areach: each listed answer proven impossible; "None" checked by a search for a
    counterexample."""
    r = Reachability(c.domain, c.problem, c.state, time_limit=time_limit, planner_calls=40)
    reach = c.task is Task.REACH
    out = []
    for x in gold:
        d = r.atom(read_atom(x)) if reach else r.action(read_actions(x)[0])
        if d.answer is Verdict.UNKNOWN:
            raise Undecided(f"{x}: {d.proof}")
        if d.answer is Verdict.YES:
            out.append(f"({_norm(x)}) is listed as impossible, but {d.proof}: {' '.join(map(str, d.witness))}")
    if not gold:
        u = Universe(c.domain, c.problem)
        items = u.fluent_atoms if reach else u.ground_actions
        decide = r.atom if reach else r.action
        never = [x for x in items if decide(x, False, True).answer is Verdict.NO]
        if never:
            out.append(f"the gold answer is None, but {len(never)} {'atom' if reach else 'action'}(s) can never "
                       f"{'hold' if reach else 'be applied'}, e.g. {never[0]}: {decide(never[0], False, True).proof}")
    return out


def disagreements(c: Case, derived: Any) -> list[str]:
    """Where a complete gen answer and the derived one differ (empty when they agree)."""
    gold, t = c.item["answer"], c.task
    if isinstance(gold, list) and t is not Task.JUST:
        return _set_diff(set(_norm_list(gold)), set(_norm_list(derived)))
    if t in (Task.PROG, Task.VERIFY):
        return [f"{k}: " + "; ".join(_set_diff(set(_norm_list(gold[k])), set(_norm_list(derived[k]))))
                for k in ("pos", "neg") if set(_norm_list(gold[k])) != set(_norm_list(derived[k]))]
    if t is Task.JUST:
        from collections import Counter
        g = Counter(tuple(x.lower() for x in k) for k in gold)
        o = Counter(tuple(k) for k in derived)
        return _set_diff(set(g.elements()), set(o.elements())) if g != o else []
    if t is Task.LAND:
        return [f"{k}: " + "; ".join(_set_diff(set(_norm_list(gold[k])), set(_norm_list(derived[k]))))
                for k in ("yes", "no") if set(_norm_list(gold[k])) != set(_norm_list(derived[k]))]
    return [] if str(gold).lower() == str(derived).lower() else [f"the gold says {gold}, the encodings {derived}"]


def _set_diff(gold: set, ours: set) -> list[str]:
    out = []
    if gold - ours:
        out.append("only in the gold: " + ", ".join(map(_show, sorted(gold - ours))))
    if ours - gold:
        out.append("only by the encodings: " + ", ".join(map(_show, sorted(ours - gold))))
    return out


def _show(x) -> str:
    return f"({x})" if isinstance(x, str) else str(list(x))


__all__ = ["Items", "load_items", "Case", "case_of", "derive", "check", "disagreements", "Undecided", "read_actions",
           "read_atom"]
