"""amlasp/pddl/ground.py: ground atoms and actions against a domain (names, arities, objects, types)."""

from __future__ import annotations

import pytest

from amlasp.errors import InputError
from amlasp.model import Atom, GroundAction
from amlasp.pddl.ground import Grounder
from amlasp.pddl.parse import parse_domain
from amlasp.pddl.sexpr import read

DOMAIN = parse_domain("""(define (domain park) (:requirements :typing)
  (:types vehicle - object car truck - vehicle curb)
  (:constants home - curb)
  (:predicates (at ?v - vehicle ?c - curb) (free ?c - curb) (sunny))
  (:action park :parameters (?v - vehicle ?c - curb) :precondition (free ?c) :effect (at ?v ?c)))""", "d.pddl")
OBJECTS = {"c1": "car", "t1": "truck", "k1": "curb", "home": "curb"}


def grounder() -> Grounder:
    return Grounder(DOMAIN, OBJECTS)


def test_atoms_and_actions_with_subtypes_and_constants():
    g = grounder()
    assert g.atom(read("(at c1 home)"), "s") == Atom("at", ("c1", "home"))
    assert g.atom(read("(at t1 k1)"), "s") == Atom("at", ("t1", "k1"))
    assert g.atom(read("(sunny)"), "s") == Atom("sunny", ())
    assert g.action(read("(park t1 k1)"), "p") == GroundAction("park", ("t1", "k1"))
    assert g.atom(read("(= c1 c1)"), "g", equality=True) == Atom("=", ("c1", "c1"))


@pytest.mark.parametrize("text,col,message", [
    ("(at k1 c1)", 5, "object 'k1' has type 'curb', but argument 1 of predicate 'at' has type 'vehicle'"),
    ("(at c1 c1)", 8, "object 'c1' has type 'car', but argument 2 of predicate 'at' has type 'curb'"),
    ("(at c1)", 2, r"predicate 'at' takes 2 argument\(s\), 1 given"),
    ("(at c1 zz)", 8, "unknown object 'zz'"),
    ("(parked c1)", 2, r"undefined predicate 'parked' \(not declared in domain park, d.pddl\)"),
    ("(at c1 (k1))", 8, "nested parentheses in an atom"),
    ("(not (sunny))", 1, "negative literals are not allowed here"),
    ("(= c1 c1)", 2, r"undefined predicate '='"),
])
def test_atom_errors_point_at_the_token(text, col, message):
    with pytest.raises(InputError, match=message) as caught:
        grounder().atom(read(text, "s.txt", 4, 1), "s.txt")
    assert (caught.value.line, caught.value.col) == (4, col)


def test_action_errors_and_a_trajectory_action_of_another_model():
    g = grounder()
    with pytest.raises(InputError, match="parameter 2 of action 'park' has type 'curb'"):
        g.action(read("(park c1 t1)"), "p")
    with pytest.raises(InputError, match=r"unknown action 'fly' \(not in domain park, d.pddl\)"):
        g.action(read("(fly c1)"), "p")
    assert g.action(read("(fly c1)"), "t", check_action=False) == GroundAction("fly", ("c1",))
    with pytest.raises(InputError, match="parameter 1 of action 'park'"):  # known: its types still count
        g.action(read("(park k1 k1)"), "t", check_action=False)


def test_plain_action_agrees_with_the_reader_and_refuses_what_it_refuses():
    """`plain_action` (a plan line of plain words) gives the reader's action, or None wherever
    `action` raises, so that the reader says where."""
    g = grounder()
    assert g.plain_action("park", ["t1", "home"]) == g.action(read("(park t1 home)"), "p")
    for text in ("(park c1 t1)", "(fly c1)", "(park c1)", "(park c1 zz)"):
        with pytest.raises(InputError):
            g.action(read(text), "p")
        name, *args = text[1:-1].split()
        assert g.plain_action(name, args) is None


@pytest.mark.parametrize("line,col,message", [
    ("(park c1 zz)", 10, "unknown object 'zz'"),
    ("0: (fly c1) [1]", 5, r"unknown action 'fly'"),
    ("(park c1 (k1))", 10, "nested parentheses in an action"),
])
def test_plan_lines_read_fast_still_fail_at_their_place(line, col, message):
    from amlasp.model import Problem
    from amlasp.pddl.plans import parse_plan

    problem = Problem("p", "park", tuple(OBJECTS.items()), frozenset(), ())
    plan = parse_plan("; two steps\n(Park T1 k1)\n  (park c1 HOME) ; a comment\n", DOMAIN, problem, "x.plan")
    assert plan == [GroundAction("park", ("t1", "k1")), GroundAction("park", ("c1", "home"))]
    # an object of the wrong type is read: the step is not applicable (the engine says so, as VAL does)
    assert parse_plan("(PARK c1 T1)\n", DOMAIN, problem, "x.plan") == [GroundAction("park", ("c1", "t1"))]
    with pytest.raises(InputError, match=message) as caught:
        parse_plan(f"(park t1 k1)\n{line}\n", DOMAIN, problem, "x.plan")
    assert (caught.value.file, caught.value.line, caught.value.col) == ("x.plan", 2, col)
