"""bench run's units on a learned model with a broken action (tests/data/broken): compare and eval score it as
their commands do, a solve unit plans with the actions it has; `--lenient-reference` reads a flawed reference."""

from __future__ import annotations

import pytest

from amlasp.experiments.units import Unit, run_unit
from tests.pddl.test_recover import BROKEN

pytestmark = pytest.mark.filterwarnings("ignore::amlasp.errors.InputWarning")

REFERENCE = str(BROKEN / "reference.pddl")


def _unit(task: str, learned: str, reference: str = REFERENCE, **more) -> Unit:
    return Unit(learner="llm", domain="blocksworld", task=task, learned=learned, reference=reference, **more)


def test_units_score_a_learned_model_with_a_broken_action():
    learned = str(BROKEN / "undeclared-type.pddl")  # stack broken
    rec = run_unit(_unit("compare", learned))
    assert "error" not in rec and rec["summary"]["broken_actions"] == 1 and rec["summary"]["missing_actions"] == 1
    rec = run_unit(_unit("eval", learned, states=(str(BROKEN / "states"),), state_problems=str(BROKEN)))
    assert "error" not in rec and rec["summary"]["broken_actions"] == 1
    rec = run_unit(_unit("solve", learned, problem=str(BROKEN / "problem.pddl"), timeout=30))
    assert (rec["status"], rec["broken_actions"]) == ("no_plan", 1)


def test_a_flawed_reference_is_an_error_unless_read_leniently():
    reference = str(BROKEN / "wrong-arity.pddl")  # put_down broken
    rec = run_unit(_unit("compare", REFERENCE, reference))
    assert rec["failed"] and "takes 1 argument(s), 2 given" in rec["error"]
    rec = run_unit(_unit("compare", REFERENCE, reference, lenient_reference=True))
    assert "error" not in rec and rec["summary"]["reference_actions"] == 3 and rec["summary"]["extra_actions"] == 1
    rec = run_unit(_unit("solve", REFERENCE, reference, problem=str(BROKEN / "problem.pddl"), timeout=30,
                         lenient_reference=True))
    assert "error" not in rec and rec["status"] in ("solved", "false_plan")
