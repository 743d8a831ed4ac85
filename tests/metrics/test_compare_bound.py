"""amlasp/metrics/compare/bound.py: bound variables ordered by where they occur, not by their names."""

from __future__ import annotations

from amlasp.metrics.compare import compare
from amlasp.metrics.compare.bound import formula, in_order
from amlasp.model import Atom, Exists, Forall, Not
from amlasp.pddl.parse import parse_domain
from tests.support.examples import ADL, BLOCKSWORLD

DOMAIN = """(define (domain d) (:requirements :adl)
  (:predicates (c ?x ?y) (p ?x ?y) (q ?x) (r ?x ?y ?z))
  (:action act :parameters (?o)
    :precondition (exists (?b ?a) (r ?a ?o ?b))
    :effect (forall (?m ?n) (when (c ?m ?n) (and (p ?m ?n) (q ?n))))))"""


def test_a_quantifier_s_variables_follow_their_positions():
    f = Exists((("?a", "t"), ("?b", "u")), Not(Atom("p", ("?b", "?a"))))
    assert formula(f) == Exists((("?b", "u"), ("?a", "t")), Not(Atom("p", ("?b", "?a"))))
    g = Forall((("?a", "t"), ("?b", "u")), Atom("p", ("?a", "?b")))
    assert formula(g) is g  # nothing moves: the same object


def test_the_effects_of_one_forall_are_ordered_alike():
    d = in_order(parse_domain(DOMAIN))
    act = d.action("act")
    # ?n occurs first as (q ?n), of arity 1: (?n ?m) for both effects of the forall, one condition
    assert [e.variables for e in act.effects] == [(("?n", "object"), ("?m", "object"))] * 2
    assert act.precondition.variables == (("?a", "object"), ("?b", "object"))


def test_the_order_does_not_depend_on_the_names():
    renamed = DOMAIN.replace("?m", "?z1").replace("?n", "?a1").replace("?b", "?y2").replace("?a ", "?b2 ") \
        .replace("?a)", "?b2)")
    d, e = in_order(parse_domain(DOMAIN)), in_order(parse_domain(renamed))
    names = {"?m": "?z1", "?n": "?a1", "?b": "?y2", "?a": "?b2"}
    assert [tuple(names[v] for v, _ in x.variables) for x in d.action("act").effects] == \
        [tuple(v for v, _ in x.variables) for x in e.action("act").effects]
    r = compare(parse_domain(renamed), parse_domain(DOMAIN), time_limit=60)
    assert r.edit_distance == 0 and len(r.actions[0].conditions) == 1  # one condition, as written


def test_domains_without_such_lists_are_left_as_they_are():
    for example in (BLOCKSWORLD, ADL):
        d = example.domain()
        assert in_order(d) is d
