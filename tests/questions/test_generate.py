"""Generated items checked against independent oracles on small problems of several IPC domains.

- app, prog, val, verify, count, value: unified-planning's simulator (its own grounding and
  successor function) computes every answer again from the item's PDDL;
- reach, areach: every "yes" comes with a witness that the simulator executes to a state where the
  fact holds (the action is applicable); the gen lists are exactly the atoms (actions) no reachable
  state has (is applicable in), by exhaustive search over UP's grounding;
- nexta: Fast Downward's optimal configuration through UP (not amlasp's call of it) gives the stated
  optimal length, and after each listed first action one step less (after each other action, more);
  ASP planning (plan.lp) agrees on the lengths;
- land: exactly the landmarks of the exhaustive search; just: every listed removal leaves a plan UP's
  validator accepts, and no other does.
Also: the same arguments give a byte-identical file, and bool items are balanced.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

pytest.importorskip("unified_planning")

from amlasp.pddl.parse import parse_domain, parse_problem  # noqa: E402
from amlasp.questions.generate import Options, generate, load_sources  # noqa: E402
from amlasp.questions.items import Form, Task  # noqa: E402
from amlasp.questions.tasks.just import removal_key  # noqa: E402
from amlasp.questions.universe import Universe  # noqa: E402
from amlasp.reasoning.planning import plan as asp_plan  # noqa: E402
from tests.support.ipc import reference, small_problem  # noqa: E402
from tests.support.notation import actions as read_actions  # noqa: E402
from tests.support.notation import atom as read_atom
from tests.support.questions import Simulation, check_simulated  # noqa: E402
from tests.support.strips import Strips, exact_landmarks  # noqa: E402
from tests.support.up import up_atoms, up_problem, up_solve, up_valid  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

DOMAINS = ["ferry", "blocksworld", "grippers", "miconic", "satellite"]
SIMULATED = (Task.APP, Task.PROG, Task.VAL, Task.VERIFY, Task.COUNT, Task.VALUE)
SEARCHED = (Task.REACH, Task.AREACH, Task.NEXTA, Task.LAND, Task.JUST)


@pytest.fixture(scope="module", params=DOMAINS)
def generated(request):
    name = request.param
    sources = load_sources(reference(name), [small_problem(name)])
    g = generate(sources, Options(tasks=SIMULATED + SEARCHED, per_task=2, seed=11, depth=(0, 4), time_limit=30))
    return name, g


def Sim(item: dict) -> Simulation:
    """The item's own problem in UP (its `:init` is the state the item describes)."""
    return Simulation(up_problem(item["PDDL_domain"], item["PDDL_problem"]))


def test_simulated_answers_agree_with_unified_planning(generated):
    name, g = generated
    items = [i.to_dict() for i in g.items if i.task in SIMULATED]
    for item in items:
        s = Sim(item)
        check_simulated(item, s, s.start())
    assert len(items) >= 10, f"{name}: only {len(items)} items checked"


def up_optimal(problem) -> int | None:
    r = up_solve(problem, "fast-downward-opt", timeout=120)
    return None if r.plan is None else len(r.plan.actions)


def test_searched_answers_agree_with_exhaustive_search_and_fast_downward(generated):
    name, g = generated
    checked = 0
    for item in (i.to_dict() for i in g.items if i.task in SEARCHED):
        s, ev, task, form = Sim(item), item["evidence"], Task(item["task"]), Form(item["form"])
        if task in (Task.REACH, Task.AREACH):
            if "witness" in ev:
                end, failed = s.run(s.start(), read_actions(" ".join(ev["witness"])))
                assert failed == -1
                if task is Task.REACH:
                    assert read_atom(ev["fact"]) in up_atoms(end)
                else:
                    assert read_actions(ev["action"])[0] in s.applicable(end)
            if form is Form.GEN:  # the list is exactly what no reachable state has
                strips = Strips(s.problem)
                graph = strips.graph()
                d = parse_domain(item["PDDL_domain"])
                u = Universe(d, parse_problem(item["PDDL_problem"], d))
                if task is Task.REACH:
                    seen = set().union(*graph)
                    assert set(map(read_atom, item["answer"])) == set(u.fluent_atoms) - seen
                else:
                    applied = {a for edges in graph.values() for a, _ in edges}
                    assert set(read_actions(" ".join(item["answer"]))) == set(u.ground_actions) - applied
        elif task is Task.NEXTA:
            opt = int(ev["optimal_length"])
            assert up_optimal(s.problem) == opt
            d = parse_domain(item["PDDL_domain"])
            p = parse_problem(item["PDDL_problem"], d)
            assert asp_plan(d, p, max_steps=opt).length == opt  # ASP planning agrees on the length
            for a, plan in ev["plans"].items():
                steps = read_actions(" ".join(plan))
                assert len(steps) == opt and up_valid(s.problem, steps) and str(steps[0]) == a
            if form is Form.GEN:
                start = s.start()
                for kind in ("yes", "no"):
                    for a in read_actions(" ".join(item["answer"][kind])):
                        after, failed = s.run(start, [a])
                        assert failed == -1
                        p1 = replace(p, init=frozenset(up_atoms(after)))
                        rest = asp_plan(d, p1, max_steps=opt - 1)
                        assert (rest.length == opt - 1) == (kind == "yes"), (a, rest.status)
        elif task is Task.LAND and form is Form.GEN:
            strips = Strips(s.problem)
            exact = exact_landmarks(strips, strips.graph())
            yes, no = set(map(read_atom, item["answer"]["yes"])), set(map(read_atom, item["answer"]["no"]))
            assert yes <= exact and not no & exact
            goals = {l.atom for l in parse_problem(item["PDDL_problem"], parse_domain(item["PDDL_domain"])).goal}
            assert (exact - strips.init - goals) <= yes
            assert set(ev["avoided_by"]) == {str(f) for f in no}  # each non-landmark with its proof:
            for f, k in ev["avoided_by"].items():  # a valid plan (UP's validator) along which it never holds
                steps = read_actions(" ".join(ev["plans"][k]))
                assert up_valid(s.problem, steps)
                state = s.start()
                for a in steps:
                    assert read_atom(f) not in up_atoms(state)
                    state, _ = s.run(state, [a])
                assert read_atom(f) not in up_atoms(state)
        elif task is Task.JUST and form is Form.GEN:
            steps = read_actions(" ".join(ev["plan"]))
            assert up_valid(s.problem, steps)
            listed = {tuple(k) for k in item["answer"]}
            for i in range(len(steps)):
                for pair in (False, True):
                    if pair and i + 1 >= len(steps):
                        continue
                    shorter = steps[:i] + steps[i + (2 if pair else 1):]
                    assert up_valid(s.problem, shorter) == (tuple(removal_key(steps, i, pair)) in listed)
        checked += 1
    assert checked >= 5, f"{name}: only {checked} items checked"


def test_bool_items_balanced_and_mcq_has_one_right_choice(generated):
    _, g = generated
    for task in Task:
        bools = [i for i in g.items if i.task is task and i.form is Form.BOOL]
        if bools:
            yes = sum(i.answer == "yes" for i in bools)
            assert abs(2 * yes - len(bools)) <= 1, task
    for i in g.items:
        if i.form is Form.MCQ:
            assert len(i.choices) == 4 and len(set(i.choices)) == 4 and i.answer in "ABCD"


def test_same_arguments_same_file():
    sources = load_sources(reference("blocksworld"), [small_problem("blocksworld")])
    options = Options(tasks=(Task.APP, Task.VAL, Task.REACH, Task.NEXTA, Task.COUNT), per_task=2, seed=3)
    a = generate(sources, options).jsonl()
    b = generate(load_sources(reference("blocksworld"), [small_problem("blocksworld")]), options).jsonl()
    assert a == b and a
    c = generate(sources, replace(options, seed=4)).jsonl()
    assert c != a
    for line in a.splitlines():
        item = json.loads(line)
        assert list(item)[:4] == ["id", "group", "context", "question"]
        assert {"PDDL_domain", "PDDL_problem", "task", "form", "depth", "seed", "evidence", "walk"} <= set(item)


def test_walk_depths_within_the_asked_range():
    sources = load_sources(reference("ferry"), [small_problem("ferry")])
    g = generate(sources, Options(tasks=(Task.VERIFY,), forms=(Form.BOOL,), per_task=6, seed=1, depth=(2, 3)))
    assert g.items and all(2 <= i.depth <= 3 and len(i.walk) == i.depth for i in g.items)


def test_progress_reported_through_the_callback():
    """Per task, (task, items made, items asked), one call per item: the count rises to the total."""
    calls = []
    sources = load_sources(reference("ferry"), [small_problem("ferry")])
    g = generate(sources, Options(tasks=(Task.APP, Task.COUNT), forms=(Form.GEN, Form.BOOL), per_task=2, seed=1),
                 progress=lambda *a: calls.append(a))
    assert calls == [("app", n, 4) for n in range(1, 5)] + [("count", n, 4) for n in range(1, 5)]
    assert len(g.items) == 8


def test_shortfall_names_forms_with_no_item():
    """A form the states cannot give is reported with what is missing, even when none was made."""
    sources = load_sources(reference("ferry"), [small_problem("ferry")])
    g = generate(sources, Options(tasks=(Task.REACH,), forms=(Form.MCQ, Form.BOOL), per_task=2, seed=1,
                                  depth=(0, 0)))
    # depth 0: one state, the initial one; it gives one bool item and no mcq (too few unreachable facts)
    assert [(i.task, i.form) for i in g.items] == [(Task.REACH, Form.BOOL)]
    assert g.shortfall() == {(Task.REACH, Form.MCQ): 2, (Task.REACH, Form.BOOL): 1}


def test_a_task_out_of_reach_stops_early_and_says_why(monkeypatch):
    """nexta when the planner never finishes in time (simulated: every optimal search undecided): it stops
    after GIVE_UP undecided states (not 4 x N of them), the report says why, other tasks go on."""
    from amlasp.questions.generate import GIVE_UP
    from amlasp.questions.tasks import nexta
    from amlasp.reasoning.optimal import FirstActions, OptimalStatus
    monkeypatch.setattr(nexta, "optimal_first_actions",
                        lambda *a, **k: FirstActions(OptimalStatus.UNKNOWN, detail="Fast Downward: timeout"))
    sources = load_sources(reference("ferry"), [small_problem("ferry")])
    g = generate(sources, Options(tasks=(Task.NEXTA, Task.APP), forms=(Form.GEN,), per_task=3, seed=1))
    assert g.skipped[Task.NEXTA, "undecided"] == g.states[Task.NEXTA] <= 2 * GIVE_UP
    assert "undecided within the limits" in g.gave_up[Task.NEXTA] and Task.APP not in g.gave_up
    assert "the last: Fast Downward: timeout" in g.gave_up[Task.NEXTA]
    assert "undecided within the limits" in g.near_goal[Task.NEXTA]
    assert "steps before the end of a plan" in g.near_goal[Task.NEXTA]  # tried near the goal first
    assert sum(i.task is Task.APP for i in g.items) == 3 and not any(i.task is Task.NEXTA for i in g.items)


def test_nexta_out_of_reach_from_random_walks_asks_near_the_goal(monkeypatch):
    """Optimal searches that finish only next to the goal (simulated: undecided beyond 1 step): after
    GIVE_UP undecided random-walk states, nexta's states come from along a plan, and items are made."""
    from amlasp.questions.tasks import nexta
    from amlasp.reasoning.optimal import FirstActions, OptimalStatus, optimal_first_actions
    def near_only(*a, **k):
        r = optimal_first_actions(*a, **k)
        return r if r.length is not None and r.length <= 1 else FirstActions(OptimalStatus.UNKNOWN,
                                                                             detail="too far")
    monkeypatch.setattr(nexta, "optimal_first_actions", near_only)
    sources = load_sources(reference("ferry"), [small_problem("ferry")])
    g = generate(sources, Options(tasks=(Task.NEXTA,), forms=(Form.GEN,), per_task=1, seed=1))
    assert Task.NEXTA in g.near_goal and "the last because too far" in g.near_goal[Task.NEXTA]
    (item,) = g.items
    assert item.answer["opt"] == "1" and Task.NEXTA not in g.gave_up
