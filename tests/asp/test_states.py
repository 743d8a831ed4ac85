"""amlasp/asp/states.py: many states as facts (each distinct atom once, with the ranges of states
that hold it; static atoms once per group), read back from clingo; and the typing it lets the
compiled rules skip, checked against answers that need it."""

from __future__ import annotations

import pytest

from amlasp.asp.compile import compile_domain
from amlasp.asp.run import solve_once
from amlasp.asp.schema import FIXED, HELD, SPAN
from amlasp.asp.states import RANGES, ManyStates, many_states
from amlasp.model import GroundAction as G
from amlasp.pddl.parse import load_domain, load_problem, parse_domain, parse_problem
from amlasp.pddl.states import read_trajectory
from amlasp.reasoning.engine import applicable_many
from tests.support.examples import TYPED
from tests.support.notation import atom
from tests.support.paths import IPC


def read_back(facts: ManyStates) -> list[frozenset[str]]:
    """Each state as clingo sees it: its holds/2 atoms and its group's fixed/2 atoms, as text."""
    syms = solve_once([facts.text(), RANGES, "#show holds/2. #show fixed/2. #show state/2."], given=facts.given())
    holds: dict[int, set[str]] = {}
    fixed: dict[int, set[str]] = {}
    group: dict[int, int] = {}
    for s in syms:
        a, b = s.arguments
        if s.name == "holds":
            holds.setdefault(a.number, set()).add(str(b))
        elif s.name == "fixed":
            fixed.setdefault(a.number, set()).add(str(b))
        else:
            group[a.number] = b.number
    return [frozenset(holds.get(i, set()) | fixed.get(group[i], set())) for i in range(facts.count)]


def as_text(states) -> list[frozenset[str]]:
    from amlasp.asp.facts import ground
    return [frozenset(ground(a) for a in st) for st in states]


def test_trajectory_states_read_back_whole_from_few_facts():
    d = load_domain(IPC / "domains" / "sokoban.pddl")
    sets = []
    for k in (0, 1):
        p = load_problem(IPC / "problems" / "learning" / "sokoban" / f"{k}_sokoban_prob.pddl", d)
        sets.append((p, list(read_trajectory(IPC / "trajectories" / "learning" / "sokoban" / f"{k}_sokoban_traj",
                                             d, p).states)))
    facts = many_states(d, sets)
    assert facts.firsts == [0, len(sets[0][1])] and facts.count == sum(len(s) for _, s in sets)
    assert read_back(facts) == as_text(sets[0][1]) + as_text(sets[1][1])
    assert facts.well_typed
    rows = facts.given()
    assert len(rows[FIXED]) == sum(len({a for a in states[0] if a.predicate == "adjacent"}) for _, states in sets)
    assert len(rows[SPAN]) == 2  # a range of states per group
    holds = sum(len(st - {a for a in st if a.predicate == "adjacent"}) for _, states in sets for st in states)
    assert len(rows[HELD]) < holds / 5  # a row per range of states that hold an atom


def test_states_that_differ_on_static_atoms_form_their_own_groups():
    d = parse_domain("""(define (domain roads) (:predicates (road ?a ?b) (at ?a))
      (:action go :parameters (?a ?b) :precondition (and (at ?a) (road ?a ?b)) :effect (and (at ?b) (not (at ?a)))))""")
    p = parse_problem("(define (problem p) (:domain roads) (:objects x y z) (:init (at x) (road x y)) (:goal (at y)))",
                      d)
    at_x, at_y, xy, yz = atom("(at x)"), atom("(at y)"), atom("(road x y)"), atom("(road y z)")
    states = [{at_x, xy}, {at_y, xy}, {at_y}, {at_y, xy, yz}, {at_x, xy}]
    facts = many_states(d, [(p, states)])
    assert read_back(facts) == as_text(states)
    assert applicable_many(d, [(p, states)]) == [[[G("go", ("x", "y"))], [], [], [G("go", ("y", "z"))],
                                                   [G("go", ("x", "y"))]]]


def test_an_ill_typed_atom_keeps_the_typing_literals():
    """`(free x1)` with x1 a box: `take` needs a ball, and the predicate's declaration (object)
    does not say so; an atom of a ball-typed position holding a box is ill-typed and turns the
    shortcut off altogether."""
    d, p = TYPED.load()
    free_box = frozenset({atom("(free b1)"), atom("(free x1)")})
    assert applicable_many(d, [(p, [free_box])]) == [[[G("take", ("b1",))]]]
    d2 = parse_domain("""(define (domain t) (:requirements :typing) (:types ball box)
      (:predicates (free ?x - ball))
      (:action take :parameters (?x - ball) :precondition (free ?x) :effect (not (free ?x))))""")
    p2 = parse_problem("(define (problem q) (:domain t) (:objects b1 - ball x1 - box) (:init (free b1))"
                       " (:goal (free b1)))", d2)
    ill = frozenset({atom("(free b1)"), atom("(free x1)")})
    facts = many_states(d2, [(p2, [ill])])
    assert not facts.well_typed
    assert applicable_many(d2, [(p2, [ill])]) == [[[G("take", ("b1",))]]]
    assert many_states(d2, [(p2, [p2.init])]).well_typed


def test_typed_atoms_drop_only_the_typing_a_declaration_implies():
    d, _ = TYPED.load()
    plain = compile_domain(d, "m", effects=False, typing="negative")
    typed = compile_domain(d, "m", effects=False, typing="negative", typed_atoms=True)
    assert "not_a(m,P,V0,ball)" in plain.text and "not_a(m,P,V0,ball)" in typed.text  # free is over object
    d2 = load_domain(IPC / "domains" / "sokoban.pddl")
    assert compile_domain(d2, "m", effects=False, typing="negative").typing
    assert not compile_domain(d2, "m", effects=False, typing="negative", typed_atoms=True).typing


@pytest.mark.parametrize("name", ["blocksworld", "depots", "rovers", "floortile", "sokoban", "ferry", "grippers",
                                  "satellite", "miconic", "npuzzle"])
def test_runs_of_states_give_each_states_answer(name):
    """Applicability joined a run of states at a time equals it joined a state at a time, on the
    trajectories of two problems (whose runs must not merge) and on shuffled states (runs of one)."""
    from amlasp.asp.compile import runs_apply
    d = load_domain(IPC / "domains" / f"{name}.pddl")
    assert runs_apply(d, d.static_predicates())
    sets = []
    for k in (0, 1):
        p = load_problem(IPC / "problems" / "learning" / name / f"{k}_{name}_prob.pddl", d)
        states = list(read_trajectory(IPC / "trajectories" / "learning" / name / f"{k}_{name}_traj", d, p).states)
        sets.append((p, states))
    sets.append((sets[0][0], sets[0][1][::-3] + sets[0][1][1::3]))
    assert applicable_many(d, sets, runs=True) == applicable_many(d, sets, runs=False)


def test_a_negative_state_condition_keeps_states_apart():
    from amlasp.asp.compile import runs_apply
    from tests.support.examples import LAMP
    d, p = LAMP.load()
    assert not runs_apply(d, d.static_predicates())
    with pytest.raises(ValueError, match="no run form"):
        compile_domain(d, "m", effects=False, runs=True)


def test_runs_are_chosen_for_trajectories_not_for_scattered_states():
    import random
    d = load_domain(IPC / "domains" / "depots.pddl")
    p = load_problem(IPC / "problems" / "learning" / "depots" / "3_depots_prob.pddl", d)
    states = list(read_trajectory(IPC / "trajectories" / "learning" / "depots" / "3_depots_traj", d, p).states)
    assert many_states(d, [(p, states)]).runs_pay()
    scattered = states * 6
    random.Random(0).shuffle(scattered)
    assert not many_states(d, [(p, scattered)]).runs_pay()
