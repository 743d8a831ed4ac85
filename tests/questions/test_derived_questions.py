"""Questions on domains with derived predicates (issue 21), differential against pymimir: its own
grounder, successor function and axiom evaluation step every item's task, and exhaustive search of
the reachable state space decides reach, areach, land, nexta and just. Domains (tests/data/derived):
blocksworld whose unstack needs `not (above ?y ?x)`, `above` the recursive closure of `on`, with a
goal on `above`; roads, whose `connected` is a transitive closure and `isolated` its negation under
`forall`; guards, with stratified negation of derived predicates in preconditions and the goal.
Every item of every task and form is checked, and `grade --check-gold` re-derives the gen answers."""

from __future__ import annotations

import json
from functools import lru_cache

import pytest

from amlasp.questions.generate import Options, generate, load_sources
from amlasp.questions.grade import grade
from amlasp.questions.items import Form, Task
from tests.support.paths import DATA

pymimir = pytest.importorskip("pymimir")
pytest.importorskip("up_fast_downward")
from tests.support.mimir import check_items  # noqa: E402

TASKS = [("blocks-above", "blocks-above-1"), ("roads", "roads-1"), ("guards", "guards-1")]


@lru_cache(maxsize=None)
def _items(task: tuple[str, str]) -> tuple[dict, ...]:
    dom, prob = (DATA / "derived" / f"{n}.pddl" for n in task)
    out = generate(load_sources(dom, [prob]), Options(per_task=2, seed=21, time_limit=20.0, explore_states=50))
    return tuple(json.loads(json.dumps(i.to_dict())) for i in out.items)



def test_every_task_and_form_is_generated_on_domains_with_derived_predicates():
    made = {(i["task"], i["form"]) for t in TASKS for i in _items(t)}
    assert made == {(str(t), str(f)) for t in Task for f in Form}


@pytest.mark.parametrize("task", TASKS, ids=[t[0] for t in TASKS])
def test_simulated_answers_equal_pymimirs(task):
    """app, prog, val, verify, count, value: every item's answer and evidence, by pymimir's steps."""
    assert check_items(_items(task), simulated=True) >= 24


@pytest.mark.parametrize("task", TASKS, ids=[t[0] for t in TASKS])
def test_search_answers_equal_exhaustive_search(task):
    """reach, areach, land, nexta, just: every item, by exhaustive search of pymimir's state space."""
    assert check_items(_items(task), simulated=False) >= 18


@pytest.mark.parametrize("task", TASKS, ids=[t[0] for t in TASKS])
def test_gold_answers_are_rederived(task):
    g = grade(list(_items(task)), {}, check_gold=True)
    total = g.gold_summary()[-1]
    assert total["disagree"] == 0 and total["undecided"] == 0 and total["checked"] >= 20

