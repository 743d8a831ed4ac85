"""amlasp/reasoning/engine.py (issue 20): a plan longer than PART_STEPS is validated a part at a
time, each from the state the last ended in, with the verdict, the failed step (numbered in the
whole plan), its reasons and the states of one grounding."""

from __future__ import annotations

import pytest

from amlasp.model import GroundAction
from amlasp.reasoning import engine, validations
from tests.support.examples import BLOCKSWORLD

G = GroundAction


def verdict(ex) -> tuple:
    return (ex.valid, ex.executable, ex.failed_step, [str(u) for u in ex.unmet], [str(g) for g in ex.goal_unmet])


def plans() -> list[list[GroundAction]]:
    good = list(BLOCKSWORLD.plan_actions())
    return [good, good[:-1], good[:5] + [good[6]] + good[5:], good[:3] + [G("stack", ("b1", "b1"))] + good[3:],
            good + [G("fly", ())], []]


@pytest.mark.parametrize("part", [1, 2, 3, 5])
@pytest.mark.parametrize("states", [False, True])
def test_parts_give_the_verdict_and_states_of_one_grounding(monkeypatch, part, states):
    d = BLOCKSWORLD.domain()
    p = BLOCKSWORLD.problem(d)
    whole = [engine.execute(d, p, plan, states=states) for plan in plans()]
    monkeypatch.setattr(engine, "PART_STEPS", part)
    parts = [engine.execute(d, p, plan, states=states) for plan in plans()]
    assert [verdict(x) for x in parts] == [verdict(x) for x in whole]
    assert [x.states for x in parts] == [x.states for x in whole]
    batch = validations.validate_plans(d, [(p, plan) for plan in plans()])
    assert [verdict(x) for x in batch] == [verdict(x) for x in whole]


def test_a_million_steps_are_validated_in_parts():
    """The parts of a long plan: linear time, bounded memory (benchmarks/hostile.py makes the plan
    of a million steps whose figures benchmarks/README.md gives)."""
    d = BLOCKSWORLD.domain()
    p = BLOCKSWORLD.problem(d)
    good = list(BLOCKSWORLD.plan_actions())
    there_and_back = [G("unstack", ("b3", "b1")), G("stack", ("b3", "b1"))]
    ex = engine.execute(d, p, there_and_back * (engine.PART_STEPS // 2 + 7) + good, states=False)
    assert ex.valid and ex.states == []
