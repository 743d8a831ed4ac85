"""Generated questions checked against pymimir: its own grounder, successor function and axiom
evaluation (derived predicates), and exhaustive search of the reachable state space on small
problems (tests/questions/test_derived_questions.py, test_goal_questions.py). Import after
`pytest.importorskip("pymimir")`."""

from __future__ import annotations

import json
import tempfile
from collections import deque
from pathlib import Path

import pymimir

from amlasp.model import Atom, GroundAction
from amlasp.questions.universe import Universe

from .notation import actions as read_actions
from .notation import atom as read_atom


class Space:
    """The task an item's PDDL describes, stepped by pymimir; states are pymimir's (interned)."""

    def __init__(self, domain_text: str, problem_text: str, basic: frozenset[str]):
        with tempfile.TemporaryDirectory() as tmp:
            d, p = Path(tmp) / "domain.pddl", Path(tmp) / "problem.pddl"
            d.write_text(domain_text)
            p.write_text(problem_text)
            self.problem = pymimir.Problem(pymimir.Domain(str(d)), str(p))
        self.basic = basic  # the domain's predicates that are not derived
        self.goal = self.problem.get_goal_condition()

    def start(self):
        return self.problem.get_initial_state()

    def atoms(self, state) -> frozenset[Atom]:
        """The basic atoms of a state (no type atoms, no equality, no derived atoms)."""
        out = (read_atom(str(a)) for a in state.get_atoms(ignore_derived=True))
        return frozenset(a for a in out if a.predicate in self.basic)

    def applicable(self, state) -> dict[GroundAction, object]:
        return {read_actions(str(a))[0]: a for a in state.generate_applicable_actions()}

    def run(self, state, plan: list[GroundAction]) -> tuple[object, int]:
        """The state after the actions, and the index of the first inapplicable one (-1 if none)."""
        for i, g in enumerate(plan):
            app = self.applicable(state)
            if g not in app:
                return state, i
            state = app[g].apply(state)
        return state, -1

    def valid(self, state, plan: list[GroundAction]) -> bool:
        end, failed = self.run(state, plan)
        return failed == -1 and self.goal.holds(end)

    def explore(self, start, avoid: Atom | None = None) -> tuple[dict, dict]:
        """Breadth-first over every state reachable from `start` (never entering one where `avoid`
        holds): each state's successors (action → state), and the predecessors of each state."""
        succ: dict = {}
        pred: dict = {start: []}
        todo = deque([start])
        while todo:
            s = todo.popleft()
            succ[s] = {}
            for g, a in self.applicable(s).items():
                t = a.apply(s)
                if avoid is not None and avoid in self.atoms(t):
                    continue
                succ[s][g] = t
                if t not in pred:
                    pred[t] = []
                    todo.append(t)
                pred[t].append(s)
        return succ, pred

    def distances(self, start) -> tuple[dict, dict]:
        """Each reachable state's distance to the nearest goal state (absent: no plan from it)."""
        succ, pred = self.explore(start)
        dist = {s: 0 for s in succ if self.goal.holds(s)}
        todo = deque(dist)
        while todo:
            s = todo.popleft()
            for p in pred[s]:
                if p not in dist:
                    dist[p] = dist[s] + 1
                    todo.append(p)
        return succ, dist


def check_exhaustively(item: dict, space: Space, universe: Universe) -> None:
    """Assert that exhaustive search gives the answer of a reach, areach, land, nexta or just item (every
    form: also the facts and actions its evidence names)."""
    ev, task, form, start = item["evidence"], item["task"], item["form"], space.start()
    yes = item["answer"] == "yes" or form == "mcq"
    if task in ("reach", "areach"):
        succ, _ = space.explore(start)
        if task == "reach":
            seen = {str(f) for s in succ for f in space.atoms(s)}
            never = {str(f) for f in universe.fluent_atoms} - seen
        else:
            seen = {str(g) for s in succ for g in space.applicable(s)}
            never = {str(g) for g in universe.ground_actions} - seen
        if form == "gen":
            listed = [] if item["answer"] in (None, "None") else item["answer"]
            assert {"(" + x.strip("()") + ")" for x in listed} == never
            return
        named = ev["fact"] if task == "reach" else ev["action"]
        if form == "bool":
            assert (named not in never) == yes, named
        else:  # the right choice can never hold (be applied) when the question asks for one that cannot
            right_never = "never" in item["query"]
            assert (named in never) == right_never, named
            assert all((x in never) != right_never for x in ev["distractors"])
    elif task == "land":
        def landmark(f: str) -> bool:
            succ, _ = space.explore(start, avoid=read_atom(f))
            return read_atom(f) in space.atoms(start) or not any(space.goal.holds(s) for s in succ)
        if form == "gen":
            assert all(landmark(f) for f in item["answer"]["yes"]) and not any(map(landmark, item["answer"]["no"]))
        else:
            assert landmark(ev["fact"]) == yes
            assert not any(landmark(x) for x in ev.get("distractors", {}))
    elif task == "nexta":
        succ, dist = space.distances(start)
        best = {str(g) for g, t in succ[start].items() if dist.get(t, -1) == dist[start] - 1}
        assert ev["optimal_length"] == dist[start]
        if form == "gen":
            assert set(item["answer"]["yes"]) == best and not set(item["answer"]["no"]) & best
        else:
            assert (ev["action"] in best) == yes
    elif task == "just":
        plan = read_actions(" ".join(ev["plan"]))
        assert space.valid(start, plan)
        singles = [i for i in range(len(plan)) if space.valid(start, plan[:i] + plan[i + 1:])]
        pairs = [i for i in range(len(plan) - 1) if space.valid(start, plan[:i] + plan[i + 2:])]
        assert ev["removable_steps"] == singles and ev["removable_pairs"] == pairs
    else:
        raise ValueError(f"not an exhaustively checked task: {task}")


#: The tasks whose answers are checked by simulating pymimir's steps; the others by exhaustive search.
SIMULATED = frozenset({"app", "prog", "val", "verify", "count", "value"})


def item_space(item: dict) -> Space:
    """pymimir's state space of an item's PDDL (its derived predicates computed, not given)."""
    from amlasp.pddl.parse import parse_domain
    d = parse_domain(item["PDDL_domain"], "PDDL_domain")
    return Space(item["PDDL_domain"], item["PDDL_problem"], frozenset(p.name for p in d.predicates)
                 - d.derived_predicates())


def check_items(items, simulated: bool) -> int:
    """Each item of the simulated tasks (`simulated`) by pymimir's steps, or of the others by exhaustive
    search of its state space: how many were checked."""
    from amlasp.pddl.parse import parse_domain
    from amlasp.questions.gold import problem_of

    from .questions import check_simulated
    checked = 0
    for item in items:
        if (item["task"] in SIMULATED) != simulated:
            continue
        s = item_space(item)
        if simulated:
            check_simulated(item, s, s.start())
        else:
            check_exhaustively(item, s, Universe(parse_domain(item["PDDL_domain"], "PDDL_domain"), problem_of(item)))
        checked += 1
    return checked


def generated(domain: Path, problem: Path):
    """The questions of every task and form on a problem (two items each, seed 21), the ones these tests check."""
    from amlasp.questions.generate import Options, generate, load_sources
    return generate(load_sources(domain, [problem]), Options(per_task=2, seed=21, time_limit=20.0, explore_states=50))


def as_written(result) -> tuple[dict, ...]:
    """The items of `generated`'s result as its JSON lines give them back (what grading reads)."""
    return tuple(json.loads(json.dumps(i.to_dict())) for i in result.items)


#: Who checks an item's answer: pymimir's steps (the simulated tasks), exhaustive search of pymimir's state
#: space (reach, areach, land, nexta, just), or `grade --check-gold`, which derives each gen answer again.
ORACLES = ("simulated", "search", "gold")


def checked_by(oracle: str, items) -> int:
    """How many of `items` `oracle` checked, every answer it checked found right (an assertion otherwise)."""
    if oracle != "gold":
        return check_items(items, simulated=oracle == "simulated")
    from amlasp.questions.grade import grade
    total = grade(list(items), {}, check_gold=True).gold_summary()[-1]
    assert total["disagree"] == 0 and total["undecided"] == 0, total
    return total["checked"]
