"""Inconsistent or leniently read inputs are said, not silently accepted (issue 10).

Each is a warning (`amlasp.errors.InputWarning` through Python's warnings; `amlasp: warning:` on
the command line) and an error under `amlasp --strict` (exit 2): a problem naming another domain,
a trajectory that its problem or the reference contradicts, a learned model's undeclared
predicate (compare and eval score it; solve keeps refusing the model), and every leniency the
README lists."""

from __future__ import annotations

import re
import shutil

import pytest

import amlasp
from amlasp.errors import InputWarning
from amlasp.pddl.parse import load_problem, parse_domain
from tests.support.cli import run
from tests.support.paths import EXAMPLES, IPC, ROOT

BW = EXAMPLES / "blocksworld"
NOLAM, DOMAINS = IPC / "learned" / "nolam", IPC / "domains"
TRAJ, PROBS = IPC / "trajectories" / "learning" / "ferry", IPC / "problems" / "learning" / "ferry"


def warnings_of(stderr: str) -> list[str]:
    return [x for x in stderr.splitlines() if x.startswith("amlasp: warning: ")]


# ----------------------------------------------------------------------------- a problem of another domain

@pytest.fixture
def other_domain_problem(tmp_path):
    p = tmp_path / "problem.pddl"
    p.write_text((BW / "problem.pddl").read_text().replace("(:domain blocksworld)", "(:domain gripper)"))
    return p


def test_problem_naming_another_domain_is_a_warning(other_domain_problem):
    r = run("validate", BW / "domain.pddl", other_domain_problem, BW / "plan.txt")
    assert r.exit_code == 0
    assert warnings_of(r.stderr) == [f"amlasp: warning: {other_domain_problem}:4:10: (:domain gripper) names another "
                                     "domain than blocksworld, the one it is read with"]
    with pytest.warns(InputWarning, match="names another domain"):
        load_problem(other_domain_problem, amlasp.load_domain(BW / "domain.pddl"))


def test_problem_naming_another_domain_is_an_error_with_strict(other_domain_problem):
    r = run("--strict", "validate", BW / "domain.pddl", other_domain_problem, BW / "plan.txt")
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.startswith(f"amlasp: error: {other_domain_problem}:4:10: (:domain gripper) names another domain")


def test_same_domain_name_up_to_case_and_dash_is_no_warning(tmp_path):
    p = tmp_path / "problem.pddl"
    p.write_text((BW / "problem.pddl").read_text().replace("(:domain blocksworld)", "(:domain BlocksWorld)"))
    r = run("validate", BW / "domain.pddl", p, BW / "plan.txt")
    assert r.exit_code == 0 and warnings_of(r.stderr) == []


# ----------------------------------------------------------------------------- trajectories

@pytest.fixture
def trajectory(tmp_path):
    """A copy of a ferry trajectory and its problem, to be spoilt by each test."""
    (tmp_path / "problems").mkdir()
    shutil.copy(PROBS / "0_ferry_prob.pddl", tmp_path / "problems" / "0_ferry_prob.pddl")
    traj = tmp_path / "0_ferry_traj"
    shutil.copy(TRAJ / "0_ferry_traj", traj)
    return traj


def _eval(traj, *extra):
    return run(*extra, "eval", NOLAM / "ferry.pddl", DOMAINS / "ferry.pddl", "--states", traj, "--problems",
               traj.parent / "problems", "-f", "json")


def test_shipped_trajectories_are_consistent():
    r = run("eval", DOMAINS / "ferry.pddl", DOMAINS / "ferry.pddl", "--states", TRAJ, "--problems", PROBS, "-f", "json")
    assert r.exit_code == 0 and warnings_of(r.stderr) == []


def test_first_state_other_than_the_problems_init(trajectory):
    text = trajectory.read_text()
    trajectory.write_text(text.replace("(:state (at c0 l2) (at c1 l2)", "(:state (at c0 l1) (at c1 l2)", 1))
    r = _eval(trajectory)
    assert r.exit_code == 0
    (w,) = [x for x in warnings_of(r.stderr) if "first state" in x]
    assert f"{trajectory}: the first state is not the initial state of" in w and "(at c0 l1)" in w
    assert _eval(trajectory, "--strict").exit_code == 2


def test_recorded_action_not_applicable_names_file_and_step(trajectory):
    text = trajectory.read_text()
    # the second action debarks the car board boarded; debarking the other car (not on board) is not applicable
    trajectory.write_text(text.replace("(:action (debark c0 l2))", "(:action (debark c1 l2))", 1))
    r = _eval(trajectory)
    assert r.exit_code == 0
    assert [x for x in warnings_of(r.stderr) if "not applicable" in x] == [
        f"amlasp: warning: {trajectory}: step 2: (debark c1 l2) is not applicable in the reference in the state "
        "before it"]
    with pytest.warns(InputWarning, match="step 2"):
        amlasp.evaluate(NOLAM / "ferry.pddl", DOMAINS / "ferry.pddl", [trajectory],
                        problems=trajectory.parent / "problems")


# ----------------------------------------------------------------------------- undeclared predicates

def test_undeclared_predicate_is_scored_by_compare_and_eval_with_one_warning():
    learned, ref = NOLAM / "childsnack.pddl", DOMAINS / "childsnack.pddl"
    r = run("compare", learned, ref, "-f", "json")
    assert r.exit_code == 0, r.stderr
    assert len([x for x in warnings_of(r.stderr) if "'xist'" in x]) == 1
    assert "predicate 'xist' is used (line 41) but never declared" in r.stderr
    result = amlasp.compare(learned, ref)
    assert len(result.actions) == 6 and all(a.learned is not None for a in result.actions)
    # xist is the learned model's own predicate: its literal is a false positive, not a match
    assert result.summary()["precision_macro"] < 1
    args = ["--states", IPC / "trajectories" / "learning" / "childsnack", "--problems",
            IPC / "problems" / "learning" / "childsnack"]
    r = run("eval", learned, ref, *args, "-f", "json")
    assert r.exit_code == 0, r.stderr
    assert len([x for x in warnings_of(r.stderr) if "'xist'" in x]) == 1
    ev = amlasp.evaluate(learned, ref, args[1], problems=args[3])
    assert "xist" in ev.learned_only_predicates and ev.applicability.precision_avg is not None


def test_solve_plans_without_the_actions_that_use_an_undeclared_predicate():
    """solve does not declare it (it plans): the actions that use it are broken (issue 31), the model plans
    with the others; read strictly (AMLGym's view, `recover=False`), the model is still invalid."""
    problem = IPC / "problems" / "solving" / "childsnack" / "0_childsnack_prob.pddl"
    r = amlasp.solve(NOLAM / "childsnack.pddl", DOMAINS / "childsnack.pddl", problem)
    assert [p.status.value for p in r.problems] == ["no_plan"]
    assert {(b.name, b.error) for b in r.broken} == {("make_sandwich", "undeclared-predicate"),
                                                     ("make_sandwich_no_gluten", "undeclared-predicate")}
    r = amlasp.solve(NOLAM / "childsnack.pddl", DOMAINS / "childsnack.pddl", problem, recover=False)
    assert [p.status.value for p in r.problems] == ["invalid_model"]
    assert "undefined predicate 'xist'" in r.problems[0].detail


def test_undeclared_predicate_is_an_error_elsewhere_and_under_strict():
    with pytest.raises(amlasp.InputError, match="undefined predicate 'xist'"):
        amlasp.load_domain(NOLAM / "childsnack.pddl")
    r = run("--strict", "compare", NOLAM / "childsnack.pddl", DOMAINS / "childsnack.pddl")
    assert r.exit_code == 2 and "'xist'" in r.stderr


# ----------------------------------------------------------------------------- the README's leniencies

BASE = """(define (domain d)
 (:requirements :strips :typing)
 (:types block)
 (:predicates (on ?x - block ?y - block) (clear ?x - block))
 (:action a :parameters (?x - block ?y - block)
   :precondition (and (clear ?x) (on ?x ?y))
   :effect (and (not (on ?x ?y)) (clear ?y))))"""

LENIENCIES = {
    "missing :requirements": (BASE.replace(" (:requirements :strips :typing)\n", ""), "no (:requirements ...)"),
    "undeclared negative preconditions": (BASE.replace("(and (clear ?x) (on ?x ?y))", "(not (on ?y ?x))"),
                                          ":negative-preconditions is used (line 6) but not declared"),
    "undeclared equality": (BASE.replace("(and (clear ?x) (on ?x ?y))", "(and (on ?x ?y) (not (= ?x ?y)))"),
                            ":equality is used (line 6) but not declared"),
    "types without :typing": (BASE.replace(":strips :typing", ":strips"), ":typing is used (line 4)"),
    "action without :effect": (BASE.replace("   :effect (and (not (on ?x ?y)) (clear ?y))", ""),
                               "action a has no :effect"),
    "undeclared parent type": (BASE.replace("(:types block)", "(:types block - thing)"),
                               "type 'thing' is used as a parent type but never declared"),
}


@pytest.mark.parametrize("name", LENIENCIES)
def test_every_leniency_warns(name):
    text, expected = LENIENCIES[name]
    d = parse_domain(text, "d.pddl")
    assert [w for w in d.warnings if expected in w], d.warnings
    assert parse_domain(BASE, "d.pddl").warnings == ()  # a domain that needs no leniency: not a word


def test_names_differing_in_dash_or_underscore_are_matched_and_said(tmp_path):
    learned = tmp_path / "learned.pddl"
    learned.write_text((BW / "learned.pddl").read_text().replace("pick_up", "pick-up"))
    r = run("compare", learned, BW / "domain.pddl", "-f", "json")
    assert r.exit_code == 0
    assert "learned action 'pick-up' is matched with the reference's 'pick_up'" in r.stderr


def test_the_readme_lists_the_leniencies_it_warns_of():
    """The README's sentence names each leniency tested above, and says that each is warned of."""
    readme = (ROOT / "README.md").read_text()
    m = re.search(r"read leniently.*?with a warning", readme, re.S)
    assert m, "README: the sentence on leniencies"
    sentence = " ".join(m.group(0).split())
    for words in ("missing `:requirements`", "negative preconditions", "`:effect`", "parent types", "`-`/`_`",
                  "undeclared predicates"):
        assert words in sentence, words
