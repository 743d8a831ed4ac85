"""pddl/flat.py: a problem of the common shape read without positions is the Problem the passes read, and
every text the passes refuse or warn about is left to them (same error, same warnings)."""

from __future__ import annotations

from pathlib import Path

import pytest

from amlasp.errors import InputError
from amlasp.pddl import flat, parse
from amlasp.pddl.parse import load_domain, parse_domain, parse_problem
from amlasp.pddl.source import read_text
from tests.support import fast_path
from tests.support.paths import DATA, IPC, ROOT


def outcome(text: str, domain, fast: bool, monkeypatch) -> tuple:
    """What `parse_problem` gives with the fast path or without: the Problem or the error, and the warnings."""
    return fast_path.outcome(lambda: parse_problem(text, domain, "p.pddl"), fast, flat, "read_problem", monkeypatch)


def pairs() -> list[tuple[Path, Path]]:
    """Every (domain, problem) file pair of the repository's benchmarks and test data."""
    out = [(d, p) for d in sorted((IPC / "domains").glob("*.pddl"))
           for kind in ("learning", "solving") for p in sorted((IPC / "problems" / kind / d.stem).glob("*.pddl"))]
    out += [(f / "domain.pddl", f / "problem.pddl") for f in sorted((ROOT / "benchmarks" / "ipc_big").iterdir())
            if (f / "problem.pddl").exists()]
    for folder in [*sorted((DATA / "costs").iterdir()), *sorted((DATA / "goals").iterdir()), DATA / "either"]:
        if (folder / "domain.pddl").exists():
            out += [(folder / "domain.pddl", p) for p in sorted(folder.glob("*.pddl")) if p.name != "domain.pddl"]
    return out


def test_every_problem_of_the_repository(monkeypatch):
    """Both ways give the same Problem (or error and warnings); the plain IPC problems take the fast path."""
    domains: dict[Path, object] = {}
    fast = 0
    checked = 0
    for d, p in pairs():
        if d not in domains:
            try:
                domains[d] = load_domain(d)
            except InputError:
                domains[d] = None
        if domains[d] is None:
            continue
        text = read_text(p)
        assert outcome(text, domains[d], True, monkeypatch) == outcome(text, domains[d], False, monkeypatch), p
        fast += flat.read_problem(text, domains[d], str(p)) is not None
        checked += 1
    assert checked > 400 and fast > 300, (checked, fast)


DOMAIN = """(define (domain blocks)
  (:requirements :strips :typing)
  (:types block - thing ball - thing)
  (:constants table - thing)
  (:predicates (on ?x - block ?y - thing) (ontable ?x - block) (clear ?x - thing) (hand-empty)
               (at ?x - thing ?y - thing))
  (:action pick :parameters (?x - block) :precondition (and (clear ?x) (hand-empty))
    :effect (and (not (clear ?x)) (not (hand-empty)))))"""

GOOD = """; a comment
(define (problem two)
  (:domain blocks)
  (:objects a b start - block c - ball d)
  (:init (ontable a) (ontable b) (clear a) (clear b) (hand-empty) (clear table) (on a table))
  (:goal (and (on a b) (not (clear b)) (and (clear a)))))"""

#: Each a change of GOOD that the passes refuse, warn about, or read with something flat.py leaves to them.
CHANGES = [
    ("(clear a) (clear b)", "(clear a b) (clear b)"), ("(ontable a)", "(ontable c)"), ("(ontable a)", "(ontable z)"),
    ("(ontable a)", "(onntable a)"), ("(hand-empty)", "(not (clear c)) (hand-empty)"), ("(hand-empty)", "(= a a)"),
    ("a b start - block", "a b start a - block"), ("a b start - block", "a b start b_2 b-2 - block"),
    ("c - ball", "c - sphere"), ("c - ball", "c - (either ball block)"), ("c - ball", "c- ball"),
    ("c - ball", "c -ball"), ("c - ball", "c -"), ("(:domain blocks)", "(:domain other)"),
    ("(:domain blocks)", "(:domain BLOCKS)"), ("(:domain blocks)", ""), ("(problem two)", "(problem 2)"),
    ("(problem two)", "(problem and)"), ("(:goal", "(:requirements :strips) (:goal"),
    ("(:goal", "(:metric minimize (total-cost)) (:goal"), ("(on a b)", "(on ?x b)"), ("(on a b)", "(= a b)"),
    ("(on a b)", "(exists (?x - block) (on ?x b))"), ("(not (clear b))", "(not (clear b) (clear a))"),
    ("(on a b)", "(on a (b))"), ("(:goal (and", "(:goal (and) (and"), ("two)", "two"), ("two)", "two)))"),
    ("(hand-empty)", "(hand-empty) (HandEmpty)"), ("(on a b)", "(at start a)"), ("(on a b)", "(at a b)"),
    ("(on a b)", "(on a b) ()"), ("a b start - block", "a b start object - block"), ("d)", "d table)"),
    ("d)", "d tablE)"), ("d)", "d pick)"), ("d)", "d hand_empty)"), ("d)", "d Hand-Empty)"),
    ("(ontable a)", "(ontable a\xe9)"), ("(ontable a)", "(ontable a)\x01"),
    ("(:goal (and (on a b) (not (clear b)) (and (clear a))))", "(:goal)"), ("; a comment", "```pddl"),
    ("(:init", "(:init)(:init"), ("(:objects", "(:objects) (:objects"),
]


@pytest.mark.parametrize("old,new", CHANGES)
def test_what_the_passes_say_is_said(old, new, monkeypatch):
    domain = parse_domain(DOMAIN)
    assert old in GOOD
    text = GOOD.replace(old, new, 1)
    assert outcome(text, domain, True, monkeypatch) == outcome(text, domain, False, monkeypatch)


def test_the_common_shape_is_read_fast(monkeypatch):
    domain = parse_domain(DOMAIN)
    problem = flat.read_problem(GOOD, domain, "p.pddl")
    assert problem is not None
    assert outcome(GOOD, domain, False, monkeypatch) == (problem, [])
    monkeypatch.setattr(parse.sexpr, "read", None)  # the passes' reader is not asked
    assert parse_problem(GOOD, domain, "p.pddl") == problem
