"""metrics/evaluate/costs.py: eval's predicted-cost agreement on the steps of test trajectories."""

from __future__ import annotations

from amlasp.metrics.evaluate import evaluate
from amlasp.model import GroundAction
from amlasp.pddl.parse import load_domain, load_problem, parse_domain
from amlasp.pddl.states import StateSet
from amlasp.reasoning.engine import execute
from tests.support.paths import DATA

TRANSPORT = DATA / "costs" / "transport"
PLAN = [GroundAction("drive", ("truck-2", "b", "a")),
        GroundAction("pick-up", ("truck-2", "a", "package-1", "capacity-0", "capacity-1")),
        GroundAction("drive", ("truck-2", "a", "c")),
        GroundAction("drop", ("truck-2", "c", "package-1", "capacity-0", "capacity-1"))]


def _trajectory():
    ref = load_domain(TRANSPORT / "domain.pddl")
    problem = load_problem(TRANSPORT / "small-2.pddl", ref)
    ex = execute(ref, problem, PLAN)
    assert ex.valid and ex.cost == 7
    return ref, StateSet(problem, ex.states, "small-2 trajectory", [*PLAN, None])


def test_costs_agree_step_by_step_and_leave_applicability_alone():
    ref, traj = _trajectory()
    same = evaluate(ref, ref, [traj])
    assert same.summary()["cost_agreement"]["agreement"] == 1.0
    learned = parse_domain((TRANSPORT / "domain.pddl").read_text().replace("(increase (total-cost) 1)",
                                                                          "(increase (total-cost) 2)", 1))
    r = evaluate(learned, ref, [traj])
    agreement = r.summary()["cost_agreement"]
    assert (agreement["steps"], agreement["agree"]) == (4, 3)
    assert agreement["by_action"]["pick-up"] == {"steps": 1, "agree": 0, "agreement": 0.0}
    assert r.applicability == same.applicability and r.effects == same.effects  # costs change neither


def test_without_costs_there_is_no_cost_agreement():
    ref, traj = _trajectory()
    from dataclasses import replace
    plain = replace(traj, problem=replace(traj.problem, metric=False))
    assert "cost_agreement" not in evaluate(ref, ref, [plain]).summary()
