"""amlasp/pddl/writer.py: `to_pddl` is the inverse of the parser on the normalised model."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from amlasp.model import Domain
from amlasp.pddl.parse import load_domain, parse_domain
from amlasp.pddl.writer import to_pddl

from tests.support.examples import ADL, REGISTRY
from tests.support.ipc import ADL as ADL_DOMAINS, DOMAINS, HANDMADE, LEARNED, NOLAM, reference


def norm(d: Domain) -> Domain:
    """The domain up to what the text cannot carry: its file name and source lines."""
    return replace(d, file=None, actions=tuple(replace(a, line=None) for a in d.actions))


@pytest.mark.parametrize("name", DOMAINS)
def test_writer_round_trip_on_all_domains(name):
    d = load_domain(reference(name))
    assert norm(parse_domain(to_pddl(d), "w.pddl")) == norm(d), name


@pytest.mark.parametrize("path", [NOLAM / f"{n}.pddl" for n in LEARNED if n != "childsnack"]
                         + [HANDMADE / "adl" / f"{n}-domain.pddl" for n in ADL_DOMAINS], ids=lambda p: p.stem)
def test_writer_round_trip_on_learned_and_adl_domains(path):
    """Negative preconditions and repeated parameters (learned), quantifiers and conditions (ADL)."""
    d = load_domain(path)
    assert norm(parse_domain(to_pddl(d), "w.pddl")) == norm(d)


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
