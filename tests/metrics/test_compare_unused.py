"""Predicates no action uses, paired before the search (metrics/compare/unused.py): the edit distance
is the one of the search over every pair (the shortcut switched off), on random typed models whose
type compatibility is not transitive, on a case built so that pairing equal signatures blindly would
lose the optimum, and against the brute-force oracle of test_compare.py on untyped models."""

from __future__ import annotations

import random

import pytest

from amlasp.metrics.compare import compare, driver, unused
from amlasp.metrics.compare.structure import Structure
from amlasp.pddl.parse import parse_domain
from tests.metrics.test_compare import _brute_distance

TYPES = "a b - t t c"  # a and b are both compatible with t, but not with each other


def wide(predicates: int, prefix: str = "p") -> str:
    """benchmarks/hostile.py's wide domain: `predicates` unary predicates, the first three used."""
    preds = " ".join(f"({prefix}{i} ?x)" for i in range(predicates))
    return f"""(define (domain wide) (:requirements :strips) (:predicates {preds})
      (:action a :parameters (?x ?y) :precondition (and ({prefix}0 ?x) ({prefix}1 ?y))
       :effect (and ({prefix}2 ?x) (not ({prefix}0 ?x))))
      (:action b :parameters (?x) :precondition ({prefix}2 ?x)
       :effect (and ({prefix}0 ?x) (not ({prefix}2 ?x)))))"""


def _random_domain(rng: random.Random, name: str, preds: int, used: int) -> str:
    """A typed domain of `preds` predicates (arity 1-2), the first `used` of them in two actions."""
    kinds = ["t", "a", "b", "c", "object"]
    sigs = [[rng.choice(kinds) for _ in range(rng.randint(1, 2))] for _ in range(preds)]
    decl = " ".join(f"(p{i} {' '.join(f'?x{j} - {t}' for j, t in enumerate(s))})" for i, s in enumerate(sigs))

    def lits(k: int, neg: bool) -> str:
        out = []
        for _ in range(k):
            i = rng.randrange(used)
            atom = f"(p{i} {' '.join(rng.choice(['?u', '?v']) for _ in sigs[i])})"
            out.append(f"(not {atom})" if neg and rng.random() < 0.3 else atom)
        return " ".join(out)
    actions = "".join(f"""(:action {act} :parameters (?u ?v)
        :precondition (and {lits(rng.randint(1, 3), True)}) :effect (and {lits(rng.randint(1, 2), True)}))"""
                      for act in ("go", "stop"))
    return f"""(define (domain {name}) (:requirements :strips :typing :negative-preconditions)
      (:types {TYPES}) (:predicates {decl}) {actions})"""


def _both(monkeypatch, learned, reference, rename: bool) -> tuple[int, int]:
    """The edit distance with the shortcut and with the search over every pair."""
    with_pairs = compare(learned, reference, rename=rename)
    monkeypatch.setattr(driver, "pair_unused", lambda *args: [])
    without = compare(learned, reference, rename=rename)
    monkeypatch.undo()
    assert with_pairs.optimal and without.optimal
    return with_pairs.edit_distance, without.edit_distance


@pytest.mark.parametrize("seed", range(8))
def test_random_typed_models_keep_the_optimum(monkeypatch, seed):
    rng = random.Random(seed)
    learned = parse_domain(_random_domain(rng, "l", 9, 3), "l.pddl")
    reference = parse_domain(_random_domain(rng, "r", 9, 3), "r.pddl")
    for rename in (False, True):
        got, want = _both(monkeypatch, learned, reference, rename)
        assert got == want, (seed, rename)


def test_some_random_models_do_pair():
    """The test above is not vacuous: the shortcut pairs predicates in some of its models."""
    paired = 0
    for seed in range(8):
        rng = random.Random(seed)
        ld = parse_domain(_random_domain(rng, "l", 9, 3), "l.pddl")
        rd = parse_domain(_random_domain(rng, "r", 9, 3), "r.pddl")
        paired += len(unused.pair_unused(ld, rd, Structure(ld, "learned"), Structure(rd, "ref"), True))
    assert paired >= 8


BLIND = """(define (domain {name}) (:requirements :strips :typing) (:types {types})
  (:predicates (idle ?x - t) ({used} ?x - {kind}))
  (:action act :parameters (?x - {kind}) :precondition ({used} ?x) :effect (not ({used} ?x))))"""


def test_equal_signatures_are_not_paired_where_that_loses_the_optimum(monkeypatch):
    """Learned idle(t) and reference idle2(t) are unused with equal signatures; learned `y` (of type a)
    fits the reference's idle2 and reference `x` (of type b) fits idle, but a and b do not fit each
    other: pairing the idle ones leaves y and x unmapped (two edits more). The lemma's condition
    fails, so they are searched."""
    ld = parse_domain(BLIND.format(name="l", types=TYPES, used="y", kind="a"), "l.pddl")
    rd = parse_domain(BLIND.format(name="r", types=TYPES, used="x", kind="b").replace("idle", "idle2"), "r.pddl")
    assert unused.pair_unused(ld, rd, Structure(ld, "learned"), Structure(rd, "ref"), False) == []
    got, want = _both(monkeypatch, ld, rd, False)
    assert got == want
    monkeypatch.setattr(driver, "pair_unused", lambda *args: [(ld.predicates[0], rd.predicates[0])])
    blind = compare(ld, rd)
    assert blind.optimal and blind.edit_distance == want + 2


@pytest.mark.parametrize("n", [4, 6])
def test_untyped_renamed_models_match_the_brute_force(n):
    ld = parse_domain(wide(n), "wide.pddl")
    rd = parse_domain(wide(n, prefix="q"), "wide-renamed.pddl")
    assert len(unused.pair_unused(ld, rd, Structure(ld, "learned"), Structure(rd, "ref"), False)) == n - 3
    r = compare(ld, rd)
    assert r.optimal and r.edit_distance == _brute_distance(ld, rd) == 0
    assert len(r.predicate_mapping) == n
