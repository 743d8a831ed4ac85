"""amlasp/asp/reach.py (issue 31): the relaxed reachability the size guard counts with where its join
estimate passes the limit. Checked against an exhaustive enumeration (every tuple of objects, a
fixpoint of the delete relaxation), on a skewed relation where the join estimate is off by orders of
magnitude (as organic-synthesis's `bond`), and bounded on a hostile input."""

from __future__ import annotations

import time
from itertools import product

import pytest

from amlasp.asp import size
from amlasp.asp.reach import relaxed_instances
from amlasp.errors import InputError
from amlasp.logic import conjuncts, nnf
from amlasp.model import Atom, Not
from amlasp.pddl.parse import load_domain, load_problem, parse_domain, parse_problem
from amlasp.reasoning.engine import applicable
from tests.support.paths import DATA, IPC


def exhaustive(domain, problem) -> dict[str, int]:
    """Every tuple of objects of the parameters' types; an instance is reached when its positive
    precondition atoms are, and (in)equalities hold; its add effects (any condition, every forall
    object) are reached then. The count of reached instances at the fixpoint, per action."""
    kinds = problem.object_types(domain)
    objs = lambda t: [o for o, k in kinds.items() if domain.fits(k, t)]  # noqa: E731
    reached = {a for a in problem.init if a.predicate != "="}
    while True:
        count, new = {}, set()
        for a in domain.actions:
            parts = conjuncts(nnf(a.precondition))
            n = 0
            for values in product(*(objs(t) for _, t in a.parameters)):
                sub = dict(zip((v for v, _ in a.parameters), values))
                ok = True
                for g in parts:
                    if isinstance(g, Atom) and g.predicate == "=":
                        ok &= g.bind(sub).args[0] == g.bind(sub).args[1]
                    elif isinstance(g, Not) and isinstance(g.arg, Atom) and g.arg.predicate == "=":
                        ok &= g.arg.bind(sub).args[0] != g.arg.bind(sub).args[1]
                    elif isinstance(g, Atom):
                        ok &= g.bind(sub) in reached
                if ok:
                    n += 1
                    for e in a.effects:
                        if e.literal.positive:
                            for more in product(*(objs(t) for _, t in e.variables)):
                                new.add(e.literal.atom.bind({**sub, **dict(zip((v for v, _ in e.variables), more))}))
            count[a.name] = n
        if new <= reached:
            return count
        reached |= new


@pytest.mark.parametrize("domain,problem", [
    (IPC / "domains" / "ferry.pddl", IPC / "problems" / "learning" / "ferry" / "0_ferry_prob.pddl"),
    (DATA / "diamond" / "domain.pddl", DATA / "diamond" / "problem.pddl"),
], ids=["ferry", "diamond"])
def test_the_count_is_the_exhaustive_enumerations(domain, problem):
    d = load_domain(domain)
    p = load_problem(problem, d)
    assert relaxed_instances(d, p) == {k: float(v) for k, v in exhaustive(d, p).items()}


def skewed(n: int):
    """A chain of n carbons bonded both ways and one aluminium with four hydrogens, and an action that
    takes the aluminium's hydrogens four at a time (organic-synthesis's reductions do so with five)."""
    d = parse_domain("""(define (domain skewed) (:requirements :strips :typing :equality)
      (:types element - object aluminium hydrogen carbon - element)
      (:predicates (bond ?x - element ?y - element) (free ?h - hydrogen))
      (:action strip :parameters (?al - aluminium ?h1 ?h2 ?h3 ?h4 - hydrogen)
        :precondition (and (bond ?h1 ?al) (bond ?h2 ?al) (bond ?h3 ?al) (bond ?h4 ?al)
                           (not (= ?h1 ?h2)) (not (= ?h1 ?h3)) (not (= ?h1 ?h4)) (not (= ?h2 ?h3))
                           (not (= ?h2 ?h4)) (not (= ?h3 ?h4)))
        :effect (and (free ?h1) (not (bond ?h1 ?al)))))""", "skewed.pddl")
    carbons = " ".join(f"c{i}" for i in range(n))
    bonds = " ".join(f"(bond c{i} c{i + 1}) (bond c{i + 1} c{i})" for i in range(n - 1))
    p = parse_problem(f"""(define (problem s) (:domain skewed)
      (:objects al - aluminium h1 h2 h3 h4 - hydrogen {carbons} - carbon)
      (:init {bonds} (bond h1 al) (bond h2 al) (bond h3 al) (bond h4 al) (bond al h1) (bond al h2)
             (bond al h3) (bond al h4))
      (:goal (and (free h1))))""", d, "skewed-p.pddl")
    return d, p


def test_a_skewed_relation_is_counted_not_guessed():
    """The join estimate takes `bond`'s atoms per aluminium (|bond| / 1) for each hydrogen: 2.5e8 here, over the
    default limit (main refused `applicable` so); relaxed reachability counts the 4! instances."""
    d, p = skewed(60)
    joined = sum(size.estimate(d, [(size.sizes(d, p), 1)], effects=False).values())
    assert joined > 2e7
    assert relaxed_instances(d, p) == {"strip": 24.0}
    with pytest.raises(InputError, match=r"grounding would make about 2.5e\+08"):
        size.guard("applicable", d, [(p, 1)], effects=False)  # the join estimate alone (no states given)
    size.guard("applicable", d, [(p, 1)], effects=False, start=lambda _: ())  # passes
    assert len(applicable(d, p)[0]) == 24


def test_the_count_is_bounded_and_a_hostile_task_is_still_refused(monkeypatch):
    """A dense relation joined three times (a triangle over 150 objects: 3.4e6 instances) runs out of
    its budget quickly; the guard then refuses on the join estimate, as before."""
    d = parse_domain("""(define (domain h) (:predicates (e ?x ?y) (m ?x ?y ?z))
      (:action a :parameters (?x ?y ?z) :precondition (and (e ?x ?y) (e ?y ?z) (e ?z ?x)) :effect (m ?x ?y ?z)))""")
    objs = " ".join(f"o{i}" for i in range(150))
    edges = " ".join(f"(e o{i} o{j})" for i in range(150) for j in range(150))
    p = parse_problem(f"(define (problem p) (:domain h) (:objects {objs}) (:init {edges}) (:goal (and)))", d)
    t = time.process_time()
    assert relaxed_instances(d, p, budget=200_000) is None
    assert time.process_time() - t < 5
    monkeypatch.setenv("AMLASP_MAX_GROUNDING", "1e5")
    t = time.process_time()
    with pytest.raises(InputError, match="grounding would make about"):
        size.guard("applicable", d, [(p, 1)], start=lambda _: ())
    assert time.process_time() - t < 20
