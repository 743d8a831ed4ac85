"""Generated questions checked against unified-planning's simulator: its own grounding and successor
function compute every simulated answer again (tests/questions/test_generate.py, and the peer of
benchmarks/bench_questions.py). Import after `pytest.importorskip("unified_planning")`."""

from __future__ import annotations

from amlasp.external.up_oracle import simulator

from .notation import actions as read_actions
from .notation import atom as read_atom
from .up import up_action, up_atoms


class Simulation:
    """A UP problem stepped by UP's simulator, with our ground actions."""

    def __init__(self, problem):
        self.problem = problem
        self.sim = simulator(problem)

    def start(self):
        return self.sim.get_initial_state()

    def atoms(self, state):
        return up_atoms(state)

    def applicable(self, state) -> dict:
        return {up_action(a, p): (a, p) for a, p in self.sim.get_applicable_actions(state)}

    def run(self, state, actions) -> tuple[object, int]:
        """The state after the actions, and the index of the first inapplicable one (-1 if none)."""
        for i, g in enumerate(actions):
            app = self.applicable(state)
            if g not in app:
                return state, i
            state = self.sim.apply(state, *app[g])
        return state, -1


def check_simulated(item: dict, s, start) -> None:
    """Assert that UP gives the answer of an app, prog, val, verify, count or value item (every form:
    also the facts and actions its evidence names). `start`: the state its `PDDL_problem` describes
    (the walk's end for app, prog and val; the walk's start for verify, count and value). `s`: a
    `Simulation`, or any stepper with the same methods (tests/support/mimir.py's `Space`)."""
    ev, task, form = item["evidence"], item["task"], item["form"]
    atoms, yes = s.atoms(start), item["answer"] == "yes"
    if task == "app":
        app = set(s.applicable(start))
        if form == "gen":
            assert {str(a) for a in app} == set(item["answer"])
        else:
            assert (read_actions(ev["action"])[0] in app) == (form == "mcq" or yes)
            assert all(read_actions(x)[0] not in app for x in ev.get("distractors", {}))
    elif task == "prog":
        after, failed = s.run(start, read_actions(ev["action"]))
        now = s.atoms(after)
        assert failed == -1
        assert {str(f) for f in now - atoms} == set(ev["pos"]) and {str(f) for f in atoms - now} == set(ev["neg"])
        if form == "bool":
            assert (read_atom(ev["fact"]) in now) == yes
    elif task == "val":
        failed = s.run(start, read_actions(ev["sequence"]))[1]
        assert failed == ev["first_inapplicable"]
        assert form != "gen" or item["answer"] == failed
        assert form != "bool" or (failed == -1) == yes
    else:
        end, failed = s.run(start, read_actions(" ".join(item["walk"])))
        assert failed == -1
        now = s.atoms(end)
        if task == "verify":
            assert {str(f) for f in now - atoms} == set(ev["made_true"])
            assert {str(f) for f in atoms - now} == set(ev["made_false"])
            if form == "bool":
                assert ((read_atom(ev["fact"]) in now) != ev["negated"]) == yes
            if form == "mcq":
                assert read_atom(ev["fact"]) in now
        elif task == "count":
            if "executable" in ev:
                expected = len(s.applicable(end))
            else:
                pattern = read_atom(ev["pattern"])
                i = pattern.args.index("?x")
                expected = len({f.args[i] for f in now if f.predicate == pattern.predicate and
                                f.args[:i] + f.args[i + 1:] == pattern.args[:i] + pattern.args[i + 1:]})
            assert ev.get("count", item["answer"]) == expected
        elif task == "value":
            f, i = read_atom(ev["fact"]), ev["position"] - 1
            fills = {x.args[i] for x in now if x.predicate == f.predicate
                     and x.args[:i] + x.args[i + 1:] == f.args[:i] + f.args[i + 1:]}
            assert fills == {f.args[i]}
            assert form != "gen" or item["answer"] == f.args[i]
        else:
            raise ValueError(f"not a simulated task: {task}")
