"""Grading: the gold answers score 1; wrong answers are wrong for the stated reason; free text is read
semantically (PDDL with case and spacing forgiven, English, a witness plan, any optimal next action)."""

from __future__ import annotations

import json

import pytest

from amlasp.questions.generate import Options, generate, load_sources
from amlasp.questions.gold import load_items
from amlasp.questions.grade import grade
from amlasp.questions.items import Form, Task
from amlasp.questions.language import Phrasebook
from amlasp.questions.templates import templates_for
from tests.support.acpbench import ACP
from tests.support.ipc import reference, small_problem

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def ferry():
    sources = load_sources(reference("ferry"), [small_problem("ferry")])
    g = generate(sources, Options(per_task=2, seed=5, depth=(1, 4)))
    return [i.to_dict() for i in g.items], sources[0]


def by(items, task, form):
    return [i for i in items if i["task"] == task and i["form"] == form]


def test_gold_answers_score_one_everywhere(ferry):
    items, _ = ferry
    g = grade(items, {str(i["id"]): i["answer"] for i in items})
    assert g.results and all(r.correct for r in g.results), g.wrong_rows()
    table = g.table()
    assert {(r["task"], r["form"]) for r in table} >= {(str(t), str(f)) for t in (Task.APP, Task.NEXTA, Task.VERIFY)
                                                       for f in Form}
    assert table[-1]["accuracy"] == 1.0


def test_missing_and_unknown_answers(ferry):
    items, _ = ferry
    g = grade(items[:3], {"12345": "yes"})
    assert [r.reason for r in g.results] == ["The item has no answer."] * 3 and g.unknown_answers == ["12345"]


def test_accuracy_is_over_answered_items_and_coverage_apart(ferry):
    """Unanswered items lower coverage, not accuracy, and do not fill the wrong-answers table."""
    items, _ = ferry
    first = items[0]
    g = grade(items[:4], {str(first["id"]): first["answer"]})
    total = g.table()[-1]
    assert total["items"] == 4 and total["answered"] == 1 and total["coverage"] == 0.25
    assert total["accuracy"] == 1.0 and g.wrong_rows() == []


def test_app_set_answers_partial_credit_and_reasons(ferry):
    items, _ = ferry
    item = by(items, "app", "gen")[0]
    gold = item["answer"]
    # upper case, spacing, one missing, one inapplicable
    answer = " ".join(a.upper().replace(" ", "  ") for a in gold[1:]) + " (sail l9 l9) (fly away)"
    g = grade([item], {str(item["id"]): answer})
    (r,) = g.results
    assert not r.correct and "the answer leaves out the applicable action " + gold[0] in r.reason
    assert "(sail l9 l9) names l9, which is no object of the problem" in r.reason
    assert "The answer's 'fly away' is not an action of this problem" in r.reason
    assert r.recall == pytest.approx((len(gold) - 1) / len(gold))
    assert r.precision == pytest.approx((len(gold) - 1) / len(gold))
    wrong = "(debark c0 l0)" if "(debark c0 l0)" not in gold else "(debark c1 l0)"
    r2 = grade([item], {str(item["id"]): gold + [wrong]}).results[0]
    assert not r2.correct and f"{wrong} is not applicable in the state: " in r2.reason and " is false" in r2.reason
    assert r2.precision < 1.0 and r2.recall == 1.0


def test_english_answers_are_read_with_the_templates(ferry):
    items, source = ferry
    book = Phrasebook(source.domain, templates_for(source.domain))
    item = by(items, "app", "gen")[0]
    from tests.support.notation import actions as read_actions
    english = "; ".join(book.action(a) for a in read_actions(" ".join(item["answer"])))
    assert grade([item], {str(item["id"]): english}).results[0].correct
    b = by(items, "app", "bool")[0]
    said = "Yes, it is." if b["answer"] == "yes" else "No."
    assert grade([b], {str(b["id"]): said}).results[0].correct
    m = by(items, "val", "mcq")[0]
    label = m["answer"]
    text = m["choices"]["text"]["ABCD".index(label)]
    assert grade([m], {str(m["id"]): f"The answer is ({label})"}).results[0].correct
    assert grade([m], {str(m["id"]): text}).results[0].correct


def test_nexta_accepts_any_optimal_first_action_and_explains_others(ferry):
    items, _ = ferry
    for item in by(items, "nexta", "gen"):
        for a in item["answer"]["yes"]:
            assert grade([item], {str(item["id"]): a}).results[0].correct
        for a in item["answer"]["no"]:
            r = grade([item], {str(item["id"]): a}).results[0]
            assert not r.correct and "starts no shortest plan" in r.reason


def test_reach_accepts_a_witness_plan(ferry):
    items, _ = ferry
    yes = [i for i in by(items, "reach", "bool") + by(items, "areach", "bool") if i["answer"] == "yes"]
    assert yes
    for item in yes:
        witness = " ".join(item["evidence"]["witness"])
        assert grade([item], {str(item["id"]): f"yes: {witness}" if witness else "yes"}).results[0].correct
    item = next((i for i in yes if i["evidence"]["witness"]), None)
    if item is not None:
        broken = "(debark c9 l9) " + " ".join(item["evidence"]["witness"])
        r = grade([item], {str(item["id"]): broken}).results[0]
        assert not r.correct


def test_acpbench_files_graded_and_gold_checked():
    """ACPBench's own gen files: the gold answers graded right (its free-form answers are read as ACPBench
    writes them), and the gold answers of the app file re-derived with no disagreement."""
    for task in ("app", "val", "nexta", "land"):
        items = load_items(ACP / task / "dev.gen.json")[:8]
        answers = {}
        for i in items:
            a = i["answer"]
            answers[str(i["id"])] = a["yes"][0] if task in ("nexta", "land") and a["yes"] else \
                "None" if task == "land" else a
        g = grade(items, answers)
        assert all(r.correct for r in g.results), (task, g.wrong_rows())
    g = grade(load_items(ACP / "app" / "dev.gen.json"), {}, check_gold=True)
    assert g.gold == [] and not g.results


def test_just_accepts_a_shortened_plan_or_a_removal(ferry):
    items, _ = ferry
    for item in by(items, "just", "gen"):
        plan = item["evidence"]["plan"]
        i = item["evidence"]["removable_pairs"][0] if item["evidence"]["removable_pairs"] else None
        if i is not None:
            shorter = plan[:i] + plan[i + 2:]
            assert grade([item], {str(item["id"]): " ".join(shorter)}).results[0].correct
        r = grade([item], {str(item["id"]): " ".join(plan[1:-1] if len(plan) > 3 else plan)}).results[0]
        assert not r.correct


def test_report_formats(ferry):
    from amlasp.render.formats import Format
    from amlasp.render.questions import grades_text
    items, _ = ferry
    g = grade(items, {str(i["id"]): "no" for i in items})
    data = json.loads(grades_text(g, Format.JSON))
    assert data["accuracy"][-1]["task"] == "all" and data["wrong"]
    assert grades_text(g, Format.CSV).startswith("task,form,items,answered,correct,ambiguous,accuracy,coverage")
    assert "| task |" in grades_text(g, Format.MARKDOWN)
    assert "\\begin{tabular}" in grades_text(g, Format.LATEX)


def test_land_answer_naming_several_facts_gets_partial_credit(ferry):
    items, _ = ferry
    item = next(i for i in by(items, "land", "gen") if len(i["answer"]["yes"]) >= 2 and i["answer"]["no"])
    yes, no = item["answer"]["yes"], item["answer"]["no"]
    r = grade([item], {str(item["id"]): " ".join(yes)}).results[0]
    assert r.correct and r.precision == 1.0 and r.recall == 1.0
    r = grade([item], {str(item["id"]): " ".join(yes[:1] + no[:1])}).results[0]
    assert not r.correct and r.precision == 0.5 and r.recall == pytest.approx(1 / len(yes))
    assert f"{no[0]} is not a landmark: a plan of" in r.reason


def test_gold_disagreements_are_reported():
    """An ACPBench app item whose gold list lost an action and gained a wrong one: both named."""
    items = load_items(ACP / "app" / "dev.gen.json")[:2]
    dropped = items[1]["answer"].pop(0)
    items[1]["answer"].append("(fly nowhere)")
    g = grade(items, {}, check_gold=True)
    assert {d["id"] for d in g.gold} == {items[1]["id"]}
    text = "; ".join(d["disagreement"] for d in g.gold)
    assert "only in the gold: (fly nowhere)" in text and f"only by the encodings: {dropped}" in text


def test_yes_no_reasons_name_the_failing_step(ferry):
    items, _ = ferry
    val = next(i for i in by(items, "val", "bool") if i["answer"] == "no")
    j = val["evidence"]["first_inapplicable"]
    step = val["evidence"]["sequence"].split(") (")[j].strip("()")
    r = grade([val], {str(val["id"]): "Yes, it can."}).results[0]
    assert not r.correct and r.reason.startswith(f"The right answer is no: step {j + 1}, ({step}), is not applicable: ")
    assert r.reason.endswith(" is false")


#: wrong answers of every kind, per form: what a grader must explain
WRONG = {"gen": ["blah blah", "", "(sail l9 l0)", "(debark c0 l0) (board c1 l2)", "None", "7",
                 "[(at c0 l0)] [(on c0)]"],
         "bool": ["maybe", "yes, but maybe no", "Yes.", "No."], "mcq": ["E", "B or C", "A", "D"]}


def test_every_reason_is_a_sentence_a_reader_understands(ferry):
    """Every verdict's reason, for every task and form, on a sample of wrong answers of every kind: a
    sentence (capital, full stop), no code's shorthand ("missing:", "cannot read", "undecided:", "(s)", an
    empty quote), and an empty answer said to be empty."""
    items, _ = ferry
    cases = [({**i, "id": f"{i['id']}-{k}"}, w) for i in items for k, w in enumerate(WRONG[i["form"]])]
    g = grade([c for c, _ in cases], {str(c["id"]): w for c, w in cases})
    rows = g.wrong_rows()
    assert {(r["task"], r["form"]) for r in rows} >= {(str(t), str(f)) for t in (Task.APP, Task.NEXTA, Task.LAND)
                                                     for f in Form}
    for r in rows:
        why = r["reason"]
        assert why[0].isupper() or why.startswith("("), r
        assert why.endswith("."), r
        assert not any(s in why for s in ("missing:", "cannot read", "undecided:", "(s)", "''", "  ", ": .")), r
        if r["answer"] == "" and r["task"] in ("nexta", "reach", "areach", "land"):  # (an empty set of actions
            assert why == "The answer is empty.", r  # is an app answer: "none is applicable")
    reasons = {r["reason"] for r in rows}
    assert "The answer is ambiguous: it says both yes and no." in reasons
    assert "The answer says neither yes nor no." in reasons
    assert any(x.startswith("The answer gives no index.") for x in reasons)
