"""Re-deriving an item's answer from its PDDL, for any item file (ours or ACPBench's).

`load_items` reads JSON lines (ours) or a JSON list (ACPBench's files), each item with its task and
form (ACPBench's from its `group`). `Case` is one item made concrete: its domain, problem, the state
asked about and what the question names (an action, a plan: case.py). `derive` recomputes the gen answer
with the encodings, in the item's shape, and `check` compares it with the item's answer: both by
the task's entry (`catalog.entry`), which says what is task-specific; what is shared is here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..model import Domain, Problem
from ..pddl.parse import parse_domain, parse_problem
from ..pddl.plans import parse_actions
from ..reasoning.engine import execute
from .case import Case
from .catalog import entry
from .items import Form, Task, read_records
from .registry import task_form_of_group


class Items(list):
    """Items read from a file, with the file and where each item starts (for located errors)."""

    def __init__(self, items: list[dict], path: str | Path, places: list[tuple[int, int]]):
        super().__init__(items)
        self.path, self.places = str(path), places

    def error(self, k: int, message: str) -> InputError:
        """An error about item `k`, at its place in the file."""
        line, col = self.places[k]
        return InputError(message, self.path, line, col)


def load_items(path: str | Path, errors: list[InputError] | None = None) -> Items:
    """Items of a JSON-lines file or of a JSON list; each gets `task` and `form` (from `group` if need be).
    Given `errors` (a partial run), an item that cannot be read (not JSON, no id, no task, malformed) is
    appended there and left out, rather than raised; two items with one id are refused either way."""
    records = read_records(path, errors)
    items = Items([r for r, _, _ in records], path, [(line, col) for _, line, col in records])
    if errors is None:
        _check_items(items)
        return items
    good = []
    for k in range(len(items)):
        try:
            _check_items(Items([items[k]], path, [items.places[k]]))
            good.append(k)
        except InputError as e:  # one item alone: never "a second item with id", which the check below says
            errors.append(e)
    kept = Items([items[k] for k in good], path, [items.places[k] for k in good])
    _check_items(kept)  # the ids, across the items kept
    return kept


def _check_items(items: Items) -> None:
    """Each item an object with an id (no two alike), a task and a form (from `group`), well formed."""
    first: dict[str, int] = {}
    for k, item in enumerate(items):
        if not isinstance(item, dict) or "id" not in item:
            raise items.error(k, "an item is a JSON object with an 'id'")
        key = str(item["id"])
        if key in first:  # answers are matched by id: two items with one id cannot both be graded
            raise items.error(k, f"a second item with id {key} (the first is on line {items.places[first[key]][0]})")
        first[key] = k
        if "task" not in item or "form" not in item:
            tf = task_form_of_group(str(item.get("group", "")))
            if tf is None:
                raise items.error(k, f"item {item['id']}: unknown group '{item.get('group')}' and no task/form")
            item["task"], item["form"] = str(tf[0]), str(tf[1])
        try:
            Task(item["task"]), Form(item["form"])
        except ValueError:
            raise items.error(k, f"item {item['id']}: unknown task/form {item['task']}/{item['form']}") from None
        problem = _malformed(item)
        if problem:
            raise items.error(k, f"item {item['id']}: {problem}")


def _texts(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(x, str) for x in value)


def _scalar(value: Any) -> bool:
    """A name, a text or a number (an ACPBench label such as `"opt": "3"`, a plan length)."""
    return isinstance(value, str) or isinstance(value, int) and not isinstance(value, bool)


def _malformed(item: dict) -> str | None:
    """What is wrong with an item's PDDL or gold answer, by the shapes of docs/questions.md; None if nothing."""
    if ("PDDL_domain" in item or "PDDL_problem" in item) and not (
            isinstance(item.get("PDDL_domain"), str) and isinstance(item.get("PDDL_problem"), str)):
        return "PDDL_domain and PDDL_problem must both be strings (PDDL texts)"
    if "answer" not in item:
        return "no gold 'answer'"
    gold, form = item["answer"], Form(item["form"])
    if form is Form.BOOL and gold not in ("yes", "no"):
        return f"a yes/no item's gold answer is \"yes\" or \"no\", not {_shown(gold)}"
    if form is Form.MCQ:
        choices = item.get("choices")
        texts = choices.get("text") if isinstance(choices, dict) else None
        if not _texts(texts) or not 1 <= len(texts) <= 4:
            return "a multiple-choice item has choices {\"text\": [one to four strings]}"
        if not isinstance(gold, str) or len(gold) != 1 or gold not in "ABCD"[:len(texts)]:
            return f"a multiple-choice item's gold answer is a label of its choices, not {_shown(gold)}"
    if form is Form.GEN and not (
            _scalar(gold) or isinstance(gold, list) and all(_scalar(x) or isinstance(x, list) and all(
                map(_scalar, x)) for x in gold)
            or isinstance(gold, dict) and all(v is None or _scalar(v) or _texts(v) for v in gold.values())):
        return f"the gold answer {_shown(gold)} is not an answer's shape (a string, an integer, a list, an object " \
               "of lists)"
    return None


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:59] + "…"


@lru_cache(maxsize=64)
def _domain(text: str) -> Domain:
    return parse_domain(text, "PDDL_domain")


@lru_cache(maxsize=256)
def _problem(text: str, domain_text: str) -> Problem:
    return parse_problem(text, _domain(domain_text), "PDDL_problem")


def problem_of(item: dict) -> Problem:
    """The item's own problem, parsed (once): its `:init` is the state the context describes."""
    return _problem(item["PDDL_problem"], item["PDDL_domain"])


def case_of(item: dict) -> Case:
    """The item's domain and problem parsed, the state it asks about, and what it names."""
    if "PDDL_domain" not in item or "PDDL_problem" not in item:
        raise InputError(f"item {item['id']}: no PDDL_domain/PDDL_problem (ACPBench's bool and mcq files have none)")
    try:
        d = _domain(item["PDDL_domain"])
        p = problem_of(item)
    except InputError as e:  # located in the item's own PDDL text: say which item
        raise InputError(f"item {item['id']}: {e}") from None
    task, form = Task(item["task"]), Form(item["form"])
    spec = entry(task)
    if spec.after_sequence and item.get("walk"):
        walk = parse_actions(" ".join(item["walk"]), d, p, f"item {item['id']}: its walk")
        ex = execute(d, p, walk)
        if not ex.executable:
            raise InputError(f"item {item['id']}: its walk is not executable")
        p = replace(p, init=ex.states[-1])
    c = Case(item, d, p, task, form)
    if spec.names is not None:
        c.named.update(spec.names(c))
    return c


def quoted(question: str) -> str:
    """The first text in double quotes of a question (the plan, the sequence it quotes)."""
    m = re.search(r'"(.*?)"', question)
    return m.group(1) if m else ""


# ---------------------------------------------------------------- re-deriving gen answers

def derive(c: Case, time_limit: float = 10.0) -> tuple[Any, dict]:
    """The gen answer of the item's question, computed by the encodings, and its evidence; raises
    `Undecided` when a limit leaves it open."""
    return entry(c.task).derive(c, time_limit)


class Undecided(Exception):
    """A limit (time, planner calls) left the answer open, or part of it: the message names what is
    open (each undecided fact or action with why), `found` the disagreements among what was decided."""

    def __init__(self, why: str, found: list[str] | None = None):
        super().__init__(why)
        self.found = list(found or [])


def open_parts(undecided: dict, found: list[str]) -> None:
    """Raise `Undecided` naming every undecided part (`{part: why}`), with the disagreements found
    among the decided ones; nothing when all are decided."""
    if undecided:
        raise Undecided(f"{len(undecided)} undecided: " + "; ".join(f"{x} ({why})" for x, why in undecided.items()),
                        found)


# ---------------------------------------------------------------- comparing with the item's answer

def norm(x) -> str:
    """An action or atom as compared: lower case, single spaces, no outer parentheses."""
    return " ".join(str(x).lower().strip().strip("()").split())


def norm_list(xs) -> list[str]:
    return sorted(norm(x) for x in xs)


def check(c: Case, time_limit: float = 10.0) -> list[str]:
    """Where the item's gen answer and the encodings disagree, in words (empty when they agree).

    Complete answers (app, prog, val, just, verify, count, value; and every list of our own items)
    are re-derived and compared. ACPBench's reach, areach and land lists are samples of correct
    answers (its evaluator runs a planner on any other answer), and its nexta lists some optimal
    first actions (`maybe`: undecided ones): there the task's entry checks each listed atom, action
    and fact (`TaskEntry.check`)."""
    if c.form is not Form.GEN:
        raise Undecided("only gen items carry an answer to re-derive")
    spec = entry(c.task)
    if spec.check is not None:
        return spec.check(c, time_limit)
    derived, _ = derive(c, time_limit)
    return disagreements(c, derived)


def disagreements(c: Case, derived: Any) -> list[str]:
    """Where a complete gen answer and the derived one differ (empty when they agree): by the task's
    `compare`, else a list as a set and anything else as text."""
    gold = c.item["answer"]
    compare = entry(c.task).compare
    if compare is not None:
        return compare(gold, derived)
    if isinstance(gold, list):
        return set_diff(set(norm_list(gold)), set(norm_list(derived)))
    return [] if str(gold).lower() == str(derived).lower() else [f"the gold says {gold}, the encodings {derived}"]


def compare_lists(*keys: str) -> Callable[[Any, Any], list[str]]:
    """`compare` of an answer that is a dict of lists (`pos`/`neg`, `yes`/`no`): each list as a set."""
    def compare(gold: dict, derived: dict) -> list[str]:
        return [f"{k}: " + "; ".join(set_diff(set(norm_list(gold[k])), set(norm_list(derived[k]))))
                for k in keys if set(norm_list(gold[k])) != set(norm_list(derived[k]))]
    return compare


def set_diff(gold: set, ours: set) -> list[str]:
    """What only the gold has and what only the encodings have, in words."""
    out = []
    if gold - ours:
        out.append("only in the gold: " + ", ".join(map(_show, sorted(gold - ours))))
    if ours - gold:
        out.append("only by the encodings: " + ", ".join(map(_show, sorted(ours - gold))))
    return out


def _show(x) -> str:
    return f"({x})" if isinstance(x, str) else str(list(x))


__all__ = ["Items", "load_items", "problem_of", "Case", "case_of", "quoted", "derive", "check", "disagreements",
           "compare_lists", "set_diff", "norm", "norm_list", "Undecided", "open_parts"]
