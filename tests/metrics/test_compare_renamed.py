"""`compare` is invariant under renaming: each domain of tests/data/ipc_adl/ (IPC domains with
quantifiers, `or`, `imply`, conditional effects, derived predicates, numeric fluents) against a copy
of itself with EVERY predicate, function, action, variable and type given a random name
(tests/support/renaming.py, on the text) has edit distance 0 and F1 1, and every name is mapped.
Before issue 31 (item 7) each of them cost 2 to 22 edits: types inside quantifiers were compared as
written, `and`/`or` operands inside formulas were ordered by their names, and a quantifier's variables
are read sorted by name."""

from __future__ import annotations

from pathlib import Path

import pytest

from amlasp.metrics.compare import compare
from amlasp.pddl.parse import parse_domain
from tests.support.paths import DATA
from tests.support.renaming import rename_all

FILES = sorted((DATA / "ipc_adl").glob("*.pddl"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_a_fully_renamed_copy_is_at_distance_zero_with_f1_one(path: Path):
    text = path.read_text(encoding="utf-8-sig")
    copy_text, maps = rename_all(text, seed=1)
    reference = parse_domain(text, str(path), numeric_fluents=True)
    copy = parse_domain(copy_text, f"renamed {path.name}", numeric_fluents=True)
    r = compare(copy, reference, rename=True, time_limit=120)
    s = r.summary()
    assert r.optimal and r.edit_distance == 0, r.edits
    assert s["f1_macro"] == s["f1_cumulative"] == s["similarity"] == 1.0
    # (not `action_accuracy`: a parameter whose type differs by name counts in d par, docs/compare.md)
    # every name is mapped (not necessarily back to itself: crew-planning's done_meal and done_exercise
    # play the same roles, so swapping them is a renaming at distance 0 as well)
    assert len(r.predicate_mapping) == len(reference.predicates) == len(maps["p"])
    assert len(r.action_mapping) == len(reference.actions) + len(reference.derived)


def test_the_files_use_what_a_renaming_reorders():
    texts = [p.read_text(encoding="utf-8-sig").lower() for p in FILES]
    assert len(FILES) == 16
    assert sum("(forall" in t or "(exists" in t for t in texts) >= 14
    assert sum("(or" in t or "(imply" in t for t in texts) >= 8
    assert sum("(:derived" in t for t in texts) >= 3 and sum("(:functions" in t for t in texts) >= 2


# ---------------------------------------------------------------- each cause, on a small domain

DOMAIN = """(define (domain d) (:requirements :adl)
  (:types heavy light - thing room)
  (:predicates (a ?x - thing) (b ?x - thing) (at ?x - thing ?r - room) (on ?x - thing ?y - thing ?r - room))
  (:action act :parameters (?x - thing ?r - room)
    :precondition (and (or (a ?x) (b ?x)) (exists (?t - heavy) (at ?t ?r)))
    :effect (and (a ?x) (not (b ?x))
                 (forall (?p - light ?q - heavy) (when (at ?q ?r) (on ?p ?q ?r))))))"""


def _distance(learned: str, reference: str = DOMAIN) -> int:
    return compare(parse_domain(learned), parse_domain(reference), rename=True, time_limit=60).edit_distance


def test_the_operands_of_or_are_matched_as_a_set():
    # a → zb and b → za: the operands of the `or` change their order by name (2 edits before)
    copy = DOMAIN.replace("(a ", "(zb ").replace("(b ", "(za ")
    assert _distance(copy) == 0


def test_a_quantifier_s_types_are_compared_by_compatibility_not_by_name():
    # `thing` is a parent of `heavy` in both models: compatible, so no edit (2 before, as for any other
    # renamed type); an unrelated type of both models is not
    assert _distance(DOMAIN.replace("(exists (?t - heavy)", "(exists (?t - thing)")) == 0
    assert _distance(DOMAIN.replace("(exists (?t - heavy)", "(exists (?t - room)")) == 2


def test_bound_variables_are_matched_whatever_their_names():
    # ?p ?q read as (?p ?q) but ?z ?a as (?a ?z): ordered by where they occur instead (2 edits before)
    copy = DOMAIN.replace("?p", "?z").replace("?q", "?a")
    assert _distance(copy) == 0


def test_operands_match_as_a_set_both_ways():
    # both operands of the learned `or` match the reference's first one (the same conjunction in
    # another order), and none matches its second: the formula is removed and added
    learned = DOMAIN.replace("(or (a ?x) (b ?x))", "(or (and (a ?x) (b ?x)) (and (b ?x) (a ?x)))")
    reference = DOMAIN.replace("(or (a ?x) (b ?x))", "(or (and (a ?x) (b ?x)) (and (a ?x) (at ?x ?r)))")
    assert _distance(learned, reference) == 2
    assert _distance(reference.replace("(a ?x) (b ?x))", "(b ?x) (a ?x))"), reference) == 0


def test_models_that_share_no_name_are_compared_under_the_renaming_and_say_so(tmp_path):
    """A paper cut: with no action or predicate name shared (an LLM's names), metrics by name called every
    action missing (F1 0) beside edits 0; compare now uses the best renaming itself, and says so."""
    from amlasp.metrics.compare.driver import NO_SHARED_NAMES
    from tests.support.cli import run
    from tests.support.paths import EXAMPLES
    from tests.support.renaming import rename_all
    text, _ = rename_all((EXAMPLES / "blocksworld" / "domain.pddl").read_text(), seed=3)
    other = tmp_path / "other.pddl"
    other.write_text(text)
    r = compare(other, EXAMPLES / "blocksworld" / "domain.pddl")
    assert r.rename and r.mode == "best" and NO_SHARED_NAMES in r.notes
    assert r.edit_distance == 0 and all(a.learned is not None for a in r.actions)
    assert r.summary()["f1_cumulative"] == 1.0 and r.summary()["missing_actions"] == 0
    out = run("compare", other, EXAMPLES / "blocksworld" / "domain.pddl")
    assert out.exit_code == 0 and "(missing)" not in out.stdout and "share no action" in out.stdout
    same = compare(EXAMPLES / "blocksworld" / "learned.pddl", EXAMPLES / "blocksworld" / "domain.pddl")
    assert not same.rename and NO_SHARED_NAMES not in same.notes  # names shared: matched by name, as before
