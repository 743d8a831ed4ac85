"""amlasp/metrics/compare/structure.py: the skeletons and structure facts compare.lp matches on.

Expected skeletons are written out by hand: atoms become `#`, conjuncts and disjuncts are sorted
(by shape, then atoms), variables of quantifiers are numbered after the action's parameters.
"""

from __future__ import annotations

from amlasp.metrics.compare.structure import Structure
from amlasp.model import And, Atom, Exists, Forall, Not, Or
from amlasp.pddl.parse import parse_domain
from tests.support.examples import ADL, BLOCKSWORLD

PARAMS = {"?to": 1}


def skeleton(f, params=PARAMS):
    return Structure(parse_domain("(define (domain e))"), "ref").skeleton(f, params)


def test_the_non_literal_conjuncts_of_adl_sweep():
    d = ADL.domain()
    exists, either, every = [g for g in d.action("sweep").precondition.args if isinstance(g, (Exists, Or, Forall))]
    assert skeleton(exists) == ("(exists (heavy) #)", ["at(v(2),c(hall))"])
    assert skeleton(either) == ("(or # #)", ["lit(v(1))", "robot(c(hall))"])
    assert skeleton(every) == ("(forall (ball) (imply # #))", ["at(v(2),v(1))", "lit(v(1))"])


def test_their_facts_number_the_conjuncts_in_order():
    facts = Structure(ADL.domain(), "ref").facts().splitlines()
    assert 'formula(ref,sweep,p(1),"(exists (heavy) #)").' in facts
    assert "fleaf(ref,sweep,p(1),1,at(v(2),c(hall)))." in facts
    assert 'formula(ref,sweep,p(3),"(forall (ball) (imply # #))").' in facts
    assert "atom_pred(at(v(2),c(hall)),at,2)." in facts and "atom_arg(at(v(2),c(hall)),2,c(hall))." in facts


def test_order_of_conjuncts_and_disjuncts_does_not_matter():
    a, b, c = Atom("p", ("?to",)), Atom("r", ()), Atom("p", ("c1",))
    assert skeleton(Or((a, Not(b)))) == skeleton(Or((Not(b), a))) == ("(or # (not #))", ["p(v(1))", "r"])
    # equal shapes are ordered by their atoms
    assert skeleton(And((a, c))) == skeleton(And((c, a))) == ("(and # #)", ["p(c(c1))", "p(v(1))"])


def test_quantified_variables_are_numbered_after_those_in_scope():
    f = Forall((("?b", "ball"),), Exists((("?a", "object"), ("?c", "room")), Atom("at", ("?a", "?b", "?c", "?to"))))
    assert skeleton(f) == ("(forall (ball) (exists (object room) #))", ["at(v(3),v(2),v(4),v(1))"])


def test_a_formula_nested_20000_deep():
    f = Atom("p", ())
    for _ in range(20000):
        f = Not(f)
    assert skeleton(f) == ("(not " * 20000 + "#" + ")" * 20000, ["p"])


def test_a_strips_domain_has_atoms_and_unit_texts_only():
    s = Structure(BLOCKSWORLD.domain(), "learned")
    assert not s.lines  # no formula/ccond facts
    assert s.unit_text[("stack", "lit(pre,pos,holding(v(1)))")] == ("precondition", "(holding ?x)")


def test_a_cost_effect_is_a_unit_with_its_function_decomposed():
    from amlasp.pddl.parse import load_domain
    from tests.support.paths import DATA
    s = Structure(load_domain(DATA / "costs" / "transport" / "domain.pddl"), "learned")
    assert s.unit_text[("drive", "cost")] == ("cost effect", "(increase (total-cost) (road-length ?l1 ?l2))")
    assert "cost_fn(learned,drive,road_length,2)." in s.lines
    assert ["cost_arg(learned,drive,1,v(2)).", "cost_arg(learned,drive,2,v(3))."] == \
        [x for x in s.lines if x.startswith("cost_arg")]
