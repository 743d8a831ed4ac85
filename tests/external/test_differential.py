"""Differential tests: our engine against unified-planning, an independent implementation.

For every IPC reference domain (and the NOLAM-learned models, and two ADL domains) a seeded
random walk from a small problem compares, at every step, the set of applicable ground
actions with UP's SequentialSimulator and the successor state with UP's. Plans from Fast
Downward, and corrupted copies of them (a dropped step, two swapped steps, a goal the plan
does not reach), must get the same verdict from `execute` as from UP's PlanValidator, with
the same failing step and the same state trace.

UP grounds every type-consistent parameter tuple and tests each one in every state, so the
problems are small: the smallest shared problem of the domain by file size, or a hand-made
one in tests/data/differential/ where the benchmark set has no problem for the domain
(driverlog, grid, hanoi, zenotravel) or where UP cannot walk the shared ones in reasonable
time (sokoban: 62,500 groundings of `push` on the smallest 5x5 grid, about 4 s per step).
"""

from __future__ import annotations

import random
import zlib
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import pytest

up = pytest.importorskip("unified_planning")
from unified_planning.shortcuts import PlanValidator  # noqa: E402

from amlasp.errors import InputError  # noqa: E402
from amlasp.external.up_oracle import simulator  # noqa: E402  (UP's simulator with its grounder fixed)
from amlasp.model import Atom, GroundAction, Literal  # noqa: E402
from amlasp.pddl.parse import load_domain, load_problem  # noqa: E402
from amlasp.reasoning.engine import execute  # noqa: E402
from tests.support.ipc import ADL, DOMAINS, HANDMADE, LEARNED, NOLAM, reference, small_problem  # noqa: E402
from tests.support.up import to_up_plan, up_action, up_atoms, up_files, up_solve, up_walk  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

STEPS = 15


def domain_file(kind: str, name: str) -> Path:
    if kind == "ref":
        return reference(name)
    if kind == "nolam":
        return NOLAM / f"{name}.pddl"
    return HANDMADE / "adl" / f"{name}-domain.pddl"


def problem_file(kind: str, name: str) -> Path:
    return HANDMADE / "adl" / f"{name}-problem.pddl" if kind == "adl" else small_problem(name)


@lru_cache(maxsize=None)
def ours(kind: str, name: str):
    d = load_domain(domain_file(kind, name))
    return d, load_problem(problem_file(kind, name), d)


@lru_cache(maxsize=None)
def theirs(kind: str, name: str):
    return up_files(domain_file(kind, name), problem_file(kind, name))


def seed_of(*parts: str) -> int:
    return zlib.crc32("/".join(parts).encode())


# -- random walks

def walk(kind: str, name: str, steps: int = STEPS, seed: int = 0) -> int:
    """Walk `steps` random steps comparing applicable sets and successors; returns the steps taken."""
    dom, prob = ours(kind, name)
    rng = random.Random(seed_of(kind, name, str(seed)))
    with simulator(theirs(kind, name)) as sim:
        return up_walk(dom, prob, sim, rng, steps)


@pytest.mark.parametrize("domain", DOMAINS)
def test_random_walk_matches_up_on_reference_domain(domain):
    walk("ref", domain)


@pytest.mark.parametrize("domain", [d for d in LEARNED if d != "childsnack"])
def test_random_walk_matches_up_on_learned_model(domain):
    """Learned models have negative preconditions and repeated parameters the references lack."""
    walk("nolam", domain)


def test_learned_childsnack_is_refused_not_walked():
    with pytest.raises(InputError, match="undefined predicate 'xist'"):
        load_domain(domain_file("nolam", "childsnack"))


@pytest.mark.parametrize("domain", ADL)
def test_random_walks_match_up_on_adl_domains(domain):
    """Conditional, universal and nested effects, quantified and disjunctive preconditions."""
    for seed in range(3):
        assert walk("adl", domain, steps=30, seed=seed) == 30


def test_the_walks_go_somewhere():
    """A walk that stops at once compares nothing: the sampled problems must allow real walks."""
    assert walk("ref", "blocksworld") == STEPS
    assert walk("ref", "spanner") >= 3  # spanner's walks reach dead ends (the man cannot walk back)


# -- plan validation

@lru_cache(maxsize=None)
def fd_plan(kind: str, name: str) -> tuple[GroundAction, ...]:
    """Fast Downward's plan for the small problem (computed once per test session)."""
    result = up_solve(theirs(kind, name), "fast-downward", timeout=60)
    assert result.plan is not None, result.status
    return tuple(up_action(a.action, a.actual_parameters) for a in result.plan.actions)


def compare_validation(kind: str, name: str, plan: list[GroundAction], wrong_goal: Atom | None = None) -> bool:
    """Same verdict, same failing step, same states as UP's PlanValidator; returns the verdict."""
    dom, prob = ours(kind, name)
    their_problem = theirs(kind, name)
    if wrong_goal is not None:
        prob = replace(prob, goal=prob.goal + (Literal(wrong_goal, True),))
        their_problem = their_problem.clone()
        fluents = {f.name.lower(): f for f in their_problem.fluents}
        objs = {o.name.lower(): o for o in their_problem.all_objects}
        their_problem.add_goal(fluents[wrong_goal.predicate](*(objs[x] for x in wrong_goal.args)))
    ex = execute(dom, prob, plan)
    with PlanValidator(name="sequential_plan_validator") as validator:
        res = validator.validate(their_problem, to_up_plan(their_problem, plan))
    assert ex.valid == bool(res.status), (plan, ex, res.reason)
    trace = [up_atoms(s) for s in res.trace]
    if res.reason is not None and res.reason.name == "INAPPLICABLE_ACTION":
        assert ex.failed_step == len(trace) - 1 and not ex.executable
        assert ex.unmet, "an inapplicable step must say which precondition fails"
    else:
        assert ex.failed_step is None and ex.executable
        assert bool(ex.goal_unmet) == (not ex.valid)
    assert ex.states == trace
    return ex.valid


def corruptions(plan: tuple[GroundAction, ...], rng: random.Random, n: int = 3) -> list[list[GroundAction]]:
    """Up to n plans with one dropped step and up to n with two different adjacent steps swapped."""
    out = []
    for i in rng.sample(range(len(plan)), min(n, len(plan))):
        out.append(list(plan[:i] + plan[i + 1:]))
    swaps = [i for i in range(len(plan) - 1) if plan[i] != plan[i + 1]]
    for i in rng.sample(swaps, min(n, len(swaps))):
        out.append(list(plan[:i] + (plan[i + 1], plan[i]) + plan[i + 2:]))
    return out


CASES = [("ref", d) for d in DOMAINS] + [("adl", d) for d in ADL]


@pytest.mark.parametrize("kind,name", CASES, ids=[n for _, n in CASES])
def test_plan_validation_matches_up(kind, name):
    plan = fd_plan(kind, name)
    assert compare_validation(kind, name, list(plan)), "Fast Downward's plan must be valid"
    rng = random.Random(seed_of(kind, name))
    verdicts = [compare_validation(kind, name, bad) for bad in corruptions(plan, rng)]
    if len(plan) > 1:
        assert not all(verdicts), "some corruption must break the plan"
    # a goal atom the plan does not reach: true initially but false at the end, or any false atom
    dom, prob = ours(kind, name)
    final = execute(dom, prob, list(plan)).states[-1]
    missing = sorted((a for a in prob.init if a not in final), key=str)
    if not missing:
        preds = [p for p in dom.predicates if p.arity == 0 and Atom(p.name) not in final]
        missing = [Atom(preds[0].name)] if preds else []
    if not missing:
        d0 = next(p for p in dom.predicates if p.arity == 1)
        objs = sorted(o for o, _ in prob.object_types(dom).items())
        missing = [Atom(d0.name, (o,)) for o in objs if Atom(d0.name, (o,)) not in final][:1]
    assert missing, "no atom is false at the end of the plan"
    assert compare_validation(kind, name, list(plan), wrong_goal=missing[0]) is False


# -- states that disagree on static atoms

def brute_force_applicable(domain, problem, state) -> list[GroundAction]:
    """Every type-consistent tuple tested literal by literal: a third, naive implementation.

    UP cannot serve here: its grounder prunes actions by the static atoms of the initial state,
    while `applicable` must answer for any state (a learned model's test states, for one)."""
    from itertools import product
    types = problem.object_types(domain)
    out = []
    for a in domain.actions:
        lits = a.precondition_literals()
        assert lits is not None
        pools = [[o for o, t in types.items() if pt in domain.ancestors(t)] for _, pt in a.parameters]
        for args in product(*pools):
            sub = dict(zip((v for v, _ in a.parameters), args))
            ok = True
            for lit in lits:
                at = Atom(lit.atom.predicate, tuple(sub.get(x, x) for x in lit.atom.args))
                truth = at.args[0] == at.args[1] if at.predicate == "=" else at in state
                if truth != lit.positive:
                    ok = False
                    break
            if ok:
                out.append(GroundAction(a.name, args))
    return sorted(out, key=str)


@pytest.mark.parametrize("kind,name", [("ref", "rovers"), ("ref", "grid"), ("ref", "elevators"), ("ref", "satellite"),
                                       ("nolam", "rovers"), ("adl", "gripper-untyped")])
def test_states_that_disagree_on_static_atoms(kind, name):
    """`applicable` gives static atoms once per group of states that agree on them: states
    with static atoms removed or added must each get their own answer, in one call."""
    from amlasp.reasoning.engine import applicable_many
    dom, prob = ours(kind, name)
    static = dom.static_predicates()
    init = frozenset(prob.init)
    fixed = sorted((a for a in init if a.predicate in static), key=str)
    assert fixed, "the domain must have static atoms"
    rng = random.Random(seed_of(kind, name))
    states = [init]
    for k in range(6):  # drop some static atoms, or copy one onto other arguments
        drop = set(rng.sample(fixed, max(1, len(fixed) * (k + 1) // 8)))
        src = rng.choice(fixed)
        objs = sorted(prob.object_types(dom))
        moved = Atom(src.predicate, tuple(rng.choice(objs) for _ in src.args))
        states.append((init - drop) | ({moved} if k % 2 else set()))
    got = applicable_many(dom, [(prob, states), (prob, states[::-1])])
    expected = [brute_force_applicable(dom, prob, s) for s in states]
    assert got == [expected, expected[::-1]]
    assert len({tuple(x) for x in expected}) > 1, "the changes must matter"
