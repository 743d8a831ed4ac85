"""What `amlasp questions` added to reasoning/: changes_many, optimal first actions, exact landmarks,
the planner call that renames clashing actions; each against an independent computation."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("unified_planning")

from amlasp.enums import Verdict  # noqa: E402
from amlasp.pddl.parse import load_domain, load_problem  # noqa: E402
from amlasp.questions.walks import random_walks  # noqa: E402
from amlasp.reasoning.engine import applicable, execute, execute_many  # noqa: E402
from amlasp.reasoning.forbid import decide_landmark  # noqa: E402
from amlasp.reasoning.optimal import OptimalStatus, optimal_first_actions  # noqa: E402
from amlasp.reasoning.planner import plan as fast_downward  # noqa: E402
from amlasp.reasoning.planning import plan as asp_plan  # noqa: E402
from amlasp.reasoning.transitions import changes_many  # noqa: E402
from tests.support import acpbench  # noqa: E402
from tests.support.ipc import ADL, HANDMADE, reference, small_problem  # noqa: E402
from tests.support.strips import Strips, exact_landmarks  # noqa: E402
from tests.support.up import up_problem  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def tasks():
    out = [(n, reference(n), small_problem(n)) for n in ("ferry", "blocksworld", "grippers", "satellite", "depots")]
    out += [(n, HANDMADE / "adl" / f"{n}-domain.pddl", HANDMADE / "adl" / f"{n}-problem.pddl") for n in ADL]
    return out


@pytest.mark.parametrize("name,dom,prob", tasks(), ids=[t[0] for t in tasks()])
def test_changes_many_agrees_with_execute(name, dom, prob):
    """Successors through semantics.lp's added/deleted equal validate.lp's (conditional effects included),
    and an action asked where it is not applicable gets None."""
    d = load_domain(dom)
    p = load_problem(prob, d)
    walks = random_walks(d, p, p.init, [6] * 8, [random.Random(k) for k in range(8)])
    states = sorted({s for w in walks for s in w.states}, key=lambda s: sorted(map(str, s)))
    asked = []
    for s, acts in zip(states, applicable(d, p, states)):
        other = [a for w in walks for a in w.actions if a not in acts][:3]
        asked.append((s, acts + other))
    got = changes_many(d, p, asked)
    pairs = [(s, a) for s, acts in asked for a in acts]
    runs = execute_many(d, p, [[a] for _, a in pairs], starts=[s for s, _ in pairs])
    flat = [c for row in got for c in row]
    assert len(flat) == len(runs) > 0
    for (s, a), c, ex in zip(pairs, flat, runs):
        if ex.executable:
            assert c is not None and c.apply(s) == ex.states[1], (s, a)
            assert c.added == ex.states[1] - s and c.deleted == s - ex.states[1]
        else:
            assert c is None


@pytest.mark.parametrize("name", ["ferry", "blocksworld", "grippers", "miconic"])
def test_optimal_first_actions_agree_with_asp_planning(name):
    """Fast Downward's optimal length and first actions, cross-checked with ASP planning (plan.lp): the
    length from the state, and for every applicable action whether a plan one step shorter follows."""
    d = load_domain(reference(name))
    p = load_problem(small_problem(name), d)
    for walk in random_walks(d, p, p.init, [0, 2, 3], [random.Random(k) for k in range(3)]):
        r = optimal_first_actions(d, p, walk.end, time_limit=60)
        if r.status is OptimalStatus.GOAL:
            continue
        assert r.status is OptimalStatus.SOLVED, r.detail
        ours = asp_plan(d, p, init=walk.end, max_steps=r.length)
        assert ours.length == r.length
        for a in applicable(d, p, [walk.end])[0]:
            after = execute(d, p, [a], start=walk.end).states[1]
            rest = asp_plan(d, p, init=after, max_steps=r.length - 1)
            assert (rest.length == r.length - 1) == (a in r.optimal), a
        for a, steps in r.optimal.items():
            assert steps[0] == a and len(steps) == r.length and execute(d, p, steps, start=walk.end).valid


@pytest.mark.parametrize("index", [1, 10, 21, 25, 35, 39])
def test_exact_landmarks_agree_with_exhaustive_search(index):
    """decide_landmark (Fast Downward on the task where no action may add the fact) = the facts every
    path to a goal state passes through (UP's grounding, exhaustive), on ACPBench's small land items."""
    item = acpbench.items("land")[index]
    d, p = acpbench.load(item)
    strips = Strips(up_problem(item["PDDL_domain"], item["PDDL_problem"]))
    graph = strips.graph()
    exact = exact_landmarks(strips, graph)
    facts = sorted(set().union(*graph) - p.init, key=str)
    rng = random.Random(index)
    for f in rng.sample(facts, min(12, len(facts))):
        v = decide_landmark(d, p, f, time_limit=60)
        assert v.verdict is (Verdict.YES if f in exact else Verdict.NO), (f, v.proof)
        if v.verdict is Verdict.NO:
            ex = execute(d, p, list(v.plan))
            assert ex.valid and not any(f in s for s in ex.states)


def test_planner_renames_actions_that_clash_with_predicates():
    """ACPBench's floor-tile has an action and a predicate `down`: unified-planning refuses the task as
    written; the renamed actions come back under their own names in a plan that validates."""
    item = next(i for i in acpbench.items("nexta") if acpbench.domain_name(i) == "floor-tile")
    d, p = acpbench.load(item)
    assert {"down", "up"} <= {a.name for a in d.actions} & {x.name for x in d.predicates}
    r = fast_downward(d, p, "greedy", 60)
    assert r.status == "plan" and execute(d, p, list(r.plan)).valid
    assert {a.name for a in r.plan} <= {a.name for a in d.actions}
