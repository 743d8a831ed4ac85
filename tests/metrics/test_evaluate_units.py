"""amlasp/metrics/evaluate: the pair's static predicates, the type test, the reference's
vocabulary over a problem (universe sizes counted by hand), and the result's summary."""

from __future__ import annotations

from amlasp.metrics.evaluate import evaluate
from amlasp.metrics.evaluate.rules import is_a, static_predicates
from amlasp.metrics.evaluate.states import Vocabulary
from amlasp.model import Atom
from amlasp.pddl.states import StateSet

from tests.support.examples import ADL, BLOCKSWORLD, ROADS


def test_static_predicates_of_a_pair():
    ref = ROADS.domain()
    assert static_predicates(ref, ref) == {"road"}
    builds = ROADS.domain(ROADS.domain_text.replace(":effect (broken)", ":effect (and (broken) (road ?a ?a))")
                          .replace("(:action crash :parameters ()", "(:action crash :parameters (?a - place)"))
    assert static_predicates(ref, builds) == frozenset()  # a learned effect changes road


def test_is_a_follows_the_type_hierarchy():
    d = ADL.domain()  # heavy - ball - object, room - object
    assert is_a(d, "heavy", "ball") and is_a(d, "heavy", "object") and is_a(d, "room", "room")
    assert not is_a(d, "ball", "heavy") and not is_a(d, "room", "ball")
    assert is_a(d, "unknown", "object") and not is_a(d, "unknown", "room")


def test_vocabulary_of_the_adl_problem():
    d, p = ADL.load()  # objects k - room, b1 - heavy, b2 - ball; constant hall - room
    v = Vocabulary(d, p)
    assert v.by_type == {"room": 2, "heavy": 1, "ball": 2, "object": 4}
    assert v.count(("ball", "room")) == 4 and v.count(()) == 1 and v.count(("heavy", "heavy")) == 1
    assert v.universe == 2 * 2 + 2 + 2  # at(ball, room), robot(room), lit(room)
    assert v.well_typed(Atom("at", ("b1", "k"))) and v.well_typed(Atom("lit", ("hall",)))
    assert not v.well_typed(Atom("at", ("k", "b1")))  # arguments swapped
    assert not v.well_typed(Atom("robot", ("zz",)))  # an object the problem does not declare is only an object
    assert not v.well_typed(Atom("at", ("b1",))) and not v.well_typed(Atom("gone", ()))


def test_summary_is_the_json_summary():
    d, p = BLOCKSWORLD.load()
    ev = evaluate(d, d, [StateSet(p, [p.init], "init")])
    assert ev.summary() == ev.to_dict()["summary"]
    assert ev.summary()["states"] == 1 and ev.summary()["applicability"]["precision_avg"] == 1.0
