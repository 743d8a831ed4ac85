"""Every ACPBench development item (tests/data/acpbench, gen form): its answer re-derived from its PDDL.

`questions.gold.check` re-derives the answer with the encodings and lists disagreements. They must
be none, except the documented ones below, each checked by an independent oracle:

- just, one item: ACPBench lists the pair (move r1 room1 room2)(move r1 room2 room1) but not the
  overlapping (move r1 room2 room1)(move r1 room1 room2); removing either leaves the same valid plan
  (checked with unified-planning's plan validator).
- reach, four floor-tile items: the gold answer is "None" (no proposition can never hold), but
  atoms such as (clear tile_4) of a painted tile can never hold (checked: no state reachable, by
  exhaustive search over UP's grounding, has them).
- land, thirteen items: the gold's `no` list (facts ACPBench's generator did not find to be
  landmarks, not proven non-landmarks) holds real landmarks, e.g. (at-robot loc-x3-y0) of a
  visitall cell not yet visited. Checked: no goal state is reachable through states without the
  fact (exhaustive search), or, where the state space is too large, Fast Downward's A* with LM-cut
  finds no plan of the task in which no action may add it.

reach and areach lists are samples of correct answers (ACPBench's evaluator runs a planner on any
other answer): each listed one must be proven impossible. nexta lists some optimal first actions:
each must be optimal, each `no` one must not, and the optimal length must agree.
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

pytest.importorskip("unified_planning")

from amlasp.enums import Verdict  # noqa: E402
from amlasp.external.fast_downward import PlannerStatus  # noqa: E402
from amlasp.model import Literal  # noqa: E402
from amlasp.questions.decide import Reachability  # noqa: E402
from amlasp.questions.gold import case_of, check, load_items  # noqa: E402
from amlasp.questions.universe import Universe  # noqa: E402
from amlasp.reasoning.forbid import forbid_fact  # noqa: E402
from amlasp.reasoning.planner import plan as fast_downward  # noqa: E402
from tests.support.acpbench import ACP  # noqa: E402
from tests.support.notation import actions as read_actions  # noqa: E402
from tests.support.notation import atom as read_atom
from tests.support.strips import Strips, goal_reachable  # noqa: E402
from tests.support.up import up_problem, up_valid  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TASKS = ["app", "prog", "reach", "areach", "val", "just", "land", "nexta"]
ITEMS = [(t, item) for t in TASKS for item in load_items(ACP / t / "dev.gen.json")]

JUST_PAIR = {"5654483433824749790"}
REACH_NONE = {"-8682376828094741291", "7344892383778863426", "2064180602739641629", "-2134372784773760055"}
LAND_NO = {"5792478122982408763", "-7241724153464317212", "4350095935636809747", "-65212949148186136",
           "8459605840310505775", "-1206225347505945318", "8388948775127950653", "2633179121917618633",
           "374220601309851534", "-3519325945012220404", "-6363950698238859515", "1051296040055604884",
           "2769321894672039299"}


def strips_of(item: dict) -> tuple[Strips, dict] | None:
    """UP's grounding and its reachable state graph, or None when it has more than 60,000 states."""
    strips = Strips(up_problem(item["PDDL_domain"], item["PDDL_problem"]))
    try:
        return strips, strips.graph()
    except AssertionError:
        return None


@pytest.mark.parametrize("task,item", ITEMS, ids=[f"{t}-{i['id']}" for t, i in ITEMS])
def test_gold_answer_rederived(task, item):
    c = case_of(item)
    found = check(c, time_limit=30)
    key = str(item["id"])
    if task == "just" and key in JUST_PAIR:
        (d,) = found
        assert d.startswith("only by the encodings: ")
        a1, a2 = read_actions(d)
        plan = c.named["plan"]
        i = next(i for i in range(len(plan) - 1) if plan[i:i + 2] == [a1, a2])
        assert up_valid(up_problem(item["PDDL_domain"], item["PDDL_problem"]), plan[:i] + plan[i + 2:])
    elif task == "reach" and key in REACH_NONE:
        (d,) = found
        assert d.startswith("the gold answer is None, but")
        r = Reachability(c.domain, c.problem, c.state)
        never = [f for f in Universe(c.domain, c.problem).fluent_atoms if r.atom(f, False, True).answer is Verdict.NO]
        assert never and item["answer"] == []
        exact = strips_of(item)
        if exact is not None:  # none of them holds in any reachable state
            assert not set().union(*exact[1]) & set(never)
        else:  # too many states: Fast Downward's optimal search finds no plan reaching them (the first three)
            for f in never[:3]:
                r = fast_downward(c.domain, replace(c.problem, goal=(Literal(f),)), "opt", 120)
                assert r.status is PlannerStatus.NO_PLAN, (f, r.status)
    elif task == "land" and key in LAND_NO:
        assert found and all("is listed as no landmark, but it is one" in d for d in found)
        exact = strips_of(item)
        for d in found:
            fact = read_atom(re.match(r"\((.*?)\)", d).group(1))
            assert fact in {read_atom(x) for x in item["answer"]["no"]}
            if exact is not None:
                strips, graph = exact
                assert not goal_reachable(strips, strips.graph(avoid=fact), avoid=fact), fact
            else:
                r = fast_downward(forbid_fact(c.domain, c.problem, fact), c.problem, "opt", 120)
                assert r.status is PlannerStatus.NO_PLAN, (fact, r.status)
    else:
        assert found == [], found


def test_every_task_has_its_items():
    """A parametrised test over an empty list passes vacuously: the 320 items are there."""
    assert len(ITEMS) == 320 and {t for t, _ in ITEMS} == set(TASKS)
