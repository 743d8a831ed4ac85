"""Our domain conversion (`amlasp.pddl.convert`) against an independent parser: the `pddl` package.

Until issue 24 the `pddl` package parsed every domain a second time and its objects were converted
to ours; our own walk of the checked tree replaced it (80 ms less on a process's first domain). The
package stays as the oracle: every domain file of the repository that it reads as written (no
repair of ours needed) must give the same predicates, actions, preconditions, effects and derived
rules, whichever reads it. The package builds `and`/`or` flattened, each operand once, one operand
standing for itself: so do we (the syntactic metrics count each literal once).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from amlasp.errors import InputError
from amlasp.model import TRUE, And, Atom, Derived, Effect, Exists, Forall, Imply, Literal, Not, Or, either_type
from amlasp.pddl.parse import load_domain

pddl = pytest.importorskip("pddl")
pl = pytest.importorskip("pddl.logic.base")
pe = pytest.importorskip("pddl.logic.effects")
pp = pytest.importorskip("pddl.logic.predicates")
pt = pytest.importorskip("pddl.logic.terms")

ROOT = Path(__file__).resolve().parents[2]


def _domain_files() -> list[str]:
    listed = subprocess.run(["git", "ls-files", "*.pddl"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    out = []
    for f in listed:
        head = (ROOT / f).read_text(errors="replace")[:4000].lower().replace(" ", "")
        if "(define(domain" in head:
            out.append(f)
    return out


def _type(tags) -> str:
    return either_type(str(t) for t in tags) if tags else "object"


def _vars(vs, sort: bool = True):
    out = [("?" + str(v.name).lower(), _type([str(t).lower() for t in v.type_tags])) for v in vs]
    return tuple(sorted(out)) if sort else tuple(out)


def _term(t) -> str:  # PDDL is case-insensitive: we read names lower-cased, the package keeps their case
    return ("?" + str(t.name) if isinstance(t, pt.Variable) else str(t.name)).lower()


def _formula(f):
    if isinstance(f, pp.EqualTo):
        return Atom("=", (_term(f.left), _term(f.right)))
    if isinstance(f, pp.Predicate):
        return Atom(str(f.name).lower(), tuple(_term(t) for t in f.terms))
    if isinstance(f, pl.Not):
        return Not(_formula(f.argument))
    if isinstance(f, (pl.And, pl.Or)):
        return (And if isinstance(f, pl.And) else Or)(tuple(_formula(g) for g in f.operands))
    if isinstance(f, pl.Imply):
        return Imply(*(_formula(g) for g in f.operands))
    if isinstance(f, (pl.ForallCondition, pl.ExistsCondition)):
        kind = Forall if isinstance(f, pl.ForallCondition) else Exists
        return kind(_vars(f.variables), _formula(f.condition))
    raise AssertionError(f"not expected in these domains: {f}")


def _effects(e, cond=TRUE, vs=()):
    if isinstance(e, pl.And):
        return [x for g in e.operands for x in _effects(g, cond, vs)]
    if isinstance(e, pe.Forall):
        return _effects(e.effect, cond, vs + _vars(e.variables))
    if isinstance(e, pe.When):
        c = _formula(e.condition)
        return _effects(e.effect, c if cond == TRUE else And((cond, c)), vs)
    if isinstance(e, pl.Not):
        return [Effect(Literal(_formula(e.argument), False), cond, vs)]
    return [Effect(Literal(_formula(e), True), cond, vs)]


def _flat(f):  # a literal or a conjunction as one flat `And`, as our conversion keeps a precondition
    if isinstance(f, Atom) or isinstance(f, Not) and isinstance(f.arg, Atom):
        return And((f,))
    return f


def _oracle(path: Path):
    """The package's reading of a domain as ours: predicates, actions (by name), derived rules (a set)."""
    old = getattr(sys, "tracebacklimit", None)
    try:
        d = pddl.parse_domain(str(path))
    finally:  # the package sets sys.tracebacklimit = 0 and leaves it so: later tracebacks would lose their lines
        if old is None:
            if hasattr(sys, "tracebacklimit"):
                del sys.tracebacklimit
        else:
            sys.tracebacklimit = old
    predicates = {str(p.name).lower(): _vars(p.terms, sort=False) for p in d.predicates}
    actions = {}
    for a in d.actions:
        empty = isinstance(a.precondition, pl.Or) and not a.precondition.operands  # it reads `()` as (or)
        pre = _flat(_formula(a.precondition)) if a.precondition is not None and not empty else TRUE
        actions[str(a.name).lower()] = (_vars(a.parameters, sort=False), pre,
                                tuple(dict.fromkeys(_effects(a.effect))) if a.effect is not None else ())
    derived = {Derived(str(r.predicate.name).lower(), _vars(r.predicate.terms, sort=False),
                       _flat(_formula(r.condition))) for r in getattr(d, "derived_predicates", ()) or ()}
    return predicates, actions, derived


FILES = _domain_files()
#: Folders of domains broken on purpose: bad input for the tests, and the LLM-style corpus of benchmarks/.
_BROKEN_ON_PURPOSE = ("tests/data/bad/", "tests/data/broken/", "benchmarks/llm_domains/")


def test_the_corpus_is_the_repositorys_domains():
    assert len(FILES) >= 100  # the IPC references, learned models, wild and test domains


@pytest.mark.parametrize("name", FILES)
def test_conversion_agrees_with_the_pddl_package(name):
    path = ROOT / name
    try:
        oracle = _oracle(path)
    except Exception:  # noqa: BLE001 - the package refuses what needs our repairs, or what is wrong
        pytest.skip("the pddl package does not read this file as written")
    try:
        ours = load_domain(path, undeclared_predicates=True)  # the package takes undeclared predicates silently
    except InputError as e:  # what we refuse on purpose and the package takes silently (wrong arity, ...)
        assert name.startswith(_BROKEN_ON_PURPOSE), f"the pddl package reads it, we refuse it: {e}"
        return
    predicates, actions, derived = oracle
    assert {p.name: p.parameters for p in ours.predicates if p.name in predicates} == predicates
    assert {a.name: (a.parameters, a.precondition, a.effects) for a in ours.actions} == actions
    assert {Derived(r.predicate, r.parameters, r.body) for r in ours.derived} == derived
