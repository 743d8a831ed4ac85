"""Batch validation (issue 11): many plans in one grounding give the verdicts that validating each
plan alone gives, and that unified-planning's validator gives, on valid and corrupted plans; and
`amlasp validate` with several plans or `--batch` as a script uses it."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

up = pytest.importorskip("unified_planning")

from amlasp.model import Atom, GroundAction  # noqa: E402

G = GroundAction
from amlasp.pddl.batch import read_batch  # noqa: E402
from amlasp.pddl.parse import load_domain, load_problem, parse_domain, parse_problem  # noqa: E402
from amlasp.reasoning.engine import execute, execute_many  # noqa: E402
from amlasp.reasoning.validations import VALIDATION_COLUMNS, validate_plans  # noqa: E402
from tests.external.test_differential import CASES, corruptions, fd_plan, ours, seed_of, theirs  # noqa: E402
from tests.support.cli import run  # noqa: E402
from tests.support.examples import BLOCKSWORLD  # noqa: E402
from tests.support.paths import IPC, ROOT  # noqa: E402
from tests.support.up import up_files, up_valid  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

PLANS = ROOT / "benchmarks" / "plans"
BATCH = PLANS / "blocksworld" / "plans.jsonl"
BW = IPC / "domains" / "blocksworld.pddl"


def verdict(ex) -> tuple:
    """Everything a verdict says (the states are not part of it)."""
    return (ex.valid, ex.executable, ex.failed_step, [str(u) for u in ex.unmet], [str(g) for g in ex.goal_unmet])


@pytest.mark.parametrize("kind,name", CASES, ids=[n for _, n in CASES])
def test_batch_equals_one_by_one_and_up_in_every_domain(kind, name):
    """Fast Downward's plan and its corruptions (a dropped step, two swapped steps), validated
    together, alone, and by UP's PlanValidator."""
    dom, prob = ours(kind, name)
    plan = list(fd_plan(kind, name))
    plans = [plan, *corruptions(tuple(plan), random.Random(seed_of("batch", kind, name))), plan[:-1]]
    together = validate_plans(dom, [(prob, p) for p in plans])
    alone = [execute(dom, prob, p, states=False) for p in plans]
    assert [verdict(x) for x in together] == [verdict(x) for x in alone]
    assert [x.valid for x in together] == [up_valid(theirs(kind, name), p) for p in plans]


def test_the_blocksworld_corpus_of_twenty_problems_in_one_batch():
    """The 100 plans of benchmarks/plans: valid, detours, swaps, wrong objects, short plans."""
    d = load_domain(BW)
    tasks = read_batch(BATCH, d)
    assert len(tasks) == 100 and len({t.problem_file for t in tasks}) == 20
    together = validate_plans(d, [(t.problem, t.plan) for t in tasks])
    alone = [execute(d, t.problem, t.plan, states=False) for t in tasks]
    assert [verdict(x) for x in together] == [verdict(x) for x in alone]
    problems = {f: up_files(BW, f) for f in {t.problem_file for t in tasks}}
    assert [x.valid for x in together] == [up_valid(problems[t.problem_file], t.plan) for t in tasks]
    kinds = {}
    for t, x in zip(tasks, together):
        kinds.setdefault(t.name.rsplit("_", 1)[1], []).append(x)
    assert all(x.valid for x in kinds["valid.plan"] + kinds["detour.plan"])
    assert all(x.executable and x.goal_unmet for x in kinds["short.plan"] if not x.valid)
    assert sum(x.valid for x in together) == 40


def test_each_run_reads_its_own_static_atoms():
    """Runs from start states that disagree on a static atom (a learned model's test states may)."""
    d = parse_domain("""(define (domain roads) (:requirements :strips)
      (:predicates (road ?a ?b) (at ?a))
      (:action go :parameters (?a ?b) :precondition (and (at ?a) (road ?a ?b)) :effect (and (at ?b) (not (at ?a)))))""")
    p = parse_problem("""(define (problem p) (:domain roads) (:objects x y)
      (:init (at x) (road x y)) (:goal (at y)))""", d)
    assert d.static_predicates() == {"road"}
    go = [G("go", ("x", "y"))]
    closed = frozenset({Atom("at", ("x",))})
    with_road, without = execute_many(d, p, [go, go], starts=[p.init, closed])
    assert with_road.valid and with_road.states[-1] == frozenset({Atom("at", ("y",)), Atom("road", ("x", "y"))})
    assert without.failed_step == 0 and [str(u) for u in without.unmet] == ["(road x y)"]


def test_a_goal_on_a_static_predicate_is_checked():
    d = parse_domain("""(define (domain s) (:predicates (fixed ?a) (p))
      (:action a :parameters () :precondition () :effect (p)))""")
    p = parse_problem("(define (problem p) (:domain s) (:objects o k) (:init (fixed o)) "
                      "(:goal (and (p) (fixed o) (not (fixed k)))))", d)
    q = parse_problem("(define (problem q) (:domain s) (:objects o) (:init) (:goal (and (p) (fixed o))))", d)
    good, bad = validate_plans(d, [(p, [G("a")]), (q, [G("a")])])
    assert good.valid
    assert bad.executable and not bad.valid and [str(g) for g in bad.goal_unmet] == ["(fixed o)"]


def test_a_long_plan_is_a_linear_walk_with_the_right_failure():
    """20,008 steps: the failure far inside is found, with its reason (the grounder walks the
    steps in order; benchmarks/bench_validate.py times 100,000)."""
    d, p = BLOCKSWORLD.load()
    plan = BLOCKSWORLD.plan_actions()
    loop = [G("pick_up", ("b3",)), G("put_down", ("b3",))] * 10_000
    ok = execute(d, p, plan[:2] + loop + plan[2:], states=False)
    assert ok.valid
    broken = plan[:2] + loop[:15_000] + [G("put_down", ("b3",))] + plan[2:]  # b3 is on the table
    ex = execute(d, p, broken, states=False)
    assert ex.failed_step == 2 + 15_000 and [str(u) for u in ex.unmet] == ["(holding b3)"]


# -- the command line

def lines(stdout: str) -> list[dict]:
    return [json.loads(x) for x in stdout.splitlines()]


def test_several_plans_give_json_lines_and_exit_1_if_one_is_invalid():
    d, p = BLOCKSWORLD.domain_file, BLOCKSWORLD.problem_file
    good = ROOT / "examples" / "blocksworld" / "plan.txt"
    bad = ROOT / "tests" / "golden" / "inputs" / "bad_plan.txt"
    res = run("validate", d, p, good, bad, good, "-f", "json")
    assert res.exit_code == 1, res.output
    out = lines(res.stdout)
    assert [x["name"] for x in out] == [x["plan_file"] for x in out] == [str(good), str(bad), str(good)]
    assert [x["valid"] for x in out] == [True, False, True]
    one = json.loads(run("validate", d, p, bad, "-f", "json").stdout)  # the single-plan report: the same keys
    assert {k: out[1][k] for k in one} == one
    assert run("validate", d, p, good, good, "-f", "json").exit_code == 0
    table = run("validate", d, p, good, bad)
    assert table.exit_code == 1 and "2 plan(s): 1 valid, 1 invalid" in table.stdout


def test_a_batch_file_with_plans_as_files_text_and_lists(tmp_path):
    (tmp_path / "probs").mkdir()
    (tmp_path / "probs" / "p.pddl").write_text(Path(BLOCKSWORLD.problem_file).read_text())
    (tmp_path / "a.plan").write_text((ROOT / "examples" / "blocksworld" / "plan.txt").read_text())
    plan = [str(a) for a in BLOCKSWORLD.plan_actions()]
    batch = tmp_path / "b.jsonl"
    batch.write_text("\n".join(json.dumps(x) for x in [
        {"problem": "probs/p.pddl", "plan": "a.plan"},
        {"problem": "probs/p.pddl", "plan": "\n".join(plan)},
        {"problem": "probs/p.pddl", "plan": plan[:-1], "name": "gpt-17"},
        {"problem": "probs/p.pddl", "plan": []},
    ]) + "\n\n")
    res = run("validate", BLOCKSWORLD.domain_file, "--batch", batch, "-f", "json")
    assert res.exit_code == 1, res.output
    out = lines(res.stdout)
    assert [x["name"] for x in out] == [str(tmp_path / "a.plan"), f"{batch}:2", "gpt-17", f"{batch}:4"]
    assert [x["plan_file"] for x in out] == [str(tmp_path / "a.plan"), None, None, None]
    assert [x["plan_text"] for x in out] == [None, "\n".join(plan), "\n".join(plan[:-1]), ""]
    assert [x["valid"] for x in out] == [True, True, False, False]
    assert out[2]["unmet_goals"] == ["(on b3 b2)"] and out[3]["plan_length"] == 0


@pytest.mark.parametrize("content,message", [
    ("{not json}\n", "b.jsonl:1: not a JSON object"),
    ('{"plan": "a.plan"}\n', "b.jsonl:1: no 'problem' on this line, and no PROBLEM given"),
    ('["p.pddl", "a.plan"]\n', "b.jsonl:1: expected an object like"),
])
def test_a_batch_file_that_cannot_be_read_is_refused_located(tmp_path, content, message):
    (tmp_path / "p.pddl").write_text(Path(BLOCKSWORLD.problem_file).read_text())
    (tmp_path / "b.jsonl").write_text(content)
    res = run("validate", BLOCKSWORLD.domain_file, "--batch", tmp_path / "b.jsonl")
    assert res.exit_code == 2
    assert message in res.stderr and len(res.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("content,message", [
    ('{"problem": "p.pddl", "plan": "(pick_up b9)"}\n', "b.jsonl:1: plan line 1: unknown object 'b9'"),
    ('{"problem": "p.pddl", "plan": ["(pick_up b1)", "(fly b1)"]}\n', "b.jsonl:1: action 2: unknown action 'fly'"),
    ('{"problem": "p.pddl", "plan": "missing.plan"}\n', "no such file 'missing.plan'"),  # read as plan text
])
def test_a_plan_that_cannot_be_read_is_invalid_with_its_located_reason(tmp_path, content, message):
    """Issue 21: the plan's own verdict (exit 1), not the batch refused (tests/pddl/test_batch.py)."""
    (tmp_path / "p.pddl").write_text(Path(BLOCKSWORLD.problem_file).read_text())
    (tmp_path / "b.jsonl").write_text(content)
    res = run("validate", BLOCKSWORLD.domain_file, "--batch", tmp_path / "b.jsonl", "-f", "json")
    assert res.exit_code == 1, res.output
    (out,) = lines(res.stdout)
    assert out["valid"] is False and message in out["error"]


def test_a_batch_may_take_the_problem_from_the_command_line(tmp_path):
    (tmp_path / "b.jsonl").write_text(json.dumps({"plan": [str(a) for a in BLOCKSWORLD.plan_actions()]}) + "\n")
    res = run("validate", BLOCKSWORLD.domain_file, BLOCKSWORLD.problem_file, "--batch", tmp_path / "b.jsonl")
    assert res.exit_code == 0, res.output


@pytest.mark.parametrize("args", [[], ["--batch", "x.jsonl", "plan.txt"]])
def test_plans_and_batch_are_asked_for_and_exclusive(args):
    extra = [BLOCKSWORLD.problem_file] if args else []
    res = run("validate", BLOCKSWORLD.domain_file, *extra, *args)
    assert res.exit_code == 2 and "amlasp: error:" in res.stderr


def test_problems_are_read_once_per_file(monkeypatch):
    import amlasp.pddl.batch as batch
    calls = []
    real = batch.load_problem
    monkeypatch.setattr(batch, "load_problem", lambda path, d: calls.append(path) or real(path, d))
    read_batch(BATCH, load_domain(BW))
    assert len(calls) == 20


def test_a_problem_model_is_shared_by_its_plans():
    tasks = read_batch(BATCH, load_domain(BW))
    assert len({id(t.problem) for t in tasks}) == 20
    assert load_problem(tasks[0].problem_file, load_domain(BW)) == tasks[0].problem


def test_validate_plans_is_a_list_with_a_frame():
    """The verdicts stay the list they were (iterable, indexable, unpackable) and have `.to_frame()`."""
    d = parse_domain("""(define (domain s) (:predicates (p))
      (:action a :parameters () :precondition (not (p)) :effect (p)))""")
    p = parse_problem("(define (problem p) (:domain s) (:init) (:goal (p)))", d)
    verdicts = validate_plans(d, [(p, [G("a")]), (p, [G("a"), G("a")])])
    good, bad = verdicts
    assert isinstance(verdicts, list) and verdicts[0] is good and len(verdicts) == 2
    frame = verdicts.to_frame()
    assert list(frame.columns) == list(VALIDATION_COLUMNS)  # the columns of -f json and csv
    assert frame.name.tolist() == [0, 1] and frame.status.tolist() == ["valid", "invalid"]
    assert frame.valid.tolist() == [True, False] and frame.failed_step.tolist()[1] == 2
    assert frame.problem.tolist() == ["p", "p"] and frame.failed_action[1] == "(a)"
