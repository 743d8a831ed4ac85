"""Questions on problems whose goal is no conjunction of literals (issue 31), differential against pymimir
(its own grounder, successor function and goal evaluation, which compiles the goal to derived predicates of
its own): miconic-fulladl (IPC 2000, `(forall (?p - passenger) (served ?p))`) and lamps' `forall` of a derived
predicate (`bright`; tests/data/goals). Every task but land is generated (land,
whose trivial landmarks are the goal facts, is refused by name), each item's answer is pymimir's, and
`grade --check-gold` re-derives every gen answer from the item's PDDL, where the goal is written back."""

from __future__ import annotations

from functools import lru_cache

import pytest

from amlasp.questions.items import Form, Task
from tests.support.paths import DATA

pymimir = pytest.importorskip("pymimir")
pytest.importorskip("up_fast_downward")
from tests.support.mimir import ORACLES, as_written, checked_by, generated  # noqa: E402

TASKS = [("miconic-fulladl", "instance-6"), ("lamps", "forall-derived")]  # pymimir refuses lamps' `or`, `nested`
#: The least number of items each oracle checks on each problem.
LEAST = {"simulated": 20, "search": 12, "gold": 12}


@lru_cache(maxsize=None)
def _generated(task: tuple[str, str]):
    return generated(*(DATA / "goals" / task[0] / f"{n}.pddl" for n in ("domain", task[1])))


def _items(task: tuple[str, str]) -> tuple[dict, ...]:
    return as_written(_generated(task))


@pytest.mark.parametrize("task", TASKS, ids=[t[0] for t in TASKS])
def test_every_task_but_land_is_generated_and_land_is_refused_by_name(task):
    made = {(i["task"], i["form"]) for i in _items(task)}
    assert {t for t, _ in made} == {str(t) for t in Task} - {"land"}
    assert _generated(task).gave_up[Task.LAND].startswith("refused: its question names goal facts, and the goal of")
    assert all("goal@" not in i["context"] and "goal_" not in i["context"] for i in _items(task))


@pytest.mark.parametrize("oracle", ORACLES)
@pytest.mark.parametrize("task", TASKS, ids=[t[0] for t in TASKS])
def test_answers_agree_with_the_oracles(task, oracle):
    """simulated: app, prog, val, verify, count, value, every item's answer and evidence by pymimir's steps;
    search: reach, areach, nexta, just, every item by exhaustive search of pymimir's state space;
    gold: every gen answer derived again from the item's PDDL (the goal written back) by `grade --check-gold`."""
    assert checked_by(oracle, _items(task)) >= LEAST[oracle]


def test_the_context_states_the_goal_condition_in_english():
    item = next(i for i in _items(TASKS[0]) if "The goal is" in i["context"])
    assert "The goal is to reach a state where for every passenger X, passenger X is served." in item["context"]
    assert Form(item["form"]) in Form
