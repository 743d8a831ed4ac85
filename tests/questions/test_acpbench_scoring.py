"""`grade --scoring acpbench`: ACPBench's own evaluator reimplemented (questions/acpbench.py). Gold answers
written as its models write them score 1; its quirks are kept (a -1 val answer never parses; an mcq
answer "Answer: b)" is read as the first capital-or-lower A-D letter); exact scoring stays beside it."""

from __future__ import annotations

import pytest

from amlasp.questions.acpbench import parse
from amlasp.questions.gold import load_items
from amlasp.questions.grade import grade
from tests.support.acpbench import ACP

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def items(task: str) -> list[dict]:
    return list(load_items(ACP / task / "dev.gen.json"))


def written(item: dict) -> str:
    """The item's gold answer as ACPBench's models are asked to write it."""
    a, task = item["answer"], item["task"]
    if task == "app":
        return " ".join(a)
    if task == "prog":
        return "[" + ", ".join(a["pos"]) + "] [" + ", ".join(a["neg"]) + "]"
    if task in ("reach", "areach"):
        return "None" if not a else (a[0] if a[0].startswith("(") else f"({a[0]})")
    if task == "land":
        return a["yes"][0] if a["yes"] else "None"
    if task == "nexta":
        return a["yes"][0]
    return str(a)


@pytest.mark.parametrize("task", ["app", "prog", "reach", "areach", "land", "nexta", "val"])
def test_gold_answers_score_one_as_acpbench_writes_them(task):
    its = items(task)[:10]
    g = grade(its, {str(i["id"]): written(i) for i in its}, scoring="acpbench")
    for r, item in zip(g.results, its):
        if task == "val" and int(item["answer"]) == -1:
            assert not r.correct  # its index grammar cannot read "None", nor "-1"
        else:
            assert r.correct, (item["id"], r.reason)


def test_just_needs_a_strictly_shorter_valid_subsequence():
    item = items("just")[0]
    plan = item["question"][19:-147]
    g = grade([item], {str(item["id"]): plan}, scoring="acpbench")
    assert not g.results[0].correct  # the whole plan is not shorter
    steps = plan.replace(") (", ")|(").split("|")
    first, second = item["answer"][0][:2]
    i = next(k for k in range(len(steps) - 1) if steps[k:k + 2] == [first, second])
    shorter = " ".join(steps[:i] + steps[i + 2:])
    g = grade([item], {str(item["id"]): shorter}, scoring="acpbench")
    assert g.results[0].correct, g.results[0].reason


def test_parser_and_its_recovery():
    assert parse("(a b) (c d)", "action_list") == ["(a b)", "(c d)"]
    assert parse("[(a b),(c)][(d)]", "progression_list") == [["(a b)", "(c)"], ["(d)"]]
    assert parse("(sail l1 l0", "action_name") == "(sail l1 l0)"  # the missing parenthesis supplied
    assert parse("None", "act") == "None" and parse("None", "index") is None


def test_scorings_differ_where_acpbench_reads_text_literally():
    item = {"id": 1, "task": "app", "form": "mcq", "answer": "B", "question": "Which?",
            "choices": {"text": ["w", "x", "y", "z"], "label": ["A", "B", "C", "D"]}}
    answers = {"1": "Answer: b) x"}
    assert grade([item], answers).results[0].correct
    assert not grade([item], answers, scoring="acpbench").results[0].correct  # its pattern finds the "A" of "Answer"
    boolean = {"id": 2, "task": "app", "form": "bool", "answer": "yes", "question": "Is it?"}
    assert grade([boolean], {"2": "The answer is yes."}, scoring="acpbench").results[0].correct
    app = items("app")[0]
    english = {str(app["id"]): "; ".join(app["answer"]).replace("(", "").replace(")", "")}
    assert not grade([app], english, scoring="acpbench").results[0].correct  # no parentheses: a parser error
