"""Scoring a learned model with broken definitions (tests/data/broken): compare scores the reference action
of a broken one as missing and says so, eval never applies it, solve plans without it; `--lenient-reference`
reads a flawed reference so. Error-free models keep their results (tests/golden)."""

from __future__ import annotations

import shutil
import warnings

import pytest

from amlasp.errors import InputError, InputWarning
from amlasp.metrics.compare import compare
from amlasp.metrics.compare.many import compare_candidates
from amlasp.metrics.evaluate import evaluate
from amlasp.metrics.solve import solve
from amlasp.pddl.parse import load_lenient
from tests.pddl.test_recover import BROKEN, CASES

pytestmark = pytest.mark.filterwarnings("ignore::amlasp.errors.InputWarning")

REFERENCE = BROKEN / "reference.pddl"
STATES, PROBLEM = BROKEN / "states", BROKEN / "problem.pddl"
#: The literals of each reference action (preconditions and effects): all false negatives when it is missing.
LITERALS = {"pick_up": 7, "put_down": 5, "stack": 7, "unstack": 8}
#: What compare reads in a learned model as what its use fixes (an undeclared predicate, constant, type), so
#: that nothing is broken there: a predicate, a constant and a type only the learned model has.
READ_BY_A_REPAIR = {"undeclared-predicate", "unknown-constant", "bad-constant", "bad-predicate"}


@pytest.mark.parametrize("name", sorted(CASES))
def test_compare_scores_a_broken_action_as_missing_and_says_it(name):
    kind, what, error, line, col, message = CASES[name]
    result = compare(BROKEN / f"{name}.pddl", REFERENCE)
    rows = {a.action: a for a in result.actions}
    if name in READ_BY_A_REPAIR:  # compare declares it from its use (docs/input.md, "What is repaired")
        assert result.broken == () and all(row.learned == action for action, row in rows.items())
        return
    (b,) = result.broken
    assert (b.kind, b.name, b.error, b.line, b.col, b.message) == (kind, what, error, line, col, message)
    for action, row in rows.items():
        if kind == "action" and action == what:
            assert (row.learned, row.broken) == (None, b)
            assert (row.all.tp, row.all.fp, row.all.fn) == (0, 0, LITERALS[action])
        else:
            assert row.equivalent and row.broken is None
    summary = result.summary()
    assert summary["broken_actions"] == (kind == "action")
    assert summary["missing_actions"] == (kind == "action")
    d = result.to_dict()
    assert d["broken"] == [b.to_dict()] and [a["broken"] is not None for a in d["actions"]] == [
        kind == "action" and a == what for a in rows]
    frame = result.to_frame()
    assert list(frame.columns)[-1] == "broken"
    assert list(frame["broken"]) == [f"{error} at {b.location}" if kind == "action" and a == what else ""
                                     for a in rows]


def test_an_error_free_model_has_no_broken_field():
    result = compare(REFERENCE, REFERENCE)
    assert result.broken == () and "broken_actions" not in result.summary()
    assert "broken" not in result.to_dict() and "broken" not in result.to_frame().columns
    assert all("broken" not in a for a in result.to_dict()["actions"])


def test_a_folder_of_candidates_counts_broken_actions_per_error_class(tmp_path):
    for name in ("undeclared-variable", "wrong-arity", "condition-as-effect", "reference"):
        shutil.copy(BROKEN / f"{name}.pddl", tmp_path / f"{name}.pddl")
    (tmp_path / "zz-unreadable.pddl").write_text("(define (domain blocksworld) (:predicates (p)")
    batch = compare_candidates(tmp_path, REFERENCE)
    rows = {r["candidate"].rsplit("/", 1)[-1]: r for r in batch.records()}
    assert [rows[f]["status"] for f in sorted(rows)] == ["ok", "ok", "ok", "ok", "error"]
    assert rows["wrong-arity.pddl"]["broken_actions"] == 1 and rows["wrong-arity.pddl"]["broken"] == \
        "put_down:wrong-arity"
    assert rows["reference.pddl"]["broken_actions"] == 0
    s = batch.summary()
    assert (s["broken_actions"], s["broken_undeclared-variable"], s["broken_wrong-arity"],
            s["broken_condition-as-effect"], s["failed_syntax"] + s["failed_other"]) == (3, 1, 1, 1, 1)


def test_a_folder_of_error_free_candidates_has_the_columns_it_had(tmp_path):
    shutil.copy(REFERENCE, tmp_path / "a.pddl")
    batch = compare_candidates(tmp_path, REFERENCE)
    assert "broken_actions" not in batch.columns and "broken_actions" not in batch.summary()


def test_eval_never_applies_a_broken_action():
    fine = {a.action: a for a in evaluate(REFERENCE, REFERENCE, STATES, problems=BROKEN).actions}
    ev = evaluate(BROKEN / "undeclared-variable.pddl", REFERENCE, STATES, problems=BROKEN)
    rows = {a.action: a for a in ev.actions}
    pick = rows["pick_up"]
    assert (pick.in_learned, pick.broken.error, pick.broken.line) == (False, "undeclared-variable", 13)
    assert fine["pick_up"].applicability.tp == 11
    assert (pick.applicability.tp, pick.applicability.fp, pick.applicability.fn) == (0, 0, 11)
    assert all(rows[a] == fine[a] for a in ("put_down", "stack", "unstack"))
    assert ev.summary()["broken_actions"] == 1 and ev.to_dict()["broken"][0]["name"] == "pick_up"
    assert list(ev.to_frame()["broken"]) == ["undeclared-variable at " + pick.broken.location, "", "", ""]
    assert "broken" not in evaluate(REFERENCE, REFERENCE, STATES, problems=BROKEN).to_dict()


def test_solve_plans_with_the_actions_the_learned_model_has():
    result = solve(BROKEN / "undeclared-type.pddl", REFERENCE, PROBLEM)  # stack broken: b2 on b1 is out of reach
    assert [b.name for b in result.broken] == ["stack"] and result.summary()["broken_actions"] == 1
    assert [p.status.value for p in result.problems] == ["no_plan"]
    fine = solve(REFERENCE, REFERENCE, PROBLEM)
    assert [p.status.value for p in fine.problems] == ["solved"] and "broken" not in fine.to_dict()


def test_solve_under_strict_warnings_refuses_the_broken_model():
    with warnings.catch_warnings():
        warnings.simplefilter("error", InputWarning)
        with pytest.raises(InputWarning, match="undeclared type 'blok'"):
            solve(BROKEN / "undeclared-type.pddl", REFERENCE, PROBLEM)


def test_a_flawed_reference_is_refused_unless_read_leniently(tmp_path):
    flawed = tmp_path / "flawed.pddl"
    flawed.write_text(REFERENCE.read_text().replace("(:types block)", "").replace(
        "(holding ?x - block)", "").replace(":precondition (holding ?x)", ":precondition (and (holding ?x) (hand))"))
    with pytest.raises(InputError):
        compare(REFERENCE, flawed)
    result = compare(REFERENCE, flawed, lenient_reference=True)
    said = " ".join(result.warnings)
    assert "type 'block' is used (line 4, column 25) but never declared (read as a subtype of object)" in said
    assert "predicate 'holding' is used (line 18) but never declared" in said
    assert "predicate 'hand' is used (line 22) but never declared" in said
    assert [a.action for a in result.actions] == ["pick_up", "put_down", "stack", "unstack"]
    assert [a.action for a in result.actions if a.equivalent] == ["pick_up", "stack", "unstack"]
    ev = evaluate(REFERENCE, flawed, STATES, problems=BROKEN, lenient_reference=True)
    assert [a.action for a in ev.actions] == ["pick_up", "put_down", "stack", "unstack"]


def test_a_broken_reference_action_is_dropped_from_the_scoring_when_read_leniently():
    with pytest.raises(InputError):
        compare(REFERENCE, BROKEN / "wrong-arity.pddl")
    with warnings.catch_warnings(record=True) as said:  # (compare reads in a child process: its warnings are its own)
        warnings.simplefilter("always")
        load_lenient(BROKEN / "wrong-arity.pddl")
    assert any("(action 'put_down' is not scored)" in str(w.message) for w in said)
    result = compare(REFERENCE, BROKEN / "wrong-arity.pddl", lenient_reference=True)
    assert [a.action for a in result.actions] == ["pick_up", "stack", "unstack"]
    assert [e.action for e in result.extra_actions] == ["put_down"]


def test_a_broken_derived_rule_is_its_action_scored_as_missing(tmp_path):
    text = """(define (domain d) (:requirements :strips :derived-predicates)
      (:predicates (p ?x) (q ?x))
      (:derived (q ?x) (p ?x))
      (:action a :parameters (?x) :precondition (q ?x) :effect (not (p ?x))))"""
    (tmp_path / "ref.pddl").write_text(text)
    (tmp_path / "learned.pddl").write_text(text.replace("(:derived (q ?x) (p ?x))", "(:derived (q ?x) (p ?y))"))
    result = compare(tmp_path / "learned.pddl", tmp_path / "ref.pddl")
    rows = {a.action: a for a in result.actions}
    assert (rows["q-derived"].learned, rows["q-derived"].broken.error) == (None, "undeclared-variable")
    assert rows["a"].equivalent and result.summary()["broken_actions"] == 1
