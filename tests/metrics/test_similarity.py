"""Behavioural similarity (metrics/similarity.py): proofs where diff exhausts the reachable space,
seeded walks judged as an independent oracle judges them, plan sets."""

from __future__ import annotations

import random

from amlasp.experiments.perturb import perturb
from amlasp.metrics.similarity import similarity, translations
from amlasp.pddl.parse import load_domain, load_problem
from amlasp.pddl.writer import to_pddl
from amlasp.questions.walks import random_walks
from tests.support.paths import EXAMPLES, IPC
from tests.support.strips import Strips
from tests.support.up import up_problem

BW = IPC / "domains" / "blocksworld.pddl"
PROBS = IPC / "problems" / "learning" / "blocksworld"


def _weakened(tmp_path):
    """Blocksworld with preconditions dropped: it allows more than the reference."""
    ref = load_domain(BW)
    f = tmp_path / "gen.pddl"
    f.write_text(to_pddl(perturb(ref, 3, drop=3).domain))
    return f


def test_the_same_domain_is_proven_equivalent_without_sampling():
    r = similarity(BW, BW, [PROBS / "0_blocksworld_prob.pddl", PROBS / "1_blocksworld_prob.pddl"], walks=5)
    assert all(p.proven_equivalent for p in r.problems)
    assert r.summary()["ew_mean"] == 1.0 and r.summary()["plans_gen_valid_in_ref"] == 1.0


def test_walks_are_deterministic_for_a_seed_and_judged_as_the_oracle_judges(tmp_path):
    gen_file = _weakened(tmp_path)
    prob = PROBS / "2_blocksworld_prob.pddl"
    a = similarity(gen_file, BW, prob, walks=30, length=8, seed=5)
    b = similarity(gen_file, BW, prob, walks=30, length=8, seed=5)
    assert a.records() == b.records()
    (p,) = a.problems
    assert not p.proven_equivalent and p.ew_gen_in_ref < 1.0 and p.prefix_gen_in_ref >= p.ew_gen_in_ref
    # the same walks (same generators), judged by unified-planning's grounding searched here
    gen = load_domain(gen_file)
    gp = load_problem(prob, gen)
    walks = random_walks(gen, gp, frozenset(gp.init), [8] * 30, [random.Random(f"5:0:gen:{i}") for i in range(30)])
    strips = Strips(up_problem(BW.read_text(), prob.read_text()))
    ok = 0
    for w in walks:
        s = strips.init
        for act in w.actions:
            nxt = dict(strips.successors(s)).get(act)
            if nxt is None:
                break
            s = nxt
        else:
            ok += 1
    assert p.ew_gen_in_ref == ok / 30


def test_another_seed_gives_other_walks(tmp_path):
    gen_file = _weakened(tmp_path)
    prob = PROBS / "2_blocksworld_prob.pddl"
    runs = {similarity(gen_file, BW, prob, walks=20, length=8, seed=s).problems[0].prefix_gen_in_ref
            for s in range(4)}
    assert len(runs) > 1


def test_walks_are_translated_by_the_best_renaming():
    """examples/llm's generated blocksworld takes stack's parameters in the other order and forgets one
    precondition: every reference walk runs in it (translated), not every one of its walks in the reference."""
    gen = EXAMPLES / "llm" / "generated_domain.pddl"
    forward, backward = translations(load_domain(gen), load_domain(BW))
    assert forward["stack"] == ("stack", (1, 0)) and backward["stack"] == ("stack", (1, 0))
    assert forward["pick_up"] == ("pick_up", (0,))
    r = similarity(gen, BW, PROBS / "0_blocksworld_prob.pddl", walks=40, seed=2)
    (p,) = r.problems
    assert p.ew_ref_in_gen == 1.0 and p.plans_ref_valid_in_gen == 1.0
    assert p.ew_gen_in_ref < 1.0 and not p.proven_equivalent
