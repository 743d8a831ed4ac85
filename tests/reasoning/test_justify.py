"""amlasp/reasoning/justify.py on long plans (issue 31: a 100,000-step plan ran past 60 s; its timing is
benchmarks/bench_justify.py's), against an independent oracle: every removal tried by UP's grounding and a
STRIPS simulator of our tests (tests/support/strips.py), with no shortcut."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("unified_planning")

from amlasp.model import GroundAction  # noqa: E402
from amlasp.reasoning.justify import justify  # noqa: E402
from tests.support.examples import BLOCKSWORLD, BLOCKSWORLD4  # noqa: E402
from tests.support.strips import Strips  # noqa: E402
from tests.support.up import up_files  # noqa: E402

INVERSE = {"pick_up": "put_down", "put_down": "pick_up", "stack": "unstack", "unstack": "stack"}


def _valid(oracle: Strips, plan: list[GroundAction]) -> bool:
    """The plan executed step by step by the oracle (each action looked up among its ground actions)."""
    by_name = {a: (pos, neg, add, dele) for a, pos, neg, add, dele in oracle.actions}
    s = oracle.init
    for a in plan:
        pos, neg, add, dele = by_name[a]
        if not pos <= s or neg & s:
            return False
        s = (s - dele) | add
    return oracle.is_goal(s)


def _removable(oracle: Strips, plan: list[GroundAction]) -> tuple[list[int], list[int]]:
    """Every single action and consecutive pair left out in turn, the rest validated from the start."""
    return ([i for i in range(len(plan)) if _valid(oracle, plan[:i] + plan[i + 1:])],
            [i for i in range(len(plan) - 1) if _valid(oracle, plan[:i] + plan[i + 2:])])


def test_a_10000_step_plan_that_cycles_before_its_plan():
    """(unstack b3 b1)(stack b3 b1) 4,996 times, then the 8-step plan: every consecutive pair up to the
    plan's first step can go (the state after it is the full run's two steps later), no single action."""
    d, p = BLOCKSWORLD.load()
    real = BLOCKSWORLD.plan_actions()
    cycle = [GroundAction("unstack", ("b3", "b1")), GroundAction("stack", ("b3", "b1"))]
    k = (10000 - len(real)) // 2
    plan = cycle * k + real
    r = justify(d, p, plan)
    assert len(plan) == 10000 and r.valid and r.removable_single == []
    assert r.removable_pairs == list(range(2 * k))
    oracle = Strips(up_files(BLOCKSWORLD.domain_file, BLOCKSWORLD.problem_file))
    for i in (0, 1, 2 * k - 1):  # the oracle agrees where the pattern starts and ends
        assert _valid(oracle, plan[:i] + plan[i + 2:])
    for i in (2 * k, 2 * k + 1):
        assert not _valid(oracle, plan[:i] + plan[i + 2:]) and not _valid(oracle, plan[:i] + plan[i + 1:])


@pytest.mark.parametrize("seed", range(4))
def test_a_random_walk_there_and_back_against_the_oracle(seed):
    """A random walk of 60 steps, the same steps undone in reverse, then a shortest plan: runs that leave
    the full run for many steps (several rounds of `justify`), each answer the oracle's exhaustive one."""
    d, p = BLOCKSWORLD4.load()
    oracle = Strips(up_files(BLOCKSWORLD4.domain_file, BLOCKSWORLD4.problem_file))
    rng = random.Random(seed)
    walk, s = [], oracle.init
    for _ in range(60):
        a, s = rng.choice(list(oracle.successors(s)))
        walk.append(a)
    back = [GroundAction(INVERSE[a.name], a.args) for a in reversed(walk)]
    from amlasp.reasoning.planning import plan as find_plan
    plan = walk + back + list(find_plan(d, p, max_steps=10).plans[0])
    assert _valid(oracle, plan)
    r = justify(d, p, plan)
    assert r.valid and (r.removable_single, r.removable_pairs) == _removable(oracle, plan)
    assert r.removable_pairs  # the turn of the walk, at least, can go
