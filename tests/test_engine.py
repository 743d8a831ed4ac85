"""Hand-computed answers of the core engine: applicability, successors, validation."""

from amlasp.reasoning.engine import applicable, execute
from amlasp.model import Atom, GroundAction as G
from amlasp.pddl.parse import parse_domain, parse_problem

from conftest import EXAMPLES

BW = (EXAMPLES / "blocksworld" / "domain.pddl").read_text()
BW_PROBLEM = (EXAMPLES / "blocksworld" / "problem.pddl").read_text()


def bw():
    d = parse_domain(BW, "bw.pddl")
    return d, parse_problem(BW_PROBLEM, d, "p.pddl")


def test_initial_state_applicable_actions():
    d, p = bw()
    assert applicable(d, p) == [[G("unstack", ("b3", "b1"))]]


def test_applicable_in_given_states():
    d, p = bw()
    s1 = {Atom("ontable", ("b1",)), Atom("ontable", ("b2",)), Atom("clear", ("b1",)), Atom("clear", ("b2",)),
          Atom("holding", ("b3",))}
    got = applicable(d, p, [p.init, s1])
    assert got[1] == [G("put_down", ("b3",)), G("stack", ("b3", "b1")), G("stack", ("b3", "b2"))]


def test_successor_delete_then_add():
    dom = parse_domain("""(define (domain t) (:predicates (p) (q))
      (:action flip :parameters () :precondition (p) :effect (and (not (p)) (p) (q))))""")
    prob = parse_problem("(define (problem x) (:domain t) (:init (p)) (:goal (q)))", dom)
    ex = execute(dom, prob, [G("flip")])
    assert ex.states[1] == {Atom("p"), Atom("q")} and ex.valid


def test_validation_reports_failing_step_and_unmet_preconditions():
    d, p = bw()
    ex = execute(d, p, [G("unstack", ("b3", "b1")), G("stack", ("b3", "b3"))])
    assert ex.failed_step == 1 and not ex.valid
    assert [str(u) for u in ex.unmet] == ["(clear b3)"]


def test_validation_reports_unmet_goals():
    d, p = bw()
    ex = execute(d, p, [G("unstack", ("b3", "b1"))])
    assert ex.executable and not ex.valid
    assert sorted(map(str, ex.goal_unmet)) == ["(on b2 b1)", "(on b3 b2)"]


def test_adl_features_conditional_universal_typed_constants():
    dom = parse_domain("""(define (domain adl) (:requirements :adl :typing)
      (:types room ball - object heavy - ball) (:constants hall - room)
      (:predicates (at ?b - ball ?r - room) (robot ?r - room) (lit ?r - room))
      (:action sweep :parameters (?to - room)
        :precondition (and (not (= ?to hall)) (exists (?b - heavy) (at ?b hall))
                           (or (lit ?to) (robot hall)) (forall (?b - ball) (imply (at ?b ?to) (lit ?to))))
        :effect (and (robot ?to) (not (robot hall))
                     (forall (?b - ball) (when (at ?b hall) (and (at ?b ?to) (not (at ?b hall))))))))""")
    prob = parse_problem("""(define (problem p) (:domain adl) (:objects k - room b1 - heavy b2 - ball)
      (:init (robot hall) (at b1 hall) (at b2 hall)) (:goal (and (at b1 k) (not (robot hall)))))""", dom)
    assert applicable(dom, prob) == [[G("sweep", ("k",))]]
    ex = execute(dom, prob, [G("sweep", ("k",))])
    assert ex.valid
    assert ex.states[1] == {Atom("robot", ("k",)), Atom("at", ("b1", "k")), Atom("at", ("b2", "k"))}
    # with b2 already in the dark room k, the forall precondition fails
    dark = {Atom("robot", ("hall",)), Atom("at", ("b1", "hall")), Atom("at", ("b2", "k"))}
    assert applicable(dom, prob, [dark]) == [[]]
    ex3 = execute(dom, prob, [G("sweep", ("k",))], start=dark)
    assert ex3.failed_step == 0 and [u.kind for u in ex3.unmet] == ["cond"]
    ex2 = execute(dom, prob, [G("sweep", ("hall",))])
    assert ex2.failed_step == 0 and [u.kind for u in ex2.unmet] == ["cond", "neq"]  # hall is dark too
