"""Reasoning with the same encodings (plan, reach, justify, landmarks, diff) against independent oracles.

- plan: Fast Downward's optimal configuration (via unified-planning) on the small IPC problems,
  plans re-validated by UP's PlanValidator; `--all` counted against the shortest paths of the
  state graph that UP's grounding spans.
- diff: a breadth-first search written here over UP's SequentialSimulator for both models (no
  encoding of ours involved) gives the minimal length of a disagreement.
- landmarks: exact landmarks by exhaustive search over the reachable states (UP's grounding,
  successors computed here): F is a landmark iff no goal state is reachable through states without F.
- ACPBench (tests/data/acpbench): just, land, areach, reach and nexta answers.

Everything heavier (larger problems, timings) is in benchmarks/bench_reasoning.py.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

up = pytest.importorskip("unified_planning")

from amlasp.external.up_oracle import simulator  # noqa: E402
from amlasp.model import And, Atom, GroundAction, Literal, Not  # noqa: E402
from amlasp.pddl.parse import load_domain, load_problem  # noqa: E402
from amlasp.pddl.writer import to_pddl  # noqa: E402
from amlasp.reasoning import planning  # noqa: E402
from amlasp.reasoning.diff import diff  # noqa: E402
from amlasp.reasoning.engine import execute  # noqa: E402
from amlasp.reasoning.justify import justify  # noqa: E402
from amlasp.reasoning.landmarks import landmarks  # noqa: E402
from amlasp.reasoning.mutex import mutexes  # noqa: E402
from amlasp.reasoning.relaxed import relax  # noqa: E402
from tests.support import acpbench  # noqa: E402
from tests.support.acpbench import removal_key  # noqa: E402
from tests.support.examples import BLOCKSWORLD4, REGISTRY  # noqa: E402
from tests.support.ipc import reference, smallest  # noqa: E402
from tests.support.notation import actions, atom  # noqa: E402
from tests.support.strips import Strips, exact_landmarks, goal_reachable  # noqa: E402
from tests.support.up import up_action, up_atoms, up_files, up_problem, up_solve, up_state, up_valid  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def plan(*args, **kwargs):
    """clingo's horizons: what this file checks (tests/reasoning/test_provers.py: Fast Downward's and `auto`)."""
    return planning.plan(*args, prover="asp", **kwargs)


def reach(*args, **kwargs):
    return planning.reach(*args, prover="asp", **kwargs)


# ----------------------------------------------------------------------------- oracles (UP)

FD_DOMAINS = ["blocksworld", "depots", "ferry", "goldminer", "grippers", "matchingbw", "miconic", "nomystery",
              "npuzzle", "parking", "rovers", "satellite", "spanner", "tpp", "transport", "visitall"]


@pytest.mark.parametrize("name", FD_DOMAINS)
def test_plan_is_as_short_as_fast_downward_optimal(name):
    pf = smallest(name)
    d = load_domain(reference(name))
    p = load_problem(pf, d)
    theirs = up_files(reference(name), pf)
    res = up_solve(theirs, "fast-downward-opt", timeout=60)
    assert res.plan is not None, res.status
    optimal = len(res.plan.actions)
    ours = plan(d, p, max_steps=optimal + 2, time_limit=60)
    assert ours.status == "plan" and ours.length == optimal
    assert up_valid(theirs, ours.plans[0])
    # one step short of the optimum: no plan, said honestly (not "unsolvable")
    if optimal > 0:
        short = plan(d, p, max_steps=optimal - 1)
        assert short.status == "no_plan_within" and "not proven unsolvable" in short.reason


BW = reference("blocksworld")
BW1 = BLOCKSWORLD4.problem_file  # 4 blocks


def count_shortest_plans(strips: Strips, edges: dict) -> tuple[int, int]:
    """(length, number of distinct action sequences of that length reaching the goal)."""
    paths = {strips.init: 1}
    depth = 0
    seen = {strips.init}
    while not any(strips.is_goal(s) for s in paths):
        layer: Counter = Counter()
        for s, n in paths.items():
            for _, t in edges[s]:
                if t not in seen:
                    layer[t] += n
        seen.update(layer)
        paths = dict(layer)
        depth += 1
    return depth, sum(n for s, n in paths.items() if strips.is_goal(s))


def test_plan_all_and_top_k_count_the_shortest_plans():
    d, p = BLOCKSWORLD4.load()
    strips = Strips(up_files(BW, BW1))
    length, count = count_shortest_plans(strips, strips.graph())
    assert length == BLOCKSWORLD4.optimal  # the registry's answer, by the oracle
    every = plan(d, p, max_steps=20, top=0)
    assert every.length == length and len(every.plans) == count
    assert len({tuple(x) for x in every.plans}) == count and all(len(x) == length for x in every.plans)
    assert all(execute(d, p, x).valid for x in every.plans)
    top = plan(d, p, max_steps=20, top=2)
    assert len(top.plans) == min(2, count) and {tuple(x) for x in top.plans} <= {tuple(x) for x in every.plans}


def test_plan_unsolvable_only_with_a_proof():
    d, p = BLOCKSWORLD4.load()
    # (on b1 b1) is relaxed-reachable ((holding b1) and (clear b1) each are), but never holds: h^2
    on_itself = plan(d, p, max_steps=3, goal=[Literal(Atom("on", ("b1", "b1")), True)])
    assert on_itself.status == "unsolvable" and "(on b1 b1) never holds" in on_itself.reason
    # a goal that needs an atom no action adds and the start lacks: proven by the delete relaxation
    ferry = load_domain(reference("ferry"))
    fp = load_problem(smallest("ferry"), ferry)
    car = next(o for o, t in fp.objects if t == "car")
    start = frozenset(a for a in fp.init if not (a.predicate == "at" and a.args[0] == car)
                      and not (a.predicate == "on" and a.args[0] == car))
    res = plan(ferry, fp, init=start, max_steps=5)
    assert res.status == "unsolvable" and "ignoring delete effects" in res.reason


def test_plan_goal_with_static_literals():
    """Static atoms are given once (fixed/2): a true static goal literal costs nothing, a false one is a proof."""
    d = load_domain(reference("ferry"))
    p = load_problem(smallest("ferry"), d)
    noteq = next(a for a in p.init if a.predicate == "noteq")
    base = plan(d, p, max_steps=10)
    more = plan(d, p, max_steps=10, goal=tuple(p.goal) + (Literal(noteq, True),))
    assert more.status == "plan" and more.length == base.length
    never = plan(d, p, max_steps=10, goal=tuple(p.goal) + (Literal(noteq, False),))
    assert never.status == "unsolvable" and "static" in never.reason


def test_plan_time_limit_reports_the_horizon_searched():
    d = load_domain(reference("barman"))
    p = load_problem(smallest("barman"), d)
    res = plan(d, p, max_steps=40, time_limit=1.0)
    assert res.status == "no_plan_within" and "time limit" in res.reason and res.horizon < 40


@pytest.mark.parametrize("name", sorted(n for n, e in REGISTRY.items() if e.optimal is not None))
def test_known_optimal_lengths_and_landmarks(name):
    """The registry's answers: the optimal length (none shorter), the landmarks it lists (proven),
    and the facts it lists as avoidable (not claimed)."""
    e = REGISTRY[name]
    d, p = e.load()
    best = plan(d, p, max_steps=e.optimal + 2)
    assert best.status == "plan" and best.length == e.optimal
    if e.optimal > 0:
        assert plan(d, p, max_steps=e.optimal - 1).status == "no_plan_within"
    facts = [atom(x) for x in e.landmarks + e.not_landmarks]
    found = [str(l.fact) for l in landmarks(d, p, only=facts).landmarks] if facts else []
    assert sorted(found) == sorted(e.landmarks)


# ----------------------------------------------------------------------------- reach

def test_reach_yes_with_a_validated_witness_and_from_a_given_state():
    d, p = BLOCKSWORLD4.load()
    lit = Literal(Atom("on", ("b1", "b2")), True)
    r = reach(d, p, [lit], max_steps=10)
    assert r.answer == "yes"
    end = execute(d, p, r.witness).states[-1]
    assert lit.atom in end
    # from the state the witness reaches, the literal holds: zero steps
    r0 = reach(d, p, [lit], init=end)
    assert r0.answer == "yes" and r0.witness == []
    # action reachability: the witness makes the action applicable
    act = GroundAction("unstack", ("b1", "b2"))
    ra = reach(d, p, action=act, max_steps=10)
    assert ra.answer == "yes" and execute(d, p, ra.witness + [act]).executable


def test_reach_no_by_a_mutual_exclusion_and_unknown_with_its_bound():
    d, p = BLOCKSWORLD4.load()
    both = [Literal(Atom("on", ("b1", "b2")), True), Literal(Atom("on", ("b2", "b1")), True)]
    r = reach(d, p, both, max_steps=4)
    assert r.answer == "no" and "(on b1 b2) and (on b2 b1) never hold together" in r.reason
    # reachable, but not within the bound: unknown, with the bound
    far = [Literal(Atom("on", ("b1", "b3")), True), Literal(Atom("on", ("b3", "b2")), True)]
    r2 = reach(d, p, far, max_steps=3)
    assert r2.answer == "unknown" and "up to 3 steps" in r2.reason
    assert reach(d, p, far, max_steps=8).answer == "yes"


def test_reach_no_for_a_false_static_fact():
    d = load_domain(reference("ferry"))
    p = load_problem(smallest("ferry"), d)
    static = next(x.name for x in d.predicates if x.name not in {e.literal.atom.predicate for a in d.actions
                                                                  for e in a.effects})
    objs = [o for o, _ in p.objects]
    arity = next(x.arity for x in d.predicates if x.name == static)
    false = next(Atom(static, (a,) * arity) for a in objs if Atom(static, (a,) * arity) not in p.init)
    r = reach(d, p, [Literal(false, True)])
    assert r.answer == "no" and "static" in r.reason


def test_acpbench_areach_never_yes():
    """ACPBench lists actions that never become applicable: we never find a witness, and prove most."""
    proven = 0
    for item in acpbench.items("areach"):
        d, p = acpbench.load(item)
        for text in item["answer"]:
            r = reach(d, p, action=actions(text)[0], max_steps=2)
            assert r.answer != "yes", (text, r.witness)
            proven += r.answer == "no"
            assert r.reason
    assert proven == 35  # blocksworld's (stack b b) and grid's need a mutual exclusion (h^2)


def test_acpbench_reach_never_yes():
    proven = asked = 0
    for item in acpbench.items("reach"):
        d, p = acpbench.load(item)
        for text in item["answer"]:
            r = reach(d, p, [Literal(atom(text), True)], max_steps=2)
            assert r.answer != "yes", (text, r.witness)
            asked += 1
            proven += r.answer == "no"
    assert asked == 346 and proven == 346


def test_acpbench_nexta_optimal_lengths():
    """opt is the optimal plan length from the state; a `yes` action decreases it by one, a `no` one does not
    (items with opt <= 7, floortile aside: 19 of the 40)."""
    checked = 0
    for item in acpbench.items("nexta"):
        opt = int(item["answer"]["opt"])
        if opt > 7 or acpbench.domain_name(item) == "floor-tile":  # longer ones take seconds each
            continue
        d, p = acpbench.load(item)
        assert plan(d, p, max_steps=opt).length == opt
        for kind in ("yes", "no"):
            for a in actions(" ".join(item["answer"][kind])):
                ex = execute(d, p, [a])
                if not ex.executable:
                    continue
                after = plan(d, p, init=ex.states[1], max_steps=opt - 1)
                if kind == "yes":
                    assert after.length == opt - 1
                else:
                    assert after.status == "no_plan_within", (a, after.plans)
        checked += 1
    assert checked == 19


# ----------------------------------------------------------------------------- justify

@pytest.mark.parametrize("item", acpbench.items("just"), ids=acpbench.ids("just"))
def test_acpbench_just(item):
    d, p = acpbench.load(item)
    steps = acpbench.quoted_plan(item["question"])
    r = justify(d, p, steps)
    assert r.valid and not r.well_justified
    ours = Counter([removal_key(steps, i, False) for i in r.removable_single]
                   + [removal_key(steps, i, True) for i in r.removable_pairs])
    theirs = Counter(tuple(x.lower() for x in y) for y in item["answer"])
    if ours != theirs:
        # one item lists the pair (move r1 room1 room2)(move r1 room2 room1) but not the overlapping
        # (move r1 room2 room1)(move r1 room1 room2): removing either leaves the same valid plan
        extra = ours - theirs
        assert not (theirs - ours) and len(extra) == 1, (ours, theirs)
        ((key, _),) = extra.items()
        i = next(i for i in r.removable_pairs if removal_key(steps, i, True) == key)
        assert up_valid(up_problem(item["PDDL_domain"], item["PDDL_problem"]), steps[:i] + steps[i + 2:])


def test_justify_hand_example_and_invalid_plan():
    d, p = BLOCKSWORLD4.load()
    best = plan(d, p, max_steps=20).plans[0]
    assert justify(d, p, best).well_justified  # a shortest plan has nothing to remove
    first = best[0]
    assert first.name == "unstack"  # (unstack b4 b3): b4 is held after it
    held = first.args[0]
    detour = best[:1] + [GroundAction("put_down", (held,)), GroundAction("pick_up", (held,))] + best[1:]
    r = justify(d, p, detour)
    # (put_down b4)(pick_up b4) at steps 2-3, or (pick_up b4)(put_down b4) at steps 3-4 (the plan's own
    # put_down b4 follows): either pair can go; no single action can
    assert r.valid and not r.well_justified and r.removable_pairs == [1, 2] and r.removable_single == []
    assert list(r.to_frame()["step"]) == [2, 3]
    broken = best[1:]
    assert not justify(d, p, broken).valid and not justify(d, p, broken).well_justified


# ----------------------------------------------------------------------------- landmarks

SMALL_LAND = [1, 10, 11, 12, 13, 14, 21, 22, 25, 27, 28, 35, 36, 37, 38, 39]  # state spaces under 10,000


@pytest.mark.parametrize("index", SMALL_LAND)
def test_landmarks_are_exact_landmarks(index):
    item = acpbench.items("land")[index]
    d, p = acpbench.load(item)
    strips = Strips(up_problem(item["PDDL_domain"], item["PDDL_problem"]))
    exact = exact_landmarks(strips, strips.graph())
    r = landmarks(d, p)
    ours = {l.fact for l in r.landmarks if l.kind != "initial"}
    assert ours <= exact, ours - exact
    assert {atom(x) for x in item["answer"]["yes"]} <= exact  # the oracle's own sanity
    for l in r.landmarks:
        assert l.proof


def test_acpbench_land_yes_found_and_claims_verified():
    """Our sound method finds 144 of ACPBench's 146 landmarks; the facts of its `no` lists we claim are
    checked exactly (ACPBench's `no` lists facts its generator did not mark, not proven non-landmarks)."""
    found = total = 0
    claimed = []
    for index, item in enumerate(acpbench.items("land")):
        d, p = acpbench.load(item)
        ours = {l.fact for l in landmarks(d, p).landmarks}
        yes = {atom(x) for x in item["answer"]["yes"]}
        found += len(yes & ours)
        total += len(yes)
        claimed += [(index, f) for f in ours & {atom(x) for x in item["answer"]["no"]}]
    assert total == 146 and found >= 144
    strips_of = {}
    for index, fact in claimed:
        if index in SMALL_LAND:
            continue  # exact above
        item = acpbench.items("land")[index]
        strips = strips_of.setdefault(index, Strips(up_problem(item["PDDL_domain"], item["PDDL_problem"])))
        # F is a landmark iff the goal is unreachable through the states without F
        assert not goal_reachable(strips, strips.graph(avoid=fact), avoid=fact), (index, fact)
    # e.g. item 32: rover1 can only leave waypoint1 through waypoint2
    assert (32, Atom("at", ("rover1", "waypoint2"))) in claimed


def test_landmarks_only_and_unsolvable():
    d, p = BLOCKSWORLD4.load()
    held = Atom("holding", ("b4",))
    r = landmarks(d, p, only=[held, Atom("holding", ("b2",))])
    assert [l.fact for l in r.landmarks] == [held]  # b4 is on b3, which must move; b2 need not
    assert r.landmarks[0].kind == "relaxed"
    # no hand, nothing held: no action is ever applicable, so the goal is not even relaxed-reachable
    stuck = frozenset(a for a in p.init if a.predicate != "handempty")
    r2 = landmarks(d, p, init=stuck)
    assert r2.unsolvable and not r2.landmarks


@pytest.mark.parametrize("index", [1, 10, 21, 25, 35, 39])
def test_mutexes_never_hold_together_in_a_reachable_state(index):
    """h^2 pairs against the exhaustive search: sound always, and here as many as there are (but 40 of item 21)."""
    item = acpbench.items("land")[index]
    d, p = acpbench.load(item)
    strips = Strips(up_problem(item["PDDL_domain"], item["PDDL_problem"]))
    together = {(a, b) for s in strips.graph() for a in s for b in s}
    relaxation = relax(d, p)
    fluents = sorted((a for a in relaxation.atoms if a.predicate not in d.static_predicates()), key=str)
    r = mutexes(d, p, p.init, fluents, relaxation)
    assert r is not None and r.pairs
    assert not [pair for pair in r.pairs if pair in together]
    exact = sum(1 for i, a in enumerate(fluents) for b in fluents[i:] if (a, b) not in together)
    assert len(r.pairs) == exact or (index == 21 and len(r.pairs) == exact - 40)


# ----------------------------------------------------------------------------- diff

def without_precondition(domain, action: str, lit: Literal):
    a = domain.action(action)
    kept = tuple(l.atom if l.positive else Not(l.atom) for l in a.precondition_literals() if l != lit)
    assert len(kept) == len(a.precondition_literals()) - 1
    return replace(domain, actions=tuple(replace(x, precondition=And(kept)) if x is a else x for x in domain.actions))


def without_effect(domain, action: str, lit: Literal):
    a = domain.action(action)
    effects = tuple(e for e in a.effects if not (e.unconditional and e.literal == lit))
    assert len(effects) == len(a.effects) - 1
    return replace(domain, actions=tuple(replace(x, effects=effects) if x is a else x for x in domain.actions))


def up_first_disagreements(ref_pb, lrn_pb, max_depth: int = 12):
    """BFS over the reference's reachable states with UP's simulator for both models: the depth of the
    first disagreement and the (state, action) pairs that disagree there; or (None, number of states)."""
    sr, sl = simulator(ref_pb), simulator(lrn_pb)
    init = sr.get_initial_state()
    seen = {up_atoms(init)}
    frontier = [init]
    for depth in range(max_depth + 1):
        found, nxt = set(), []
        for st in frontier:
            atoms = up_atoms(st)
            lst = up_state(lrn_pb, atoms)
            ref = {up_action(a, ps): (a, ps) for a, ps in sr.get_applicable_actions(st)}
            lrn = {up_action(a, ps): (a, ps) for a, ps in sl.get_applicable_actions(lst)}
            found |= {(atoms, g) for g in set(ref) ^ set(lrn)}
            for g in set(ref) & set(lrn):
                if up_atoms(sr.apply(st, *ref[g])) != up_atoms(sl.apply(lst, *lrn[g])):
                    found.add((atoms, g))
            for _g, (a, ps) in ref.items():
                t = sr.apply(st, a, ps)
                if up_atoms(t) not in seen:
                    seen.add(up_atoms(t))
                    nxt.append(t)
        if found:
            return depth, found
        if not nxt:
            return None, len(seen)
        frontier = nxt
    raise AssertionError("no disagreement within the oracle's depth")


DIFF_CASES = [
    ("blocksworld", BW1, "stack", "precondition", Literal(Atom("clear", ("?y",)), True)),
    ("blocksworld", BW1, "unstack", "precondition", Literal(Atom("on", ("?x", "?y")), True)),
    ("blocksworld", BW1, "put_down", "effect", Literal(Atom("ontable", ("?x",)), True)),
    ("ferry", None, "board", "precondition", Literal(Atom("empty_ferry", ()), True)),
    ("ferry", None, "sail", "precondition", Literal(Atom("noteq", ("?from", "?to")), True)),  # a static one
    ("grippers", None, "drop", "effect", Literal(Atom("carry", ("?r", "?obj", "?g")), False)),
]


@pytest.mark.parametrize("name,pf,action,where,lit", DIFF_CASES,
                         ids=[f"{c[0]}-{c[2]}-{c[3]}" for c in DIFF_CASES])
def test_diff_counterexample_is_minimal(name, pf, action, where, lit, tmp_path):
    pf = pf or smallest(name)
    ref = load_domain(reference(name))
    assert any(a.name == action for a in ref.actions), [a.name for a in ref.actions]
    lrn = (without_precondition if where == "precondition" else without_effect)(ref, action, lit)
    (tmp_path / "learned.pddl").write_text(to_pddl(lrn))
    p = load_problem(pf, ref)
    r = diff(lrn, ref, p, max_steps=12)
    cx = r.counterexample
    assert cx is not None and cx.action.name == action
    depth, pairs = up_first_disagreements(up_files(reference(name), pf),
                                          up_files(tmp_path / "learned.pddl", pf))
    assert len(cx.path) == depth
    assert (cx.state, cx.action) in pairs
    assert cx.kind == ("only_learned" if where == "precondition" else "effects")
    # the path is valid in the reference and leads to the state shown
    ex = execute(ref, p, cx.path)
    assert ex.executable and ex.states[-1] == cx.state
    if cx.kind == "only_learned":  # the reference refuses it for the dropped precondition
        sub = dict(zip((v for v, _ in ref.action(action).parameters), cx.action.args))
        grounded = Atom(lit.atom.predicate, tuple(sub.get(x, x) for x in lit.atom.args))
        assert [str(u) for u in cx.unmet] == [str(grounded)]


def test_diff_of_a_model_with_itself_explores_the_whole_space():
    d, p = BLOCKSWORLD4.load()
    r = diff(d, d, p, max_steps=50)
    assert r.counterexample is None and r.exhausted
    assert "equivalent on the whole reachable space" in r.verdict
    strips = Strips(up_files(BW, BW1))
    assert r.explored_states == len(strips.graph())
    short = diff(d, d, p, max_steps=2)
    assert not short.exhausted and short.verdict.startswith("no disagreement within 2 step(s)")


def test_strips_oracle_agrees_with_up_simulator():
    """The fast oracle's successors are the simulator's, on every reachable state of a small problem."""
    pb = up_files(BW, BW1)
    strips, sim = Strips(pb), simulator(pb)
    edges = strips.graph()
    for s in list(edges)[:60]:
        st = up_state(pb, s)
        theirs = {(up_action(a, ps), up_atoms(sim.apply(st, a, ps))) for a, ps in sim.get_applicable_actions(st)}
        assert set(edges[s]) == theirs


def test_results_as_frames():
    d, p = BLOCKSWORLD4.load()
    assert list(plan(d, p, max_steps=10, top=2).to_frame().columns) == ["plan", "step", "action"]
    r = reach(d, p, [Literal(Atom("holding", ("b4",)), True)])
    assert list(r.to_frame()["action"]) == ["(unstack b4 b3)"]
    assert set(landmarks(d, p).to_frame()["kind"]) == {"initial", "goal", "relaxed"}
    lrn = without_precondition(d, "stack", Literal(Atom("clear", ("?y",)), True))
    frame = diff(lrn, d, p, stop_at_first=False, max_steps=3).to_frame()
    assert list(frame["action"]) == ["stack"] and frame["shortest"][0] == 1 and frame["pairs"][0] > 1
