"""amlasp/pddl: any variable name PDDL allows. Only the type `object` is reserved, and keywords only in
keyword position (issue 21): `?object`, `?either`, `?forall`... name variables like any other word.

Each reserved word is put wherever a variable may be (a predicate's declaration, an action's
parameters, a quantifier of a precondition and of an effect, a `when` condition), and the domain
must be read as the same domain with `?x`-style names: the same model after renaming, and the same
applicable actions and successor states."""

from __future__ import annotations

import pytest

from amlasp.errors import InputError
from amlasp.model import GroundAction
from amlasp.pddl.check import KEYWORDS
from amlasp.pddl.parse import parse_domain, parse_problem
from amlasp.reasoning.engine import applicable, execute

_WORDS = sorted(KEYWORDS | {"type", "types", "number", "at", "start", "end", "derived", "action", "k", "object-k",
                            "x-k-k", "parameters", "define"})

_DOMAIN = """(define (domain vars)
 (:requirements :strips :typing :negative-preconditions :quantified-preconditions :conditional-effects)
 (:types block)
 (:predicates (on ?{a} ?{b} - block) (clear ?{c} - block) (marked ?{a}))
 (:action move :parameters (?{a} ?{b} ?{c} - block)
  :precondition (and (clear ?{a}) (on ?{a} ?{b}) (clear ?{c}) (not (= ?{a} ?{c}))
                     (forall (?{d} - block) (not (on ?{d} ?{a}))))
  :effect (and (not (on ?{a} ?{b})) (on ?{a} ?{c}) (clear ?{b}) (not (clear ?{c}))
               (forall (?{d} - block) (when (exists (?{e} - block) (on ?{d} ?{e})) (marked ?{d}))))))
"""
_PROBLEM = """(define (problem p) (:domain vars) (:objects b1 b2 b3 t - block)
 (:init (on b1 b2) (on b2 t) (clear b1) (clear b3) (on b3 t))
 (:goal (and (on b1 b3))))"""


def _domain(word: str):
    names = dict(a=word, b="w2", c="w3", d="w4", e="w5")
    return parse_domain(_DOMAIN.format(**names), "vars.pddl")


def _plain():
    return parse_domain(_DOMAIN.format(a="x", b="w2", c="w3", d="w4", e="w5"), "vars.pddl")


@pytest.mark.parametrize("word", _WORDS)
def test_a_reserved_word_names_a_variable(word):
    d, plain = _domain(word), _plain()
    var = "?" + word
    move = d.action("move")
    assert move.parameters[0] == (var, "block")
    assert d.predicate("on").parameters[0] == (var, "block") and d.predicate("marked").parameters == ((var, "object"),)
    renamed = str(move).replace(var + "'", "?x'")  # the same action with `?x` for the word
    assert renamed == str(plain.action("move"))
    p = parse_problem(_PROBLEM, d, "p.pddl")
    assert applicable(d, p) == applicable(plain, parse_problem(_PROBLEM, plain, "p.pddl"))
    run = execute(d, p, [GroundAction("move", ("b1", "b2", "b3"))])
    assert run.valid and "(marked b1)" in map(str, run.states[-1]) and "(marked b2)" in map(str, run.states[-1])


@pytest.mark.parametrize("word", ["object", "either", "and", "forall"])
def test_a_keyword_is_still_refused_as_a_name_in_keyword_position(word):
    with pytest.raises(InputError, match=f"invalid predicate name '{word}'"):
        parse_domain(_DOMAIN.replace("(marked ?{a}))", f"({word} ?{{a}}))").format(a="x", b="y", c="z", d="u",
                                                                                      e="v"), "vars.pddl")


def test_an_invalid_variable_is_refused_at_its_token():
    with pytest.raises(InputError, match=r"vars.pddl:4:19: invalid variable '\?1a'"):
        parse_domain(_DOMAIN.format(a="1a", b="y", c="z", d="u", e="v"), "vars.pddl")
