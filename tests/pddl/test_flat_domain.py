"""pddl/flat_domain.py: a domain whose actions are of the common shape, read without positions, is the Domain
the passes read (its actions' lines and costs too), and every text the passes refuse or warn about is left to
them (same error, same warnings)."""

from __future__ import annotations

import re
import subprocess

import pytest

from amlasp.errors import InputError
from amlasp.pddl import flat_domain
from amlasp.pddl.parse import parse_domain, plain_domain
from amlasp.pddl.source import read_text
from tests.support import fast_path
from tests.support.paths import ROOT

BIG = ROOT / "benchmarks" / "ipc_big" / "organic-synthesis-split" / "domain.pddl"


def outcome(text: str, fast: bool, monkeypatch) -> tuple:
    """What `parse_domain` gives with the fast path or without: the Domain (with its warnings, its actions'
    lines and costs) or the error, and the warnings said."""
    def read() -> tuple:
        d = parse_domain(text, "d.pddl")
        return d, d.warnings, [a.line for a in d.actions], [a.cost for a in d.actions]
    return fast_path.outcome(read, fast, flat_domain, "read_domain", monkeypatch)


def takes_fast_path(text: str) -> bool:
    return plain_domain(text, "d.pddl") is not None


def domains() -> list:
    files = subprocess.run(["git", "ls-files", "*.pddl"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    out = []
    for f in files:
        try:
            text = read_text(ROOT / f)
        except InputError:  # binary, not UTF-8: never a text to read
            continue
        if re.search(r"\(\s*define\s*\(\s*domain", text, re.I):
            out.append((f, text))
    return out


def test_every_domain_of_the_repository(monkeypatch):
    """Both ways give the same Domain (or error), warnings and lines; the plain ones take the fast path."""
    fast = 0
    found = domains()
    assert len(found) > 250
    for f, text in found:
        assert outcome(text, True, monkeypatch) == outcome(text, False, monkeypatch), f
        fast += takes_fast_path(text)
    assert fast > 80  # the IPC domains of the common shape, ACPBench's, most of the LLMs' that read


# Edits of a small cost domain of the common shape: each either is read here to the passes' Domain, or is left
# to the passes (an error or a warning they give).
BASE = """; a comment with (:action inside) it
(define (domain d)
  (:requirements :strips :typing :negative-preconditions :equality :action-costs)
  (:types block - object table)
  (:constants t1 - table)
  (:predicates (on ?x - block ?y - block) (clear ?x - block) (free) (at ?b - block ?t - table))
  (:functions (total-cost) - number)
  (:action pick
    :parameters (?x ?y - block)
    :precondition (and (on ?x ?y) (not (clear ?y)) (not (= ?x ?y)) (free) (at ?x t1) (free))
    :effect (and (clear ?y) (not (on ?x ?y)) (increase (total-cost) 3) (not (free))))
  ; between actions
  (:action drop :parameters () :precondition (free) :effect (increase (total-cost) 2.5))
  (:action noop :parameters (?b - block) :precondition (and) :effect (and)))
"""

EDITS = [
    ("", ""),
    ("(on ?x ?y) (not", "(on ?x ?y ?x) (not"),  # wrong arity
    ("(free) (at", "(fre) (at"),  # undefined predicate
    ("(at ?x t1)", "(at ?x t2)"),  # unknown constant
    ("(at ?x t1)", "(at ?z t1)"),  # undeclared variable
    ("(?x ?y - block)", "(?x ?x - block)"),  # a parameter twice
    ("(?x ?y - block)", "(?x ?y- block)"),  # a glued dash
    ("(?x ?y - block)", "(?x ?y - blok)"),  # undeclared type
    ("(?x ?y - block)", "(?x ?y - (either block table))"),
    ("action drop", "action pick"),  # an action twice
    ("action drop", "action clear"),  # an action named as a predicate
    ("action drop", "action Clear"),
    ("action drop", "action dr*p"),
    (":negative-preconditions ", ""),  # a feature used without its requirement
    (":equality ", ""),
    (":typing ", ""),
    ("(increase (total-cost) 3)", "(increase (total-cost) -3)"),
    ("(increase (total-cost) 3)", "(increase (total-cost) 3) (increase (total-cost) 1)"),
    ("(increase (total-cost) 3)", "(increase (total-cost) x)"),
    ("(increase (total-cost) 3)", "(increase (total-cost) (+ 1 2))"),
    ("(:functions (total-cost) - number)", ""),  # a cost without the function
    ("(not (free))))", "(not (free)) (and (free))))"),  # nested and in an effect
    ("(not (free))))", "(not (free)) (= ?x ?y)))"),  # equality as an effect
    ("(not (free))))", "(not (free)) (when (free) (free))))"),
    (":precondition (free)", ":precondition (or (free) (free))"),
    (":precondition (free)", ""),  # a key missing
    (":parameters () :precondition (free)", ":precondition (free) :parameters ()"),  # keys out of order
    ("(and) :effect (and)))", "(and) :effect (and))) (extra)"),  # after the define
    ("(and) :effect (and)))", "(and) :effect (and))"),  # unbalanced
    ("(and) :effect (and)))", "(and) :effect (and)) (:derived (free) (and)))"),
    ("(:types", "(:typo"),
    ("(:requirements :strips", "(:requirements :strips :fancy"),
    ("(define (domain d)", "(define (domain d)\n(:requirements :strips)"),  # two requirement sections
    (":precondition (and (on", ":precondition (and ( on"),  # spacing
    ("\n", "\r\n"),  # CRLF line ends
    ("(free) (at ?x t1)", "(free) (at ?x t1) ; a comment (not (free))\n"),
]


@pytest.mark.parametrize("old,new", EDITS)
def test_edits_read_as_the_passes_read_them(old, new, monkeypatch):
    text = BASE.replace(old, new, 1) if old else BASE
    assert outcome(text, True, monkeypatch) == outcome(text, False, monkeypatch)


def test_the_common_shape_takes_the_fast_path():
    assert takes_fast_path(BASE) and takes_fast_path(read_text(BIG))
    assert not takes_fast_path(BASE.replace(":negative-preconditions ", ""))


def test_a_big_domains_actions_and_lines(monkeypatch):
    got, said = outcome(read_text(BIG), True, monkeypatch)
    assert not said and len(got[0].actions) == 1252 and got == outcome(read_text(BIG), False, monkeypatch)[0]
