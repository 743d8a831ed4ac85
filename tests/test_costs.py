"""amlasp/costs.py: a plan's cost as VAL counts it (tests/external/test_costs.py checks it against VAL)."""

from __future__ import annotations

from dataclasses import replace

from amlasp.costs import action_cost, plan_cost, uses_costs
from amlasp.model import GroundAction
from amlasp.pddl.parse import parse_domain, parse_problem
from tests.pddl.test_costs import DOMAIN, PROBLEM

D = parse_domain(DOMAIN)
P = parse_problem(PROBLEM, D)
DRIVE, WAIT, LOOK = GroundAction("drive", ("x", "y")), GroundAction("wait"), GroundAction("look", ("x",))


def test_each_step_costs_its_term():
    assert [action_cost(D, P, a) for a in (DRIVE, WAIT, LOOK)] == [7, 2, 0]
    assert action_cost(D, P, GroundAction("drive", ("y", "x"))) is None  # (length y x) has no value


def test_a_plan_costs_the_start_value_plus_its_steps():
    assert plan_cost(D, P, [DRIVE, WAIT, LOOK]).value == 9
    start = replace(P, costs=tuple((a, 10 if a.predicate == "total-cost" else v) for a, v in P.costs))
    assert plan_cost(D, start, [DRIVE]).value == 17


def test_an_undefined_cost_is_said():
    cost = plan_cost(D, P, [WAIT, GroundAction("drive", ("y", "x"))])
    assert cost.value is None and cost.undefined == "(length y x)"


def test_without_the_metric_every_step_costs_one():
    plain = replace(P, metric=False)
    assert not uses_costs(D, plain)
    assert plan_cost(D, plain, [DRIVE, WAIT, LOOK]).value == 3
