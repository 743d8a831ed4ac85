"""reasoning/optimal.py: every optimal first action, by comparing the successors' optimal costs, checked
against exhaustive search (tests/support/strips.py: UP's grounding, every reachable state) on the
ACPBench nexta items whose state space is small, and its one translation reused for every successor."""

from __future__ import annotations

from collections import deque

import pytest

pytest.importorskip("unified_planning")

from amlasp.reasoning.optimal import OptimalStatus, optimal_first_actions  # noqa: E402
from amlasp.reasoning.planner import NotEncodable, Translated  # noqa: E402
from tests.support.acpbench import items, load  # noqa: E402
from tests.support.strips import Strips  # noqa: E402
from tests.support.up import up_problem  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def distances(strips: Strips, edges: dict) -> dict:
    """Each reachable state's exact distance to the goal (breadth-first search backwards); none for a dead end."""
    back: dict = {}
    for s, out in edges.items():
        for _, t in out:
            back.setdefault(t, []).append(s)
    dist = {s: 0 for s in edges if strips.is_goal(s)}
    todo = deque(dist)
    while todo:
        t = todo.popleft()
        for s in back.get(t, []):
            if s not in dist:
                dist[s] = dist[t] + 1
                todo.append(s)
    return dist


def small(task: str, limit: int = 20000):
    for item in items(task):
        strips = Strips(up_problem(item["PDDL_domain"], item["PDDL_problem"]))
        try:
            yield item, strips, strips.graph(limit)
        except AssertionError:
            continue


NEXTA_SMALL = list(small("nexta"))


def test_enough_items_are_small_enough():
    assert len(NEXTA_SMALL) >= 20


@pytest.mark.parametrize("item,strips,edges", NEXTA_SMALL, ids=[str(i["id"]) for i, _, _ in NEXTA_SMALL])
def test_first_actions_are_exactly_those_of_exhaustive_search(item, strips, edges):
    """a is optimal iff 1 + h*(succ(s, a)) = h*(s), with h* from the whole state space; each action's
    cost-to-go is exact (an optimal one) or a proven lower bound that exceeds h*(s) - 1."""
    d, p = load(item)
    r = optimal_first_actions(d, p, time_limit=60)
    assert r.status is OptimalStatus.SOLVED, r.detail
    dist = distances(strips, edges)
    assert r.length == dist[strips.init]
    succ = {a: t for a, t in edges[strips.init]}
    exact = {a for a, t in succ.items() if dist.get(t) == r.length - 1}
    assert {str(a) for a in r.optimal} == {str(a) for a in exact}
    assert {str(a) for a in r.cost_to_go} == {str(a) for a in succ}
    for a, cost in r.cost_to_go.items():
        true = dist.get(succ[next(b for b in succ if str(b) == str(a))])
        if cost.startswith(">= "):
            assert true is None or true >= int(cost[3:]) >= r.length
        elif cost == "no plan":
            assert true is None
        else:
            assert int(cost) == true
    for a, plan in r.optimal.items():
        assert plan[0] == a and len(plan) == r.length


def test_searches_one_translation_from_other_states():
    """A successor is searched on the task translated once (its state written into the translated
    variables); a state outside the translated task's reachable facts is refused, not guessed."""
    item = items("nexta")[0]  # ferry
    d, p = load(item)
    with Translated(d, p, 30) as fd:
        whole = fd.search(time_limit=30)
        assert whole.plan is not None
        first = whole.plan[0]
        from amlasp.reasoning.engine import execute
        after = execute(d, p, [first]).states[1]
        rest = fd.search(after, bound=len(whole.plan), time_limit=30)
        assert rest.plan is not None and len(rest.plan) == len(whole.plan) - 1
        none = fd.search(after, bound=len(whole.plan) - 1, time_limit=30)
        assert none.plan is None and none.at_least is not None and none.at_least >= len(whole.plan) - 1
        with pytest.raises(NotEncodable):
            fd.encode(frozenset())  # the ferry is nowhere: no value of its variable says so
