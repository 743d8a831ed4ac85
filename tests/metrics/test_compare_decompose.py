"""The decomposed search of big models (metrics/compare/decompose.py, issue 33): a generated domain of
500 actions against its renamed copy is at proven distance 0, and against a renamed copy with k
preconditions dropped at proven distance k; the lower bound never exceeds the optimum of the one
search over all pairs, and the decomposed search finds that optimum."""

from __future__ import annotations

import random

import pytest

from amlasp.asp.names import LEARNED, REF
from amlasp.experiments.perturb import perturb
from amlasp.metrics.compare import colours, compare, decompose, driver
from amlasp.metrics.compare.structure import Structure
from amlasp.pddl.parse import parse_domain
from tests.support.paths import IPC, ROOT
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


def proven_a_renaming(r, actions: int) -> None:
    """`r` proves its two models renamings of each other: distance 0, optimal, F1 1, every one of `actions` paired."""
    s = r.summary()
    assert r.optimal and r.edit_distance == 0, r.edits[:5]
    assert s["f1_macro"] == s["f1_cumulative"] == 1.0
    assert len(r.action_mapping) == actions


def test_five_hundred_actions_against_their_renamed_copy():
    text = _generated(500)
    reference = parse_domain(text)
    copy = parse_domain(rename_all(text, seed=1)[0])
    assert decompose.free_pairs(copy, reference, True) >= decompose.MIN_PAIRS
    r = compare(copy, reference, rename=True, time_limit=120)
    proven_a_renaming(r, 500)


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


# ---------------------------------------------------------------- the renaming read off the colours
def _no_search(*_args, **_kwargs):
    raise AssertionError("a search for the renaming was grounded")


def test_a_symmetric_grounded_domain_is_proven_at_distance_0_without_a_search(monkeypatch):
    """Dining philosophers (308 grounded actions, eleven philosophers alike: colour refinement alone
    leaves classes of eleven, individualisation splits them): the renaming read off the colours is
    counted by the metric program, meets the lower bound 0, and no search is grounded."""
    path = ROOT / "benchmarks" / "ipc_big" / "promela-dining-philosophers" / "domain.pddl"
    text = path.read_text()
    reference = parse_domain(text)
    copy = parse_domain(rename_all(text, seed=3)[0])
    assert len(set(decompose.colours(copy, reference)[-1].actions_l.values())) < 308  # refinement alone
    monkeypatch.setattr(driver, "_best_renaming", _no_search)
    r = compare(copy, reference, rename=True, time_limit=300)
    proven_a_renaming(r, 308)


def test_the_generated_domain_and_its_renamed_copy_need_no_search(monkeypatch):
    text = _generated(500)
    monkeypatch.setattr(driver, "_best_renaming", _no_search)
    r = compare(parse_domain(rename_all(text, seed=4)[0]), parse_domain(text), rename=True, time_limit=120)
    assert r.optimal and r.edit_distance == 0


@pytest.mark.parametrize("seed", [4, 5, 6, 7, 8, 9])
def test_near_copies_give_the_optimum_of_the_whole_search(seed: int, monkeypatch):
    """Renamed copies with a few edits (a literal dropped or added: the colours may still pair everything
    one to one, the distance then exceeds the bound 0 and the searches run) and with none (the colours'
    renaming, proven): the answer is the whole search's."""
    reference = parse_domain(_generated(24, seed=seed))
    edits = seed % 3  # 0, 1 or 2 literals dropped and as many added
    learned = perturb(reference, seed=seed, drop=edits, add=edits, permute=seed % 2 == 1, rename=True).domain
    whole = compare(learned, reference, rename=True, time_limit=120)
    monkeypatch.setattr(decompose, "MIN_PAIRS", 0)
    parts = compare(learned, reference, rename=True, time_limit=120)
    assert whole.optimal and parts.optimal
    assert parts.edit_distance == whole.edit_distance


def test_a_wrong_renaming_given_is_not_taken_for_the_optimum(monkeypatch):
    """A renaming given from outside the search that swaps two actions is counted at its own distance
    (above the bound): the searches then find the optimum, 0."""
    text = _generated(24, seed=1)
    reference, copy = parse_domain(text), parse_domain(rename_all(text, seed=1)[0])
    right = decompose.direct

    def swapped(ld, rd, rename):
        d = right(ld, rd, rename)
        (a, b), (c, e) = d.actions[0], d.actions[1]
        return decompose.Direct(d.predicates, ((a, e), (c, b)) + d.actions[2:],
                                tuple(x for x in d.parameters if x[:2] not in ((a, b), (c, e))))

    monkeypatch.setattr(decompose, "MIN_PAIRS", 0)
    monkeypatch.setattr(decompose, "direct", swapped)
    r = compare(copy, reference, rename=True, time_limit=120)
    assert r.optimal and r.edit_distance == 0


def test_the_metric_program_refuses_a_renaming_the_search_could_not_choose():
    """unfit/1: parameters of incompatible types, a predicate of another arity, an action twice."""
    from amlasp.asp.names import asp_name
    from amlasp.asp.run import solve_once
    from amlasp.asp.schema import UNFIT
    text = _generated(24, seed=2)
    reference, copy = parse_domain(text), parse_domain(text)  # (renamed types would fit any type)
    d = decompose.direct(copy, reference, True)
    assert d is not None

    def unfit(given: decompose.Direct) -> list[str]:
        program = "\n".join([driver.domain_facts(copy, LEARNED), driver.domain_facts(reference, REF),
                             Structure(copy, LEARNED).facts(), Structure(reference, REF).facts(),
                             driver.encoding("types"), driver.encoding("compare"), driver.encoding("edit"),
                             "rename. phase(metrics). metric_mode(best). mapping(best). given.", given.facts(),
                             UNFIT.show()])
        return sorted(str(s) for s in solve_once([program]))

    assert unfit(d) == []
    rtypes = {asp_name(b.name): [t for _, t in b.parameters] for b in reference.actions}
    a, b = next((a, b) for a, b in d.actions if len(set(rtypes[b])) > 1)
    pairs = {j: i for x, y, i, j in d.parameters if (x, y) == (a, b)}  # reference position → learned
    j1 = 1
    j2 = next(j for j, t in enumerate(rtypes[b], 1) if t != rtypes[b][0])
    crossed = tuple(x for x in d.parameters if (x[0], x[1]) != (a, b)) + \
        tuple((a, b, pairs[j2] if j == j1 else pairs[j1] if j == j2 else pairs[j], j) for j in pairs)
    assert any(s.startswith("unfit(vm(") for s in unfit(decompose.Direct(d.predicates, d.actions, crossed)))
    (p, q), (p2, _) = d.predicates[0], d.predicates[1]
    twice = decompose.Direct(((p, q), (p2, q)) + d.predicates[1:], d.actions, d.parameters)
    assert any(s.startswith("unfit(pm(") for s in unfit(twice))


def _twins(copies: int, distinct: int) -> str:
    """A grounded (nullary) domain in the manner of psr's: `copies` actions alike (the same preconditions in
    another order each, the same effect: twins) and `distinct` actions with 1, 2, ... preconditions."""
    preds = [f"p{i}" for i in range(distinct)] + ["goal"]
    lines = ["(define (domain twins) (:requirements :strips)",
             "(:predicates " + " ".join(f"({p})" for p in preds) + ")"]
    for k in range(copies):
        pre = [f"(p{i})" for i in range(3)]
        pre = pre[k % 3:] + pre[:k % 3]
        lines.append(f"(:action reach-{k} :parameters () :precondition (and {' '.join(pre)}) :effect (goal))")
    for i in range(distinct):
        pre = " ".join(f"(p{j})" for j in range(i + 1))
        lines.append(f"(:action a{i} :parameters () :precondition (and {pre}) :effect (and (not (p{i})) "
                     f"(p{(i + 1) % distinct})))")
    return "\n".join(lines) + ")"


def test_twins_are_paired_without_individualising_them_one_by_one():
    """30 actions alike a side: no refinement tells them apart, and individualising them a pair at a time
    took a refinement each (psr small's 8,337 alike: 32 s); refined as one node (their number in its colour)
    they need no individualisation and are paired in order."""
    text = _twins(30, 12)
    reference, copy = parse_domain(text), parse_domain(rename_all(text, seed=2)[0])
    last = colours.discrete(copy, reference, limit=0)
    assert last is not None
    assert len(set(last.actions_l.values())) == len(last.actions_l) == 42
    assert sorted(last.actions_l.values()) == sorted(last.actions_r.values())


def test_a_domain_of_twins_and_its_renamed_copy_need_no_search(monkeypatch):
    """More twins than `INDIVIDUALISE` allowed individualisations before (80 and 64)."""
    text = _twins(80, 12)
    reference, copy = parse_domain(text), parse_domain(rename_all(text, seed=2)[0])
    assert decompose.free_pairs(copy, reference, True) >= decompose.MIN_PAIRS
    monkeypatch.setattr(driver, "_best_renaming", _no_search)
    r = compare(copy, reference, rename=True, time_limit=120)
    proven_a_renaming(r, 92)


def test_twins_of_unequal_numbers_are_no_renaming():
    """One twin fewer on the learned side: no one-to-one colours (the number of twins is in their colour)."""
    reference, learned = parse_domain(_twins(30, 12)), parse_domain(rename_all(_twins(29, 12), seed=2)[0])
    assert colours.discrete(learned, reference) is None


def test_the_metric_program_matches_the_best_renaming_once():
    """With metric mode `best` the metric mapping is the best renaming: its matches are grounded once (under
    `best`), and only the metric mapping's counts are made (9,400 grounded actions: every literal was matched
    twice and counted 22 times)."""
    from amlasp.asp.run import solve_once
    text = _generated(24, seed=2)
    reference, copy = parse_domain(text), parse_domain(rename_all(text, seed=2)[0])
    d = decompose.direct(copy, reference, True)
    assert d is not None
    program = "\n".join([driver.domain_facts(copy, LEARNED), driver.domain_facts(reference, REF),
                         Structure(copy, LEARNED).facts(), Structure(reference, REF).facts(),
                         driver.encoding("types"), driver.encoding("compare"), driver.encoding("edit"),
                         "rename. phase(metrics). metric_mode(best). mapping(best). given.", d.facts()])
    atoms = solve_once([program], shown=False)
    by = {(s.name, str(s.arguments[0])) for s in atoms if s.arguments}
    assert ("umatch", "best") in by and ("tp", "metric") in by and ("n_ref", "metric") in by
    assert not by & {("umatch", "metric"), ("amatch", "metric"), ("tp", "best"), ("n_ref", "best"), ("fp", "best"),
                     ("tn", "best")}
