"""Mutual exclusions by h^2 reachability (encodings/mutex.lp): sound `no` answers the delete relaxation misses.

`(on b1 b1)` is reachable in the delete relaxation (stack b1 b1 needs (holding b1) and (clear b1),
each reachable), but the two never hold together: h^2 finds that. The program runs over the
ground actions the relaxation reaches, one layer per ground call (each layer reads only earlier
ones, so clingo's grounder computes the fixpoint without search). It costs about
actions x atoms per layer, so it is skipped above a size budget, and for models with conditional
or universal effects (their deletes are not certain). Atoms of derived predicates are not modelled:
dropped from preconditions (an over-approximation, so still sound) and never asked about.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from ..asp.decode import decoder
from ..asp.facts import action_term, ground
from ..asp.run import Program, encoding
from ..asp.schema import H2_ACT, H2_ADD, H2_ASK, H2_DEL, H2_INIT, H2_PRE, MUTEX, R2
from ..model import Atom, Domain, Problem
from .relaxed import Relaxation

BUDGET = 3_000_000  # reachable actions x reachable atoms


@dataclass(frozen=True)
class MutexResult:
    """Pairs of asked atoms that can never hold together ((F, F): F never holds); `layers` of h^2."""

    pairs: tuple[tuple[Atom, Atom], ...]
    layers: int

    def reason(self) -> str | None:
        if not self.pairs:
            return None
        f, g = self.pairs[0]
        if f == g:
            return f"{f} never holds (h^2 reachability: mutually exclusive with itself)"
        return f"{f} and {g} never hold together (a mutual exclusion found by h^2 reachability)"


def mutexes(domain: Domain, problem: Problem, init: Iterable[Atom], asked: Iterable[Atom],
            relaxation: Relaxation, budget: int = BUDGET) -> MutexResult | None:
    """Mutually exclusive pairs among `asked` (atoms of static predicates are never asked),
    or None when the model is out of scope (conditional effects) or the problem over budget."""
    if any(not e.unconditional for a in domain.actions for e in a.effects):
        return None
    static = domain.static_predicates()
    unknown = static | domain.derived_predicates() | {"="}  # a derived atom's pairs are not modelled: dropped
    fluent = [a for a in relaxation.atoms if a.predicate not in static]
    if len(relaxation.actions) * max(len(fluent), 1) > budget:
        return None
    asked = sorted({a for a in asked if a.predicate not in unknown}, key=str)
    if not asked:
        return MutexResult((), 0)
    facts = [H2_INIT.fixed().text([ground(a) for a in init if a.predicate not in static]),
             H2_ASK.fixed().text([ground(a) for a in asked])]
    for g in relaxation.actions:
        schema = domain.action(g.name)
        assert schema is not None  # the relaxation's actions are this domain's (relax decodes them so)
        t = action_term(g)
        pre = schema.ground_precondition(g.args) or ()  # richer preconditions: none kept (over-approximation)
        facts.append(H2_ACT.fact(t) + H2_PRE.fixed(t).text([ground(l.atom) for l in pre if l.positive
                                                            and l.atom.predicate not in unknown]))
        facts.append("".join((H2_ADD if l.positive else H2_DEL).fact(t, ground(l.atom))
                             for l in schema.ground_effects(g.args) if l.atom.predicate not in static))
    program = Program([encoding("mutex"), *facts]).ground()
    size, k = program.count(R2), 0
    while True:  # one layer per step, until no new reachable pair: h^2's fixpoint
        k += 1
        program.ground(("eval", [k]))
        program.ground(("commit", [k]))
        now = program.count(R2)
        if now == size:
            break
        size = now
    program.ground(("final", []))
    dec = decoder(domain, problem)
    pairs = [(dec.atom(r.atom), dec.atom(r.other)) for r in MUTEX.select(program.first() or ())]
    pairs.sort(key=lambda p: (p[0] != p[1], str(p)))
    return MutexResult(tuple(pairs), k)
