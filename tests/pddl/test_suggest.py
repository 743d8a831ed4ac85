"""Typos in PDDL keywords are named with the keyword they were meant to be (issue 10), at the
typo's own line and column: `typo.pddl:13:7: unknown action key ':precondtion' (did you mean
:precondition?)`, where the parser alone said `typo.pddl:30: PDDL syntax error`."""

from __future__ import annotations

import re

import pytest

from amlasp.errors import InputError
from amlasp.pddl.parse import parse_domain, parse_problem
from amlasp.pddl.suggest import did_you_mean
from tests.support.paths import EXAMPLES

DOMAIN = (EXAMPLES / "blocksworld" / "domain.pddl").read_text()
PROBLEM = (EXAMPLES / "blocksworld" / "problem.pddl").read_text()


def _position(text: str, needle: str) -> str:
    """`line:col` (1-based) of the first `needle` in `text`."""
    before = text[:text.index(needle)]
    return f"{before.count(chr(10)) + 1}:{len(before) - (before.rfind(chr(10)) + 1) + 1}"


@pytest.mark.parametrize("good,typo,message", [
    (":precondition", ":precondtion", "unknown action key ':precondtion' (did you mean :precondition?)"),
    (":effect", ":efect", "unknown action key ':efect' (did you mean :effect?)"),
    ("(:predicates", "(:predicats", "unknown section ':predicats' (did you mean :predicates?)"),
    ("(:action pick_up", "(:acton pick_up", "unknown section ':acton' (did you mean :action?)"),
    ("(clear ?x)", "(clera ?x)", "undefined predicate 'clera' (did you mean clear?)"),
    ("(and (clear ?x)", "(adn (clear ?x)", "undefined predicate 'adn' (did you mean and?)"),
])
def test_a_typo_is_named_at_its_line_with_the_keyword_it_was_meant_to_be(good, typo, message):
    text = DOMAIN.replace(good, typo, 1)
    with pytest.raises(InputError) as e:
        parse_domain(text, "typo.pddl")
    assert str(e.value) == f"typo.pddl:{_position(text, typo.lstrip('('))}: {message}"


def test_a_word_far_from_every_keyword_gets_the_list_instead():
    with pytest.raises(InputError,
                       match=r"unknown action key ':cost' \(expected :parameters, :precondition or :effect\)"):
        parse_domain(DOMAIN.replace(":effect", ":cost", 1), "d.pddl")


def test_a_problem_section_typo():
    text = PROBLEM.replace("(:goal", "(:gaol")
    with pytest.raises(InputError, match=re.escape("unknown section ':gaol' (did you mean :goal?)")):
        parse_problem(text, parse_domain(DOMAIN, "d.pddl"), "p.pddl")


def test_a_requirement_typo_is_a_warning_with_the_requirement_it_was_meant_to_be():
    d = parse_domain(DOMAIN.replace(":strips", ":strips :typng", 1), "d.pddl")
    assert "unknown requirement :typng (did you mean :typing?) (ignored)" in d.warnings


def test_suggestions_come_from_difflib_and_only_when_close():
    assert did_you_mean(":precondtion", [":parameters", ":precondition", ":effect"]) == " (did you mean :precondition?)"
    assert did_you_mean(":cost", [":parameters", ":precondition", ":effect"]) == ""
    assert did_you_mean("AND", ["and", "or"]) == ""  # the same word (case-insensitive PDDL) is no typo
