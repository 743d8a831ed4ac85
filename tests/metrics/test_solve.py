"""Problem-solving metrics: categories on hand-made learned models, cross-checked with unified-planning."""

from __future__ import annotations

import dataclasses
import json
import os

import pytest

from amlasp import solve
from amlasp.external.fast_downward import plan_with_fast_downward
from amlasp.external.planner_task import planner_task
from amlasp.model import And, Atom, Domain, Not
from amlasp.pddl.parse import load_domain, load_problem, parse_domain
from tests.support.cli import run
from tests.support.examples import ONE_CAR
from tests.support.ipc import reference
from tests.support.paths import IPC
from tests.support.up import up_files, up_valid

FERRY = reference("ferry")
FERRY_PROBLEMS = [IPC / "problems" / "solving" / "ferry" / f"{i}_ferry_prob.pddl" for i in range(3)]


def drop_precondition(d: Domain, action: str, predicate: str) -> Domain:
    def keep(f) -> bool:
        atom = f.arg if isinstance(f, Not) else f
        return not (isinstance(atom, Atom) and atom.predicate == predicate)
    acts = tuple(dataclasses.replace(a, precondition=And(tuple(x for x in a.precondition.args if keep(x))))
                 if a.name == action else a for a in d.actions)
    return dataclasses.replace(d, actions=acts)


def drop_effect(d: Domain, action: str, predicate: str, positive: bool) -> Domain:
    acts = tuple(dataclasses.replace(a, effects=tuple(e for e in a.effects if not (
        e.literal.atom.predicate == predicate and e.literal.positive == positive))) if a.name == action else a
        for a in d.actions)
    return dataclasses.replace(d, actions=acts)


@pytest.fixture(scope="module")
def ferry() -> Domain:
    return load_domain(FERRY)


@pytest.fixture
def one_car(tmp_path):
    path = tmp_path / ONE_CAR.problem_file
    path.write_text(ONE_CAR.problem_text)
    return path


def test_reference_against_itself_solves_every_shipped_problem(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # nothing may be written into the working directory
    blocks = IPC / "problems" / "solving" / "blocksworld"
    before = sorted(os.listdir(blocks))
    r = solve(IPC / "domains" / "blocksworld.pddl", IPC / "domains" / "blocksworld.pddl", blocks, timeout=30, jobs=2)
    assert [p.status for p in r.problems] == ["solved"] * 10
    assert r.solving_ratio == 1.0 and r.false_plan_ratio == 0.0 and r.summary()["problems"] == 10
    assert all(p.plan_length == len(p.plan) > 0 for p in r.problems)
    assert os.listdir(tmp_path) == [] and sorted(os.listdir(blocks)) == before
    # cross-check: unified-planning's validator accepts the same plans
    for p in r.problems[:3]:
        assert up_valid(up_files(IPC / "domains" / "blocksworld.pddl", blocks / p.problem), list(p.plan))


def test_dropped_precondition_gives_false_plans_where_it_matters(ferry, one_car):
    learned = drop_precondition(ferry, "board", "empty_ferry")  # the ferry may carry several cars
    r = solve(learned, ferry, FERRY_PROBLEMS + [one_car], timeout=30, jobs=2)
    statuses = {p.problem: p.status for p in r.problems}
    assert [statuses[f.name] for f in FERRY_PROBLEMS] == ["false_plan"] * 3
    assert statuses["one_car.pddl"] == "solved"  # with one car the precondition never matters
    for p in r.problems[:3]:
        assert p.detail.startswith("step ") and "(board " in p.detail and "unmet (empty_ferry)" in p.detail
    assert r.false_plan_ratio == 0.75 and r.solving_ratio == 0.25
    # our ASP validator and unified-planning's agree on every plan
    for p, f in zip(r.problems, FERRY_PROBLEMS + [one_car]):
        assert up_valid(up_files(FERRY, f), list(p.plan)) == (p.status == "solved")


def test_dropped_add_effect_gives_no_plan(ferry):
    learned = drop_effect(ferry, "debark", "at", True)  # cars never arrive anywhere
    r = solve(learned, ferry, FERRY_PROBLEMS[:2], timeout=30)
    assert [p.status for p in r.problems] == ["no_plan", "no_plan"]
    assert r.summary()["no_plan_ratio"] == 1.0 and r.problems[0].plan_length is None


def test_dropped_delete_effect_gives_false_plan(ferry, one_car):
    learned = drop_effect(ferry, "board", "empty_ferry", False)  # the ferry stays empty when boarded
    r = solve(learned, ferry, [FERRY_PROBLEMS[0], one_car], timeout=30)
    assert [p.status for p in r.problems] == ["false_plan", "solved"]
    assert "unmet (empty_ferry)" in r.problems[0].detail


def test_tiny_time_limit_is_a_timeout_and_tiny_memory_a_memout(ferry):
    sokoban = load_domain(IPC / "domains" / "sokoban.pddl")
    hard = IPC / "problems" / "solving" / "sokoban" / "9_sokoban_prob.pddl"
    r = solve(sokoban, sokoban, [hard], timeout=0.3)
    assert r.problems[0].status == "timeout" and r.summary()["timeout_ratio"] == 1.0
    r = solve(ferry, ferry, FERRY_PROBLEMS[:1], memory_mb=5)
    assert r.problems[0].status == "memout"


MESSY = """(define (domain ferry-learned)
  (:types car location)
  (:predicates (at_ferry ?l - location) (at ?c - car ?l - location) (empty_ferry) (on ?c - car))
  (:action board :parameters (?car - car ?loc - location)
    :precondition (and (at ?car ?loc) (at_ferry ?loc) (empty_ferry))
    :effect (and (on ?car) (not (at ?car ?loc)) (not (empty_ferry))))
  (:action wait :parameters (?l - location))
  (:action teleport :parameters (?c - car ?from - location ?to - location)
    :effect (and (at ?c ?to) (not (at ?c ?from)))))"""


def test_messy_learned_model_gives_false_plan_not_crash(ferry, tmp_path):
    # no :requirements, an action without precondition or effect, an action the reference lacks,
    # actions of the reference missing, and `noteq` (used by the problems) not declared
    path = tmp_path / "learned.pddl"
    path.write_text(MESSY)
    r = solve(path, FERRY, FERRY_PROBLEMS[:1], timeout=30)
    p = r.problems[0]
    assert p.status == "false_plan"
    assert p.detail.startswith("step 1, (teleport ") and "the model has no action 'teleport'" in p.detail
    task = planner_task(load_domain(path), load_problem(FERRY_PROBLEMS[0], ferry), ferry)
    assert task.declared == ("declared predicates the model lacks: noteq", "left out actions without effects: wait")


def test_goal_predicate_the_model_lacks_is_declared_so_the_goal_is_unreachable(ferry):
    # the model knows nothing about `at`: the goal keeps its meaning, so the planner proves it unreachable
    learned = parse_domain("""(define (domain f) (:types car location) (:predicates (at_ferry ?l - location))
      (:action sail :parameters (?a - location ?b - location) :precondition (at_ferry ?a)
       :effect (and (at_ferry ?b) (not (at_ferry ?a)))))""")
    problem = load_problem(FERRY_PROBLEMS[0], ferry)
    r = plan_with_fast_downward(learned, problem, ferry, timeout=30)
    assert r.status == "no_plan"


def test_invalid_models_are_a_category_with_the_reason(ferry, tmp_path):
    bad = tmp_path / "bad.pddl"
    # a header that does not read (a broken action alone is left out: the model plans with the others, issue 31)
    bad.write_text("(define (domain ferry)\n (:predicates (at ?c ?l)\n (:action board :parameters (?c)))")
    seen = []
    r = solve(bad, FERRY, FERRY_PROBLEMS[:2], progress=lambda stage, done, total: seen.append((stage, done, total)))
    assert [p.status for p in r.problems] == ["invalid_model"] * 2
    assert seen == [("solving", 0, 2), ("solving", 1, 2), ("solving", 2, 2)]  # the CLI draws its bar from these
    assert r.problems[0].detail.startswith(f"{bad}:") and r.summary()["invalid_model_ratio"] == 1.0
    r = solve(IPC / "learned" / "nolam" / "childsnack.pddl", IPC / "domains" / "childsnack.pddl",
              IPC / "problems" / "solving" / "childsnack" / "0_childsnack_prob.pddl")
    # its two actions that use the undeclared 'xist' are broken: it plans with the others (and finds no plan)
    assert r.problems[0].status == "no_plan"
    assert [(b.name, b.error) for b in r.broken] == [("make_sandwich_no_gluten", "undeclared-predicate"),
                                                     ("make_sandwich", "undeclared-predicate")]
    # a predicate the problem uses with another arity cannot be paired with the problem
    wrong = parse_domain("(define (domain f) (:predicates (at ?x)) (:action a :parameters () :effect (at_ok)))"
                         .replace("(at_ok)", "(and)"))
    r = solve(wrong, ferry, FERRY_PROBLEMS[:1])
    assert r.problems[0].status == "invalid_model" and "'at' takes 1 argument" in r.problems[0].detail


def test_planner_crash_is_an_error_with_its_message(ferry):
    # A* with LM-cut does not support conditional effects: Fast Downward refuses, which is an `error`
    cond = parse_domain("""(define (domain ferry) (:types car location)
      (:predicates (noteq ?x ?y - location) (at_ferry ?l - location) (at ?c - car ?l - location)
       (empty_ferry) (on ?c - car))
      (:action hop :parameters (?a - location ?b - location) :precondition (at_ferry ?a)
       :effect (and (at_ferry ?b) (not (at_ferry ?a)) (forall (?c - car) (when (on ?c) (at ?c ?b)))))
      (:action board :parameters (?c - car ?l - location) :precondition (and (at ?c ?l) (at_ferry ?l))
       :effect (and (on ?c) (not (at ?c ?l)))))""")
    r = solve(cond, ferry, FERRY_PROBLEMS[:1], config="opt", timeout=30)
    assert r.problems[0].status == "error" and "Fast Downward" in r.problems[0].detail


def test_result_frame_and_cli_formats(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = ["solve", FERRY, FERRY, "--problems", FERRY_PROBLEMS[0], "--timeout", "30"]
    out = run(*args, "--format", "json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["problems"][0].keys() == {"problem", "status", "plan_length", "cost", "quality", "seconds", "detail"}
    assert data["problems"][0]["status"] == "solved" and data["problems"][0]["plan_length"] > 0
    assert {"solving_ratio", "false_plan_ratio", "no_plan_ratio", "timeout_ratio", "error_ratio",
            "problems"} <= data["summary"].keys()
    out = run(*args, "--format", "csv", "-o", "r.csv")
    assert out.exit_code == 0 and (tmp_path / "r.csv").read_text().startswith("problem,status,plan_length")
    assert sorted(os.listdir(tmp_path)) == ["r.csv", "r.summary.csv"]  # the summary table beside it
    out = run(*args, "--format", "yaml")
    assert out.exit_code == 2 and "unknown --format" in out.output
    frame = solve(FERRY, FERRY, FERRY_PROBLEMS[:1], timeout=30).to_frame()
    assert list(frame.columns) == ["problem", "status", "plan_length", "cost", "quality", "seconds", "detail"]
    assert frame.loc[0, "status"] == "solved"


def test_action_costs_give_each_plan_its_cost_and_ipc_quality(tmp_path):
    """Issue 21: the cost of a solved plan in the reference (VAL's value: tests/external/test_costs.py),
    and the IPC quality score best known / cost, the best known given (--best-costs) or the
    reference planner's (here the same model, so quality 1)."""
    from amlasp.metrics.solve import read_best_costs
    from tests.support.paths import DATA
    ref = DATA / "costs" / "transport" / "domain.pddl"
    problems = [DATA / "costs" / "transport" / f"small-{k}.pddl" for k in (1, 2)]
    given = tmp_path / "best.json"
    given.write_text('{"small-1.pddl": 6}')
    r = solve(ref, ref, problems, config="opt", best_costs=read_best_costs(given))
    one, two = r.problems
    assert (one.cost, one.best, one.quality) == (12, 6, 0.5)
    assert (two.cost, two.best, two.quality) == (7, None, None)
    assert r.summary()["quality"] == 0.5 and r.to_dict()["problems"][0]["best_cost"] == 6
    r = solve(ref, ref, problems[1:], config="opt", quality=True)
    assert (r.problems[0].cost, r.problems[0].best, r.problems[0].quality) == (7, 7, 1.0)


def test_best_costs_are_checked(tmp_path):
    from amlasp.errors import InputError
    from amlasp.metrics.solve import read_best_costs
    bad = tmp_path / "best.json"
    bad.write_text('{"p.pddl": -1}')
    with pytest.raises(InputError, match="best known cost"):
        read_best_costs(bad)
