"""eval with derived predicates (issue 21): each model's derived atoms are computed in every test state
from its own rules. A learned road network whose `connected` stops at two roads, against the reference's
transitive closure: its applicability counts per action equal those computed from pymimir's applicable
actions of both models in the same states (seeded random walks of the reference)."""

from __future__ import annotations

import random
import tempfile
from collections import Counter

import pytest

from amlasp.metrics.evaluate import evaluate
from amlasp.model import Atom
from amlasp.pddl.parse import load_domain, load_problem
from amlasp.pddl.states import StateSet
from tests.support.paths import DATA

pymimir = pytest.importorskip("pymimir")

REF, LEARNED, PROBLEM = (DATA / "derived" / f"{n}.pddl" for n in ("roads", "roads-short", "roads-1"))


def _atom(text: str) -> Atom:
    name, *args = text.strip("()").split()
    return Atom(name, tuple(args))


def test_applicability_counts_equal_pymimirs():
    ref, learned = load_domain(REF), load_domain(LEARNED)
    problem = load_problem(PROBLEM, ref)
    basic = {p.name for p in ref.predicates} - ref.derived_predicates()
    mr = pymimir.Problem(pymimir.Domain(str(REF)), str(PROBLEM))
    ml_domain = pymimir.Domain(str(LEARNED))
    rng = random.Random(5)
    states, expected = [], Counter()
    for _ in range(5):
        state = mr.get_initial_state()
        for _ in range(8):
            atoms = frozenset(_atom(str(a)) for a in state.get_atoms(ignore_derived=True))
            atoms = frozenset(a for a in atoms if a.predicate in basic)
            states.append(atoms)
            ours = {str(a) for a in state.generate_applicable_actions()}
            # the learned model in the same state: a problem of its own with these atoms as its init
            text = PROBLEM.read_text()
            init = " ".join(str(a) for a in sorted(atoms, key=str))
            text = text[:text.index("(:init")] + f"(:init {init})\n (:goal (and)))"
            theirs = _learned_applicable(ml_domain, text)
            for a in ours | theirs:
                name = a.strip("()").split()[0]
                expected[name, "tp" if a in ours and a in theirs else "fn" if a in ours else "fp"] += 1
            acts = state.generate_applicable_actions()
            if not acts:
                break
            state = rng.choice(acts).apply(state)
    result = evaluate(learned, ref, [StateSet(problem, states, "walks")], check_trajectories=False)
    got = Counter()
    for score in result.actions:
        for kind in ("tp", "fp", "fn"):
            if getattr(score.applicability, kind):
                got[score.action, kind] = getattr(score.applicability, kind)
    assert got == +expected
    assert expected["drive", "fn"] > 0 and expected["drive", "tp"] > 0  # the models do disagree


def _learned_applicable(domain, text: str) -> set[str]:
    with tempfile.NamedTemporaryFile("w", suffix=".pddl") as f:
        f.write(text)
        f.flush()
        state = pymimir.Problem(domain, f.name).get_initial_state()
        return {str(a) for a in state.generate_applicable_actions()}
