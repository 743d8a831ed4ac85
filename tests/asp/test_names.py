"""amlasp/asp/names.py: PDDL names → clingo identifiers (docs/facts.md, "Names"), and back through
the engine: answers name actions, objects and atoms as the PDDL files do (lower case)."""

from __future__ import annotations

import clingo
import pytest

from amlasp.asp.names import asp_name, atom_text, term
from amlasp.model import Atom, canonical_name
from amlasp.model import GroundAction as G
from amlasp.pddl.parse import parse_domain, parse_problem
from amlasp.reasoning.engine import applicable, execute

RESERVED = ["not", "eq", "v", "c", "q", "pos", "neg", "aux"]


@pytest.mark.parametrize("name,identifier", [
    ("pick-up", "pick_up"), ("Pick-Up", "pick_up"), ("PICK_UP", "pick_up"), ("pick_up", "pick_up"),
    ("at-ferry", "at_ferry"), ("b1", "b1"), ("1st", "n_1st"), ("-x", "n__x"), ("_x", "n__x"),
    ("a.b", "a_b"), ("x@y", "x_y"), ("object", "object"),
])
def test_asp_name(name, identifier):
    assert asp_name(name) == identifier


@pytest.mark.parametrize("word", RESERVED)
def test_reserved_words_get_a_trailing_underscore(word):
    assert asp_name(word) == word + "_"
    assert asp_name(word.upper()) == word + "_"


@pytest.mark.parametrize("name", ["Pick-Up", "1st", "-x", "a.b", "not", "v", "object", "Ünïcode", "x--y"])
def test_identifiers_are_clingo_constants(name):
    sym = clingo.parse_term(asp_name(name))
    assert sym.type == clingo.SymbolType.Function and sym.name == asp_name(name) and not sym.arguments


def test_names_differing_in_case_or_dash_meet():
    assert asp_name("At-Ferry") == asp_name("at_ferry") == asp_name("AT_FERRY")
    assert asp_name("pick-up") != asp_name("pickup")


@pytest.mark.parametrize("names", [("eq", "eq_", "eq__"), ("v", "v_", "v-"), ("pos", "pos_"), ("a", "a_")])
def test_symbols_are_one_per_canonical_name(names):
    """What the PDDL checks tell apart (model.canonical_name) clingo tells apart: `eq` is `eq_`, so `eq_` is `eq__`."""
    canonical = {canonical_name(n) for n in names}
    assert len({asp_name(n) for n in names}) == len(canonical)


def test_terms_and_atoms():
    assert term("Obj-1") == "obj_1"
    assert atom_text("on", ["b1", "b2"]) == "on(b1,b2)"
    assert atom_text("Hand-Empty", []) == "hand_empty"
    assert atom_text("v", ("x",)) == "v_(x)"


NAMES_DOMAIN = """(define (domain Names) (:requirements :strips :typing) (:types Thing)
  (:predicates (Is-Free ?x - Thing) (v ?x - Thing) (Holding ?x - Thing))
  (:action Pick-Up :parameters (?x - Thing) :precondition (and (Is-Free ?x) (v ?x))
     :effect (and (not (Is-Free ?x)) (Holding ?x)))
  (:action eq :parameters (?x - Thing) :precondition (Holding ?x) :effect (not (Holding ?x))))"""
NAMES_PROBLEM = """(define (problem p) (:domain Names) (:objects neg pos c Obj-1 aux - Thing)
  (:init (Is-Free neg) (v neg) (is-free c) (V c) (is-free OBJ-1) (v obj-1) (is-free aux) (holding pos))
  (:goal (holding obj-1)))"""


def test_answers_carry_the_pddl_names_back():
    """Hyphens, reserved words and case survive the trip through clingo identifiers."""
    d = parse_domain(NAMES_DOMAIN, "names.pddl")
    p = parse_problem(NAMES_PROBLEM, d, "names-problem.pddl")
    assert [str(a) for a in applicable(d, p)[0]] == ["(eq pos)", "(pick-up c)", "(pick-up neg)", "(pick-up obj-1)"]
    ex = execute(d, p, [G("pick-up", ("obj-1",))])
    assert ex.valid
    assert ex.states[1] - ex.states[0] == {Atom("holding", ("obj-1",))}
    assert ex.states[0] - ex.states[1] == {Atom("is-free", ("obj-1",))}
    bad = execute(d, p, [G("pick-up", ("pos",))])
    assert bad.failed_step == 0 and sorted(str(u) for u in bad.unmet) == ["(is-free pos)", "(v pos)"]
