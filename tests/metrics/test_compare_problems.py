"""Problem comparison (metrics/compare/problems.py): pairs built by construction from shipped problems,
and pairs whose equivalence an independent oracle decides (every bijection of objects tried by brute
force; goal closures from unified-planning's grounding searched exhaustively, tests/support/strips.py)."""

from __future__ import annotations

import itertools
import random
import re
from dataclasses import replace
from pathlib import Path

import pytest

from amlasp.enums import Verdict
from amlasp.metrics.compare.problems import compare_problems
from amlasp.model import Atom, Literal, Problem
from amlasp.pddl.parse import load_domain, load_problem, parse_problem
from amlasp.pddl.writer import problem_to_pddl
from tests.support.strips import Strips
from tests.support.up import up_problem

IPC = Path(__file__).resolve().parents[2] / "benchmarks" / "ipc"
BW = IPC / "domains" / "blocksworld.pddl"
GRIPPER = IPC / "domains" / "grippers.pddl"
SHIPPED = [("blocksworld", 0), ("blocksworld", 3), ("grippers", 0), ("grippers", 2), ("ferry", 1),
           ("floortile", 0)]


def _problem(domain: str, k: int) -> tuple[Path, Path]:
    return IPC / "domains" / f"{domain}.pddl", IPC / "problems" / "learning" / domain / f"{k}_{domain}_prob.pddl"


def renamed_shuffled(problem: Problem, seed: int) -> Problem:
    """The same task: every object renamed, objects, initial facts and goal literals in another order."""
    rng = random.Random(seed)
    names = {o: f"x{i}_{rng.randrange(10**6)}" for i, (o, _) in enumerate(problem.objects)}
    objects = [(names[o], t) for o, t in problem.objects]
    rng.shuffle(objects)
    goal = [Literal(Atom(l.atom.predicate, tuple(names.get(x, x) for x in l.atom.args)), l.positive)
            for l in problem.goal]
    rng.shuffle(goal)
    init = frozenset(Atom(a.predicate, tuple(names.get(x, x) for x in a.args)) for a in problem.init)
    return replace(problem, objects=tuple(objects), init=init, goal=tuple(goal), file=None)


def reread(problem: Problem, domain) -> Problem:
    """Through PDDL text, as a generated file would come."""
    return parse_problem(problem_to_pddl(problem), domain)


@pytest.mark.parametrize("name,k", SHIPPED)
def test_renamed_and_shuffled_is_equivalent_at_distance_0(name, k):
    dpath, ppath = _problem(name, k)
    d = load_domain(dpath)
    ref = load_problem(ppath, d)
    gen = reread(renamed_shuffled(ref, k), d)
    r = compare_problems(gen, ref, d, max_states=3000)
    assert r.equivalent and r.edit_distance == 0 and r.syntactic.optimal
    assert r.syntactic.edits == ()
    assert len(r.syntactic.mapping) == len(ref.objects)
    # the mapping found carries the generated init onto the reference init
    m = dict(r.syntactic.mapping)
    assert {Atom(a.predicate, tuple(m.get(x, x) for x in a.args)) for a in gen.init} == set(ref.init)


@pytest.mark.parametrize("name,k", SHIPPED)
def test_one_init_fact_removed_is_distance_1(name, k):
    dpath, ppath = _problem(name, k)
    d = load_domain(dpath)
    ref = load_problem(ppath, d)
    gone = sorted(ref.init, key=str)[len(ref.init) // 2]
    gen = reread(replace(renamed_shuffled(ref, k + 1), init=renamed_shuffled(
        replace(ref, init=ref.init - {gone}), k + 1).init), d)
    r = compare_problems(gen, ref, d, goals="syntactic")
    assert not r.equivalent and r.edit_distance == 1 and r.syntactic.optimal
    (edit,) = r.syntactic.edits
    assert (edit.change, edit.part, edit.fact) == ("add", "init", str(gone))


def test_an_implied_goal_fact_is_equivalent_semantically_only():
    d = load_domain(BW)
    ref = load_problem(IPC.parent.parent / "examples" / "blocksworld" / "problem.pddl", d)
    # goal (on b2 b1) (on b3 b2): b3 is on top, so (clear b3) holds in every goal state
    gen = replace(ref, goal=ref.goal + (Literal(Atom("clear", ("b3",))),))
    r = compare_problems(gen, ref, d)
    assert r.edit_distance == 1 and r.to_dict()["verdicts"] == {"syntactic": False, "semantic": True}
    assert r.equivalent and r.to_dict()["equivalent_notion"] == "semantic"
    assert [str(e) for e in r.semantic.edits] == ["remove goal (clear b3) (implied by the other goal: not "
                                                  "counted semantically)"]
    # a goal fact that is not implied stays an edit under both notions: (on b2 b1) leaves b3 anywhere
    r2 = compare_problems(replace(ref, goal=ref.goal[:1]), ref, d)
    assert not r2.equivalent and r2.semantic.edit_distance == 1


def test_without_a_proven_closure_the_verdict_says_syntactic():
    d = load_domain(BW)
    ref = load_problem(IPC.parent.parent / "examples" / "blocksworld" / "problem.pddl", d)
    r = compare_problems(ref, ref, d, max_states=5)
    assert r.semantic is None and r.to_dict()["equivalent_notion"] == "syntactic"
    assert "more than 5 reachable states" in r.semantic_reason
    assert r.solvable.answer is Verdict.YES  # by planning, the exploration being cut short


# ---------------------------------------------------------------- independent oracles

BW_TEXT = """(define (problem p) (:domain blocksworld) (:objects {objs} - block)
(:init (handempty) {init}) (:goal (and {goal})))"""


def _bw(objs: str, init: str, goal: str, d) -> Problem:
    return parse_problem(BW_TEXT.format(objs=objs, init=init, goal=goal), d)


def brute_force_distance(gen: Problem, ref: Problem) -> int:
    """Fewest edits over every type-preserving bijection (same object counts and types)."""
    best = None
    gobj = [o for o, _ in gen.objects]
    types = dict(ref.objects)
    for perm in itertools.permutations([o for o, _ in ref.objects]):
        m = dict(zip(gobj, perm))
        if any(types[m[o]] != t for o, t in gen.objects):
            continue
        init = {Atom(a.predicate, tuple(m[x] for x in a.args)) for a in gen.init}
        goal = {Literal(Atom(l.atom.predicate, tuple(m[x] for x in l.atom.args)), l.positive) for l in gen.goal}
        cost = len(init ^ set(ref.init)) + len(goal ^ set(ref.goal))
        best = cost if best is None else min(best, cost)
    assert best is not None
    return best


TOWERS = [  # (init, goal) of blocksworld problems over a b c d
    ("(on a b) (on b c) (ontable c) (clear a) (ontable d) (clear d)", "(on c b) (on b a)"),
    ("(ontable a) (ontable b) (ontable c) (ontable d) (clear a) (clear b) (clear c) (clear d)", "(on a b) (on c d)"),
    ("(on a b) (ontable b) (on c d) (ontable d) (clear a) (clear c)", "(on b a)"),
    ("(on d c) (on c b) (on b a) (ontable a) (clear d)", "(on a b) (on c d)"),
]


@pytest.mark.parametrize("i,j", [(i, j) for i in range(len(TOWERS)) for j in range(len(TOWERS))])
def test_blocksworld_distances_agree_with_brute_force(i, j):
    d = load_domain(BW)
    gen = _bw("a b c d", *TOWERS[i], d)
    names = {"a": "w", "b": "x", "c": "y", "d": "z"}
    ref_init, ref_goal = (re.sub(r"\b[abcd]\b", lambda m: names[m.group()], t) for t in TOWERS[j])
    ref = _bw("w x y z", ref_init, ref_goal, d)
    r = compare_problems(gen, ref, d, goals="syntactic")
    assert r.edit_distance == brute_force_distance(gen, ref)
    assert r.equivalent == (i == j)


def oracle_implied(domain_path: Path, problem: Problem) -> frozenset[Atom]:
    """Atoms true in every reachable goal state, by unified-planning's grounding and exhaustive search."""
    strips = Strips(up_problem(domain_path.read_text(), problem_to_pddl(problem)))
    goal_states = [s for s in strips.graph() if strips.is_goal(s)]
    return frozenset.intersection(*goal_states)


GRIPPER_TEXT = """(define (problem g) (:domain gripper_strips)
(:objects robot1 - robot rg lg - gripper r1 r2 - room {balls} - ball)
(:init (at_robby robot1 r1) (free robot1 rg) (free robot1 lg) {init}) (:goal (and {goal})))"""


@pytest.mark.parametrize("balls,init,goal,extra,implied", [
    # one ball at its goal room: neither gripper holds anything, so both are free
    ("b1", "(at b1 r1)", "(at b1 r2)", "(free robot1 lg)", True),
    # two balls, one asked for: the other may be carried, so a free gripper is not implied
    ("b1 b2", "(at b1 r1) (at b2 r1)", "(at b1 r2)", "(free robot1 lg)", False),
    # the robot's room is not implied by where a ball is
    ("b1", "(at b1 r1)", "(at b1 r2)", "(at_robby robot1 r2)", False),
])
def test_gripper_implied_goals_agree_with_exhaustive_search(balls, init, goal, extra, implied):
    d = load_domain(GRIPPER)
    ref = parse_problem(GRIPPER_TEXT.format(balls=balls, init=init, goal=goal), d)
    gen = parse_problem(GRIPPER_TEXT.format(balls=balls, init=init, goal=goal + " " + extra), d)
    oracle = oracle_implied(GRIPPER, ref)
    (lit,) = [l for l in gen.goal if str(l) == extra]
    assert (lit.atom in oracle) == implied
    r = compare_problems(gen, ref, d)
    assert r.edit_distance == 1
    assert r.semantic is not None and r.equivalent == implied


FT = IPC / "domains" / "floortile.pddl"
FT_TEXT = """(define (problem f) (:domain floor-tile)
(:objects {tiles} - tile {robots} - robot {colors} - color)
(:init {init}) (:goal (and {goal})))"""

#: 2x2 floor-tile tasks over tiles t1..t4 (t1 t2 on the bottom row), robots r1 r2, colours white black:
#: (init, goal), written for the brute force below to map onto each other
GRID = "(up t3 t1) (up t4 t2) (down t1 t3) (down t2 t4) (right t2 t1) (right t4 t3) (left t1 t2) (left t3 t4)"
FLOORS = [
    (f"{GRID} (robot_at r1 t1) (robot_has r1 white) (robot_at r2 t2) (robot_has r2 black) (clear t3) (clear t4) "
     "(available_color white) (available_color black)", "(painted t3 white) (painted t4 black)"),
    (f"{GRID} (robot_at r1 t2) (robot_has r1 white) (robot_at r2 t1) (robot_has r2 black) (clear t3) (clear t4) "
     "(available_color white) (available_color black)", "(painted t3 white) (painted t4 black)"),
    (f"{GRID} (robot_at r1 t1) (robot_has r1 black) (robot_at r2 t2) (robot_has r2 white) (clear t3) (clear t4) "
     "(available_color white) (available_color black)", "(painted t3 black) (painted t4 white)"),
    (f"{GRID} (robot_at r1 t1) (robot_has r1 white) (robot_at r2 t2) (robot_has r2 black) (clear t3) (clear t4) "
     "(available_color white)", "(painted t3 white)"),
]


def _floor(init: str, goal: str, names: dict[str, str], d) -> Problem:
    def sub(text: str) -> str:
        return re.sub(r"\b(t[1-4]|r[12]|white|black)\b", lambda m: names.get(m.group(), m.group()), text)
    return parse_problem(FT_TEXT.format(tiles=sub("t1 t2 t3 t4"), robots=sub("r1 r2"), colors=sub("white black"),
                                        init=sub(init), goal=sub(goal)), d)


@pytest.mark.parametrize("i,j", [(i, j) for i in range(len(FLOORS)) for j in range(len(FLOORS))])
def test_floortile_distances_agree_with_brute_force(i, j):
    """Floor-tile pairs (the third domain of Planetarium's): the proven-optimal distance equals the
    fewest edits over every type-preserving bijection; equivalence is distance 0 under the brute force.
    Tasks 0 and 2 are the same task (robots and colours swapped together), so they are equivalent."""
    d = load_domain(FT)
    gen = _floor(*FLOORS[i], {}, d)
    ref = _floor(*FLOORS[j], {"t1": "a1", "t2": "a2", "t3": "b1", "t4": "b2", "r1": "rx", "r2": "ry",
                              "white": "c0", "black": "c1"}, d)
    r = compare_problems(gen, ref, d, goals="syntactic")
    expected = brute_force_distance(gen, ref)
    assert r.edit_distance == expected
    assert r.equivalent == (expected == 0)
    if {i, j} <= {0, 2} or i == j:
        assert expected == 0
