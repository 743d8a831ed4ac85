"""amlasp/metrics/evaluate: the reference's static predicates (and a learned effect on one), the
type test, the reference's vocabulary over a problem (universe sizes counted by hand), the summary."""

from __future__ import annotations

from amlasp.asp.compile.slots import is_a, static_predicates
from amlasp.metrics.evaluate import evaluate
from amlasp.metrics.evaluate.states import Vocabulary
from amlasp.model import Atom
from amlasp.pddl.states import StateSet
from tests.support.examples import ADL, BLOCKSWORLD, ROADS


def test_static_predicates_of_the_reference_and_a_learned_effect_on_one():
    ref, prob = ROADS.load()
    assert static_predicates(ref) == {"road"}
    # a learned drive that also builds the road back and removes the road taken: its changes of the
    # reference's static `road` count like any other (read from the problem's fixed atoms)
    builds = ROADS.domain(ROADS.domain_text.replace("(and (at ?b) (not (at ?a)))",
                                                    "(and (at ?b) (not (at ?a)) (road ?b ?a) (not (road ?a ?b)))"))
    st = frozenset({Atom("at", ("a",)), Atom("road", ("a", "b")), Atom("road", ("b", "c"))})
    drive = next(a for a in evaluate(builds, ref, [StateSet(prob, [st], "s")]).actions if a.action == "drive")
    # (drive a b): +at b, -at a in both; +road b a, -road a b only learned; 13 atoms (3 at, 9 road, broken)
    e = drive.effects
    assert (e.tp, e.fp, e.fn, e.tn) == (2, 2, 0, 13 - 4)
    assert (drive.applicability.tp, drive.applicability.fp, drive.applicability.fn) == (1, 0, 0)


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
