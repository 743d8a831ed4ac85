"""Hand-computed answers of the core engine: applicability, successors, validation; and the
known answers of every example of the registry."""

import pytest

from amlasp.model import Atom
from amlasp.model import GroundAction as G
from amlasp.reasoning.engine import applicable, execute
from tests.support.examples import ADL, BLOCKSWORLD, FLIP, REGISTRY
from tests.support.notation import actions


def test_initial_state_applicable_actions():
    d, p = BLOCKSWORLD.load()
    assert applicable(d, p) == [[G("unstack", ("b3", "b1"))]]


def test_applicable_in_given_states():
    d, p = BLOCKSWORLD.load()
    s1 = {Atom("ontable", ("b1",)), Atom("ontable", ("b2",)), Atom("clear", ("b1",)), Atom("clear", ("b2",)),
          Atom("holding", ("b3",))}
    got = applicable(d, p, [p.init, s1])
    assert got[1] == [G("put_down", ("b3",)), G("stack", ("b3", "b1")), G("stack", ("b3", "b2"))]


def test_successor_delete_then_add():
    dom, prob = FLIP.load()
    ex = execute(dom, prob, [G("flip")])
    assert ex.states[1] == {Atom("p"), Atom("q")} and ex.valid


def test_validation_reports_failing_step_and_unmet_preconditions():
    d, p = BLOCKSWORLD.load()
    ex = execute(d, p, [G("unstack", ("b3", "b1")), G("stack", ("b3", "b3"))])
    assert ex.failed_step == 1 and not ex.valid
    assert [str(u) for u in ex.unmet] == ["(clear b3)"]


def test_validation_reports_unmet_goals():
    d, p = BLOCKSWORLD.load()
    ex = execute(d, p, [G("unstack", ("b3", "b1"))])
    assert ex.executable and not ex.valid
    assert sorted(map(str, ex.goal_unmet)) == ["(on b2 b1)", "(on b3 b2)"]


def test_adl_features_conditional_universal_typed_constants():
    dom, prob = ADL.load()
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


# -- the registry's known answers

@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_known_applicable_actions_and_successors(name):
    e = REGISTRY[name]
    d, p = e.load()
    assert [str(a) for a in applicable(d, p)[0]] == list(e.applicable)
    for action, after in e.successors.items():
        ex = execute(d, p, actions(action))
        assert ex.executable and {str(a) for a in ex.states[1]} == after


@pytest.mark.parametrize("name", sorted(n for n, e in REGISTRY.items() if e.plan is not None))
def test_known_plan_is_valid_and_its_prefixes_are_not(name):
    e = REGISTRY[name]
    d, p = e.load()
    plan = e.plan_actions()
    assert execute(d, p, plan).valid
    assert e.optimal is not None and len(plan) >= e.optimal
    for k in range(len(plan)):  # a plan of an example has no shortcut at its end
        short = execute(d, p, plan[:k])
        assert short.executable and not short.valid


def test_a_step_naming_no_object_of_the_problem_fails_as_unknown():
    """The applicability of an asked step types its arguments by `not not_a` (the complement of is_a
    over the problem's objects): an argument that is no object of the problem is refused before
    it reaches clingo, not let through (only the API can give one: plan files are checked)."""
    d, p = BLOCKSWORLD.load()
    ex = execute(d, p, [G("unstack", ("b3", "b1")), G("put_down", ("zz",))])
    assert ex.failed_step == 1 and not ex.executable
    assert [(u.kind, str(u)) for u in ex.unmet] == [("unknown",
                                                     "an argument of (put_down zz) is not an object of the problem")]


def test_valid_and_failing_plans_in_one_call_keep_their_own_reasons():
    """Part `why` of validate.lp is grounded once for all the failed runs of a call: each gets the
    unmet conjuncts of its own failed step, and the valid ones none."""
    from amlasp.reasoning.validations import validate_plans

    d, p = BLOCKSWORLD.load()
    one = [G("unstack", ("b3", "b1")), G("stack", ("b3", "b3"))]
    two = [G("stack", ("b1", "b2"))]
    got = validate_plans(d, [(p, one), (p, []), (p, two), (p, one)])
    assert [(e.failed_step, [str(u) for u in e.unmet]) for e in got] == [
        (1, ["(clear b3)"]), (None, []), (0, ["(clear b2)", "(holding b1)"]), (1, ["(clear b3)"])]
    alone = [validate_plans(d, [(p, plan)])[0] for plan in (one, [], two)]
    assert [(e.failed_step, e.unmet, e.goal_unmet) for e in alone] == \
        [(e.failed_step, e.unmet, e.goal_unmet) for e in got[:3]]


def test_runs_that_begin_alike_share_states_and_keep_their_own_answers():
    """validate.lp's tree of states: runs sharing first steps (one a prefix of another, one failing
    after the shared part, one from another start) get the states and verdicts each has alone."""
    from amlasp.reasoning.engine import execute_many

    d, p = BLOCKSWORLD.load()
    plan = actions("(unstack b3 b1) (put_down b3) (unstack b1 b2) (put_down b1) (pick_up b2) (stack b2 b1) "
                   "(pick_up b3) (stack b3 b2)")
    plans = [plan, plan[:2], plan[:2] + [G("stack", ("b3", "b1"))], plan[:1] + [G("stack", ("b3", "b2"))], []]
    together = execute_many(d, p, plans)
    alone = [execute(d, p, x) for x in plans]
    assert [(e.states, e.failed_step, e.unmet, e.goal_unmet, e.executable, e.valid) for e in together] == \
        [(e.states, e.failed_step, e.unmet, e.goal_unmet, e.executable, e.valid) for e in alone]
    assert [(e.failed_step, e.valid) for e in together] == [(None, True), (None, False), (2, False), (1, False),
                                                            (None, False)]
    start = together[1].states[-1]  # the same steps from another state are other states
    other = execute_many(d, p, [plan[2:], plan[2:]], starts=[p.init, start])
    assert other[0].failed_step == 0 and other[1].states == together[0].states[2:] and other[1].valid
