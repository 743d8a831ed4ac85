"""amlasp/pddl: derived predicates (issue 21) read into `Domain.derived`, and refused at their token where
PDDL forbids them: in an effect, in an initial state or a state given as input, an undeclared or
misused head, and negation that is not stratified."""

from __future__ import annotations

from dataclasses import replace

import pytest

from amlasp.errors import InputError
from amlasp.model import And, Atom, Derived, Exists, Imply, Not, Or
from amlasp.pddl.parse import load_domain, parse_domain, parse_problem
from amlasp.pddl.states import parse_literal, parse_state
from amlasp.pddl.writer import to_pddl
from tests.support.paths import DATA

BLOCKS = DATA / "derived" / "blocks-above.pddl"
GUARDS = DATA / "derived" / "guards.pddl"


def test_rules_are_read_with_their_predicates_and_lines():
    d = load_domain(BLOCKS)
    assert d.derived == (Derived("above", (("?x", "block"), ("?y", "block")), Or((
        Atom("on", ("?x", "?y")),
        Exists((("?z", "block"),), And((Atom("on", ("?x", "?z")), Atom("above", ("?z", "?y"))))))), 7),)
    assert d.derived_predicates() == {"above"} and "above" not in d.static_predicates()
    assert d.predicate("above") is not None and d.warnings == ()
    g = load_domain(GUARDS)
    assert [r.predicate for r in g.derived] == ["threatened", "safe", "alarm"]
    assert g.derived[1].body == And((Not(Atom("threatened", ("?r",))),
                                     Imply(Atom("intruder", ("?r",)), Atom("guarded", ("?r",)))))


def test_the_writer_writes_the_rules_back():
    for path in (BLOCKS, GUARDS, DATA / "derived" / "roads.pddl"):
        d = load_domain(path)
        again = parse_domain(to_pddl(d), "again.pddl")
        assert [replace(r, line=None) for r in again.derived] == [replace(r, line=None) for r in d.derived]
        assert ":derived-predicates" in to_pddl(d)


def test_a_missing_requirement_is_said():
    text = BLOCKS.read_text().replace(":derived-predicates ", "")
    assert any(":derived-predicates is used (line 7)" in w for w in parse_domain(text, "d.pddl").warnings)


def _refused(text: str, where: str, message: str) -> None:
    with pytest.raises(InputError, match=f"^{where}: {message}"):
        parse_domain(text, "d.pddl")


def test_a_derived_predicate_in_an_effect_is_refused_at_it():
    text = BLOCKS.read_text().replace("(not (handempty)) (holding ?x)))", "(not (handempty)) (above ?x ?x)))", 1)
    _refused(text, "d.pddl:10:71", "derived predicate 'above' in an effect")
    text = BLOCKS.read_text().replace("(not (handempty)) (holding ?x)))", "(when (clear ?x) (not (above ?x ?x)))))", 1)
    _refused(text, "d.pddl:10:75", "derived predicate 'above' in an effect")


def test_unstratified_negation_is_refused_at_the_negative_use():
    text = GUARDS.read_text().replace("(or (intruder ?r) (exists", "(or (and (intruder ?r) (not (alarm))) (exists")
    _refused(text, r"d.pddl:11:33", "derived predicate 'threatened' depends on the negation of 'alarm', which "
                                    "depends on 'threatened': negation of derived predicates must be stratified")
    direct = BLOCKS.read_text().replace("(or (on ?x ?y)", "(or (not (above ?y ?x))")
    _refused(direct, r"d.pddl:7:44", "derived predicate 'above' depends on the negation of 'above'")


def test_recursion_through_positive_atoms_is_accepted():
    load_domain(DATA / "derived" / "roads.pddl")  # connected from connected twice


@pytest.mark.parametrize("old, new, where, message", [
    ("(:derived (above ?x ?y - block)", "(:derived (abovee ?x ?y - block)", "d.pddl:7:13",
     r"derived predicate 'abovee' is not declared in :predicates \(did you mean above\?\)"),
    ("(:derived (above ?x ?y - block)", "(:derived (above ?x - block)", "d.pddl:7:13",
     r"predicate 'above' takes 2 argument\(s\), 1 given"),
    ("(:derived (above ?x ?y - block)", "(:derived (above ?x ?x - block)", "d.pddl:7:22",
     r"variable '\?x' declared twice in the head of derived predicate 'above'"),
    ("(exists (?z - block) (and (on ?x ?z)", "(exists (?z - block) (and (on ?x ?w)", "d.pddl:7:82",
     r"undeclared variable '\?w'"),
    ("(:derived (above ?x ?y - block) (or", "(:derived (above ?x ?y - block) (when", "d.pddl:7:34",
     "'when' is an effect, not a condition"),
])
def test_a_malformed_rule_is_refused_at_its_token(old, new, where, message):
    text = BLOCKS.read_text()
    assert old in text
    _refused(text.replace(old, new), where, message)


def test_a_derived_atom_in_a_state_is_refused_but_allowed_in_a_goal():
    d = load_domain(BLOCKS)
    base = "(define (problem p) (:domain bw-derived) (:objects a b - block) (:init (on a b) {extra}) (:goal {goal}))"
    p = parse_problem(base.format(extra="", goal="(and (above a b) (not (above b a)))"), d, "p.pddl")
    assert [str(l) for l in p.goal] == ["(above a b)", "(not (above b a))"]
    with pytest.raises(InputError, match="p.pddl:1:82: derived predicate 'above' in a state"):
        parse_problem(base.format(extra="(above a b)", goal="(and)"), d, "p.pddl")
    with pytest.raises(InputError, match="derived predicate 'above' in a state"):
        parse_state("(on a b) (above a b)", d, p)
    assert str(parse_literal("(not (above b a))", d, p)) == "(not (above b a))"
