"""Questions on domains with derived predicates (issue 21), differential against pymimir: its own
grounder, successor function and axiom evaluation step every item's task, and exhaustive search of
the reachable state space decides reach, areach, land, nexta and just. Domains (tests/data/derived):
blocksworld whose unstack needs `not (above ?y ?x)`, `above` the recursive closure of `on`, with a
goal on `above`; roads, whose `connected` is a transitive closure and `isolated` its negation under
`forall`; guards, with stratified negation of derived predicates in preconditions and the goal.
Every item of every task and form is checked, and `grade --check-gold` re-derives the gen answers."""

from __future__ import annotations

from functools import lru_cache

import pytest

from amlasp.questions.items import Form, Task
from tests.support.paths import DATA

pymimir = pytest.importorskip("pymimir")
pytest.importorskip("up_fast_downward")
from tests.support.mimir import ORACLES, as_written, checked_by, generated  # noqa: E402

TASKS = [("blocks-above", "blocks-above-1"), ("roads", "roads-1"), ("guards", "guards-1")]
#: The least number of items each oracle checks on each problem.
LEAST = {"simulated": 24, "search": 18, "gold": 20}


@lru_cache(maxsize=None)
def _items(task: tuple[str, str]) -> tuple[dict, ...]:
    return as_written(generated(*(DATA / "derived" / f"{n}.pddl" for n in task)))


def test_every_task_and_form_is_generated_on_domains_with_derived_predicates():
    made = {(i["task"], i["form"]) for t in TASKS for i in _items(t)}
    assert made == {(str(t), str(f)) for t in Task for f in Form}


@pytest.mark.parametrize("oracle", ORACLES)
@pytest.mark.parametrize("task", TASKS, ids=[t[0] for t in TASKS])
def test_answers_agree_with_the_oracles(task, oracle):
    """simulated: app, prog, val, verify, count, value, every item's answer and evidence by pymimir's steps;
    search: reach, areach, land, nexta, just, every item by exhaustive search of pymimir's state space;
    gold: every gen answer derived again by `grade --check-gold`."""
    assert checked_by(oracle, _items(task)) >= LEAST[oracle]
