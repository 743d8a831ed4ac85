"""The decomposed search of big models (metrics/compare/decompose.py, issue 33): a generated domain of
500 actions against its renamed copy is at proven distance 0, and against a renamed copy with k
preconditions dropped at proven distance k; the lower bound never exceeds the optimum of the one
search over all pairs, and the decomposed search finds that optimum."""

from __future__ import annotations

import random

import pytest

from amlasp.asp.names import LEARNED, REF
from amlasp.experiments.perturb import perturb
from amlasp.metrics.compare import compare, decompose, driver
from amlasp.metrics.compare.structure import Structure
from amlasp.pddl.parse import parse_domain
from tests.support.paths import IPC
from tests.support.renaming import rename_all


def _generated(actions: int, seed: int = 0, drop: frozenset[int] = frozenset(), predicates: int = 40) -> str:
    """A typed STRIPS domain of `actions` actions over `predicates` predicates of arity 1 and 2 (the same
    text for the same seed); the actions in `drop` lack their first precondition literal (one edit)."""
    rng = random.Random(seed)
    types = ["t0", "t1", "t2"]
    preds = [(f"p{i}", [rng.choice(types) for _ in range(1 + i % 2)]) for i in range(predicates)]
    lines = ["(define (domain big) (:requirements :strips :typing :negative-preconditions)",
             "(:types " + " ".join(types) + ")",
             "(:predicates " + " ".join(f"({p} " + " ".join(f"?x{j} - {t}" for j, t in enumerate(ts)) + ")"
                                         for p, ts in preds) + ")"]
    for a in range(actions):
        params = [rng.choice(types) for _ in range(rng.randint(1, 3))]
        by_type = {t: [f"?v{j}" for j, u in enumerate(params) if u == t] for t in types}
        usable = [(p, ts) for p, ts in preds if all(by_type[t] for t in ts)]
        lits = []
        for _ in range(rng.randint(3, 6)):
            p, ts = rng.choice(usable)
            lits.append("(" + " ".join([p] + [rng.choice(by_type[t]) for t in ts]) + ")")
        lits = list(dict.fromkeys(lits))
        pre, eff = lits[: max(1, len(lits) // 2)], lits[max(1, len(lits) // 2):] or lits[:1]
        effects = " ".join(["(not " + e + ")" for e in eff] + pre[:1])
        if a in drop:
            pre = pre[1:]
        lines.append(f"(:action a{a} :parameters (" + " ".join(f"?v{j} - {t}" for j, t in enumerate(params)) + ")"
                     f" :precondition (and {' '.join(pre)}) :effect (and {effects}))")
    return "\n".join(lines) + ")"


def test_five_hundred_actions_against_their_renamed_copy():
    text = _generated(500)
    reference = parse_domain(text)
    copy = parse_domain(rename_all(text, seed=1)[0])
    assert decompose.free_pairs(copy, reference, True) >= decompose.MIN_PAIRS
    r = compare(copy, reference, rename=True, time_limit=120)
    s = r.summary()
    assert r.optimal and r.edit_distance == 0, r.edits[:5]
    assert s["f1_macro"] == s["f1_cumulative"] == 1.0
    assert len(r.action_mapping) == 500


#: Predicates of the domain with edits: colour refinement carries an edit to the actions that share a
#: predicate with the edited one (their colours then have no partner), so that the first search's
#: candidates grow with the actions per predicate.
PREDICATES = 300


@pytest.mark.parametrize("k", [1, 3])
def test_a_renamed_copy_with_k_preconditions_dropped_is_at_proven_distance_k(k: int):
    rng = random.Random(k)
    drop = frozenset(rng.sample(range(500), k))
    reference = parse_domain(_generated(500, predicates=PREDICATES))
    copy = parse_domain(rename_all(_generated(500, drop=drop, predicates=PREDICATES), seed=2)[0])
    r = compare(copy, reference, rename=True, time_limit=300)  # (a loaded machine: 113 s at load 10 for k = 1)
    assert r.optimal and r.edit_distance == k, r.edits[:10]
    assert all(": add precondition" in e for e in r.edits)


def _bound_and_optimum(learned, reference) -> tuple[int, int, bool]:
    """The lower bound of the decomposed search and the optimum of the one search over all pairs."""
    ld, rd = driver.rules_as_actions(learned), driver.rules_as_actions(reference)
    plan = decompose.plan(ld, rd, Structure(ld, LEARNED), Structure(rd, REF), True)
    r = compare(learned, reference, rename=True, time_limit=120)
    return plan.lower_bound, r.edit_distance, r.optimal


@pytest.mark.parametrize("name", ["blocksworld", "depots", "satellite", "rovers", "miconic"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_lower_bound_is_at_most_the_optimum(name: str, seed: int):
    reference = parse_domain((IPC / "domains" / f"{name}.pddl").read_text())
    learned = perturb(reference, seed=seed, drop=2 + seed, add=2, permute=True, rename=True).domain
    bound, optimum, optimal = _bound_and_optimum(learned, reference)
    assert optimal and bound <= optimum


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_the_decomposed_search_finds_the_optimum_of_the_whole_search(seed: int, monkeypatch):
    reference = parse_domain(_generated(24, seed=seed))
    learned = perturb(reference, seed=seed, drop=3, add=3, permute=seed % 2 == 1, rename=True).domain
    whole = compare(learned, reference, rename=True, time_limit=120)
    monkeypatch.setattr(decompose, "MIN_PAIRS", 0)
    parts = compare(learned, reference, rename=True, time_limit=120)
    assert whole.optimal
    assert parts.edit_distance == whole.edit_distance if parts.optimal else parts.edit_distance >= whole.edit_distance
    assert parts.summary()["edit_distance_lower_bound"] <= whole.edit_distance if not parts.optimal else True
