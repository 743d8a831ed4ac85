"""amlasp/pddl/writer.py: `to_pddl` and `problem_to_pddl` are the inverses of the parser on the model.

Every domain and problem shipped (benchmarks/, tests/data, ACPBench's items, examples/) is written
and read back to the same model; and a typed list that starts with `object` reaches Fast Downward
with its `object` (once written `?o ?r - receptacle`, which makes `?o` a receptacle).
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import pytest

from amlasp.errors import InputError
from amlasp.external.fast_downward import PlannerStatus, plan_with_fast_downward
from amlasp.external.planner_task import planner_task
from amlasp.model import Domain, Problem
from amlasp.pddl.parse import load_domain, load_problem, parse_domain, parse_problem
from amlasp.pddl.writer import problem_to_pddl, to_pddl
from tests.support import acpbench
from tests.support.examples import ADL, REGISTRY
from tests.support.ipc import DOMAINS, HANDMADE, NOLAM, reference
from tests.support.paths import DATA, EXAMPLES, ROOT

STATES = ROOT / "benchmarks" / "states"


def norm(d: Domain) -> Domain:
    """The domain up to what the text cannot carry: its file name and source lines (warnings never compare)."""
    return replace(d, file=None, actions=tuple(replace(a, line=None) for a in d.actions),
                   derived=tuple(replace(r, line=None) for r in d.derived))


def same_domain(d: Domain) -> None:
    assert norm(parse_domain(to_pddl(d), "w.pddl")) == norm(d), d.file


def same_problem(p: Problem, d: Domain) -> None:
    assert replace(parse_problem(problem_to_pddl(p), d, "w.pddl"), file=None) == replace(p, file=None), p.file


def problems_of(name: str) -> list[Path]:
    """Every shipped problem of an IPC domain: benchmarks' learning, solving and states problems,
    and a hand-made one of tests/data/differential (an empty file, which benchmarks/ has, is no problem)."""
    dirs = [ROOT / "benchmarks" / "ipc" / "problems" / k / name for k in ("learning", "solving")]
    files = [f for d in dirs + [STATES / name / "problems"] for f in sorted(d.glob("*.pddl"))]
    return [f for f in files + [HANDMADE / f"{name}.pddl"] if f.exists() and f.stat().st_size > 0]


@pytest.mark.parametrize("domain, problems", [
    ("derived/blocks-above", ["derived/blocks-above-1"]), ("derived/roads", ["derived/roads-1"]),
    ("derived/roads-short", ["derived/roads-1"]), ("derived/guards", ["derived/guards-1"]),
    ("either/domain", ["either/problem"])])
def test_derived_predicates_and_either_types_round_trip(domain, problems):
    d = load_domain(DATA / f"{domain}.pddl")
    same_domain(d)
    for f in problems:
        same_problem(load_problem(DATA / f"{f}.pddl", d), d)


@pytest.mark.parametrize("name", DOMAINS)
def test_every_ipc_domain_and_its_problems_round_trip(name):
    d = load_domain(reference(name))
    same_domain(d)
    for f in problems_of(name):
        same_problem(load_problem(f, d), d)


def test_every_shipped_problem_has_its_domain():
    """The listing above misses no problem of benchmarks/ or tests/data/differential."""
    shipped = {f for f in (ROOT / "benchmarks").rglob("*.pddl") if "problems" in f.parts}
    shipped = {f for f in shipped | set(HANDMADE.glob("*.pddl")) if f.stat().st_size > 0}
    assert shipped == {f for n in DOMAINS for f in problems_of(n)}


@pytest.mark.parametrize("path", sorted(NOLAM.glob("*.pddl")), ids=lambda p: p.stem)
def test_learned_domains_round_trip(path):
    """Negative preconditions and repeated parameters; a learned model that does not read is left out."""
    try:
        d = load_domain(path)
    except InputError:
        pytest.skip("the learned model does not read (a result of solve, not a writer's case)")
    same_domain(d)


ADL_FILES = sorted((HANDMADE / "adl").glob("*-domain.pddl")) + [EXAMPLES / "blocksworld" / "domain.pddl"]


@pytest.mark.parametrize("path", ADL_FILES, ids=lambda p: p.parent.name + "/" + p.stem)
def test_adl_and_example_domains_and_problems_round_trip(path):
    """Quantifiers and conditions (ADL), the example's domain, learned model and problem."""
    d = load_domain(path)
    same_domain(d)
    siblings = [path.with_name(path.name.replace("-domain", "-problem")), path.with_name("problem.pddl")]
    for f in [f for f in siblings if f != path and f.exists()]:
        same_problem(load_problem(f, d), d)
    if path.parent == EXAMPLES / "blocksworld":
        same_domain(load_domain(path.with_name("learned.pddl")))


def test_the_files_of_tests_data_bad_that_read_round_trip():
    """The good pair beside the bad inputs (the bad ones are refused by the reader: nothing to write)."""
    d = load_domain(DATA / "bad" / "domain.pddl")
    same_domain(d)
    same_problem(load_problem(DATA / "bad" / "problem.pddl", d), d)


@lru_cache(maxsize=None)
def _acp_domain(text: str) -> Domain:
    return parse_domain(text, "domain.pddl")


@pytest.mark.parametrize("task", ["app", "prog", "reach", "areach", "val", "just", "land", "nexta"])
def test_acpbench_domains_and_problems_round_trip(task):
    """Every item's PDDL (each domain text once: the items of a domain share it)."""
    seen: set[str] = set()
    for item in acpbench.items(task):
        d = _acp_domain(item["PDDL_domain"])
        if item["PDDL_domain"] not in seen:
            seen.add(item["PDDL_domain"])
            same_domain(d)
        same_problem(parse_problem(item["PDDL_problem"], d, "problem.pddl"), d)


ALFRED = """(define (domain alfredish) (:requirements :strips :typing) (:types receptacle)
  (:predicates (holding ?o - object) (inside ?o - object ?r - receptacle))
  (:action put :parameters (?o - object ?r - receptacle) :precondition (holding ?o)
     :effect (and (inside ?o ?r) (not (holding ?o)))))"""
ALFRED_PROBLEM = """(define (problem p) (:domain alfredish) (:objects box - receptacle apple - object)
  (:init (holding apple)) (:goal (inside apple box)))"""


def test_object_before_a_typed_name_keeps_its_type():
    """ACPBench's alfred: `?o - object ?r - receptacle` written `?o ?r - receptacle` made ?o a receptacle."""
    d = parse_domain(ALFRED)
    p = parse_problem(ALFRED_PROBLEM, d)
    task = planner_task(d, p)
    assert ":parameters (?o - object ?r - receptacle)" in task.domain
    assert "(:objects box - receptacle apple)" in task.problem  # a trailing object stays untyped
    assert parse_domain(task.domain).action("put").parameters == (("?o", "object"), ("?r", "receptacle"))
    same_domain(d)
    same_problem(p, d)


def test_object_parameters_reach_fast_downward():
    """The planner reads `apple` as an object that `put` may take: a plan (before: unified-planning
    refused `(inside apple box)`, apple being no receptacle)."""
    d = parse_domain(ALFRED)
    result = plan_with_fast_downward(d, parse_problem(ALFRED_PROBLEM, d), timeout=60)
    assert result.status == PlannerStatus.PLAN, result.detail
    assert [str(a) for a in result.plan] == ["(put apple box)"]


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_writer_round_trip_on_examples(name):
    """ADL's: constants, subtypes, every connective and quantifier, a forall/when effect."""
    d = REGISTRY[name].domain()
    assert norm(parse_domain(to_pddl(d))) == norm(d)


REQUIREMENTS = {
    "blocksworld": ":strips :typing",
    "flip": ":strips",
    "lamp": ":strips :typing :negative-preconditions :equality",
    "roads": ":strips :typing :negative-preconditions",
    "adl": ":strips :typing :negative-preconditions :disjunctive-preconditions :existential-preconditions "
           ":universal-preconditions :equality :conditional-effects",
}


@pytest.mark.parametrize("name", sorted(REQUIREMENTS))
def test_requirements_are_the_ones_used(name):
    text = to_pddl(REGISTRY[name].domain())
    assert re.search(r"\(:requirements ([^)]*)\)", text).group(1) == REQUIREMENTS[name]


def test_effects_are_written_one_per_flattened_effect():
    """The forall/when of ADL's sweep holds two literals: each is written with its own forall and when."""
    text = to_pddl(ADL.domain())
    assert text.count("(forall (?b - ball) (when (at ?b hall)") == 2
    assert "(forall (?b - ball) (when (at ?b hall) (not (at ?b hall))))" in text


def test_untyped_domain_writes_no_types():
    text = to_pddl(REGISTRY["flip"].domain())
    assert " - " not in text and ":types" not in text


@pytest.mark.parametrize("path", [DATA / "numeric" / "domain.pddl",
                                  *(p for p in sorted((DATA / "wild").glob("*/*.pddl"))
                                    if "(:functions" in p.read_text().lower() and "(:derived" not in p.read_text())],
                         ids=lambda p: p.stem)
def test_numeric_domains_round_trip(path):
    """Numeric fluents (read for compare) and action costs are written back: functions, comparisons, numeric
    effects, cost effects."""
    d = load_domain(path, numeric_fluents=True)
    text = to_pddl(d)
    assert (":numeric-fluents" in text or d.action_costs) and (d.functions == () or "(:functions" in text)
    assert norm(parse_domain(text, "w.pddl", numeric_fluents=True)) == norm(d)
