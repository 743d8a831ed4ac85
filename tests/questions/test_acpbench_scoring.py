"""`grade --scoring acpbench`: ACPBench's own evaluator reimplemented (questions/acpbench.py). Gold answers
written as its models write them score 1; its quirks are kept (a -1 val answer never parses; an mcq
answer "Answer: b)" is read as the first capital-or-lower A-D letter); exact scoring stays beside it."""

from __future__ import annotations

import pytest

from amlasp.questions.acpbench import parse
from amlasp.questions.gold import load_items
from amlasp.questions.grade import grade
from amlasp.questions.items import Task
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


MAYBE_ITEM = "6017629270997064125"  # a logistics nexta item whose `maybe` list holds an optimal first action


def test_nexta_maybe_is_decided_by_optimal_searches_under_acpbench_time_limit():
    """ACPBench's `is_on_optimal_plan` gives a `maybe` answer one optimal search of 5 s from its successor
    (and one from the state when the item has no `opt`); a search that does not end in time scores 0."""
    item = next(i for i in items("nexta") if str(i["id"]) == MAYBE_ITEM)
    right, wrong = "(DRIVE-TRUCK t1 l1-1 l1-0 c1)", "(FLY-AIRPLANE a0 l1-0 l1-0)"
    assert right in item["answer"]["maybe"] and wrong in item["answer"]["maybe"]
    no_opt = {**item, "answer": {k: v for k, v in item["answer"].items() if k != "opt"}}
    g = grade([item, {**item, "id": 2}, {**no_opt, "id": 3}], {MAYBE_ITEM: right, "2": wrong, "3": right},
              scoring="acpbench")
    assert [r.correct for r in g.results] == [True, False, True], g.wrong_rows()
    assert "the shortest plan after it has" in g.results[1].reason and g.results[1].reason.endswith(".")
    (late,) = grade([item], {MAYBE_ITEM: right}, scoring="acpbench", acpbench_seconds=0.001).results
    assert not late.correct and "no optimal plan from its successor was found within 0.001 s" in late.reason


def test_reach_planner_limit_defaults_to_acpbench_and_a_timeout_scores_zero(monkeypatch):
    """reach and areach: an unlisted answer scores 1 only if the planner proves it impossible within its
    limit (ACPBench: 3 s); a planner stopped by the limit scores 0, as its `is_unsolvable` returns False."""
    from amlasp.enums import Verdict
    from amlasp.questions import decide
    from amlasp.questions.acpbench import PLANNER_SECONDS
    from amlasp.questions.decide import Decision
    item = next(i for i in items("reach") if i["answer"])
    limits = []

    def stopped(self, f, planner=True, mutex=True):
        limits.append((self.time_limit, self.calls_left))
        return Decision(Verdict.UNKNOWN, f"time limit of {self.time_limit:g} s reached")
    monkeypatch.setattr(decide.Reachability, "atom", stopped)
    from amlasp.questions.gold import case_of
    from amlasp.questions.universe import Universe
    c = case_of(item)
    listed = {" ".join(x.lower().split()) for x in item["answer"]}
    unlisted = next(str(a) for p in c.domain.predicates for a in Universe(c.domain, c.problem).atoms(p.name)
                    if str(a).strip("()").lower() not in listed)
    (r,) = grade([item], {str(item["id"]): unlisted}, scoring="acpbench").results
    assert not r.correct and limits == [(PLANNER_SECONDS[Task.REACH], 1)] == [(3.0, 1)]
    assert "no planner proves it impossible within 3 s" in r.reason, r.reason
    grade([item], {str(item["id"]): unlisted}, scoring="acpbench", acpbench_seconds=7)
    assert limits[-1] == (7, 1)
