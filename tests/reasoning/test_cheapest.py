"""`plan --top K` with steps of cost 0 (issue 21), against exhaustive search: pymimir's successor
function enumerates every plan of at most L steps of tests/data/costs/zero, and each plan's cost is
summed here from the problem's numbers, written again below (not read by amlasp's cost code).

- loops: zero-cost loops make infinitely many plans of the least cost 3; the 10 plans are distinct,
  valid, all cost 3, and `optimal` is true (Fast Downward's optimal cost proves them);
- acyclic: 8 plans in all (6 of cost 3, 2 of cost 5); asked for 10, the 8 come cheapest first with
  the oracle's costs, and the answer says exactly which are proven: the 6 of the optimal cost."""

from __future__ import annotations

from pathlib import Path

import pytest

from amlasp.pddl.parse import load_domain, load_problem
from amlasp.reasoning.cheapest import cheapest
from amlasp.reasoning.engine import execute
from tests.support.notation import actions as read_actions
from tests.support.paths import DATA

pymimir = pytest.importorskip("pymimir")
pytest.importorskip("up_fast_downward")

ZERO = DATA / "costs" / "zero"
DIST = {"loops": {("c0", "c1"): 1, ("c1", "c3"): 2, ("c0", "c2"): 0, ("c2", "c0"): 0, ("c2", "c3"): 3},
        "acyclic": {("c0", "c1"): 1, ("c1", "c3"): 2, ("c0", "c2"): 0, ("c2", "c3"): 3, ("c0", "c3"): 5}}


def _all_plans(problem: Path, steps: int) -> dict[str, int]:
    """Every plan of at most `steps` steps (as text) and its cost, by depth-first search."""
    mp = pymimir.Problem(pymimir.Domain(str(ZERO / "domain.pddl")), str(problem))
    goal, dist = mp.get_goal_condition(), DIST[problem.stem]
    out: dict[str, int] = {}

    def walk(state, plan: list[str], cost: int) -> None:
        if goal.holds(state):
            out[" ".join(plan)] = cost
        if len(plan) == steps:
            return
        for a in state.generate_applicable_actions():
            words = str(a).strip("()").split()
            step = dist[(words[1], words[2])] if words[0] == "move" else 0
            walk(a.apply(state), plan + [f"({' '.join(words)})"], cost + step)

    walk(mp.get_initial_state(), [], 0)
    return out


def _plan(name: str, top: int):
    d = load_domain(ZERO / "domain.pddl")
    p = load_problem(ZERO / f"{name}.pddl", d)
    return d, p, cheapest(d, p, max_steps=6, top=top, prover="clingo")


def _text(plan) -> str:
    return " ".join(str(a) for a in plan)


def test_top_k_with_zero_cost_loops_is_proven_by_the_optimal_cost():
    d, p, r = _plan("loops", 10)
    oracle = _all_plans(ZERO / "loops.pddl", 6)
    assert min(oracle.values()) == 3 and sum(c == 3 for c in oracle.values()) > 10
    assert len({_text(x) for x in r.plans}) == 10
    assert [oracle[_text(x)] for x in r.plans] == r.costs == [3] * 10
    assert all(execute(d, p, x, states=False).valid for x in r.plans)
    assert r.optimal is True and r.method == "clingo + fast-downward" and r.reason == ""


def test_top_k_says_which_plans_are_proven_when_a_step_may_cost_0():
    _, _, r = _plan("acyclic", 10)
    oracle = _all_plans(ZERO / "acyclic.pddl", 8)  # no plan has more than 3 steps: all of them
    assert max(len(read_actions(t)) for t in oracle) == 3
    assert sorted(oracle.values()) == [3] * 6 + [5] * 2
    assert sorted(_text(x) for x in r.plans) == sorted(oracle)
    assert r.costs == sorted(oracle.values()) == [oracle[_text(x)] for x in r.plans]
    assert r.optimal is False
    assert r.reason.startswith("plans 1 to 6 cost the optimum 3 (Fast Downward's optimal cost")
    assert "plans 7 to 8 are the cheapest of at most 6 steps, not proven beyond (a step may cost 0)" in r.reason


def test_top_k_whose_first_plans_are_all_proven_when_fewer_are_asked():
    _, _, r = _plan("acyclic", 6)
    assert r.costs == [3] * 6 and r.optimal is True
