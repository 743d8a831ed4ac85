"""Items are input: duplicate ids, PDDL that is not text and malformed gold answers are refused at the
item's line (exit 2), never graded silently or ended in a traceback (gold.load_items)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.support import cli
from tests.support.paths import EXAMPLES

QX = EXAMPLES / "questions"


def _items() -> list[dict]:
    return [json.loads(line) for line in (QX / "items.jsonl").read_text().splitlines()]


def _write(path: Path, rows: list) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def _first(items: list[dict], form: str, task: str | None = None) -> int:
    return next(i for i, x in enumerate(items) if x["form"] == form and (task is None or x["task"] == task))


def _bad(items: list[dict], k: int, **change) -> list[dict]:
    out = [dict(x) for x in items]
    out[k].update(change)
    return out


CASES = {
    "duplicate id": (lambda it: it[:3] + [dict(it[1])] + it[3:], 4,
                     "a second item with id {id} (the first is on line 2)"),
    "PDDL_domain 12": (lambda it: _bad(it, 0, PDDL_domain=12), 1, "item {id}: PDDL_domain and PDDL_problem must"),
    "bool gold": (lambda it: _bad(it, _first(it, "bool"), answer="perhaps"), None,
                  "item {id}: a yes/no item's gold answer is"),
    "mcq gold": (lambda it: _bad(it, _first(it, "mcq"), answer="E"), None,
                 "item {id}: a multiple-choice item's gold answer is a label"),
    "gen gold": (lambda it: _bad(it, _first(it, "gen"), answer=[{"x": 1}]), None,
                 "item {id}: the gold answer [{{'x': 1}}] is not an answer's shape"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_malformed_items_are_refused_at_their_line(case, tmp_path):
    make, line, message = CASES[case]
    items = _items()
    bad = make(items)
    if line is None:
        k = next(i for i, (a, b) in enumerate(zip(items, bad)) if a != b)
        line = k + 1
    path = _write(tmp_path / "items.jsonl", bad)
    want = f"amlasp: error: {path}:{line}:1: " + message.format(id=bad[line - 1]["id"])
    strict = cli.run("--strict", "questions", "grade", path, QX / "answers.jsonl")
    assert strict.exit_code == 2, (strict.exit_code, strict.stderr)
    assert strict.stderr.startswith(want) and strict.stderr.count("\n") == 1, strict.stderr
    r = cli.run("questions", "grade", path, QX / "answers.jsonl")
    assert r.exit_code == 2, (r.exit_code, r.stderr)
    if case == "duplicate id":  # which of two items an answer is for is not ours to guess: refused whole
        assert r.stderr == strict.stderr
    else:  # the item is a row of status error, the others graded (docs/input.md, "Many inputs: partial runs")
        lines = r.stderr.splitlines()
        assert any(x.startswith(want) for x in lines) and "could not be read (status error)" in lines[-1]


def test_duplicate_answer_ids_are_refused(tmp_path):
    answers = (QX / "answers.jsonl").read_text().splitlines()
    path = tmp_path / "answers.jsonl"
    path.write_text("\n".join(answers + [answers[1]]) + "\n")
    r = cli.run("questions", "grade", QX / "items.jsonl", path)
    assert r.exit_code == 2
    key = json.loads(answers[1])["id"]
    assert re.fullmatch(rf"amlasp: error: {re.escape(str(path))}:{len(answers) + 1}:1: a second answer to id "
                        rf"{key} \(the first is on line 2\)\n", r.stderr), r.stderr


def test_a_gold_answer_only_the_grader_finds_wrong_makes_its_item_unreadable(tmp_path):
    """A gen gold answer of another task's shape passes the shape check but not the grader: that item is
    reported unreadable at its line (not graded, never silently), the rest of the file is graded, and
    `--strict` makes it an error."""
    items = _items()
    bad = _bad(items, _first(items, "gen", "prog"), answer=["(at_ferry l0)"])
    k = next(i for i, (a, b) in enumerate(zip(items, bad)) if a != b)
    path = _write(tmp_path / "items.jsonl", bad)
    r = cli.run("questions", "grade", path, QX / "answers.jsonl")
    assert r.exit_code == 2, (r.exit_code, r.stderr)  # graded, and said: an item could not be read
    assert f"{path}:{k + 1}:1: item {bad[k]['id']}: the gold answer" in r.stderr and "not graded" in r.stderr
    strict = cli.run("--strict", "questions", "grade", path, QX / "answers.jsonl")
    assert strict.exit_code == 2 and f"{path}:{k + 1}:1: item {bad[k]['id']}: the gold answer" in strict.stderr

