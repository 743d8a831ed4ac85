"""What a question may mention: the type-correct ground atoms and actions of a problem.

ACPBench's reach and areach ask for *any* proposition (action) that can never hold (become
applicable); their answer lists are drawn from the type-correct ground atoms of the predicates
that actions change, and the type-correct ground actions. Distractors of multiple-choice and
false yes/no items come from the same sets, so that they are plausible: the same predicate or
action schema with other objects.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cached_property

from ..model import Atom, Domain, GroundAction, Problem

LIMIT = 200_000  # ground atoms or actions enumerated at most (a larger universe is refused by name)


class TooLarge(Exception):
    """The universe of a question is too large to enumerate; the item is skipped."""


@dataclass(frozen=True)
class Universe:
    domain: Domain
    problem: Problem

    @cached_property
    def objects_of(self) -> dict[str, tuple[str, ...]]:
        """type → the objects and constants of that type or a subtype, sorted."""
        out: dict[str, list[str]] = {}
        for o, t in sorted(self.problem.object_types(self.domain).items()):
            for a in self.domain.ancestors(t):
                out.setdefault(a, []).append(o)
        return {t: tuple(v) for t, v in out.items()}

    def objects(self, type_name: str) -> tuple[str, ...]:
        return self.objects_of.get(type_name, ())

    @cached_property
    def fluents(self) -> frozenset[str]:
        """The predicates that actions change: a state's facts that questions ask about. Not those of
        :derived rules: a state holds basic atoms only (the context lists them), derived ones are
        computed from them, and the proofs of reach and land are about basic atoms (decide.py)."""
        p = frozenset(p.name for p in self.domain.predicates)
        return p - self.domain.static_predicates() - self.domain.derived_predicates()

    def _count(self, types) -> int:
        n = 1
        for t in types:
            n *= len(self.objects(t))
        return n

    def _arguments(self, name: str, parameters, unit: str):
        """Every type-correct argument tuple of `name`'s parameters, refused beyond LIMIT of them."""
        types = [t for _, t in parameters]
        if self._count(types) > LIMIT:
            raise TooLarge(f"{name} has more than {LIMIT} {unit}")
        return itertools.product(*(self.objects(t) for t in types))

    def atoms(self, predicate: str) -> list[Atom]:
        args = self._arguments(predicate, self.domain.predicate_named(predicate).parameters, "ground atoms")
        return [Atom(predicate, a) for a in args]

    @cached_property
    def fluent_atoms(self) -> tuple[Atom, ...]:
        """Every type-correct ground atom of a predicate some action changes, sorted."""
        out: list[Atom] = []
        for p in self.domain.predicates:
            if p.name in self.fluents:
                out.extend(self.atoms(p.name))
                if len(out) > LIMIT:
                    raise TooLarge(f"more than {LIMIT} ground atoms")
        return tuple(sorted(out, key=str))

    def actions(self, name: str) -> list[GroundAction]:
        args = self._arguments(name, self.domain.action_named(name).parameters, "ground actions")
        return [GroundAction(name, a) for a in args]

    @cached_property
    def ground_actions(self) -> tuple[GroundAction, ...]:
        """Every type-correct ground action, sorted."""
        out: list[GroundAction] = []
        for a in self.domain.actions:
            out.extend(self.actions(a.name))
            if len(out) > LIMIT:
                raise TooLarge(f"more than {LIMIT} ground actions")
        return tuple(sorted(out, key=str))

    def type_of_parameter(self, predicate: str, position: int) -> str:
        return self.domain.predicate_named(predicate).parameters[position][1]


__all__ = ["Universe", "TooLarge", "LIMIT"]


def substitutions(universe: Universe, args: tuple[str, ...], types: list[str]) -> list[tuple[str, ...]]:
    """The argument tuples that differ from `args` in exactly one position, by an object of that
    position's type: what makes a plausible distractor ((at c1 l0) → (at c1 l1), (at c2 l0))."""
    out = []
    for i, t in enumerate(types):
        for o in universe.objects(t):
            if o != args[i]:
                out.append(args[:i] + (o,) + args[i + 1:])
    return out


def similar_actions(universe: Universe, a: GroundAction) -> list[GroundAction]:
    """The same schema with one object changed, none trivially inapplicable (`plausible_action`)."""
    schema = universe.domain.action_named(a.name)
    return [g for g in (GroundAction(a.name, x) for x in substitutions(universe, a.args,
                                                                     [t for _, t in schema.parameters]))
            if plausible_action(universe, g, a)]


def similar_atoms(universe: Universe, f: Atom) -> list[Atom]:
    """The same predicate with one object changed (an object repeated only where `f` repeats one)."""
    p = universe.domain.predicate_named(f.predicate)
    return [Atom(f.predicate, x) for x in substitutions(universe, f.args, [t for _, t in p.parameters])
            if not _repeats(x, f.args)]


def _repeats(args: tuple[str, ...], model: tuple[str, ...]) -> bool:
    """Does `args` name an object twice where `model` does not ("stack block b1 on block b1")?"""
    return len(set(args)) < len(args) and len(set(model)) == len(model)


def plausible_action(universe: Universe, g: GroundAction, model: GroundAction | None = None) -> bool:
    """Not trivially inapplicable: no equality or inequality of its precondition broken, no static
    precondition false (a fact no action changes is as the problem says), no object repeated where the
    action it stands beside (`model`) has none."""
    if model is not None and _repeats(g.args, model.args):
        return False
    lits = universe.domain.action_named(g.name).ground_precondition(g.args)
    if lits is None:
        return True
    static = universe.domain.static_predicates()
    for lit in lits:
        if lit.atom.predicate == "=":
            if (lit.atom.args[0] == lit.atom.args[1]) != lit.positive:
                return False
        elif lit.atom.predicate in static and (lit.atom in universe.problem.init) != lit.positive:
            return False
    return True


__all__ += ["substitutions", "similar_actions", "similar_atoms", "plausible_action"]
