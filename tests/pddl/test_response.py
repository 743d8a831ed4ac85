"""A plan read out of a language model's answer (pddl/response.py, `validate --from-text`): every answer
of the corpus (tests/data/responses) gives the plan it means; what is not read is reported where it is,
ambiguity is never resolved by a guess, and hostile answers stay within their limits."""

from __future__ import annotations

import time
from functools import lru_cache
from pathlib import Path

import pytest

from amlasp.errors import InputError
from amlasp.pddl.parse import load_domain, load_problem, parse_domain, parse_problem
from amlasp.pddl.response import MAX_UNMATCHED, ResponseError, extract_plan, read_response
from amlasp.pddl.source import read_text
from amlasp.questions.language import action_sentences
from amlasp.reasoning import engine
from tests.support.paths import DATA

CORPUS = DATA / "responses"
ANSWERS = sorted(CORPUS.glob("*/*.txt"))


@lru_cache(maxsize=None)
def task(name: str):
    d = load_domain(CORPUS / name / "domain.pddl")
    return d, load_problem(CORPUS / name / "problem.pddl", d), action_sentences(d)


def extract(text: str, name: str = "blocksworld"):
    d, p, s = task(name)
    return extract_plan(text, d, p, "answer.txt", s)


def test_the_corpus_is_what_the_issue_asks():
    """60+ answers, in four domains, each with the plan it means."""
    assert len(ANSWERS) >= 60
    assert {f.parent.name for f in ANSWERS} == {"blocksworld", "logistics", "mystery", "grippers"}
    assert all(f.with_suffix(".plan").is_file() for f in ANSWERS)


@pytest.mark.parametrize("answer", ANSWERS, ids=lambda f: f"{f.parent.name}/{f.stem}")
def test_every_answer_gives_its_plan(answer: Path):
    d, p, s = task(answer.parent.name)
    want = answer.with_suffix(".plan").read_text().split()
    x = extract_plan(read_text(answer), d, p, str(answer), s)
    assert not x.unmatched, x.unmatched
    assert " ".join(st.action for st in x.steps).split() == want
    plan, same = read_response(read_text(answer), d, p, str(answer), s)
    assert [f"({a.name} {' '.join(a.args)})" for a in plan] == [st.action for st in same.steps]


def test_the_corpus_verdicts(tmp_path):
    """Reading is not judging: the plans meant invalid are read, and found invalid."""
    invalid = {"29-invalid-plan", "15-invalid-wrong-city", "10-invalid-order"}
    for answer in ANSWERS:
        d, p, s = task(answer.parent.name)
        plan, _ = read_response(read_text(answer), d, p, str(answer), s)
        ex = engine.execute(d, p, plan, states=False)
        partial = answer.stem in ("05-types-out-of-order", "11-star-bullets")  # the first steps only
        assert ex.valid == (answer.stem not in invalid and not partial), answer


def test_how_and_where_each_step_was_found():
    x = extract("Sure.\n\n1. (unstack c a)\n2. Put down c.\n")
    assert [(s.action, s.how, s.line, s.col) for s in x.steps] == [("(unstack c a)", "pddl", 3, 4),
                                                                   ("(put_down c)", "english", 4, 4)]
    assert x.lines == (3, 4) and x.blocks == 1
    assert x.to_dict()["at"] == ["3:4", "4:4"]


def test_the_last_block_is_the_answer_fences_first():
    text = "```\n(pick_up a)\n```\nNo wait:\n```\n(unstack c a)\n```\nIn words: first unstack c from a.\n"
    x = extract(text)
    assert [s.action for s in x.steps] == ["(unstack c a)"] and x.blocks == 3 and x.lines == (6, 6)


def test_a_colon_inside_a_list_item_does_not_cut_the_list():
    x = extract("1. Unstack c from a. Now the state is:\n   - c in the hand\n2. Put down c.\n\nSo: done.\n")
    assert [s.action for s in x.steps] == ["(unstack c a)", "(put_down c)"]
    y = extract("Pick up a. Stack a on b. That fails, so let me try again: unstack c from a. Put down c.")
    assert [s.action for s in y.steps] == ["(unstack c a)", "(put_down c)"]  # in prose, it does


def test_an_aside_is_read_when_only_it_completes_a_step():
    x = extract("1. Drive tru1 from pos1 to apt1 (in city cit1).\n2. Unload pkg1 (from tru1) at apt1 (airport).\n",
                "logistics")
    assert [s.action for s in x.steps] == ["(drive-truck tru1 pos1 apt1 cit1)", "(unload-truck pkg1 tru1 apt1)"]
    assert not x.unmatched


def test_an_unclosed_fence_runs_to_the_end():
    x = extract("Draft: (pick_up a)\n\n```pddl\n(unstack c a)\n(put_down c)")
    assert [s.action for s in x.steps] == ["(unstack c a)", "(put_down c)"]


# -- what is not read, and where


def test_a_list_item_that_names_no_action_is_reported_at_its_place():
    x = extract("1. Unstack c from a.\n2. Move c to the table.\n3. Pick up b.\n")
    assert [s.action for s in x.steps] == ["(unstack c a)", "(pick_up b)"]
    (u,) = x.unmatched
    assert (u.text, u.line, u.col, u.step) == ("Move c to the table.", 2, 4, 2)
    assert "names no action" in u.reason


def test_an_unmatched_step_makes_the_answer_unreadable_where_it_is():
    d, p, s = task("blocksworld")
    with pytest.raises(ResponseError) as e:
        read_response("1. Unstack c from a.\n2. Move c to the table.\n", d, p, "answer.txt", s)
    assert str(e.value).startswith("answer.txt:2:4: step 2 not read: 'Move c to the table.'")
    assert e.value.step == 2 and [st.action for st in e.value.extraction.steps] == ["(unstack c a)"]


def test_a_pronoun_is_not_resolved():
    (u,) = extract("Pick up b, then stack it on d.").unmatched
    assert u.text == "stack it on d" and "pronoun" in u.reason and "takes 2" in u.reason


def test_wrong_number_of_objects_and_types_that_do_not_fit():
    x = extract("1. Stack b on d on c.\n")
    assert x.unmatched and "takes 2" in x.unmatched[0].reason
    d, p, s = task("logistics")
    (u,) = extract_plan("1. Fly apn1 from pos1 to apt2.\n", d, p, "a", s).unmatched
    assert "types do not fit" in u.reason


def test_two_orders_that_fit_the_types_are_ambiguous():
    """"Drive from pos1 with tru1 to apt1 in cit1": the truck and the city have one place each, the two
    places two: both orders are reported, none is chosen."""
    d, p, s = task("logistics")
    x = extract_plan("1. Drive from pos1 with tru1 to apt1 in cit1.\n", d, p, "a", s)
    assert not x.steps
    (u,) = x.unmatched
    assert u.reason == ("ambiguous: (drive-truck tru1 apt1 pos1 cit1) or (drive-truck tru1 pos1 apt1 cit1)")


def test_two_actions_that_read_alike_are_ambiguous():
    domain = parse_domain("""(define (domain d) (:requirements :typing)
      (:types truck van - vehicle pkg vehicle - object)
      (:predicates (in ?p - pkg ?v - vehicle))
      (:action load-truck :parameters (?p - pkg ?v - vehicle) :effect (in ?p ?v))
      (:action load-van :parameters (?p - pkg ?v - vehicle) :effect (in ?p ?v)))""")
    problem = parse_problem("(define (problem p) (:domain d) (:objects p1 - pkg v1 - vehicle) (:init) "
                            "(:goal (in p1 v1)))", domain)
    x = extract_plan("Load p1 into v1.", domain, problem)
    (u,) = x.unmatched
    assert u.reason == "ambiguous: (load-truck p1 v1) or (load-van p1 v1)"
    (u,) = extract_plan("(load p1 v1)\n", domain, problem).unmatched  # in parentheses, the same
    assert (u.text, u.col, u.reason) == ("(load p1 v1)", 1, "ambiguous: (load-truck p1 v1) or (load-van p1 v1)")
    # its full name is one reading
    assert [s.action for s in extract_plan("Load van p1 into v1.", domain, problem).steps] == ["(load-van p1 v1)"]


def test_a_question_is_no_step_and_a_negation_is_none_either():
    x = extract("1. Unstack c from a.\n2. Should I stack c on b?\nDo not stack a on c. Never pick up d.\n")
    assert [s.action for s in x.steps] == ["(unstack c a)"]
    (u,) = x.unmatched
    assert u.reason == "a question, not a step" and u.line == 2


def test_an_action_named_inside_a_sentence_is_reported():
    """"I could pick up a now" names pick-up after other words: not read, and said."""
    (u,) = extract("1. Unstack c from a.\n2. Since a is clear, I could then maybe pick up a\n").unmatched
    assert "named after other words" in u.reason


def test_a_truncated_action_is_reported():
    x = extract("```\n(unstack c a)\n(put_down c)\n(pick_up")
    assert [s.action for s in x.steps] == ["(unstack c a)", "(put_down c)"]
    assert x.unmatched[0].reason == "the action's parenthesis is never closed" and x.unmatched[0].line == 4


def test_a_pddl_step_the_reader_refuses_is_located_in_the_answer():
    d, p, s = task("blocksworld")
    with pytest.raises(ResponseError) as e:
        read_response("Plan:\n  (unstack c a)\n  (stack c zz)\n", d, p, "answer.txt", s)
    assert str(e.value).startswith("answer.txt:3:3: step 2, (stack c zz): unknown object 'zz'")
    with pytest.raises(ResponseError) as e:
        read_response("(unstack c a)\n(fly c a)\n", d, p, "answer.txt", s)  # a line of one group: a step
    assert "answer.txt:2:1: step 2" in str(e.value) and "fly" in str(e.value)


def test_no_plan_at_all():
    d, p, s = task("blocksworld")
    with pytest.raises(ResponseError, match="no plan found") as e:
        read_response("I cannot solve this problem.", d, p, "answer.txt", s)
    assert e.value.step == 1
    assert extract("(on a b) (clear c) are true at the start.").steps == ()  # facts, not steps


def test_the_english_of_the_templates_is_read():
    """An action's sentence is read with its type words and articles left out, or not; a sentence whose
    verb is not the action's name is read only so."""
    d, p, _ = task("blocksworld")
    said = {"pick_up": "lift block {?x} off the table", "stack": "place block {?x} onto block {?y}"}
    x = extract_plan("1. Lift b off the table.\n2. Place the block b onto d.\n", d, p, "a", said)
    assert [s.action for s in x.steps] == ["(pick_up b)", "(stack b d)"]
    assert [s.action for s in extract_plan("1. Lift b off the table.\n", d, p, "a").steps] == []
    d, p, s = task("grippers")  # the shipped template, its subject first
    text = "Robot robot1 picks up ball ball1 in room rooma with gripper lgripper1."
    assert [x.action for x in extract_plan(text, d, p, "a", s).steps] == ["(pick robot1 ball1 rooma lgripper1)"]
    alone = extract_plan("Pick ball1 in rooma with lgripper1 using robot1.", d, p, "a")  # types fix the order
    assert [x.action for x in alone.steps] == ["(pick robot1 ball1 rooma lgripper1)"]


# -- hostile answers


def test_control_characters_are_blanks_and_columns_stay():
    x = extract("\x1b[1m1.\x1b[0m (unstack c a)\u202e\n2. put\x00down c\n")
    assert [s.action for s in x.steps] == ["(unstack c a)", "(put_down c)"]
    assert (x.steps[0].line, x.steps[0].col) == (1, 12)


def test_a_number_of_5000_digits_is_no_item_number():
    x = extract("1" * 5000 + ". unstack c from a\n(" + "9" * 5000 + ") put down c\n")
    assert [s.action for s in x.steps] == ["(unstack c a)", "(put_down c)"]
    assert x.steps[1].col == 5004


def test_deep_nesting_is_read_without_recursion():
    text = "(" * 200_000 + "unstack c a" + ")" * 200_000
    start = time.process_time()
    x = extract(text)
    assert time.process_time() - start < 10
    assert [s.action for s in x.steps] == ["(unstack c a)"]


def test_a_huge_answer_is_read_in_linear_time():
    text = "Let me think about this again and again. " * 60_000 + "\n1. Unstack c from a.\n2. Put down c.\n"
    start = time.process_time()
    x = extract(text)
    assert time.process_time() - start < 20
    assert [s.action for s in x.steps] == ["(unstack c a)", "(put_down c)"]


def test_unmatched_sentences_are_capped():
    text = "1. Unstack c from a.\n" + "".join(f"{i}. Move c to the table.\n" for i in range(2, 5000))
    x = extract(text)
    assert len(x.unmatched) == MAX_UNMATCHED and x.more == 4998 - MAX_UNMATCHED
    assert x.to_dict()["unmatched_more"] == x.more


def test_an_answer_over_the_size_limit_is_refused(monkeypatch):
    monkeypatch.setenv("AMLASP_MAX_INPUT_MB", "0.001")
    with pytest.raises(InputError, match="answer larger than"):
        extract("(unstack c a)\n" * 100)
