"""amlasp/external/untyped.py: a task with `either` types, written for the planner with its types as
predicates, has the same applicable actions in every state as the typed task, and Fast Downward
solves it with a plan that is valid in the typed task."""

from __future__ import annotations

import random

import pytest

from amlasp.external.fast_downward import PlannerStatus, plan_with_fast_downward, planner_task
from amlasp.external.untyped import has_either, types_as_predicates
from amlasp.pddl.parse import load_domain, load_problem, parse_domain, parse_problem
from amlasp.reasoning.engine import applicable, execute
from tests.support.paths import DATA

DOMAIN, PROBLEM = DATA / "either" / "domain.pddl", DATA / "either" / "problem.pddl"


def _walk_states(d, p, steps: int, seed: int):
    rng, state, out = random.Random(seed), p.init, [p.init]
    for _ in range(steps):
        acts = applicable(d, p, [state])[0]
        if not acts:
            break
        state = execute(d, p, [rng.choice(acts)], start=state).states[-1]
        out.append(state)
    return out


def test_the_untyped_task_has_the_typed_tasks_applicable_actions():
    d = load_domain(DOMAIN)
    p = load_problem(PROBLEM, d)
    assert has_either(d, p)
    ud, up = types_as_predicates(d, p)
    assert ud.types == () and all(t == "object" for a in ud.actions for _, t in a.parameters)
    ud = parse_domain(_written(ud), "untyped.pddl")  # as the planner reads it
    extra = up.init - p.init  # the type facts, given in every state
    states = _walk_states(d, p, 8, 3)
    assert applicable(d, p, states) == applicable(ud, up, [s | extra for s in states])
    assert sum(len(x) for x in applicable(d, p, states)) > 20


def _written(d):
    from amlasp.pddl.writer import to_pddl
    return to_pddl(d)


def test_fast_downward_plans_for_an_either_task():
    pytest.importorskip("up_fast_downward")
    d = load_domain(DOMAIN)
    text = PROBLEM.read_text().replace("(:goal (and (in x p1)))", "(:goal (and (in x tp) (at hub a)))")
    p = parse_problem(text, d, "p.pddl")
    task = planner_task(d, p, d)
    assert "type-truck" in task.domain and "(either" not in task.domain + task.problem
    r = plan_with_fast_downward(d, p, d, timeout=60)
    assert r.status is PlannerStatus.PLAN and execute(d, p, list(r.plan)).valid
