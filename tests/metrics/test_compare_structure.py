"""amlasp/metrics/compare/structure.py: the formula trees compare.lp matches on, and the skeletons
that key one model's conditions.

Expected skeletons are written out by hand: atoms become `#`, conjuncts and disjuncts are sorted
(by shape, then atoms), variables of quantifiers are numbered after the action's parameters. Trees
are checked for what matching needs: shapes that no name changes, and/or operands as sets.
"""

from __future__ import annotations

from amlasp.metrics.compare.structure import Node, Structure
from amlasp.model import And, Atom, Exists, Forall, Imply, Not, Or
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


def tree(f, params=PARAMS) -> Node:
    return Structure(parse_domain("(define (domain e))"), "ref").tree(f, params)


def test_their_facts_number_the_conjuncts_in_order():
    s = Structure(ADL.domain(), "ref")
    facts = s.facts().splitlines()
    exists = tree(ADL.domain().action("sweep").precondition.args[1])
    assert f'formula(ref,sweep,p(1),"{exists.shape}").' in facts
    # node 0 the exists (its variable's type), node 1 its atom
    assert f'fnode(ref,sweep,p(1),0,"{exists.shape}").' in facts and "fvar(ref,sweep,p(1),0,1,heavy)." in facts
    assert "fkid(ref,sweep,p(1),0,1,1)." in facts and 'fnode(ref,sweep,p(1),1,"#").' in facts
    assert "fleaf(ref,sweep,p(1),1,at(v(2),c(hall)))." in facts
    # the or: its operands are children at position 0 (a set)
    assert "fkid(ref,sweep,p(2),0,0,1)." in facts and "fkid(ref,sweep,p(2),0,0,2)." in facts
    assert "atom_pred(at(v(2),c(hall)),at,2)." in facts and "atom_arg(at(v(2),c(hall)),2,c(hall))." in facts


def test_tree_shapes_do_not_depend_on_names():
    """A renaming changes predicates, variables and the types of quantifiers; the order of the operands
    of and/or follows the names. None of it changes a shape."""
    f = Forall((("?b", "ball"),), Or((Imply(Atom("at", ("?b", "?to")), Atom("lit", ("?to",))),
                                      Not(Atom("robot", ("?b",))), Atom("heavy", ("?b",)))))
    g = Forall((("?z", "sphere"),), Or((Atom("q3", ("?z",)), Not(Atom("q1", ("?z",))),
                                        Imply(Atom("q2", ("?z", "?to")), Atom("q0", ("?to",))))))
    tf, tg = tree(f), tree(g)
    assert tf.shape == tg.shape and tf.types == ("ball",) and tg.types == ("sphere",)
    disjunction = tf.kids[0]
    assert disjunction.unordered and [k.shape for k in disjunction.kids] == [k.shape for k in tg.kids[0].kids]
    assert tree(And((Atom("p", ("?to",)), Not(Atom("q", ()))))).shape == \
        tree(And((Not(Atom("r", ())), Atom("s", ("?to",))))).shape


def test_tree_shapes_tell_apart_what_matching_must_not_pair():
    a, b = Atom("p", ("?to",)), Atom("q", ())
    shapes = {tree(x).shape for x in (And((a, b)), Or((a, b)), Imply(a, b), Not(a), And((a, Not(b))),
                                      Exists((("?x", "t"),), a), Forall((("?x", "t"),), a),
                                      Exists((("?x", "t"), ("?y", "t")), a))}
    assert len(shapes) == 8


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
    t = tree(f)
    assert len(t.shape) == 16  # a digest: the facts of a deep formula stay linear in its size
    s = Structure(parse_domain("(define (domain e))"), "ref")
    s._tree_facts("a", "p(1)", t)
    assert sum(x.startswith("fnode(") for x in s.lines) == 20001 and "fleaf(ref,a,p(1),20000,p)." in s.lines


def test_a_strips_domain_has_atoms_and_unit_texts_only():
    s = Structure(BLOCKSWORLD.domain(), "learned")
    # no formula/ccond facts: the predicates' signatures only (the true negatives' universe)
    assert all(x.startswith(("pred_sig(", "sig_param(")) for x in s.lines)
    assert "pred_sig(learned,0,0,1)." in s.lines  # handempty
    assert "pred_sig(learned,1,1,3)." in s.lines  # clear, holding, ontable
    assert s.unit_text[("stack", "lit(pre,pos,holding(v(1)))")] == ("precondition", "(holding ?x)")


def test_a_cost_effect_is_a_unit_with_its_function_decomposed():
    from amlasp.pddl.parse import load_domain
    from tests.support.paths import DATA
    s = Structure(load_domain(DATA / "costs" / "transport" / "domain.pddl"), "learned")
    assert s.unit_text[("drive", "cost")] == ("cost effect", "(increase (total-cost) (road-length ?l1 ?l2))")
    assert "cost_fn(learned,drive,road_length,2)." in s.lines
    assert ["cost_arg(learned,drive,1,v(2)).", "cost_arg(learned,drive,2,v(3))."] == \
        [x for x in s.lines if x.startswith("cost_arg")]
