"""amlasp/logic.py: the one formula traversal and the operations on it.

`nnf` is checked semantically: a formula and its negation normal form agree under every
assignment of truth values to their atoms (truth tables; quantifiers range over a universe of
two objects), for every precondition and effect condition of the shipped domains and for
hand-made formulas. The other operations are checked on hand-made cases, and all of them on a
formula nested 20,000 deep (the traversal is iterative: no RecursionError).
"""

from __future__ import annotations

import random
from itertools import product
from pathlib import Path

import pytest

from amlasp.logic import (
    atoms,
    bound_vars,
    conjunction_literals,
    conjuncts,
    fold,
    free_vars,
    map_atoms,
    nnf,
    subformulas,
    text,
    top_literals,
)
from amlasp.model import TRUE, And, Atom, Exists, Forall, Formula, Imply, Literal, Not, Or
from amlasp.pddl.parse import load_domain
from tests.support.examples import REGISTRY
from tests.support.ipc import ADL, DOMAINS, HANDMADE, LEARNED, NOLAM, reference

UNIVERSE = ("o1", "o2")  # what quantified variables range over in the truth tables


def p(*args: str) -> Atom:
    return Atom("p", args)


def q(*args: str) -> Atom:
    return Atom("q", args)


def r(*args: str) -> Atom:
    return Atom("r", args)


X, Y = ("?x", "t"), ("?y", "u")


# ----------------------------------------------------------------------------- truth tables

def instances(variables, env: dict[str, str]):
    """The environments a quantifier's body is evaluated in."""
    names = [v for v, _ in variables]
    for objs in product(UNIVERSE, repeat=len(names)):
        yield {**env, **dict(zip(names, objs))}


def ground(a: Atom, env: dict[str, str]) -> Atom:
    return Atom(a.predicate, tuple(env.get(x, x) for x in a.args))


def value(f: Formula, world: set[Atom], env: dict[str, str]) -> bool:
    """The truth of `f` in `world` (written here, recursively, independently of logic.py)."""
    if isinstance(f, Atom):
        return ground(f, env) in world
    if isinstance(f, Not):
        return not value(f.arg, world, env)
    if isinstance(f, And):
        return all(value(g, world, env) for g in f.args)
    if isinstance(f, Or):
        return any(value(g, world, env) for g in f.args)
    if isinstance(f, Imply):
        return not value(f.left, world, env) or value(f.right, world, env)
    if isinstance(f, Exists):
        return any(value(f.body, world, e) for e in instances(f.variables, env))
    if isinstance(f, Forall):
        return all(value(f.body, world, e) for e in instances(f.variables, env))
    raise TypeError(f)


def ground_atoms(f: Formula, env: dict[str, str]) -> set[Atom]:
    if isinstance(f, Atom):
        return {ground(f, env)}
    if isinstance(f, Not):
        return ground_atoms(f.arg, env)
    if isinstance(f, (And, Or)):
        return set().union(*(ground_atoms(g, env) for g in f.args))
    if isinstance(f, Imply):
        return ground_atoms(f.left, env) | ground_atoms(f.right, env)
    return set().union(*(ground_atoms(f.body, e) for e in instances(f.variables, env)))


def worlds(keys: list[Atom], exhaustive: int = 12, sampled: int = 512):
    """Every assignment of up to `exhaustive` atoms; else all true, all false, each single flip of
    these two, and `sampled` random ones (a conjunction of 40 atoms is true in one of 2^40)."""
    if len(keys) <= exhaustive:
        for bits in product((False, True), repeat=len(keys)):
            yield {a for a, b in zip(keys, bits) if b}
        return
    everything = set(keys)
    yield set()
    yield everything
    for a in keys:
        yield {a}
        yield everything - {a}
    rng = random.Random(len(keys))
    for _ in range(sampled):
        yield {a for a in keys if rng.random() < 0.5}


def assert_nnf_equivalent(f: Formula) -> int:
    """nnf(f) ≡ f and nnf(f, negate=True) ≡ (not f) on every world; returns the worlds checked."""
    pos, neg = nnf(f), nnf(f, negate=True)
    keys = sorted(ground_atoms(f, {}), key=str)
    n = 0
    for world in worlds(keys):
        truth = value(f, world, {})
        assert value(pos, world, {}) == truth, (text(f), sorted(map(str, world)))
        assert value(neg, world, {}) != truth, (text(f), sorted(map(str, world)))
        n += 1
    return n


def assert_nnf_shape(f: Formula) -> None:
    """`Not` only directly above atoms; no `imply` left."""
    for g in subformulas(f):
        assert not isinstance(g, Imply), text(f)
        if isinstance(g, Not):
            assert isinstance(g.arg, Atom), text(f)


HAND_MADE = [
    p(),
    Not(Not(Not(p()))),
    Not(Imply(p(), Or((q(), Not(r()))))),
    Imply(Imply(p(), q()), Not(And((p(), Not(q()))))),
    Not(Exists((X,), And((p("?x"), Not(Forall((Y,), Imply(q("?x", "?y"), r("?y")))))))),
    Forall((X,), Imply(p("?x", "?z"), Or((q("?z"), Exists((Y,), And((r("?y", "?x"), Not(p("?y"))))))))),
    Exists((X,), And((p("?x"), Forall((X,), q("?x"))))),  # ?x shadowed
    Not(Or((And(()), Not(Imply(Or(()), p()))))),  # true, false
    Not(Forall((X, Y), Or((p("?x", "?y"), Not(Exists((X,), q("?x", "?y"))))))),
    Imply(Not(p("c")), Not(Imply(q("c"), Not(And((r("c"), Not(p("c")))))))),
]


@pytest.mark.parametrize("index", range(len(HAND_MADE)))
def test_nnf_of_hand_made_formulas_is_equivalent_and_normal(index):
    f = HAND_MADE[index]
    assert assert_nnf_equivalent(f) >= 2
    assert_nnf_shape(nnf(f))
    assert_nnf_shape(nnf(f, negate=True))


def domain_files() -> list[Path]:
    return ([reference(n) for n in DOMAINS] + [NOLAM / f"{n}.pddl" for n in LEARNED if n != "childsnack"]
            + [HANDMADE / "adl" / f"{n}-domain.pddl" for n in ADL])


@pytest.mark.parametrize("path", domain_files(), ids=lambda f: f"{f.parent.name}/{f.stem}")
def test_nnf_of_every_shipped_precondition_and_condition(path):
    d = load_domain(path)
    forms = [a.precondition for a in d.actions] + [e.condition for a in d.actions for e in a.effects]
    checked = 0
    for f in forms:
        checked += assert_nnf_equivalent(f)
        assert_nnf_shape(nnf(f))
        assert_nnf_shape(nnf(f, negate=True))
    assert checked >= len(d.actions)


def test_nnf_of_the_examples():
    forms = [a.precondition for e in REGISTRY.values() for a in e.domain().actions]
    quantified = [f for f in forms if any(isinstance(g, (Exists, Forall, Imply, Or)) for g in subformulas(f))]
    assert quantified, "the ADL example must bring quantifiers"
    for f in forms:
        assert_nnf_equivalent(f)
        assert_nnf_shape(nnf(f))


def test_nnf_known_forms():
    v = (X,)
    assert nnf(Not(Imply(p(), q()))) == And((p(), Not(q())))
    assert nnf(Imply(p(), q())) == Or((Not(p()), q()))
    assert nnf(Not(Or((p(), q())))) == And((Not(p()), Not(q())))
    assert nnf(Not(And((p(), Not(q()))))) == Or((Not(p()), q()))
    assert nnf(Not(Exists(v, p("?x")))) == Forall(v, Not(p("?x")))
    assert nnf(Not(Forall(v, p("?x")))) == Exists(v, Not(p("?x")))
    assert nnf(Not(Not(p()))) == p() and nnf(p(), negate=True) == Not(p())
    assert nnf(Not(TRUE)) == Or(())


# ----------------------------------------------------------------------------- the other operations

MIXED = And((p("?x"), Exists((("?y", "t"),), q("?x", "?y", "c")), Not(r("?z", "?x"))))


def test_free_vars_in_order_of_first_occurrence():
    assert free_vars(MIXED) == ["?x", "?z"]
    assert free_vars(Or((p("?y"), Forall((Y,), q("?y"))))) == ["?y"]  # free at one place, bound at another
    assert free_vars(Exists((X,), p("?x", "c"))) == []
    assert free_vars(Forall((X,), Exists((Y,), r("?w", "?y", "?x", "?v")))) == ["?w", "?v"]


def test_bound_vars():
    assert bound_vars(MIXED) == {"?y"}
    assert bound_vars(Forall((X, Y), Exists((("?z", "t"),), p("?z")))) == {"?x", "?y", "?z"}
    assert bound_vars(Not(p("?x"))) == set()


def test_atoms_left_to_right_with_repeats_and_equality():
    f = Imply(And((p("?x"), Atom("=", ("?x", "c")))), Or((q(), p("?x"))))
    assert list(atoms(f)) == [p("?x"), Atom("=", ("?x", "c")), q(), p("?x")]
    assert list(atoms(MIXED)) == [p("?x"), q("?x", "?y", "c"), r("?z", "?x")]


def test_text_typed_and_untyped():
    assert text(MIXED) == "(and (p ?x) (exists (?y - t) (q ?x ?y c)) (not (r ?z ?x)))"
    assert text(MIXED, typed=False) == "(and (p ?x) (exists (?y) (q ?x ?y c)) (not (r ?z ?x)))"
    assert text(Forall((("?o", "object"), X), Imply(p("?o"), Or(())))) == \
        "(forall (?o - object ?x - t) (imply (p ?o) (or)))"  # not (?o ?x - t): that makes ?o a t
    assert text(Forall((X, ("?o", "object")), p("?o"))) == "(forall (?x - t ?o) (p ?o))"  # trailing: object
    assert text(TRUE) == "(and)"


def test_map_atoms_passes_the_bound_names_so_that_shadowed_variables_stay():
    f = And((p("?x"), Exists((X,), q("?x", "?y")), Forall((Y,), r("?x", "?y"))))

    def rename(a: Atom, bound: frozenset[str]) -> Atom:
        return Atom(a.predicate, tuple("?a" if x == "?x" and x not in bound else x for x in a.args))
    assert map_atoms(f, rename) == And((p("?a"), Exists((X,), q("?x", "?y")), Forall((Y,), r("?a", "?y"))))
    seen = []
    map_atoms(f, lambda a, bound: seen.append((a.predicate, bound)) or a)
    assert seen == [("p", frozenset()), ("q", frozenset({"?x"})), ("r", frozenset({"?y"}))]


def test_conjuncts_and_literals():
    f = And((p(), And((Not(q()), And(()))), r()))
    assert conjuncts(f) == [p(), Not(q()), r()]
    assert conjunction_literals(f) == (Literal(p(), True), Literal(q(), False), Literal(r(), True))
    assert conjunction_literals(And((p(), Or((q(), r()))))) is None
    assert top_literals(And((p(), Or((q(), r())), Not(q())))) == (Literal(p(), True), Literal(q(), False))


def test_fold_with_scope_passes_the_environment_down():
    """Depth of each atom under quantifiers, computed by a fold with a scope."""
    f = And((p(), Exists((X,), And((q("?x"), Forall((Y,), r("?y")))))))
    depths = fold(f, lambda a, depth: [(a.predicate, depth)], lambda g, parts, _: [x for part in parts for x in part],
                  lambda g, depth: depth + 1 if isinstance(g, (Exists, Forall)) else depth, 0)
    assert depths == [("p", 0), ("q", 1), ("r", 2)]


# ----------------------------------------------------------------------------- depth

DEPTH = 20_000


def test_a_formula_nested_20000_deep_is_no_recursion_error():
    f: Formula = p()
    for _ in range(DEPTH):
        f = Not(f)
    assert nnf(f) == p() and nnf(f, negate=True) == Not(p())
    assert text(f) == "(not " * DEPTH + "(p)" + ")" * DEPTH
    assert fold(f, lambda a, _: 0, lambda g, parts, _: 1 + max(parts)) == DEPTH
    assert free_vars(f) == [] and bound_vars(f) == set() and list(atoms(f)) == [p()]


def test_every_connective_nested_20000_deep():
    f: Formula = p("?x")
    for i in range(DEPTH):
        f = (And((f, q())), Or((Not(f), r())), Exists((X,), f), Imply(f, q("?x")), Forall((Y,), Not(f)))[i % 5]
    depth = fold(f, lambda a, _: 0, lambda g, parts, _: 1 + max(parts))
    assert depth >= DEPTH
    g = nnf(f)
    assert sum(1 for _ in subformulas(g)) == fold(g, lambda a, _: 1, lambda h, parts, _: 1 + sum(parts))
    assert_nnf_shape(g)
    assert_nnf_shape(nnf(f, negate=True))
    s = text(f)
    assert s.count("(") == s.count(")") and s.count("(exists") == DEPTH // 5
    assert free_vars(f) == ["?x"] and bound_vars(f) == {"?x", "?y"}
    renamed = map_atoms(f, lambda a, bound: Atom(a.predicate.upper(), a.args))
    assert {a.predicate for a in atoms(renamed)} == {"P", "Q", "R"}
