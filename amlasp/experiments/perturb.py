"""Perturbed copies of a domain, with the list of changes made: ground truth for syntactic metrics.

Each function takes a Domain and returns a `Perturbed` (a new Domain and its changes), and is
deterministic for a given seed. A change carries the number of edits it adds to the edit
distance of `amlasp.metrics.compare`: dropping or adding a literal is one edit; renaming predicates,
actions or parameters and reordering parameters are none (the distance is up to renaming).
Added literals are type-consistent, new to their action and category, and never one that was
dropped, so that changes do not cancel. Save a perturbed domain with `amlasp.pddl.writer.to_pddl`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Callable

from ..asp.names import asp_name
from ..logic import bound_vars, map_atoms
from ..model import TRUE, Action, And, Atom, Domain, Effect, Formula, Literal, Not, Predicate

Seed = int | random.Random


@dataclass(frozen=True)
class Change:
    kind: str  # drop-precondition | drop-effect | add-precondition | add-effect | rename-* | permute-parameters
    action: str | None  # the action's name when the change was made
    detail: str
    edits: int  # edits this change adds to the edit distance

    def __str__(self) -> str:
        where = f"{self.action}: " if self.action else ""
        return f"{where}{self.kind} {self.detail}"


@dataclass(frozen=True)
class Perturbed:
    domain: Domain
    changes: tuple[Change, ...] = ()

    @property
    def edits(self) -> int:
        """The edit distance to the original when no two changes interact."""
        return sum(c.edits for c in self.changes)

    def then(self, fn: Callable[..., "Perturbed"], *args, **kwargs) -> "Perturbed":
        nxt = fn(self.domain, *args, **kwargs)
        return Perturbed(nxt.domain, self.changes + nxt.changes)


def _rng(seed: Seed) -> random.Random:
    return seed if isinstance(seed, random.Random) else random.Random(seed)


def _as_formula(lit: Literal) -> Formula:
    return lit.atom if lit.positive else Not(lit.atom)


# ----------------------------------------------------------------------------- literals

def _units(a: Action) -> list[tuple[str, Literal]]:
    """The droppable literals of an action: conjunctive precondition literals, unconditional effects."""
    out: list[tuple[str, Literal]] = []
    pre = a.precondition_literals()
    for lit in dict.fromkeys(pre or ()):
        out.append(("precondition", lit))
    for lit in dict.fromkeys(e.literal for e in a.effects if e.unconditional):
        out.append(("effect", lit))
    return out


def _without(a: Action, where: str, lit: Literal) -> Action:
    if where == "precondition":
        kept = tuple(_as_formula(l) for l in a.precondition_literals() or () if l != lit)
        return replace(a, precondition=And(kept))
    return replace(a, effects=tuple(e for e in a.effects if not (e.unconditional and e.literal == lit)))


def _with(a: Action, where: str, lit: Literal) -> Action:
    if where == "precondition":
        return replace(a, precondition=And(tuple(_as_formula(l) for l in a.precondition_literals() or ())
                                           + (_as_formula(lit),)))
    return replace(a, effects=a.effects + (Effect(lit),))


def _set_action(d: Domain, old: Action, new: Action) -> Domain:
    return replace(d, actions=tuple(new if x is old else x for x in d.actions))


def drop_literals(domain: Domain, n: int, seed: Seed = 0) -> Perturbed:
    """Remove `n` distinct literals (preconditions or unconditional effects), chosen uniformly."""
    rng = _rng(seed)
    d = domain
    changes: list[Change] = []
    for _ in range(n):
        pool = [(a, where, lit) for a in d.actions for where, lit in _units(a)]
        if not pool:
            break
        a, where, lit = rng.choice(pool)
        d = _set_action(d, a, _without(a, where, lit))
        changes.append(Change(f"drop-{where}", a.name, str(lit), 1))
    return Perturbed(d, tuple(changes))


def _fits(domain: Domain, have: str, want: str) -> bool:
    return want == "object" or want in domain.ancestors(have)


def add_literals(domain: Domain, n: int, seed: Seed = 0, avoid: tuple[Change, ...] = ()) -> Perturbed:
    """Add `n` new type-consistent literals over an action's parameters (never one listed in `avoid`)."""
    rng = _rng(seed)
    d = domain
    changes: list[Change] = []
    banned = {(c.action, c.kind.split("-", 1)[1], c.detail) for c in avoid if c.kind.startswith("drop-")}
    preds = [p for p in d.predicates]
    for _ in range(n):
        for _attempt in range(200):
            a = rng.choice(d.actions)
            where = rng.choice(("precondition", "effect"))
            if where == "precondition" and a.precondition_literals() is None:
                continue
            p = rng.choice(preds) if preds else None
            if p is None:
                break
            choices = [[v for v, t in a.parameters if _fits(d, t, pt)] for _, pt in p.parameters]
            if any(not c for c in choices):
                continue
            lit = Literal(Atom(p.name, tuple(rng.choice(c) for c in choices)), rng.random() < 0.5)
            present = {l for w, l in _units(a) if w == where}
            if lit in present or (a.name, where, str(lit)) in banned:
                continue
            if where == "effect" and any(e.literal == lit for e in a.effects):
                continue  # present as a conditional effect: adding it would not be a plain edit
            d = _set_action(d, a, _with(a, where, lit))
            changes.append(Change(f"add-{where}", a.name, str(lit), 1))
            break
    return Perturbed(d, tuple(changes))


# ----------------------------------------------------------------------------- renaming

def _rename_formula(f: Formula, preds: dict[str, str], terms: dict[str, str]) -> Formula:
    """`f` with predicates and terms renamed; a name bound by a quantifier above an atom shadows `terms`."""
    def rename(atom: Atom, bound: frozenset[str]) -> Atom:
        p = atom.predicate if atom.predicate == "=" else preds.get(atom.predicate, atom.predicate)
        return Atom(p, tuple(t if t in bound else terms.get(t, t) for t in atom.args))
    return map_atoms(f, rename)


def _rename_effect(e: Effect, preds: dict[str, str], terms: dict[str, str]) -> Effect:
    inner = {k: v for k, v in terms.items() if k not in dict(e.variables)}
    atom = _rename_formula(e.literal.atom, preds, inner)
    assert isinstance(atom, Atom)  # an atom renamed is an atom
    lit = Literal(atom, e.literal.positive)
    return Effect(lit, _rename_formula(e.condition, preds, inner) if e.condition != TRUE else TRUE, e.variables)


def _rename_action(a: Action, preds: dict[str, str], terms: dict[str, str], name: str | None = None) -> Action:
    return replace(a, name=name or a.name, parameters=tuple((terms.get(v, v), t) for v, t in a.parameters),
                   precondition=_rename_formula(a.precondition, preds, terms),
                   effects=tuple(_rename_effect(e, preds, terms) for e in a.effects))


def _bound_names(a: Action) -> set[str]:
    """Names bound inside the action (by its effects and quantifiers): a fresh parameter must differ from them."""
    return ({v for e in a.effects for v, _ in e.variables} | bound_vars(a.precondition)
            | {v for e in a.effects for v in bound_vars(e.condition)})


def _fresh(rng: random.Random, prefix: str, taken: set[str]) -> str:
    while True:
        name = f"{prefix}{rng.randrange(16 ** 5):05x}"
        if asp_name(name) not in taken:
            taken.add(asp_name(name))
            return name


def rename_symbols(domain: Domain, seed: Seed = 0, predicates: bool = True, actions: bool = True,
                   parameters: bool = True) -> Perturbed:
    """Give predicates, actions and action parameters fresh random names (no edits)."""
    rng = _rng(seed)
    taken = {asp_name(x) for x in [p.name for p in domain.predicates] + [a.name for a in domain.actions]
             + [c for c, _ in domain.constants] + [t for t, _ in domain.types]}
    changes: list[Change] = []
    pmap: dict[str, str] = {}
    if predicates:
        for p in domain.predicates:
            pmap[p.name] = _fresh(rng, "p", taken)
            changes.append(Change("rename-predicate", None, f"{p.name} -> {pmap[p.name]}", 0))
    new_actions = []
    for a in domain.actions:
        terms: dict[str, str] = {}
        if parameters:
            used = {asp_name(v) for v in _bound_names(a)}
            for v, _ in a.parameters:
                terms[v] = "?" + _fresh(rng, "v", used)
            if terms:
                changes.append(Change("rename-parameters", a.name,
                                      " ".join(f"{k}->{v}" for k, v in terms.items()), 0))
        name = None
        if actions:
            name = _fresh(rng, "a", taken)
            changes.append(Change("rename-action", a.name, f"{a.name} -> {name}", 0))
        new_actions.append(_rename_action(a, pmap, terms, name))
    new_preds = tuple(Predicate(pmap.get(p.name, p.name), p.parameters) for p in domain.predicates)
    return Perturbed(replace(domain, predicates=new_preds, actions=tuple(new_actions)), tuple(changes))


def restyle_names(domain: Domain) -> Perturbed:
    """Swap `-` and `_` in predicate and action names: names that still meet as one symbol (no edits)."""
    def swap(s: str) -> str:
        return s.translate(str.maketrans("-_", "_-"))
    pmap = {p.name: swap(p.name) for p in domain.predicates}
    changes = [Change("restyle-predicate", None, f"{k} -> {v}", 0) for k, v in pmap.items() if k != v]
    acts = []
    for a in domain.actions:
        acts.append(_rename_action(a, pmap, {}, swap(a.name)))
        if swap(a.name) != a.name:
            changes.append(Change("restyle-action", a.name, f"{a.name} -> {swap(a.name)}", 0))
    preds = tuple(Predicate(pmap[p.name], p.parameters) for p in domain.predicates)
    return Perturbed(replace(domain, predicates=preds, actions=tuple(acts)), tuple(changes))


def permute_parameters(domain: Domain, seed: Seed = 0, probability: float = 1.0) -> Perturbed:
    """Reorder the parameters of actions with two or more (a non-identity order each; no edits)."""
    rng = _rng(seed)
    changes: list[Change] = []
    acts = []
    for a in domain.actions:
        if a.arity >= 2 and rng.random() < probability:
            order = list(range(a.arity))
            while order == list(range(a.arity)):
                rng.shuffle(order)
            params = tuple(a.parameters[i] for i in order)
            changes.append(Change("permute-parameters", a.name,
                                  f"({' '.join(v for v, _ in a.parameters)}) -> ({' '.join(v for v, _ in params)})", 0))
            a = replace(a, parameters=params)
        acts.append(a)
    return Perturbed(replace(domain, actions=tuple(acts)), tuple(changes))


def perturb(domain: Domain, seed: int = 0, drop: int = 0, add: int = 0, permute: bool = False,
            rename: bool = False) -> Perturbed:
    """Drop and add literals, then reorder parameters, then rename everything (in this order)."""
    rng = random.Random(seed)
    out = Perturbed(domain).then(drop_literals, drop, rng)
    out = out.then(add_literals, add, rng, avoid=out.changes)
    if permute:
        out = out.then(permute_parameters, rng)
    if rename:
        out = out.then(rename_symbols, rng)
    return out


__all__ = ["Change", "Perturbed", "drop_literals", "add_literals", "rename_symbols", "restyle_names",
           "permute_parameters", "perturb"]
