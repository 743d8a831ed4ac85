"""amlasp/pddl/lenient.py (`validate --lenient`, issue 32, item 2): the corpus of tests/data/plans_lenient/, one
plan file per form a language model writes (expected.json: the repairs each needs, by kind), each meaning the
plan of valid.intended on examples/blocksworld; read strictly, none of them is that plan."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from amlasp.pddl.lenient import KINDS
from amlasp.pddl.parse import load_domain, load_problem
from amlasp.pddl.plans import load_plan, read_plan, read_plan_text
from tests.support.paths import DATA, EXAMPLES

CORPUS = DATA / "plans_lenient"
EXPECTED = json.loads((CORPUS / "expected.json").read_text())
EX = EXAMPLES / "blocksworld"
D = load_domain(EX / "domain.pddl")
P = load_problem(EX / "problem.pddl", D)
INTENDED = read_plan(CORPUS / "valid.intended", D, P)


def test_the_corpus_has_every_kind_of_repair():
    assert set(KINDS) == {k for kinds in EXPECTED.values() for k in kinds}
    assert sorted(EXPECTED) == sorted(f.name for f in CORPUS.glob("*.plan"))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_form_reads_leniently_as_its_intended_plan_and_strictly_as_none(name):
    lenient = load_plan(CORPUS / name, D, P, lenient=True)
    assert lenient.error is None and list(lenient.steps) == INTENDED
    assert dict(Counter(r.kind for r in lenient.repairs)) == EXPECTED[name]
    assert all(r.before != r.after for r in lenient.repairs)
    strict = load_plan(CORPUS / name, D, P)
    assert strict.error is not None or list(strict.steps) != INTENDED
    assert strict.repairs == ()


def test_a_repair_says_where_and_what():
    reading = read_plan_text("1. unstack(b3, b1)\n(Put-Down b3)\n", D, P, "x.plan", lenient=True)
    assert [r.to_dict() for r in reading.repairs] == [
        {"line": 1, "kind": "number", "before": "1. unstack(b3, b1)", "after": "unstack(b3, b1)"},
        {"line": 1, "kind": "parentheses", "before": "unstack(b3, b1)", "after": "(unstack b3, b1)"},
        {"line": 1, "kind": "commas", "before": "(unstack b3, b1)", "after": "(unstack b3 b1)"},
        {"line": 2, "kind": "case", "before": "(Put-Down b3)", "after": "(put_down b3)"}]


@pytest.mark.parametrize("text,words", [
    ("(unstack b3 b1 b2)\n", "takes 2 argument(s), 3 given"),  # an extra argument: never dropped
    ("(unstack b3)\n", "takes 2 argument(s), 1 given"),
    ("no plan is possible\n", "got 'no plan is possible'"),  # no action's name: not taken for an action
    ("fly b3 b1\n", "got 'fly b3 b1'"),
    ("(unstack b3 b1)\nCost: 8\n(put_down b3)\n", "got 'Cost: 8'"),  # a cost line only after the last step
    ("(unstack b3 b1) (put_down b3)\n", ""),  # two actions on a line: no guess
])
def test_what_is_not_clearly_one_plan_is_left_for_the_strict_reader_to_refuse(text, words):
    reading = read_plan_text(text, D, P, "x.plan", lenient=True)
    assert reading.error is not None and words in reading.error.message, reading


def test_an_unreadable_line_keeps_the_repairs_before_it_only():
    reading = read_plan_text("1. (unstack b3 b1)\nfoo bar\n3. (put_down b3)\n", D, P, "x.plan", lenient=True)
    assert len(reading.steps) == 1 and reading.error.line == 2 and [r.line for r in reading.repairs] == [1]
