"""reasoning/replay.py: plans of plain actions replayed in Python give validate.lp's verdicts exactly.

Every comparison is of whole `Execution`s (failed step, unmet conjuncts, goals unmet, prefix goals,
goal size, cost, ...) against `engine.execute_parts`, the clingo path, on the same runs in one batch:
random walks of every IPC reference domain, learned and ADL domains, with corrupted copies (an
inapplicable step, an unknown action, a wrong arity, an object of the wrong type, two steps swapped,
the goal cut short), the plans of benchmarks/plans, and the test data's goal conditions, derived
predicates, `either` types and costs (runs clingo answers whole)."""

from __future__ import annotations

import random
import zlib
from pathlib import Path

import pytest

from amlasp.model import Domain, GroundAction, Problem
from amlasp.pddl.batch import read_batch
from amlasp.pddl.parse import load_domain, load_problem
from amlasp.pddl.plans import read_plan
from amlasp.reasoning import engine, replay
from amlasp.reasoning.engine import Run, applicable, execute, execute_parts
from tests.support.ipc import ADL, DOMAINS, HANDMADE, LEARNED, NOLAM, reference, small_problem
from tests.support.paths import DATA, ROOT

PLANS = ROOT / "benchmarks" / "plans"


def walk(domain: Domain, problem: Problem, rng: random.Random, steps: int = 10) -> list[GroundAction]:
    """A random walk of applicable actions from the initial state (clingo's `applicable`, `execute`)."""
    state, plan = problem.init, []
    for _ in range(steps):
        actions = applicable(domain, problem, [state])[0]
        if not actions:
            break
        plan.append(rng.choice(actions))
        state = execute(domain, problem, plan[-1:], start=state).states[-1]
    return plan


def corrupted(domain: Domain, problem: Problem, plan: list[GroundAction], rng: random.Random
              ) -> list[list[GroundAction]]:
    """The walk, and copies broken in every way a step can fail or the goal be missed."""
    objects = [o for o, _ in problem.objects] + [c for c, _ in domain.constants]
    action = rng.choice(domain.actions)
    wild = GroundAction(action.name, tuple(rng.choice(objects) for _ in action.parameters))
    out = [plan, plan[:len(plan) // 2], [GroundAction("no-such-action", ())] + plan,
           plan[:2] + [wild] + plan[2:], plan[:1] + [GroundAction(action.name, (objects[0],) * (action.arity + 1))]]
    if len(plan) > 3:
        out.append([plan[0], plan[2], plan[1], *plan[3:]])
        out.append(plan[:3] + plan[:3])
    return out


def same(domain: Domain, runs: list[Run]) -> int:
    """Assert replay's Executions equal clingo's on `runs` (one batch each); the runs replayed."""
    ours = replay.execute(domain, runs)
    theirs = execute_parts(domain, runs, states=False, explain=True)
    assert len(ours) == len(theirs) == len(runs)
    for run, a, b in zip(runs, ours, theirs):
        assert a == b, (run.problem.name, [str(x) for x in run.plan])
    known = replay._Domain(domain)
    return sum(known.replays(r) for r in runs)


def walks(domain_file: Path, problem_file: Path, seed: str, count: int = 2) -> tuple[Domain, list[Run]]:
    d = load_domain(domain_file)
    p = load_problem(problem_file, d)
    rng = random.Random(zlib.crc32(seed.encode()))
    plans = [x for _ in range(count) for x in corrupted(d, p, walk(d, p, rng), rng)]
    return d, [Run(p, x, p.init) for x in plans]


@pytest.mark.parametrize("name", DOMAINS)
def test_reference_domains(name):
    d, runs = walks(reference(name), small_problem(name), name)
    assert same(d, runs) == len(runs)  # every IPC reference domain's actions are plain


@pytest.mark.parametrize("name", LEARNED[:6])
def test_learned_domains(name):
    try:
        d, runs = walks(NOLAM / f"{name}.pddl", small_problem(name), "nolam" + name, count=1)
    except Exception as e:  # a learned model that cannot read the reference's problem
        pytest.skip(str(e))
    same(d, runs)


@pytest.mark.parametrize("name", ADL)
def test_adl_domains_mixed(name):
    """Conditional and quantified effects: clingo validates those runs whole, in the same batch."""
    d, runs = walks(HANDMADE / "adl" / f"{name}-domain.pddl", HANDMADE / "adl" / f"{name}-problem.pddl", name)
    same(d, runs)


@pytest.mark.parametrize("domain", ["blocksworld", "logistics", "sokoban"])
def test_benchmark_plans(domain):
    domain_file = (ROOT / "benchmarks" / "ipc_big" / "logistics" / "domain.pddl" if domain == "logistics"
                   else ROOT / "benchmarks" / "ipc" / "domains" / f"{domain}.pddl")
    d = load_domain(domain_file)
    tasks = read_batch(PLANS / domain / "plans.jsonl", d)
    runs = [Run(t.problem, list(t.plan), t.problem.init) for t in tasks if t.problem is not None]
    assert same(d, runs) == len(runs)


def test_floortile_plan():
    d = load_domain(ROOT / "benchmarks" / "ipc" / "domains" / "floortile.pddl")
    p = load_problem(ROOT / "benchmarks" / "ipc" / "problems" / "learning" / "floortile" / "4_floortile_prob.pddl", d)
    plan = list(read_plan(PLANS / "floortile" / "learning_4.plan", d, p))
    runs = [Run(p, x, p.init) for x in (plan, plan[:30], plan[1:], plan[:10] + plan[11:])]
    assert same(d, runs) == len(runs)


def test_goal_conditions_derived_either_costs():
    """Runs on problems with goal conditions or derived predicates go to clingo whole; `either` types and
    action costs are replayed."""
    cases = [(DATA / "either" / "domain.pddl", [DATA / "either" / "problem.pddl"]),
             (DATA / "goals" / "lamps" / "domain.pddl", sorted((DATA / "goals" / "lamps").glob("[!d]*.pddl"))),
             (DATA / "derived" / "blocks-above.pddl", [DATA / "derived" / "blocks-above-1.pddl"]),
             (DATA / "derived" / "roads.pddl", [DATA / "derived" / "roads-1.pddl"])]
    for folder in sorted((DATA / "costs").iterdir()):
        if folder.is_dir() and (folder / "domain.pddl").exists():
            cases.append((folder / "domain.pddl", sorted(folder.glob("p*.pddl"))[:1]))
    for domain_file, problems in cases:
        for problem_file in problems:
            d, runs = walks(domain_file, problem_file, problem_file.name, count=1)
            same(d, runs)


def test_clingo_asked_a_failed_step_alone(monkeypatch):
    """A valid plan asks clingo nothing; a failing one asks about its failed step alone, from the state
    before it."""
    d = load_domain(ROOT / "benchmarks" / "ipc" / "domains" / "sokoban.pddl")
    tasks = read_batch(PLANS / "sokoban" / "plans.jsonl", d)
    asked: list[list[Run]] = []
    real = replay.execute_parts

    def spy(domain, runs, **kw):
        asked.append(list(runs))
        return real(domain, runs, **kw)

    monkeypatch.setattr(replay, "execute_parts", spy)
    valid = [t for t in tasks if t.plan_file.endswith("valid.plan")]
    replay.execute(d, [Run(t.problem, list(t.plan), t.problem.init) for t in valid])
    assert asked == []
    swap = next(t for t in tasks if t.plan_file.endswith("swap.plan"))
    out = replay.execute(d, [Run(swap.problem, list(swap.plan), swap.problem.init)])
    assert [len(r.plan) for r in asked[0]] == [1]
    assert asked[0][0].plan[0] == swap.plan[out[0].failed_step]
    assert out[0].failed_step is not None and out[0].unmet


def test_disagreement_falls_back_to_the_whole_run(monkeypatch):
    """A step replay finds inapplicable but clingo applicable (a bug of replay's) costs a run of the whole
    plan, whose verdict is clingo's."""
    d = load_domain(ROOT / "benchmarks" / "ipc" / "domains" / "sokoban.pddl")
    task = next(t for t in read_batch(PLANS / "sokoban" / "plans.jsonl", d) if t.plan_file.endswith("valid.plan"))
    monkeypatch.setattr(replay, "_applies", lambda plain, step, *rest: step is not task.plan[3])
    run = Run(task.problem, list(task.plan), task.problem.init)
    assert replay.execute(d, [run]) == execute_parts(d, [run], states=False) and engine.PART_STEPS


TYPED = """(define (domain typed)
  (:requirements :typing :negative-preconditions :equality)
  (:types block - thing ball - thing)
  (:constants table - thing)
  (:predicates (on ?x - thing ?y - thing) (held ?x - thing) (free))
  (:action take :parameters (?x - block)
    :precondition (free) :effect (and (held ?x) (not (free))))
  (:action drop :parameters (?x - thing ?y - thing)
    :precondition (and (held ?x) (not (= ?x ?y)) (not (on ?x ?y)))
    :effect (and (on ?x ?y) (not (held ?x)) (free)))
  (:action flip :parameters (?x - thing)
    :precondition (and (not (held ?x)) (= ?x table))
    :effect (and (not (free)) (free) (held ?x) (not (held ?x)))))"""

TYPED_PROBLEM = """(define (problem p) (:domain typed)
  (:objects b1 b2 - block c1 - ball)
  (:init (free))
  (:goal (and (on b1 b2) (not (held b2)) (not (on b2 table)))))"""


def test_types_equality_negation_delete_before_add():
    """A parameter's type that no precondition reads, equalities with a constant, negative preconditions
    and goals, an atom both deleted and added (it holds after): replay and clingo agree, and each case
    is replayed, not handed to clingo whole."""
    from amlasp.pddl.parse import parse_domain, parse_problem
    from amlasp.pddl.plans import read_plan_text

    d = parse_domain(TYPED)
    p = parse_problem(TYPED_PROBLEM, d)
    texts = ["(take b1)\n(drop b1 b2)", "(take c1)", "(take b1)\n(drop b1 b1)", "(flip table)\n(take b1)",
             "(flip b1)", "(take b2)\n(drop b2 table)\n(take b1)\n(drop b1 b2)", "(take b1)\n(drop b1 table)"
             "\n(take b1)\n(drop b1 table)", "(take b2)"]
    runs = [Run(p, list(read_plan_text(t, d, p).steps), p.init) for t in texts]
    assert same(d, runs) == len(runs)
    out = replay.execute(d, runs)
    assert [ex.failed_step for ex in out] == [None, 0, 1, None, 0, None, 3, None]
    assert [ex.valid for ex in out] == [True, False, False, False, False, False, False, False]
