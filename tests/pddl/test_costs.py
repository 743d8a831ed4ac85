"""pddl/costs.py: `:action-costs` read beside the tree, each use checked at its token; what is more
than action costs left to the numeric refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from amlasp.errors import InputError, UnsupportedError
from amlasp.model import Atom
from amlasp.pddl.parse import load_domain, load_problem, parse_domain, parse_problem
from amlasp.pddl.writer import problem_to_pddl, to_pddl
from tests.pddl.test_writer import norm

COSTS = Path(__file__).resolve().parents[1] / "data" / "costs"

DOMAIN = """(define (domain roads)
 (:requirements :typing :action-costs)
 (:types place)
 (:predicates (at ?p - place) (road ?a ?b - place))
 (:functions (total-cost) - number (length ?a ?b - place) - number)
 (:action drive :parameters (?a ?b - place)
  :precondition (and (at ?a) (road ?a ?b))
  :effect (and (not (at ?a)) (at ?b) (increase (total-cost) (length ?a ?b))))
 (:action wait :parameters () :precondition (and) :effect (increase (total-cost) 2))
 (:action look :parameters (?a - place) :precondition (at ?a) :effect (and)))"""

PROBLEM = """(define (problem p) (:domain roads) (:objects x y - place)
 (:init (at x) (road x y) (= (total-cost) 0) (= (length x y) 7))
 (:goal (at y)) (:metric minimize (total-cost)))"""


def test_costs_are_read_beside_the_actions():
    d = parse_domain(DOMAIN)
    assert [a.cost for a in d.actions] == [Atom("length", ("?a", "?b")), 2, None]
    assert [f.name for f in d.cost_functions] == ["total-cost", "length"] and d.action_costs
    assert [len(a.effects) for a in d.actions] == [2, 0, 0]  # the cost effect is no literal
    p = parse_problem(PROBLEM, d)
    assert p.metric and dict(p.costs) == {Atom("total-cost"): 0, Atom("length", ("x", "y")): 7}
    assert p.init == {Atom("at", ("x",)), Atom("road", ("x", "y"))}


def test_costs_round_trip_through_the_writer():
    d = parse_domain(DOMAIN)
    assert norm(parse_domain(to_pddl(d))) == norm(d)
    p = parse_problem(PROBLEM, d)
    assert parse_problem(problem_to_pddl(p), d).costs == p.costs


@pytest.mark.parametrize("folder", sorted(p.name for p in COSTS.iterdir() if p.is_dir()))
def test_ipc_cost_domains_round_trip(folder):
    d = load_domain(COSTS / folder / "domain.pddl")
    assert d.action_costs and norm(parse_domain(to_pddl(d))) == norm(d)
    for f in sorted((COSTS / folder).glob("*.pddl")):
        if f.name != "domain.pddl":
            p = load_problem(f, d)
            back = parse_problem(problem_to_pddl(p), d)
            assert (back.costs, back.metric, back.init) == (p.costs, p.metric, p.init)


@pytest.mark.parametrize("old,new,error,message,line", [
    ("(increase (total-cost) 2)", "(increase (total-cost) -2)", InputError, "negative an action cost -2", 9),
    ("(increase (total-cost) 2)", "(increase (total-cost) (speed))", InputError, "undefined function 'speed'", 9),
    ("(increase (total-cost) 2)", "(increase (total-cost) (length ?a))", InputError, "takes 2 argument", 9),
    ("(increase (total-cost) 2)", "(increase (total-cost) (+ 1 2))", UnsupportedError, "an expression", 9),
    ("(increase (total-cost) 2)", "(and (increase (total-cost) 2) (increase (total-cost) 1))", UnsupportedError,
     "two cost effects", 9),
    ("(increase (total-cost) 2)", "(when (and) (increase (total-cost) 2))", UnsupportedError,
     "conditional action cost", 9),
    ("(length ?a ?b))))", "(length ?a ?c))))", InputError, "undeclared variable '\\?c'", 8),
])
def test_bad_costs_are_refused_at_their_token(old, new, error, message, line):
    with pytest.raises(error, match=message) as caught:
        parse_domain(DOMAIN.replace(old, new), "d.pddl")
    assert (caught.value.file, caught.value.line) == ("d.pddl", line)


def test_numeric_models_beyond_costs_are_left_to_the_numeric_refusal():
    """A function in a precondition is a numeric fluent, not an action cost."""
    text = DOMAIN.replace("(road ?a ?b))", "(road ?a ?b) (> (length ?a ?b) 1))")
    with pytest.raises(UnsupportedError, match="unsupported feature: numeric"):
        parse_domain(text)


@pytest.mark.parametrize("old,new,message", [
    ("(= (length x y) 7)", "(= (length x z) 7)", "unknown object 'z'"),
    ("(= (length x y) 7)", "(= (length x) 7)", "function 'length' takes 2 argument"),
    ("(= (length x y) 7)", "(= (length x y) -1)", "negative"),
    ("(= (length x y) 7)", "(= (length x y) 7) (= (length x y) 8)", "given a value twice"),
    ("(:metric minimize (total-cost))", "(:metric maximize (total-cost))", "a metric other than"),
])
def test_bad_cost_values_and_metrics_are_refused(old, new, message):
    with pytest.raises(InputError, match=message) as caught:
        parse_problem(PROBLEM.replace(old, new), parse_domain(DOMAIN), "p.pddl")
    assert caught.value.file == "p.pddl" and caught.value.line == (3 if "metric" in old else 2)
