"""amlasp/pddl/unwrap.py: a definition inside a language model's answer (a Markdown code fence, a sentence
before or after it) is read with one warning, at the answer's first word; what has PDDL in it stays the
error it was, at its place; a clean file is read as it is, with no warning."""

from __future__ import annotations

import warnings
from dataclasses import replace

import pytest

from amlasp.errors import InputError, InputWarning
from amlasp.pddl.parse import parse_domain, parse_problem
from amlasp.pddl.unwrap import unwrap
from tests.support.cli import run

DOMAIN = """(define (domain bw)
  (:requirements :strips)
  (:predicates (clear ?x) (on ?x ?y))
  (:action take :parameters (?x ?y) :precondition (and (clear ?x) (on ?x ?y))
   :effect (and (clear ?y) (not (on ?x ?y)))))
"""
PROBLEM = """(define (problem p) (:domain bw) (:objects a b) (:init (on a b) (clear a)) (:goal (clear b)))
"""
ANSWER = "Sure! Below is the complete domain file.\n\n```pddl\n{}```\nIt has one action (take), as asked.\n"


def _unplaced(domain):
    """The domain without its actions' lines (the answer's lines before the definition move them)."""
    return replace(domain, actions=tuple(replace(a, line=None) for a in domain.actions))


def _read(text: str, file: str = "d.pddl"):
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        domain = parse_domain(text, file)
    return domain, [str(w.message) for w in said if issubclass(w.category, InputWarning)]


def test_a_fenced_answer_reads_as_its_definition_with_one_warning_at_the_first_word():
    clean, none = _read(DOMAIN)
    domain, said = _read(ANSWER.format(DOMAIN))
    assert none == [] and _unplaced(domain) == _unplaced(clean)
    assert said == ["d.pddl:1:1: text around the (define ...) that is not PDDL is ignored (lines 1-3 and after "
                    "line 8: a Markdown code fence or a sentence, as in a language model's answer)"]


def test_only_a_fence_after_the_definition_is_said_where_it_starts():
    domain, said = _read(DOMAIN + "```\n")
    assert domain == _read(DOMAIN)[0]
    assert said == ["d.pddl:6:1: text around the (define ...) that is not PDDL is ignored (after line 5: a "
                    "Markdown code fence or a sentence, as in a language model's answer)"]


def test_positions_after_the_answer_s_lines_are_the_file_s_own():
    broken = DOMAIN.replace("(clear ?y)", "(clear ?z)")
    with pytest.raises(InputError, match=r"^d\.pddl:8:24: undeclared variable '\?z'"):
        _read(ANSWER.format(broken))


def test_a_problem_in_a_fence_reads_too():
    domain = _read(DOMAIN)[0]
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        problem = parse_problem("```\n" + PROBLEM + "```\n", domain, "p.pddl")
    assert problem == parse_problem(PROBLEM, domain, "p.pddl")
    assert [str(w.message)[:9] for w in said] == ["p.pddl:1:"]


@pytest.mark.parametrize("text, at, message", [
    ("(in-package :user)\n" + DOMAIN, "2:1", "unexpected '(' after the end of the definition"),
    (DOMAIN + "(define (problem p) (:domain bw))\n", "6:1", "unexpected '(' after the end of the definition"),
    (DOMAIN.replace("(on ?x ?y)))", "(on ?x ?y))))", 1) + "  :effect (clear ?x))\n```\n", "5:47",
     "unexpected ')' after the end of the definition"),
])
def test_what_has_pddl_in_it_stays_the_error_it_was(text, at, message):
    assert unwrap(text, "d.pddl") == text
    with pytest.raises(InputError) as e:
        _read(text)
    assert str(e.value).startswith(f"d.pddl:{at}: {message}"), str(e.value)


def test_a_clean_file_and_one_with_comments_around_are_read_as_they_are():
    for text in (DOMAIN, "; a comment\n" + DOMAIN + "; the end (of it)\n", DOMAIN.rstrip("\n")):
        assert unwrap(text, "d.pddl") == text
        assert _read(text)[1] == []


def test_the_command_line_says_it_and_strict_refuses_it(tmp_path):
    (tmp_path / "d.pddl").write_text(ANSWER.format(DOMAIN))
    (tmp_path / "p.pddl").write_text(PROBLEM)
    (tmp_path / "plan.txt").write_text("(take a b)\n")
    files = [tmp_path / n for n in ("d.pddl", "p.pddl", "plan.txt")]
    ok = run("validate", *files)
    assert ok.exit_code == 0 and "text around the (define ...) that is not PDDL is ignored" in ok.stderr
    strict = run("--strict", "validate", *files)
    assert strict.exit_code == 2 and strict.stderr.startswith("amlasp: error: ") and "is ignored" in strict.stderr
