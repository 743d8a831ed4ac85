"""unified-planning as an oracle: its states, actions and plans converted to ours and back.

UP keeps the PDDL names; ours are lower case, so names are compared lower-cased. Importing this
module silences UP's credits and name warnings for the whole session (import it after
`pytest.importorskip("unified_planning")`)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from unified_planning.io import PDDLReader
from unified_planning.model import UPState
from unified_planning.plans import ActionInstance, SequentialPlan
from unified_planning.shortcuts import OneshotPlanner, PlanValidator, get_environment

from amlasp.model import Atom, GroundAction

get_environment().credits_stream = None
get_environment().error_used_name = False


def up_solve(problem, name: str = "fast-downward-opt", timeout: float = 60):
    """UP's planner `name` on `problem`, run from a folder of its own: up-fast-downward leaves Fast
    Downward's translation (output.sas) in the working folder, where two test workers' solves would
    read each other's (a blocksworld search once returned a transport plan)."""
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)
        try:
            with OneshotPlanner(name=name) as planner:
                return planner.solve(problem, timeout=timeout)
        finally:
            os.chdir(here)


def up_files(domain: str | Path, problem: str | Path):
    """UP's problem read from a domain and a problem file."""
    return PDDLReader().parse_problem(str(domain), str(problem))


def up_problem(domain_text: str, problem_text: str):
    """UP's problem read from PDDL texts."""
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "d.pddl").write_text(domain_text)
        (Path(tmp) / "p.pddl").write_text(problem_text)
        return up_files(Path(tmp) / "d.pddl", Path(tmp) / "p.pddl")


def up_atom(f) -> Atom:
    """A ground fluent expression of UP as our atom."""
    return Atom(f.fluent().name.lower(), tuple(a.object().name.lower() for a in f.args))


def up_atoms(state) -> frozenset[Atom]:
    """The true atoms of a UP state (the values it sets, and those of its ancestors); numeric fluents
    (total-cost, cost functions) left out."""
    keys, s = set(), state
    while s is not None:
        keys.update(s._values)
        s = s._father
    return frozenset(up_atom(k) for k in keys
                     if k.fluent().type.is_bool_type() and state.get_value(k).bool_constant_value())


def up_state(problem, atoms: frozenset[Atom]):
    """A UP state of `problem` in which exactly `atoms` hold (closed world)."""
    em = problem.environment.expression_manager
    return UPState({k: em.TRUE() if up_atom(k) in atoms else em.FALSE() for k in problem.initial_values}, problem)


def up_action(action, params) -> GroundAction:
    return GroundAction(action.name.lower(), tuple(p.object().name.lower() for p in params))


def to_up_plan(problem, plan: list[GroundAction]) -> SequentialPlan:
    acts = {a.name.lower(): a for a in problem.actions}
    objs = {o.name.lower(): o for o in problem.all_objects}
    return SequentialPlan([ActionInstance(acts[g.name], tuple(objs[x] for x in g.args)) for g in plan])


def up_valid(problem, plan: list[GroundAction]) -> bool:
    """UP's sequential plan validator: is `plan` valid for `problem`?"""
    with PlanValidator(name="sequential_plan_validator") as v:
        return bool(v.validate(problem, to_up_plan(problem, plan)).status)


def up_walk(domain, problem, sim, rng, steps: int) -> int:
    """A random walk of `steps` steps from `problem`'s initial state, in our engine and in UP's simulator
    `sim` of the same task, that compares at every step the applicable ground actions (ours sorted, each
    once) and the successor state; the steps taken (fewer where no action is applicable)."""
    from amlasp.reasoning.engine import applicable, execute
    them = sim.get_initial_state()
    state = frozenset(problem.init)
    assert up_atoms(them) == state
    for t in range(steps):
        their_app = {up_action(a, p): (a, p) for a, p in sim.get_applicable_actions(them)}
        our_app = applicable(domain, problem, [state])[0]
        assert our_app == sorted(our_app, key=str) and len(set(our_app)) == len(our_app)
        assert set(our_app) == set(their_app), f"step {t}: only ours {set(our_app) - set(their_app)}, " \
                                               f"only UP's {set(their_app) - set(our_app)}"
        if not our_app:
            return t
        g = rng.choice(our_app)
        them = sim.apply(them, *their_app[g])
        ex = execute(domain, problem, [g], start=state)
        assert ex.executable and len(ex.states) == 2
        state = ex.states[1]
        assert state == up_atoms(them), f"step {t} {g}: only ours {state - up_atoms(them)}, " \
                                        f"only UP's {up_atoms(them) - state}"
    return steps
