"""Validation gives clingo only the rules of the actions a plan takes (issue 33): verdicts equal those
with every action's rules (main's program) and VAL's, on the big IPC domains of benchmarks/ipc_big and
on the plans of bench_validate.py's batch shapes; a failed complex precondition is named right
whichever action was compiled first."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from amlasp.model import GroundAction
from amlasp.pddl.batch import read_batch
from amlasp.pddl.parse import load_domain, load_problem, parse_domain, parse_problem
from amlasp.pddl.plans import read_plan
from amlasp.reasoning import engine
from amlasp.reasoning.validations import validate_plans
from tests.support.paths import IPC, ROOT
from tests.support.val import val_verdict, validate_binary

BIG = ROOT / "benchmarks" / "ipc_big"
PLANS = ROOT / "benchmarks" / "plans"


def verdict(ex) -> tuple:
    return (ex.valid, ex.executable, ex.failed_step, [str(u) for u in ex.unmet], [str(g) for g in ex.goal_unmet])


def every_action(monkeypatch, domain) -> None:
    """Validation as before issue 33: every action's rules, whatever the plans take."""
    names = {a.name for a in domain.actions}
    monkeypatch.setattr(engine, "_used", lambda results: names)


def variants(plan: list[GroundAction], seed: int) -> list[list[GroundAction]]:
    """The plan, two steps swapped, and the plan cut short."""
    rng = random.Random(seed)
    i = rng.randrange(len(plan) - 1)
    return [plan, plan[:i] + [plan[i + 1], plan[i]] + plan[i + 2:], plan[:len(plan) // 2]]


@pytest.mark.parametrize("folder", ["promela-optical-telegraph", "promela-dining-philosophers",
                                    "organic-synthesis-split"])
def test_big_ipc_domains_verdicts_equal_every_actions_and_vals(folder, monkeypatch):
    files = [BIG / folder / f for f in ("domain.pddl", "problem.pddl", "fd.plan")]
    d = load_domain(files[0])
    p = load_problem(files[1], d)
    plans = variants(read_plan(files[2], d, p), 0)
    now = [verdict(x) for x in validate_plans(d, [(p, x) for x in plans])]
    assert now[0][0] and not now[2][0]  # Fast Downward's plan is valid, half of it is not
    if validate_binary() is not None:
        assert [(v[1], v[0]) for v in now] == [val_verdict(files[0], files[1], x) for x in plans]
    every_action(monkeypatch, d)
    assert [verdict(x) for x in validate_plans(d, [(p, x) for x in plans])] == now


@pytest.mark.parametrize("domain_file,folder", [(BIG / "logistics" / "domain.pddl", "logistics"),
                                                (IPC / "domains" / "sokoban.pddl", "sokoban")])
def test_batch_shapes_verdicts_equal_every_actions_and_vals(domain_file, folder, monkeypatch):
    """The 20 plans of one problem and the plans of every problem, in one batch each."""
    d = load_domain(domain_file)
    for batch in ("one_problem.jsonl", "plans.jsonl"):
        tasks = read_batch(PLANS / folder / batch, d)
        now = [verdict(x) for x in validate_plans(d, [(t.problem, t.plan) for t in tasks])]
        assert any(v[0] for v in now) and not all(v[0] for v in now)
        if validate_binary() is not None and batch == "one_problem.jsonl":
            problem = Path(json.loads((PLANS / folder / batch).read_text().splitlines()[0])["problem"])
            theirs = [val_verdict(domain_file, (PLANS / folder / problem).resolve(), t.plan) for t in tasks]
            assert [(v[1], v[0]) for v in now] == theirs
        with monkeypatch.context() as m:
            every_action(m, d)
            assert [verdict(x) for x in validate_plans(d, [(t.problem, t.plan) for t in tasks])] == now


COMPLEX = """(define (domain complex) (:requirements :strips :typing :disjunctive-preconditions
  :existential-preconditions)
  (:types item) (:predicates (p ?x - item) (q ?x - item) (r ?x - item))
  (:action a :parameters (?x - item) :precondition (or (p ?x) (q ?x)) :effect (r ?x))
  (:action b :parameters (?x - item) :precondition (exists (?y - item) (and (q ?y) (not (p ?x))))
   :effect (p ?x)))"""
PROBLEM = """(define (problem c) (:domain complex) (:objects i j - item) (:init (q j)) (:goal (r i)))"""


def test_a_failed_complex_precondition_is_named_whichever_action_was_compiled_first():
    """`cond(K)` numbers one condition of one action; compiled an action at a time, as plans take them."""
    d = parse_domain(COMPLEX)
    p = parse_problem(PROBLEM, d)
    first = validate_plans(d, [(p, [GroundAction("b", ("i",)), GroundAction("b", ("i",))])])[0]
    assert first.failed_step == 1 and [str(u) for u in first.unmet] == ["(exists (?y - item) (and (q ?y) "
                                                                       "(not (p ?x))))"]
    second = validate_plans(d, [(p, [GroundAction("a", ("j",)), GroundAction("a", ("i",))])])[0]
    assert second.failed_step == 1 and [str(u) for u in second.unmet] == ["(or (p ?x) (q ?x))"]
