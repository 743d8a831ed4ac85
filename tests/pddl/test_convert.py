"""The conversion's shortcuts for what most actions are (a precondition of literals, an effect `and` of
literals) give what its general walk gives: the same formula and effects, and the same first error."""

from __future__ import annotations

import pytest

from amlasp.errors import InputError
from amlasp.pddl import sexpr
from amlasp.pddl.convert import _Converter, _flatten

CONV = _Converter("d.pddl", {"p": 1, "q": 2, "r": 0}, {"c"}, {"object"})
SCOPE = {"?x": "object", "?y": "object"}


@pytest.mark.parametrize("text", [
    "(and)", "(and (p ?x))", "(and (not (p ?x)))", "(and (p ?x) (q ?x ?y) (p ?x) (not (= ?x ?y)) (r))",
    "(and (q c ?y) (not (q ?y c)) (not (q ?y c)) (= ?x c))",
])
def test_a_precondition_of_literals_is_the_general_walks_formula(text):
    node = sexpr.read(text)
    literals = CONV.literals(node, SCOPE)
    assert literals is not None
    assert CONV.action("a", sexpr.read(f"(:action a :parameters (?x ?y) :precondition {text} :effect (and))")) \
        .precondition == _flatten(CONV.formula(node, SCOPE))


@pytest.mark.parametrize("text", ["(p ?x)", "(and (and (p ?x)))", "(and (or (p ?x)))", "(and (not (and (p ?x))))",
                                  "(and (not (p ?x) (p ?y)))", "(and ((p) ?x))", "(and x)", "(and ())"])
def test_any_other_precondition_takes_the_general_walk(text):
    assert CONV.literals(sexpr.read(text), SCOPE) is None


@pytest.mark.parametrize("text", ["(and (p ?x) (s ?x) (p ?z))", "(and (p ?x) (p ?z) (s ?x))", "(and (q ?x) (p d))",
                                  "(and (p ?x) (not (p ?z)) (and (s)))", "(and (p ?x) (or (s)) (p ?z))"])
def test_a_precondition_s_first_error_is_the_general_walks(text):
    action = sexpr.read(f"(:action a :parameters (?x ?y) :precondition {text} :effect (and))")
    with pytest.raises(InputError) as general:
        CONV.formula(action[5], SCOPE)
    with pytest.raises(InputError) as shortcut:
        CONV.action("a", action)
    assert str(shortcut.value) == str(general.value)


@pytest.mark.parametrize("text", ["(and (p ?x) (not (q ?x c)) (p ?x) (when (p ?y) (r)) (forall (?z) (p ?z)))",
                                  "(and (r) (and (p ?x) (not (r))))", "(and (p ?x) (s ?x))", "(and (p ?x) (= ?x c))",
                                  "(and (p ?x) x)"])
def test_an_effect_and_of_literals_is_what_each_literal_gives(text):
    node = sexpr.read(text)

    def each():
        return [e for g in node[1:] for e in CONV.effects(g, SCOPE)]
    try:
        expected = each()
    except InputError as e:
        with pytest.raises(type(e)) as caught:
            CONV.effects(node, SCOPE)
        assert str(caught.value) == str(e)
    else:
        assert CONV.effects(node, SCOPE) == expected
