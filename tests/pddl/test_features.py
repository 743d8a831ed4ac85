"""PDDL features that every reader refuses by name, at the token that uses them (docs/input.md's
table of supported and refused features points here for each of these rows)."""

from __future__ import annotations

import pytest

from amlasp.errors import UnsupportedError
from amlasp.pddl.parse import parse_domain, parse_problem
from tests.support.examples import LAMP

HEAD = "(define (domain d) (:predicates (p) (q ?x))\n"
REFUSED = {  # id: (domain text, line, column, message)
    "durative-actions": (HEAD + "(:durative-action a :parameters () :duration (= ?duration 1) :condition (and)"
                         " :effect (and)))", 2, 1, "durative actions"),
    "processes": (HEAD + "(:process a :parameters () :precondition (p) :effect (and)))", 2, 1, "processes"),
    "constraints": (HEAD + "(:constraints (always (p))))", 2, 1, "constraints"),
    "non-deterministic": (HEAD + "(:action a :parameters () :effect (oneof (p) (not (p)))))", 2, 35,
                          "non-deterministic effects \\(oneof\\)"),
    "preferences": (HEAD + "(:action a :parameters () :precondition (preference c (p)) :effect (p)))", 2, 41,
                    "preferences \\(preference\\)"),
    "requirement-time": ("(define (domain d) (:requirements :strips :time) (:predicates (p)))", 1, 43,
                         "requirement :time"),
    "forall-in-when": (HEAD + "(:action a :parameters () :effect (when (p) (forall (?y) (q ?y)))))", 2, 45,
                       "'forall' inside the effect of 'when'"),
    "equality-effect": (HEAD + "(:action a :parameters (?x ?y) :effect (= ?x ?y)))", 2, 40, "equality as an effect"),
    "object-fluents": ("(define (domain d) (:requirements :object-fluents) (:predicates (p)))", 1, 35,
                       "requirement :object-fluents"),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_in_a_domain(case):
    text, line, col, message = REFUSED[case]
    with pytest.raises(UnsupportedError, match=f"unsupported feature: {message}") as e:
        parse_domain(text, "d.pddl")
    assert (e.value.line, e.value.col) == (line, col), str(e.value)


@pytest.mark.parametrize("goal, col, message", [
    ("(at end (lit k))", 51, "timed literals \\(at\\)"),
])
def test_refused_in_a_problem(goal, col, message):
    text = f"(define (problem p) (:domain lamp) (:init) (:goal {goal}))"
    with pytest.raises(UnsupportedError, match=f"unsupported feature: {message}") as e:
        parse_problem(text, LAMP.domain(), "p.pddl")
    assert (e.value.line, e.value.col) == (1, col), str(e.value)
