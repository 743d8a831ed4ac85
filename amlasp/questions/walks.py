"""States to ask about: seeded random walks, and breadth-first exploration, both by the encodings.

Both advance many states at once: one `applicable_many` grounding for the applicable actions of
every state of a layer, and one `changes_many` grounding for all their successors, so that a
layer costs two clingo calls whatever its width (a walk of depth 5 for 300 items: 11 calls). A
walk keeps the applicable actions of each of its states (the end state's too): the questions
about a state need them, and asking again would cost a clingo call per state.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Sequence

from ..model import Atom, Domain, GroundAction, Problem
from ..reasoning.engine import applicable_many
from ..reasoning.transitions import changes_many

State = frozenset[Atom]


@dataclass(frozen=True)
class Walk:
    """States s0..sk, the actions between them (k may fall short of the asked depth at a dead end),
    and the applicable actions of each state, sorted."""

    states: tuple[State, ...]
    actions: tuple[GroundAction, ...]
    applicable: tuple[tuple[GroundAction, ...], ...]

    @property
    def depth(self) -> int:
        return len(self.actions)

    @property
    def end(self) -> State:
        return self.states[-1]

    def split(self, k: int) -> tuple[Walk, Walk]:
        """The walk to state k, and the walk on from it."""
        return (Walk(self.states[:k + 1], self.actions[:k], self.applicable[:k + 1]),
                Walk(self.states[k:], self.actions[k:], self.applicable[k:]))


def successors(domain: Domain, problem: Problem, pairs: Sequence[tuple[State, GroundAction]]) -> list[State]:
    """The state after each (state, applicable action), in one grounding."""
    if not pairs:
        return []
    order: dict[State, list[int]] = {}
    for k, (s, _) in enumerate(pairs):
        order.setdefault(s, []).append(k)
    asked = [(s, [pairs[k][1] for k in ks]) for s, ks in order.items()]
    out: list[State] = [frozenset()] * len(pairs)
    for (s, ks), changes in zip(order.items(), changes_many(domain, problem, asked)):
        for k, c in zip(ks, changes):
            if c is None:
                raise RuntimeError(f"internal error: {pairs[k][1]} was listed applicable but is not")
            out[k] = c.apply(s)
    return out


def random_walks(domain: Domain, problem: Problem, start: State, depths: Sequence[int],
                 rngs: Sequence[random.Random]) -> list[Walk]:
    """One walk per entry of `depths`, each choosing uniformly among the applicable actions with its
    own generator (so that a walk does not depend on the others)."""
    states = [[start] for _ in depths]
    actions: list[list[GroundAction]] = [[] for _ in depths]
    apps: list[list[tuple[GroundAction, ...]]] = [[] for _ in depths]
    pending = list(range(len(depths)))  # walks whose last state's applicable actions are not known yet
    while pending:
        found = applicable_many(domain, [(problem, [states[i][-1] for i in pending])])[0]
        step = []
        for i, acts in zip(pending, found):
            apps[i].append(tuple(acts))
            if acts and len(actions[i]) < depths[i]:
                step.append((i, rngs[i].choice(acts)))
        nxt = successors(domain, problem, [(states[i][-1], a) for i, a in step])
        for (i, a), s in zip(step, nxt):
            actions[i].append(a)
            states[i].append(s)
        pending = [i for i, _ in step]
    return [Walk(tuple(s), tuple(a), tuple(x)) for s, a, x in zip(states, actions, apps)]


def plan_walks(domain: Domain, problem: Problem, steps: Sequence[int], time_limit: float = 10.0) -> list[Walk]:
    """Walks along a plan from the initial state (Fast Downward, greedy; validated), each stopping the
    given number of steps before the plan's end: states near the goal, where an optimal search is
    cheap even when it is out of reach from the states of random walks (nexta on large problems)."""
    from ..external.fast_downward import PlannerStatus
    from ..reasoning.engine import execute
    from ..reasoning.planner import plan as fast_downward
    r = fast_downward(domain, problem, "greedy", time_limit)
    if r.status is not PlannerStatus.PLAN or r.plan is None:
        return []
    actions = list(r.plan)
    ex = execute(domain, problem, actions)
    if not ex.valid:
        raise RuntimeError("internal error: Fast Downward's plan fails validation")
    apps = [tuple(a) for a in applicable_many(domain, [(problem, ex.states)])[0]]
    ends = [len(actions) - k for k in steps if 0 < k <= len(actions)]
    return [Walk(tuple(ex.states[:i + 1]), tuple(actions[:i]), tuple(apps[:i + 1])) for i in ends]


@dataclass
class Exploration:
    """The states breadth-first search reached from `start` (all of them when `complete`), with the
    shortest path to each: witnesses that an atom can hold or an action can become applicable."""

    start: State
    parent: dict[State, tuple[State, GroundAction] | None] = field(default_factory=dict)
    atom_state: dict[Atom, State] = field(default_factory=dict)  # first (shallowest) state holding the atom
    action_state: dict[GroundAction, State] = field(default_factory=dict)  # first state where it is applicable
    complete: bool = False

    def path(self, state: State) -> list[GroundAction]:
        out = []
        while (link := self.parent[state]) is not None:
            state, a = link
            out.append(a)
        return out[::-1]

    def atom_witness(self, atom: Atom) -> list[GroundAction] | None:
        s = self.atom_state.get(atom)
        return None if s is None else self.path(s)

    def action_witness(self, action: GroundAction) -> list[GroundAction] | None:
        s = self.action_state.get(action)
        return None if s is None else self.path(s)

    @property
    def size(self) -> int:
        return len(self.parent)


def explore(domain: Domain, problem: Problem, start: State, max_states: int = 2000) -> Exploration:
    """Breadth-first from `start` until `max_states` states are known or none is new (`complete`)."""
    ex = Exploration(start, {start: None})
    frontier = [start]
    while frontier:
        for s in frontier:
            for f in s:
                ex.atom_state.setdefault(f, s)
        apps = applicable_many(domain, [(problem, frontier)])[0]
        pairs: list[tuple[State, GroundAction]] = []
        for s, acts in zip(frontier, apps):
            for a in acts:
                ex.action_state.setdefault(a, s)
                pairs.append((s, a))
        if len(ex.parent) >= max_states:
            return ex  # the frontier's successors are not known: incomplete
        nxt = []
        for (s, a), t in zip(pairs, successors(domain, problem, pairs)):
            if t not in ex.parent:
                if len(ex.parent) >= max_states:
                    return ex
                ex.parent[t] = (s, a)
                nxt.append(t)
        frontier = nxt
    ex.complete = True
    return ex


__all__ = ["Walk", "Exploration", "random_walks", "plan_walks", "explore", "successors", "State"]
