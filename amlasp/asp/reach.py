"""Relaxed reachability for the size guard (asp/size.py): how many instances of each action the delete
relaxation reaches from the initial state, counted as Fast Downward's translator grounds a task.

The guard's first estimate multiplies the atoms of a predicate divided by the objects of its bound
positions (a join over uniform data): IPC 2018's organic-synthesis binds five hydrogens to one
aluminium through `bond`, a relation of thousands of atoms of which each aluminium has four, so that
estimate says 5e28 instances where Fast Downward grounds a few thousand. Where that estimate passes the
limit, the guard asks this module instead: a fixpoint over the atoms the relaxation reaches (static and
fluent), each action's positive precondition atoms joined over them (semi-naive: a round joins only
with the atoms the last round added), its add effects (conditional ones as if their condition held)
added. Negative literals, disjunctions, quantified conditions and derived atoms constrain nothing here
(an over-approximation: the count is at least the relaxed one), `(not (= x y))` and `(= x y)` between
parameters do. A parameter that no atom names is counted, not enumerated.

The fixpoint is itself bounded: it takes at most `budget` steps (a binding extended, an atom added),
and gives up (None) past them, so that a hostile input costs this module a few seconds at most and the
first estimate decides.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from typing import Iterable, Iterator

from ..logic import conjuncts, nnf
from ..model import Atom, Domain, Not, Problem, is_var

#: Steps (candidate atoms joined, atoms added) the fixpoint may take before it gives up: 2-4 s of CPU.
BUDGET = 3_000_000

Args = tuple[str, ...]


class _Spent(Exception):
    """The budget ran out."""


@dataclass(frozen=True)
class _Schema:
    """What the relaxation of one action needs: its parameters' objects, the atoms that bind them."""

    name: str
    objects: dict[str, tuple[str, ...]]  # parameter → the objects of its type
    allowed: dict[str, frozenset[str]]  # the same, as sets
    atoms: tuple[Atom, ...]  # positive precondition atoms (basic predicates)
    distinct: tuple[tuple[str, str], ...]  # (not (= a b)), a and b parameters or constants
    same: tuple[tuple[str, str], ...]  # (= a b)
    adds: tuple[tuple[Atom, tuple[tuple[str, tuple[str, ...]], ...]], ...]  # add effect, its forall's objects
    free: tuple[str, ...]  # parameters no atom names
    constraints: dict[str, tuple[tuple[str, bool], ...]]  # parameter → (other, must be equal) of its (in)equalities


def _schemas(domain: Domain, problem: Problem) -> list[_Schema]:
    kinds = problem.object_types(domain)
    by_type: dict[str, tuple[str, ...]] = {}

    def objects(t: str) -> tuple[str, ...]:
        if t not in by_type:
            by_type[t] = tuple(o for o, k in kinds.items() if domain.fits(k, t))
        return by_type[t]

    derived = domain.derived_predicates()
    out = []
    for a in domain.actions:
        parts = conjuncts(nnf(a.precondition))
        atoms = tuple(g for g in parts if isinstance(g, Atom) and g.predicate != "=" and g.predicate not in derived)
        same = tuple((g.args[0], g.args[1]) for g in parts if isinstance(g, Atom) and g.predicate == "=")
        distinct = tuple((g.arg.args[0], g.arg.args[1]) for g in parts
                         if isinstance(g, Not) and isinstance(g.arg, Atom) and g.arg.predicate == "=")
        named = {x for g in atoms for x in g.args}
        adds = tuple((e.literal.atom, tuple((v, objects(t)) for v, t in e.variables)) for e in a.effects
                     if e.literal.positive and e.literal.atom.predicate != "=")
        params = {v: objects(t) for v, t in a.parameters}
        constraints: dict[str, list[tuple[str, bool]]] = defaultdict(list)
        for pairs, equal in ((distinct, False), (same, True)):
            for x, y in pairs:
                constraints[x].append((y, equal))
                constraints[y].append((x, equal))
        out.append(_Schema(a.name, params, {v: frozenset(o) for v, o in params.items()}, atoms, distinct, same, adds,
                           tuple(v for v, _ in a.parameters if v not in named),
                           {v: tuple(c) for v, c in constraints.items()}))
    return out


class _Reach:
    """The atoms reached so far, by predicate, with indexes by bound positions; the steps left."""

    def __init__(self, budget: int):
        self.atoms: dict[str, set[Args]] = defaultdict(set)
        self.index: dict[tuple[str, tuple[int, ...]], dict[Args, list[Args]]] = {}
        self.left = budget

    def spend(self, n: int = 1) -> None:
        self.left -= n
        if self.left < 0:
            raise _Spent

    def add(self, predicate: str, args: Args, new: dict[str, set[Args]]) -> None:
        if args not in self.atoms[predicate]:
            self.spend()
            self.atoms[predicate].add(args)
            new[predicate].add(args)
            for (p, positions), table in self.index.items():
                if p == predicate:
                    table.setdefault(tuple(args[i] for i in positions), []).append(args)

    def matching(self, predicate: str, positions: tuple[int, ...], key: Args) -> list[Args]:
        table = self.index.get((predicate, positions))
        if table is None:
            table = self.index[(predicate, positions)] = {}
            for args in self.atoms[predicate]:
                table.setdefault(tuple(args[i] for i in positions), []).append(args)
        return table.get(key, [])

    def bindings(self, s: _Schema, first: int | None = None, seed: Iterable[Args] = ()) -> Iterator[dict[str, str]]:
        """The bindings of `s`'s named parameters that make its atoms reached (atom `first` one of
        `seed`, when given), each parameter of its type, equalities and inequalities respected."""
        order = self._order(s, first)
        if first is None:
            start: list[dict[str, str]] = [{}]
        else:
            start = [b for args in seed if (b := _unify(s, s.atoms[first], args, {})) is not None]
        stack = [(b, 0) for b in start]
        while stack:
            b, k = stack.pop()
            if k == len(order):
                yield b
                continue
            atom, positions, lookup = order[k]
            key = tuple(b[x] if v else x for x, v in lookup)
            candidates = self.matching(atom.predicate, positions, key)
            self.spend(len(candidates) + 1)
            for args in candidates:
                nb = _unify(s, atom, args, b)
                if nb is not None:
                    stack.append((nb, k + 1))

    def _order(self, s: _Schema, first: int | None) -> list[tuple[Atom, tuple[int, ...], tuple[tuple[str, bool], ...]]]:
        """The atoms to join after `first`, most bound positions first (ties: the smaller relation), each
        with its bound positions and how to read their key from a binding."""
        bound = set(x for x in s.atoms[first].args if is_var(x)) if first is not None else set()
        todo = [k for k in range(len(s.atoms)) if k != first]
        out = []
        while todo:
            i = max(todo, key=lambda k: (sum(1 for x in s.atoms[k].args if not is_var(x) or x in bound),
                                         -len(self.atoms[s.atoms[k].predicate])))
            todo.remove(i)
            atom = s.atoms[i]
            positions = tuple(j for j, x in enumerate(atom.args) if not is_var(x) or x in bound)
            out.append((atom, positions, tuple((atom.args[j], is_var(atom.args[j])) for j in positions)))
            bound |= {x for x in atom.args if is_var(x)}
        return out

    def fire(self, s: _Schema, b: dict[str, str], new: dict[str, set[Args]]) -> None:
        """Add the add effects of the instances that extend `b` (free parameters, forall variables: every object)."""
        for atom, quantified in s.adds:
            ranges = [(v, objs) for v, objs in (*quantified, *((v, s.objects[v]) for v in s.free)) if v in atom.args]
            self.spend(math.prod(len(objs) for _, objs in ranges))
            for values in _product([objs for _, objs in ranges]):
                sub = {**b, **{v: x for (v, _), x in zip(ranges, values)}}
                self.add(atom.predicate, tuple(sub.get(x, x) for x in atom.args), new)


def _unify(s: _Schema, atom: Atom, args: Args, b: dict[str, str]) -> dict[str, str] | None:
    """`b` extended so that `atom` is `args`, or None: a clash, an object of another type, an
    (in)equality broken (checked as each parameter is bound)."""
    nb = dict(b)
    for x, v in zip(atom.args, args):
        if x[0] != "?":
            if x != v:
                return None
        elif x not in nb:
            if x in s.allowed and v not in s.allowed[x]:
                return None
            for other, equal in s.constraints.get(x, ()):
                w = nb.get(other) if other[0] == "?" else other
                if w is not None and (w == v) != equal:
                    return None
            nb[x] = v
        elif nb[x] != v:
            return None
    return nb


def _product(lists: list[tuple[str, ...]]) -> Iterator[tuple[str, ...]]:
    out: list[tuple[str, ...]] = [()]
    for objs in lists:
        out = [t + (o,) for t in out for o in objs]
    return iter(out)


def relaxed_instances(domain: Domain, problem: Problem, start: Iterable[Atom] = (),
                      budget: int = BUDGET) -> dict[str, float] | None:
    """Each action's instances that the delete relaxation reaches from the problem's initial state and
    the atoms `start` (states given besides it), or None when that takes more than `budget` steps."""
    reach = _Reach(budget)
    schemas = _schemas(domain, problem)
    new: dict[str, set[Args]] = defaultdict(set)
    try:
        for a in (*problem.init, *start):
            if a.predicate != "=":
                reach.add(a.predicate, a.args, new)
        for s in schemas:  # the first round: every binding over the start
            for b in reach.bindings(s):
                reach.fire(s, b, new)
        while any(new.values()):
            delta, new = new, defaultdict(set)
            for s in schemas:
                for i, atom in enumerate(s.atoms):
                    if delta.get(atom.predicate):
                        for b in reach.bindings(s, i, list(delta[atom.predicate])):
                            reach.fire(s, b, new)
        out = {}
        for s in schemas:
            per = sum(1 for _ in reach.bindings(s))
            out[s.name] = float(per * math.prod(len(s.objects[v]) for v in s.free))
        return out
    except _Spent:
        return None


__all__ = ["BUDGET", "relaxed_instances"]
