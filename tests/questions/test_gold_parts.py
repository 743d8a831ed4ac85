"""Gold checks and grading decided part by part: a fact (action) left open is named and does not hide
the rest; an item that cannot be read is its own problem; prog's English resolved by the action's
name; "None" right only when there is none; val's reasons from a run."""

from __future__ import annotations

import copy
import json

import pytest

from amlasp.enums import Verdict
from amlasp.questions import decide
from amlasp.questions.decide import Decision
from amlasp.questions.gold import Undecided, case_of, check, load_items
from amlasp.questions.grade import grade
from tests.support.acpbench import ACP

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

REACH_NONE = "-8682376828094741291"  # floor-tile: gold None, yet (clear tile_4) can never hold


def acp(task: str) -> list[dict]:
    return list(load_items(ACP / task / "dev.gen.json"))


def test_land_one_undecided_fact_is_named_and_the_others_checked(monkeypatch):
    """One fact the planner cannot settle: the check names it (with why) and still compares every
    other listed fact, reporting their disagreements apart."""
    item = copy.deepcopy(next(i for i in acp("land") if i["answer"]["yes"] and len(i["answer"]["no"]) > 1))
    c = case_of(item)
    stuck = c.atom(item["answer"]["no"][0])
    wrongly = item["answer"]["yes"][0]
    item["answer"]["no"].append(wrongly)  # a landmark also listed as none: a disagreement to find
    item["answer"]["yes"] = item["answer"]["yes"][1:]
    real = decide.Landmarks.fact

    def fact(self, f):
        return Decision(Verdict.UNKNOWN, "planner budget spent") if f == stuck else real(self, f)
    monkeypatch.setattr(decide.Landmarks, "fact", fact)
    with pytest.raises(Undecided) as e:
        check(case_of(item), 10)
    assert f"({stuck}) (planner budget spent)" in str(e.value) and str(e.value).startswith("1 undecided")
    assert any("is listed as no landmark, but it is one" in d for d in e.value.found), e.value.found


def test_reach_one_undecided_atom_is_named_and_the_others_checked(monkeypatch):
    item = next(i for i in acp("reach") if len(i["answer"]) > 1)
    c = case_of(item)
    stuck = c.atom(item["answer"][0])
    real = decide.Reachability.atom

    def atom(self, f, planner=True, mutex=True):
        return Decision(Verdict.UNKNOWN, "not decided") if f == stuck else real(self, f, planner, mutex)
    monkeypatch.setattr(decide.Reachability, "atom", atom)
    with pytest.raises(Undecided) as e:
        check(case_of(item), 10)
    assert str(e.value) == f"1 undecided: ({' '.join(str(stuck).strip('()').split())}) (not decided)"
    assert e.value.found == []


def test_gold_report_counts_checked_items_and_keeps_undecided_apart(monkeypatch):
    items = acp("val")[:3]
    g = grade(items, {}, check_gold=True)
    assert g.gold_summary()[-1] == {"task": "all", "form": "all", "checked": 3, "agree": 3, "disagree": 0,
                                    "undecided": 0}
    from amlasp.questions import grade as grading
    monkeypatch.setattr(grading, "check", lambda c, t: (_ for _ in ()).throw(Undecided("2 undecided: x; y")))
    g = grade(items[:1], {}, check_gold=True)
    assert g.gold == [] and g.undecided[0]["why"] == "2 undecided: x; y"
    assert g.gold_summary()[0]["undecided"] == 1


MINE = """(define (domain mine) (:requirements :strips :typing) (:types loc)
 (:predicates (at ?l - loc) (laser-at ?l - loc) (bomb-at ?l - loc) (holds-laser) (holds-bomb) (free))
 (:action pickup-laser :parameters (?l - loc) :precondition (and (at ?l) (laser-at ?l) (free))
  :effect (and (holds-laser) (not (laser-at ?l)) (not (free))))
 (:action pickup-bomb :parameters (?l - loc) :precondition (and (at ?l) (bomb-at ?l) (free))
  :effect (and (holds-bomb) (not (bomb-at ?l)) (not (free)))))"""
MINE_PROBLEM = """(define (problem p) (:domain mine) (:objects f0-0f f0-1f - loc)
 (:init (at f0-0f) (laser-at f0-0f) (bomb-at f0-0f) (free)) (:goal (holds-laser)))"""


def prog_item(sentence: str, k: int = 1) -> dict:
    return {"id": k, "group": "progression_gen", "context": "", "PDDL_domain": MINE, "PDDL_problem": MINE_PROBLEM,
            "question": f'Break down the outcomes of performing the action "{sentence}" into two lists.',
            "answer": {"pos": ["(holds-laser)"], "neg": ["(laser-at f0-0f)", "(free)"]}}


def test_prog_sentence_resolved_by_the_action_name(tmp_path):
    """Two applicable actions name exactly f0-0f, with different effects: the sentence's words say which
    ("laser": pickup-laser); the file is graded whole."""
    items = [prog_item("pick up the laser at loc f0-0f", 1), prog_item("take what lies at f0-0f", 2)]
    path = tmp_path / "prog.json"
    path.write_text(json.dumps(items))
    loaded = load_items(path)
    assert case_of(loaded[0]).named["action"].name == "pickup-laser"
    g = grade(loaded, {"1": "[(holds-laser)] [(laser-at f0-0f) (free)]", "2": "[]"}, check_gold=True)
    assert [r.id for r in g.results] == [1] and g.results[0].correct
    assert g.gold == [] and g.gold_summary()[-1]["agree"] == 1
    (bad,) = g.unreadable
    assert bad["id"] == 2 and f"{path}:1:" in bad["problem"] and "pickup-bomb" in bad["problem"]


def test_reach_none_is_right_only_when_there_is_none():
    """ACPBench's gold list is empty, but an atom provably never holds: "None" is wrong, with the proof."""
    item = next(i for i in acp("reach") if str(i["id"]) == REACH_NONE)
    assert item["answer"] == []
    (r,) = grade([item], {REACH_NONE: "None"}).results
    assert not r.correct and "can never hold, e.g." in r.reason and "tile" in r.reason


def test_val_reason_is_a_sentence_with_the_unmet_precondition():
    """ACPBench's val items carry no evidence: the reason comes from running the sequence."""
    item = next(i for i in acp("val") if int(i["answer"]) >= 0)
    (r,) = grade([item], {str(item["id"]): "-1"}).results
    assert not r.correct and r.reason.startswith("The first inapplicable action is at index")
    assert ": ." not in r.reason and r.reason.endswith(".") and ("is false" in r.reason or "is true" in r.reason)


@pytest.mark.parametrize("said,label", [("Answer: b) stack block b3 on block b1", "B"), ("(B)", "B"), ("b)", "B"),
                                        ("Answer: B.", "B"), ("stack block b3 on block b1", "B"), ("option c", "C"),
                                        ("I think it's B, but maybe C", None), ("A car", None)])
def test_choice_read_with_any_label_decoration(said, label):
    from amlasp.questions.answers import read_choice, read_choices
    choices = ["put down block b1", "stack block b3 on block b1", "unstack block b2 from block b1", "pick up block b4"]
    assert read_choice(said, choices) == label
    if said.startswith("I think"):
        assert read_choices(said, choices) == ["B", "C"]


def test_ambiguous_choice_is_its_own_verdict_and_numbers_in_words_are_read():
    from amlasp.questions.answers import read_int
    item = {"id": 1, "task": "app", "form": "mcq", "answer": "B", "question": "Which?",
            "choices": {"text": ["w", "x", "y", "z"], "label": ["A", "B", "C", "D"]}}
    (r,) = grade([item], {"1": "I think it's B, but maybe C"}).results
    assert r.ambiguous and not r.correct and r.reason == "The answer is ambiguous: it names B and C."
    assert grade([item], {"1": "I think it's B, but maybe C"}).table()[-1]["ambiguous"] == 1
    assert read_int("one") == 1 and read_int("minus one") == -1 and read_int("There are twelve.") == 12


def test_distractors_are_not_trivially_false():
    """Action distractors break no equality and no static precondition, and repeat no object the action
    they stand beside does not: ferry's (sail l0 l0) (noteq l0 l0 is false), blocksworld's (stack b1 b1)."""
    from amlasp.model import GroundAction
    from amlasp.pddl.parse import load_domain, load_problem
    from amlasp.questions.universe import Universe, similar_actions
    from tests.support.ipc import reference, small_problem
    for name, action in (("ferry", GroundAction("sail", ("l1", "l0"))),
                         ("blocksworld", None)):
        d = load_domain(reference(name))
        p = load_problem(small_problem(name), d)
        u = Universe(d, p)
        if action is None:
            schema = next(a for a in d.actions if a.arity == 2)
            objs = u.objects(schema.parameters[0][1])
            action = GroundAction(schema.name, (objs[0], objs[1]))
        near = similar_actions(u, action)
        assert near and all(len(set(g.args)) == len(g.args) for g in near), near
        if name == "ferry":
            assert GroundAction("sail", ("l0", "l0")) not in near and GroundAction("sail", ("l2", "l0")) in near


def test_verify_asks_no_empty_change():
    """A walk that returns to the start changed nothing: no gen item (its answer would be empty)."""
    import random

    from amlasp.questions.generate import load_sources
    from amlasp.questions.tasks.common import Situation
    from amlasp.questions.tasks.verify import Verify
    from amlasp.questions.walks import Walk
    from amlasp.reasoning.engine import applicable, execute
    from tests.support.ipc import reference, small_problem
    src = load_sources(reference("ferry"), [small_problem("ferry")])[0]
    p = src.problem
    at = next(a.args[0] for a in p.init if a.predicate == "at_ferry")
    other = next(o for o, t in p.objects if t == "location" and o != at)
    from amlasp.model import GroundAction
    steps = [GroundAction("sail", (at, other)), GroundAction("sail", (other, at))]
    states = tuple(execute(src.domain, p, steps).states)
    walk = Walk(states, tuple(steps), tuple(tuple(x) for x in applicable(src.domain, p, list(states))))
    assert states[0] == states[-1]
    assert Verify(Situation(src, walk, random.Random(0))).gen() is None
