"""An exhaustive-search oracle over unified-planning's grounding: a problem's reachable state graph,
goal reachability avoiding an atom, and exact fact landmarks (F is a landmark iff no goal state is
reachable through states without F). Small problems only: every state is visited."""

from __future__ import annotations

from amlasp.external.up_oracle import simulator
from amlasp.model import Atom
from tests.support.up import up_action, up_atom


class Strips:
    """UP's grounding of a STRIPS problem, with successors computed here (delete before add).

    Much faster than stepping UP's simulator, so that whole reachable state spaces of a few
    thousand states can be searched; checked against the simulator in
    test_strips_oracle_agrees_with_up_simulator."""

    def __init__(self, problem):
        self.actions = []
        for lifted, params, act in simulator(problem)._grounder.get_grounded_actions():  # grounder fixed
            if act is None:
                continue
            pos, neg = set(), set()
            for c in self._conjuncts(act.preconditions):
                if c.is_fluent_exp():
                    pos.add(up_atom(c))
                elif c.is_not() and c.arg(0).is_fluent_exp():
                    neg.add(up_atom(c.arg(0)))
                elif not c.is_true():
                    raise NotImplementedError(str(c))
            add, dele = set(), set()
            for e in act.effects:
                assert e.condition.is_true(), "conditional effects are not needed here"
                (add if e.value.is_true() else dele).add(up_atom(e.fluent))
            self.actions.append((up_action(lifted, params), frozenset(pos), frozenset(neg), frozenset(add),
                                 frozenset(dele)))
        self.init = frozenset(up_atom(k) for k, v in problem.initial_values.items() if v.is_true())
        goal = list(self._conjuncts(problem.goals))
        self.goal_pos = frozenset(up_atom(c) for c in goal if c.is_fluent_exp())
        self.goal_neg = frozenset(up_atom(c.arg(0)) for c in goal if c.is_not())
        assert len(self.goal_pos) + len(self.goal_neg) == len(goal)

    @staticmethod
    def _conjuncts(conds):
        todo = list(conds)
        while todo:
            c = todo.pop()
            if c.is_and():
                todo.extend(c.args)
            else:
                yield c

    def successors(self, s: frozenset[Atom]):
        for a, pos, neg, add, dele in self.actions:
            if pos <= s and not (neg & s):
                yield a, (s - dele) | add

    def is_goal(self, s: frozenset[Atom]) -> bool:
        return self.goal_pos <= s and not (self.goal_neg & s)

    def graph(self, limit: int = 60000, avoid: Atom | None = None) -> dict:
        """state -> [(action, successor)] over the states reachable (without `avoid`)."""
        edges: dict = {}
        frontier = [self.init]
        seen = {self.init}
        while frontier:
            nxt = []
            for s in frontier:
                out = [(a, t) for a, t in self.successors(s) if avoid is None or avoid not in t]
                edges[s] = out
                for _, t in out:
                    if t not in seen:
                        seen.add(t)
                        nxt.append(t)
                        assert len(seen) <= limit, "state space too large for the test"
            frontier = nxt
        return edges


def goal_reachable(strips: Strips, edges: dict, avoid: Atom | None = None) -> bool:
    seen, todo = {strips.init}, [strips.init]
    while todo:
        s = todo.pop()
        if strips.is_goal(s):
            return True
        for _, t in edges[s]:
            if (avoid is None or avoid not in t) and t not in seen:
                seen.add(t)
                todo.append(t)
    return False


def exact_landmarks(strips: Strips, edges: dict) -> set[Atom]:
    """Facts false initially that every path to a goal state passes through."""
    facts = set().union(*edges) - strips.init
    return {f for f in facts if not goal_reachable(strips, edges, avoid=f)}


# ----------------------------------------------------------------------------- plan

# Domains whose smallest shared problem both planners solve in well under a second (see
# benchmarks/bench_reasoning.py for the others: barman and floortile need more than 30 s here).
