"""amlasp/metrics/solve.py: problem statuses and the summary over them."""

from __future__ import annotations

import json

from amlasp.external.fast_downward import PlannerStatus
from amlasp.metrics.solve import ProblemOutcome, ProblemStatus, SolveResult


def test_every_planner_outcome_but_a_plan_is_a_problem_status():
    assert {s.value for s in PlannerStatus} - {PlannerStatus.PLAN.value} <= {s.value for s in ProblemStatus}
    assert [s.value for s in ProblemStatus] == ["solved", "false_plan", "no_plan", "timeout", "memout", "error",
                                                "invalid_model"]


def test_summary_counts_each_status_over_all_problems():
    statuses = [ProblemStatus.SOLVED, ProblemStatus.SOLVED, ProblemStatus.TIMEOUT, ProblemStatus.FALSE_PLAN]
    r = SolveResult("l", "r", "greedy", tuple(ProblemOutcome(f"p{i}", s) for i, s in enumerate(statuses)))
    s = r.summary()
    assert list(s) == ["solving_ratio", "false_plan_ratio", "no_plan_ratio", "timeout_ratio", "memout_ratio",
                       "error_ratio", "invalid_model_ratio", "problems", "counts"]
    assert s["solving_ratio"] == 0.5 and s["timeout_ratio"] == 0.25 and s["no_plan_ratio"] == 0.0
    assert s["counts"] == {"solved": 2, "false_plan": 1, "no_plan": 0, "timeout": 1, "memout": 0, "error": 0,
                           "invalid_model": 0}
    assert json.loads(json.dumps(r.to_dict()))["problems"][2]["status"] == "timeout"
