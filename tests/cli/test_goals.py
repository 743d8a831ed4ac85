"""Goal conditions (`forall`, `or`, ...; issue 31) through the command line: validate (one plan, several,
--batch; text and JSON, the unmet conjuncts and a `forall`'s false instances), plan, landmarks, justify,
facts, solve; compare of problems refuses one by name, where it is; questions generate refuses `land`."""

from __future__ import annotations

import json

import pytest

from tests.support.cli import run
from tests.support.paths import DATA

GOALS = DATA / "goals"
MICONIC, M6, M11 = (str(GOALS / "miconic-fulladl" / f) for f in ("domain.pddl", "instance-6.pddl", "instance-11.pddl"))
PSR, PSR1 = (str(GOALS / "psr-middle" / f) for f in ("domain.pddl", "instance-1.pddl"))
LAMPS = GOALS / "lamps"
PLAN6 = "(up f0 f3)\n(stop f3)\n(down f3 f1)\n(stop f1)\n(up f1 f2)\n(stop f2)\n(up f2 f3)\n(stop f3)\n"


def _plan(tmp_path, text: str, name: str = "plan.txt") -> str:
    f = tmp_path / name
    f.write_text(text)
    return str(f)


def test_validate_says_the_unmet_forall_and_its_false_instances(tmp_path):
    partial = _plan(tmp_path, "(up f0 f3)\n(stop f3)\n")
    res = run("validate", MICONIC, M11, partial)
    assert res.exit_code == 1
    assert res.output.splitlines() == [
        "invalid: all 2 step(s) executable, but the goal is not reached",
        "  unmet goal: (forall (?p - passenger) (served ?p))",
        "    false for: (served p0), (served p1), (served p2)"]
    out = json.loads(run("validate", MICONIC, M11, partial, "-f", "json").stdout)
    assert out["unmet_goals"] == ["(forall (?p - passenger) (served ?p))"]
    assert out["unmet_goal_instances"] == {"(forall (?p - passenger) (served ?p))":
                                           ["(served p0)", "(served p1)", "(served p2)"]}


def test_validate_names_the_unmet_conjuncts_only(tmp_path):
    """psr-middle's goal is a `forall` and seven `(fed l)`: initially only the `forall` is unmet (VAL: `Satisfy
    derived predicate (NOT (affected cb2))`)."""
    empty = _plan(tmp_path, "; empty\n")
    res = run("validate", PSR, PSR1, empty)
    assert res.exit_code == 1
    assert res.output.splitlines()[1:] == ["  unmet goal: (forall (?b - device) (not (affected ?b)))",
                                           "    false for: (not (affected cb2))"]
    lamps = run("validate", str(LAMPS / "domain.pddl"), str(LAMPS / "nested.pddl"), empty)
    assert lamps.output.splitlines()[1:] == [
        "  unmet goal: (bright r2)",
        "  unmet goal: (forall (?r - room) (exists (?l - lamp) (and (in ?l ?r) (not (on ?l)))))",
        "    false for: (exists (?l - lamp) (and (in ?l r2) (not (on ?l))))"]


def test_validate_a_valid_plan_and_a_valid_json_without_new_keys(tmp_path):
    good = _plan(tmp_path, PLAN6)
    res = run("validate", MICONIC, M6, good)
    assert res.exit_code == 0 and res.output.startswith("valid: 8 step(s), goal reached")
    out = json.loads(run("validate", MICONIC, M6, good, "-f", "json").stdout)
    assert out["valid"] and "unmet_goal_instances" not in out


def test_validate_many_plans_and_a_batch(tmp_path):
    good = _plan(tmp_path, PLAN6, "good.txt")
    short = _plan(tmp_path, "\n".join(PLAN6.splitlines()[:6]) + "\n", "short.txt")
    res = run("validate", MICONIC, M6, good, short, "-f", "json")
    assert res.exit_code == 1
    rows = [json.loads(x) for x in res.stdout.splitlines()]
    assert [r["valid"] for r in rows] == [True, False]
    assert rows[1]["unmet_goals"] == ["(forall (?p - passenger) (served ?p))"]
    assert rows[1]["unmet_goal_instances"] == {"(forall (?p - passenger) (served ?p))": ["(served p1)"]}
    batch = tmp_path / "batch.jsonl"
    batch.write_text("\n".join(json.dumps({"problem": p, "plan": q}) for p, q in
                               [(M6, good), (M6, short), (M11, short)]) + "\n")
    res = run("validate", MICONIC, "--batch", str(batch), "-f", "json")
    assert res.exit_code == 1
    assert [json.loads(x)["valid"] for x in res.stdout.splitlines()] == [True, False, False]


def test_plan_landmarks_justify_and_facts(tmp_path):
    res = run("plan", MICONIC, M6, "-f", "json")
    assert res.exit_code == 0 and json.loads(res.stdout)["length"] == 6  # Fast Downward's too (tests/reasoning)
    res = run("plan", str(LAMPS / "domain.pddl"), str(LAMPS / "nested.pddl"))
    assert res.exit_code == 0 and "a shortest plan, of length 2" in res.output
    assert run("landmarks", MICONIC, M6).exit_code == 0
    detour = _plan(tmp_path, "(up f0 f1)\n(down f1 f0)\n" + PLAN6)
    res = run("justify", MICONIC, M6, detour)
    assert res.exit_code == 1 and "removable pair: steps 1-2" in res.output
    res = run("facts", MICONIC, M6)
    assert res.exit_code == 0
    # the goal is its derived predicate's atom, with the rule that derives it
    goal = next(x for x in res.stdout.split() if x.startswith("goal(0,pos,"))
    name = goal[len("goal(0,pos,"):-2]
    assert name.startswith("goal_") and f"derived(m,S,{name})" in res.stdout.replace(" ", "")


def test_solve_plans_and_validates(tmp_path):
    pytest.importorskip("up_fast_downward")
    res = run("solve", MICONIC, MICONIC, "-p", M11, "-f", "json")
    assert res.exit_code == 0, res.output
    assert [p["status"] for p in json.loads(res.stdout)["problems"]] == ["solved"]


def test_compare_of_problems_refuses_a_goal_condition_where_it_is():
    res = run("compare", M6, M11, "--domain", MICONIC)
    assert res.exit_code == 2
    out = " ".join(res.output.split())
    assert f"{M6}:37:8: unsupported feature in a compare of problems: the goal condition" in out
    assert "is no literal (problems are compared literal by literal; validate, plan, reach" in out


def test_questions_generate_refuses_land_by_name(tmp_path):
    res = run("questions", "generate", MICONIC, M6, "-t", "land,app", "-n", "1", "-o", str(tmp_path / "q.jsonl"))
    assert res.exit_code == 0, res.output
    text = " ".join(res.output.split())
    assert f"land: stopped: refused: its question names goal facts, and the goal of {M6} has a condition that " \
           "is no literal ((forall (?p - passenger) (served ?p)))" in text
    items = [json.loads(x) for x in (tmp_path / "q.jsonl").read_text().splitlines()]
    assert items and {i["group"].split("_")[0] for i in items} == {"applicable"}


def test_eval_reads_states_of_a_problem_with_a_goal_condition(tmp_path):
    """eval checks no goal: the problem gives the objects and static atoms of its states (refused before)."""
    import shutil
    shutil.copy(M6, tmp_path / "instance-6.pddl")
    state = ["(lift-at f0)", "(origin p0 f3)", "(origin p1 f1)", "(destin p0 f2)", "(destin p1 f3)"]
    state += [f"(above {a} {b})" for a, b in ["f0 f1".split(), "f0 f2".split(), "f0 f3".split(), "f1 f2".split(),
                                              "f1 f3".split(), "f2 f3".split()]]
    (tmp_path / "s.json").write_text(json.dumps({"instance-6.pddl": [state]}))
    res = run("eval", MICONIC, MICONIC, "--states", str(tmp_path / "s.json"), "-f", "json", "--summary")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["states"] == out["problems"] == 1 and out["applicability"]["precision_avg"] == 1.0
