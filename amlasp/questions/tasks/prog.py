"""prog (ACPBench's progression): the facts an applicable action makes true and false."""

from __future__ import annotations

import re
from typing import Any

from ...errors import InputError
from ...model import GroundAction
from ...reasoning.engine import applicable
from ...reasoning.transitions import changes_many
from ..answers import Reader
from ..gold import Case, Undecided, compare_lists
from ..grade import Graded, listing, score_sets
from ..registry import Task
from ..universe import similar_atoms
from .common import Draft, Situation, Skip, TaskEntry, choice, pddl_list, sample, yes_no


class Prog:
    """prog: the facts an applicable action makes true and false."""

    def __init__(self, sit: Situation):
        if not sit.applicable:
            raise Skip("no applicable action")
        self.sit = sit
        self.action = sit.rng.choice(sit.applicable)
        change = changes_many(sit.domain, sit.current, [(sit.state, [self.action])])[0][0]
        assert change is not None  # an applicable action has its change
        self.added, self.deleted = change.added, change.deleted
        self.after = change.apply(sit.state)

    def _evidence(self) -> dict:
        return {"action": str(self.action), "pos": pddl_list(self.added), "neg": pddl_list(self.deleted)}

    def gen(self) -> Draft:
        q = (f'Break down the outcomes of performing the action "{self.sit.book.action(self.action)}" into two lists, '
             "positive effects and negative effects. Positive effects are the propositions that are false in the "
             "current state but will become true after performing the action. Negative effects are the propositions "
             "that are true in the current state and will become false after performing the action.")
        return Draft(q, {"pos": pddl_list(self.added), "neg": pddl_list(self.deleted)}, self._evidence())

    def _false_after(self) -> list:
        u = self.sit.source.universe
        fluent = [f for f in self.after if f.predicate in u.fluents]
        pool = set(self.deleted) | {g for f in self.added | set(fluent[:50]) for g in similar_atoms(u, f)}
        return sorted((f for f in pool if f not in self.after), key=str)

    def boolean(self, yes: bool) -> Draft | None:
        rng = self.sit.rng
        if yes:
            kept = sorted((f for f in self.after if f.predicate in self.sit.source.universe.fluents), key=str)
            pool = sorted(self.added, key=str) or kept
        else:
            pool = sorted(self.deleted, key=str) or self._false_after()
        if not pool:
            return None
        f = rng.choice(pool)
        book = self.sit.book
        q = (f"Will the fact \"{book.fact(f)}\" hold after performing the action \"{book.action(self.action)}\" "
             "in the current state?")
        return Draft(q, yes_no(yes), {**self._evidence(), "fact": str(f)})

    def mcq(self) -> Draft | None:
        rng = self.sit.rng
        if not self.added:
            return None
        right = rng.choice(sorted(self.added, key=str))
        wrong = sample(rng, self._false_after(), 3)
        book = self.sit.book
        q = f"Which of the following facts will hold after performing the action \"{book.action(self.action)}\" " \
            "in the current state?"
        return choice(rng, q, book.fact(right), [book.fact(w) for w in wrong], {**self._evidence(), "fact": str(right)})


def names(c: Case) -> dict:
    evidence = c.item.get("evidence") or {}
    return {"action": c.action(evidence["action"], "its action") if "action" in evidence else _prog_action(c)}


def _prog_action(c: Case) -> GroundAction:
    """The action an ACPBench prog question names in English: read through the domain's sentences, else
    among the applicable actions whose arguments are exactly the objects the sentence names, the one
    whose name the sentence says ("pick up the laser": pickup-laser, not pickup-bomb), then the one
    whose arguments come in the sentence's order; several left must have the same effects."""
    from ..language import Phrasebook
    from ..templates import templates_for
    m = re.search(r'action "(.*?)"', c.item["question"])
    if m is None:
        raise InputError(f"item {c.item['id']}: the question quotes no action")
    sentence = m.group(1)
    read = Phrasebook(c.domain, templates_for(c.domain)).read_action(sentence)
    if read is not None:
        return read
    words = re.findall(r"[\w-]+", sentence.lower())
    objects = set(c.problem.object_types(c.domain))
    named = [w for w in words if w in objects]
    cands = [a for a in applicable(c.domain, c.problem)[0] if set(a.args) == set(named)]
    for narrow in (lambda a: _name_score(a.name, words), lambda a: _in_order(a.args, named)):
        best = max((narrow(a) for a in cands), default=0)
        cands = [a for a in cands if narrow(a) == best]
    if not cands:
        raise InputError(f"item {c.item['id']}: no applicable action names exactly {sorted(set(named))}")
    changes = changes_many(c.domain, c.problem, [(c.state, cands)])[0]
    if len({(x.added, x.deleted) for x in changes if x is not None}) > 1:
        raise InputError(f"item {c.item['id']}: '{sentence}' may be any of {', '.join(map(str, cands))}, "
                         "whose effects differ")
    return cands[0]


def _name_score(name: str, words: list[str]) -> int:
    """How many parts of an action's name (`pickup-laser`: pickup, laser) the sentence says; "pick up"
    says pickup."""
    joined = {a + b for a, b in zip(words, words[1:])} | set(words)
    return sum(part in joined for part in re.split(r"[-_]", name.lower()) if part)


def _in_order(args: tuple[str, ...], named: list[str]) -> bool:
    """Do the arguments come in the order the sentence first names them?"""
    first = list(dict.fromkeys(named))
    return list(dict.fromkeys(args)) == first


def derive(c: Case, _time_limit: float) -> tuple[dict, dict]:
    ch = changes_many(c.domain, c.problem, [(c.state, [c.named["action"]])])[0][0]
    if ch is None:
        raise Undecided(f"{c.named['action']} is not applicable in the state")
    return {"pos": sorted(map(str, ch.added)), "neg": sorted(map(str, ch.deleted))}, {}


def grade_effects(g: Graded, item: dict, c: Case, answer: Any, r: Reader, _t: float) -> Graded:
    """Positive and negative effects (prog, verify): precision and recall over both lists."""
    read = r.progression(answer)
    doer = "the action" if c.task is Task.PROG else "the sequence"
    if read is None:
        g.reason = "The answer gives no lists of the facts made true and made false."
        return g
    pos, neg = read
    gp, gn = ({c.atom(x) for x in item["answer"][k]} for k in ("pos", "neg"))
    got = {("+", x) for x in pos} | {("-", x) for x in neg}
    gold = {("+", x) for x in gp} | {("-", x) for x in gn}
    score_sets(g, got, gold)
    made = {"+": "true", "-": "false"}
    extra, missing = sorted(got - gold, key=str), sorted(gold - got, key=str)
    why = [f"{doer} does not make " + listing([f"{x} {made[s]}" for s, x in extra], "or")] if extra else []
    if missing:
        why.append(f"the answer leaves out that {doer} makes " + listing([f"{x} {made[s]}" for s, x in missing]))
    g.reason = "; ".join(why)
    return g


TASK = TaskEntry(
    task=Task.PROG, cost=0.014,
    question="which facts an applicable action makes true (positive effects) and false (negative)",
    answer='`{"pos": [...], "neg": [...]}`', analyse=Prog, derive=derive, grade=grade_effects, names=names,
    compare=compare_lists("pos", "neg"))
