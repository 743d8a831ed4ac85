"""eval's pair of models: their actions matched into slots, and what both the pair's compilers
(`pair.py`, `changes.py`) ask of the reference's vocabulary."""

from __future__ import annotations

from dataclasses import dataclass

from ...model import Action, Domain, type_members
from ..names import asp_name

# The state term of eval's rules: state S of problem (context) P, so that a rule's first state atom binds
# P and the grounder can join a problem's static atoms once (`Compiler(problem_term=True)`).
S = "s(P,S)"


@dataclass(frozen=True)
class Slot:
    """An action name of the program: index N, the reference and learned actions it stands for."""

    index: int
    name: str
    ref: Action | None
    learned: Action | None

    @property
    def both(self) -> tuple[Action, Action]:
        """(ref, learned) of a slot both models have: the only slots whose pair is asked for."""
        assert self.ref is not None and self.learned is not None, self.name
        return self.ref, self.learned


def slots(ref: Domain, learned: Domain) -> list[Slot]:
    """Reference actions first (file order); a learned action matches by name and arity."""
    lk = {(asp_name(a.name), a.arity): a for a in learned.actions}
    out: list[Slot] = []
    used = set()
    for a in ref.actions:
        key = (asp_name(a.name), a.arity)
        out.append(Slot(len(out), a.name, a, lk.get(key)))
        used.add(key)
    for a in learned.actions:
        if (asp_name(a.name), a.arity) not in used:
            out.append(Slot(len(out), a.name, None, a))
    return out


def static_predicates(ref: Domain) -> frozenset[str]:
    """Reference predicates that no reference effect changes: in the test states they are the
    problem's (a state whose atoms of them differ is in another context, `asp.eval_states.group`),
    read once per problem as `fixed(P,F)`. A learned effect on one is a change like any other: its
    change rule reads `fixed(P,F)` where others read `holds(S,F)` (ferry's `noteq`, transport's
    `road`: most of those states' atoms)."""
    return ref.static_predicates()


def is_a(domain: Domain, kind: str, t: str) -> bool:
    """Does an object of type `kind` fit type `t` in `domain`? Names compare as clingo sees them,
    so that a type of the other model (or of the problems) is found under its own spelling."""
    want = {asp_name(m) for m in (t, *type_members(t))}
    return any(asp_name(x) in want for x in domain.ancestors(kind))


def predicate_types(domain: Domain) -> dict[tuple[str, int], tuple[str, ...]]:
    """(clingo name, arity) of each predicate → its declared argument types (PDDL names)."""
    return {(asp_name(p.name), p.arity): tuple(t for _, t in p.parameters) for p in domain.predicates}


def constant_types(domain: Domain) -> dict[str, str]:
    """Each constant's clingo name → its declared type."""
    return {asp_name(c): t for c, t in domain.constants}


__all__ = ["S", "Slot", "slots", "static_predicates", "is_a", "predicate_types", "constant_types"]
