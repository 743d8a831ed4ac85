"""amlasp/pddl/sentences.py: one clause of an answer read as ground actions, by the domain's names and
its actions' English; each reading it cannot stand by is said, none is chosen."""

from __future__ import annotations

from functools import lru_cache

import pytest

from amlasp.pddl.parse import load_domain, load_problem
from amlasp.pddl.sentences import Vocabulary, read_clause
from amlasp.questions.language import action_sentences
from tests.support.paths import DATA


@lru_cache(maxsize=None)
def vocabulary(name: str, templates: bool = True) -> Vocabulary:
    d = load_domain(DATA / "responses" / name / "domain.pddl")
    return Vocabulary(d, load_problem(DATA / "responses" / name / "problem.pddl", d),
                      action_sentences(d) if templates else {})


@pytest.mark.parametrize("clause, action", [
    ("Unstack c from a", ("unstack", ("c", "a"))),
    ("unstacking c from a", ("unstack", ("c", "a"))),
    ("we will then unstack c from a", ("unstack", ("c", "a"))),
    ("Step 3 unstack c from a", ("unstack", ("c", "a"))),
    ("UNSTACK C A", ("unstack", ("c", "a"))),
    ("pick-up b", ("pick_up", ("b",))),
    ("pickup b", ("pick_up", ("b",))),
    ("picks up b", ("pick_up", ("b",))),
    ("put c down on the table", ("put_down", ("c",))),
    ("stack the a block on top of the b block", ("stack", ("a", "b"))),
    ("pick up a block d", ("pick_up", ("d",))),  # "a" before a type word: the article
])
def test_blocksworld_clauses(clause, action):
    assert read_clause(clause, vocabulary("blocksworld")) == ({action}, "")


@pytest.mark.parametrize("clause, action", [
    ("Drive tru1 from pos1 to apt1 in cit1", ("drive-truck", ("tru1", "pos1", "apt1", "cit1"))),
    ("Load truck tru1 with pkg1 at pos1", ("load-truck", ("pkg1", "tru1", "pos1"))),  # types fix the order
    ("load pkg1 onto apn1 at apt1", ("load-airplane", ("pkg1", "apn1", "apt1"))),  # "load": either, by types
])
def test_logistics_clauses(clause, action):
    assert read_clause(clause, vocabulary("logistics")) == ({action}, "")


def test_obfuscated_names_as_words_fused_and_swapped():
    v = vocabulary("mystery")
    for clause in ("xq attack zz_top", "xqattack zz-top", "XQ_ATTACK ZZ_TOP"):
        assert read_clause(clause, v) == ({("xq-attack", ("zz_top",))}, "")
    assert read_clause("succumb 9 k_9a", v) == ({("succumb_9", ("k-9a",))}, "")
    assert read_clause("attack zz_top", v) == (set(), "")  # part of a name is no name


def test_a_template_sentence_with_its_subject_first():
    v = vocabulary("grippers")
    want = ({("pick", ("robot1", "ball1", "rooma", "lgripper1"))}, "")
    assert read_clause("Robot robot1 picks up ball ball1 in room rooma with gripper lgripper1", v) == want
    assert read_clause("robot1 picks up ball1 in rooma with lgripper1", v) == want


def test_what_is_said_when_no_action_is_read():
    v = vocabulary("blocksworld")
    assert read_clause("stack b", v) == (set(), "'stack' with 1 object(s) (b): stack takes 2")
    assert "pronoun" in read_clause("stack it on d", v)[1]
    assert "named after other words" in read_clause("I think I could pick up b", v)[1]
    assert read_clause("then put b on top of d", v) == (set(), "'put' with b, d is not put_down")
    assert read_clause("do not unstack c from a", v) == (set(), "")  # negated: no step, none missed
    assert read_clause("c is clear and the hand is empty", v) == (set(), "")  # commentary
    log = vocabulary("logistics")
    assert read_clause("fly apn1 from pos1 to apt2", log) == (
        set(), "fly-airplane apn1 pos1 apt2: the objects' types do not fit")
    readings, _ = read_clause("drive from pos1 with tru1 to apt1 in cit1", log)
    assert readings == {("drive-truck", ("tru1", "pos1", "apt1", "cit1")),
                        ("drive-truck", ("tru1", "apt1", "pos1", "cit1"))}  # two orders: both said
