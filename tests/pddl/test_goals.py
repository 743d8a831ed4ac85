"""Goals that are no conjunctions of literals (issue 31): `forall`, `exists`, `or`, `imply` and `not` of a
formula are read as goal conditions (`model.GoalCondition`), compiled as Fast Downward compiles them: the
atom of a 0-ary derived predicate whose rule's body is the condition (`goal_rules.with_goal_rules`). Errors in
them are located at their token; conjunctive goals are read as before; the writer writes them back."""

from __future__ import annotations

import pytest

from amlasp.errors import InputError
from amlasp.goal_rules import goal_rules, is_goal_predicate, with_goal_rules
from amlasp.logic import text
from amlasp.model import Atom, Forall, GoalCondition, Literal
from amlasp.pddl.parse import load_domain, load_problem, parse_problem
from amlasp.pddl.writer import problem_to_pddl, to_pddl
from tests.support.examples import LAMP
from tests.support.paths import DATA

LAMPS = DATA / "goals" / "lamps"


def _problem(goal: str):
    return parse_problem(f"(define (problem p) (:domain lamp) (:objects k b - room) (:init (at hall)) (:goal {goal}))",
                         LAMP.domain(), "p.pddl")


@pytest.mark.parametrize("goal", [
    "(or (at hall) (lit k))",
    "(exists (?r - room) (lit ?r))",
    "(forall (?r - room) (imply (at ?r) (lit ?r)))",
    "(not (and (lit k) (lit b)))",
    "(not (exists (?r - room) (and (lit ?r) (not (= ?r hall)))))",
])
def test_a_goal_condition_is_read_with_its_formula(goal):
    p = _problem(goal)
    (g,) = p.goal
    assert isinstance(g, GoalCondition)
    assert str(g) == text(g.formula) == goal
    assert is_goal_predicate(g.atom.predicate) and g.atom.args == () and g.positive
    assert (g.line, g.col) == (1, 83)


def test_literal_conjuncts_stay_literals_and_conditions_keep_their_place():
    p = _problem("(and (lit k) (forall (?r - room) (lit ?r)) (not (at b)) (or (lit b) (at k)))")
    assert [type(g).__name__ for g in p.goal] == ["Literal", "GoalCondition", "Literal", "GoalCondition"]
    assert [str(g) for g in p.goal] == ["(lit k)", "(forall (?r - room) (lit ?r))", "(not (at b))",
                                        "(or (lit b) (at k))"]
    assert isinstance(p.goal[1].formula, Forall)


def test_a_conjunctive_goal_is_read_as_before():
    """Plain literals, no goal rule: the domain a command runs on is the domain itself (tests/golden too)."""
    d = LAMP.domain()
    p = _problem("(and (lit k) (not (at b)) (= k k))")
    assert all(type(g) is Literal for g in p.goal)
    assert goal_rules(p) == () and with_goal_rules(d, [p]) is d


def test_the_goal_rules_join_the_domain_once_per_condition():
    d = LAMP.domain()
    p = _problem("(and (forall (?r - room) (lit ?r)) (or (lit b) (at k)))")
    q = _problem("(forall (?r - room) (lit ?r))")  # the same condition in another problem: the same predicate
    extended = with_goal_rules(d, [p, q])
    assert with_goal_rules(d, [p, q]) is extended  # kept: the engines cache compiled models by identity
    assert with_goal_rules(extended, [p]) is extended
    names = [r.predicate for r in extended.derived]
    assert names == [g.atom.predicate for g in p.goal] and q.goal[0].atom.predicate == names[0]
    assert [r.body for r in extended.derived] == [g.formula for g in p.goal]
    assert all(extended.predicate(n).arity == 0 for n in names)
    assert extended.derived_predicates() == frozenset(names)


@pytest.mark.parametrize("goal, at, message", [
    ("(forall (?r - room) (lite ?r))", "lite", "undefined predicate 'lite'"),
    ("(exists (?r - room) (lit ?s))", "?s", "undeclared variable '\\?s'"),
    ("(or (lit k) (lit x))", "x", "unknown constant 'x' \\(not in the problem's :objects nor the domain's"),
    ("(forall (?r - rooom) (lit ?r))", "rooom", "undeclared type 'rooom'"),
    ("(or (lit k ?r) (at k))", "lit", "predicate 'lit' takes 1 argument"),
    ("(imply (lit k))", "(imply", "'imply' takes two conditions, 1 given"),
])
def test_an_error_in_a_goal_condition_is_located(goal, at, message):
    """At its token: the goal starts at column 83 of the problem's one line."""
    with pytest.raises(InputError, match=message) as e:
        _problem(goal)
    assert (e.value.file, e.value.line, e.value.col) == ("p.pddl", 1, 83 + goal.index(at)), str(e.value)


def test_the_writer_writes_a_goal_condition_back():
    d = load_domain(LAMPS / "domain.pddl")
    for f in sorted(LAMPS.glob("*.pddl")):
        if f.name == "domain.pddl":
            continue
        p = load_problem(f, d)
        assert any(isinstance(g, GoalCondition) for g in p.goal), f
        again = parse_problem(problem_to_pddl(p), d, str(f))
        assert again.goal == p.goal and [str(g) for g in again.goal] == [str(g) for g in p.goal]
        # the rules added for the goal stay out of the domain's text (the problem's goal says them)
        assert to_pddl(with_goal_rules(d, [p])) == to_pddl(d)


def test_ipc_goals_with_forall_are_read():
    """miconic-fulladl (IPC 2000) and psr-middle (IPC 2004), refused before: their goals' text as written."""
    d = load_domain(DATA / "goals" / "miconic-fulladl" / "domain.pddl")
    p = load_problem(DATA / "goals" / "miconic-fulladl" / "instance-11.pddl", d)
    assert [str(g) for g in p.goal] == ["(forall (?p - passenger) (served ?p))"]
    d = load_domain(DATA / "goals" / "psr-middle" / "domain.pddl")
    p = load_problem(DATA / "goals" / "psr-middle" / "instance-1.pddl", d)
    assert str(p.goal[0]) == "(forall (?b - device) (not (affected ?b)))"
    assert p.goal[1:] == tuple(Literal(Atom("fed", (x,))) for x in ("l1", "l2", "l6", "l7", "l8", "l10", "l11"))
