"""What a problem's goal implies, by exhausting its reachable states (the semantic notion of goals).

A goal literal is *implied* by a goal G when every state reachable from the initial state that
satisfies G satisfies it too: Planetarium's "fully specified" goal (blocksworld's `(clear a)` on top
of `(on a b)`), derived here for any domain from the states themselves instead of a hand-written
oracle per domain. The reachable space is explored breadth-first by the encodings
(`questions.walks.explore`) up to `max_states` states; only a complete exploration makes the
closure a proof, else the closure is `None` and the caller falls back to the syntactic notion.
The same exploration decides solvability: the shortest path to a goal state, or none exists.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import Iterable

from ...errors import InputError
from ...model import Atom, Domain, GroundAction, Literal, Problem
from ...questions.walks import explore
from ...reasoning.engine import execute

#: At most this many candidate negative literals are tested per problem (a size guard).
MAX_NEGATIVE_CANDIDATES = 200_000


@dataclass(frozen=True)
class GoalClosure:
    """The reachable states of a problem, as far as explored, and what its goal implies on them."""

    complete: bool  # every reachable state was explored
    states: int  # states explored
    goal_states: int  # explored states that satisfy the goal
    true: frozenset[Atom]  # atoms true in every explored goal state
    possible: frozenset[Atom]  # atoms true in some explored goal state
    witness: tuple[GroundAction, ...] | None  # a shortest plan to a goal state, validated

    @property
    def proven(self) -> bool:
        """The closure is a proof: the whole space was explored and some goal state is reachable."""
        return self.complete and self.goal_states > 0

    def implied_negative(self, candidates: Iterable[Atom]) -> list[Atom]:
        """The candidate atoms false in every goal state."""
        return [a for a in candidates if a not in self.possible]


def _satisfies(state: frozenset[Atom], goal: tuple[Literal, ...]) -> bool:
    return all((l.atom in state) == l.positive for l in goal)


def goal_closure(domain: Domain, problem: Problem, max_states: int = 5000) -> GoalClosure:
    """Explore `problem`'s reachable states (at most `max_states`) and intersect its goal states."""
    ex = explore(domain, problem, frozenset(problem.init), max_states=max_states)
    goal_states = [s for s in ex.parent if _satisfies(s, problem.goal)]
    true = frozenset.intersection(*goal_states) if goal_states else frozenset()
    possible = frozenset().union(*goal_states) if goal_states else frozenset()
    witness = None
    if goal_states:
        # breadth-first: the first goal state in discovery order is at the least depth
        plan = ex.path(goal_states[0])
        done = execute(domain, problem, plan, states=True)
        if not (done.executable and _satisfies(frozenset(done.states[-1]), problem.goal)):
            raise RuntimeError("internal error: the witness of a goal state fails validation")
        witness = tuple(plan)
    return GoalClosure(ex.complete, ex.size, len(goal_states), true, possible, witness)


def negative_candidates(domain: Domain, problem: Problem, predicates: Iterable[str]) -> list[Atom]:
    """The well-typed ground atoms of `predicates` over `problem`'s objects and the domain's constants:
    where an implied negative goal literal may lie."""
    objects = problem.object_types(domain)
    by_type: dict[str, list[str]] = {}
    for o, t in sorted(objects.items()):
        for a in domain.ancestors(t):
            by_type.setdefault(a, []).append(o)
    out: list[Atom] = []
    for name in sorted(set(predicates)):
        p = domain.predicate(name)
        if p is None:
            continue
        for args in product(*(by_type.get(t, []) for _, t in p.parameters)):
            out.append(Atom(name, tuple(args)))
            if len(out) > MAX_NEGATIVE_CANDIDATES:
                raise InputError(f"too many ground atoms to test for implied negative goals (over "
                                 f"{MAX_NEGATIVE_CANDIDATES}); use --goals syntactic")
    return out


__all__ = ["GoalClosure", "goal_closure", "negative_candidates"]
