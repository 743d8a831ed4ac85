"""amlasp/metrics/evaluate, the paths that make it fast give the results of the plain ones: instances
and changes counted in aggregates against the same made atoms (`--explain` makes them all), states
streamed a batch at a time against one program, equal states written once against each alone."""

from __future__ import annotations

import random
import weakref
from collections import Counter

import pytest

from amlasp.asp.compile.action import Compiler
from amlasp.asp.compile.pair import PairCompiler
from amlasp.asp.compile.slots import slots, static_predicates
from amlasp.experiments.perturb import perturb
from amlasp.metrics.evaluate import driver, evaluate
from amlasp.pddl.parse import load_domain, load_problem
from amlasp.pddl.states import StateSet, read_trajectory
from tests.support.examples import REGISTRY
from tests.support.paths import IPC

DOMAINS = sorted(p.name for p in (IPC / "trajectories" / "learning").iterdir() if p.is_dir())


def trajectory_sets(d: str, count: int) -> list[StateSet]:
    out = []
    for f in sorted((IPC / "trajectories" / "learning" / d).iterdir()):
        pfile = IPC / "problems" / "learning" / d / f.name.replace("_traj", "_prob.pddl")
        if pfile.exists() and pfile.stat().st_size and len(out) < count:
            ref = load_domain(IPC / "domains" / f"{d}.pddl")
            prob = load_problem(pfile, ref)
            out.append(StateSet(prob, read_trajectory(f, ref, prob).states, f.name))
    return out


@pytest.mark.parametrize("d", DOMAINS)
def test_counted_instances_and_changes_equal_the_atoms(d):
    """Without --explain the learned model's own instances and most changes are only counted
    (asp/compile/pair.py: `counted`; changes.py, counts.py); with it every one is an atom, as eval.lp counted them
    before. Both give the same scores, on perturbations that drop and add preconditions and effects."""
    ref = load_domain(IPC / "domains" / f"{d}.pddl")
    sets = trajectory_sets(d, 2)
    for seed in (0, 1):
        learned = perturb(ref, seed=seed, drop=3, add=3).domain
        atoms = evaluate(learned, ref, sets, explain=True, check_trajectories=False)
        counted = evaluate(learned, ref, sets, check_trajectories=False)
        assert counted.actions == atoms.actions and counted.learned_only == atoms.learned_only


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_counted_equal_the_atoms_on_the_small_examples(name):
    """The same on the registry's examples: conditional and universal effects, constants, equality,
    negative preconditions, `or`/`exists` (the generic route and auxiliary conditions)."""
    ref, problem = REGISTRY[name].load()
    sets = [StateSet(problem, [problem.init], "init")]
    for seed in range(6):
        learned = perturb(ref, seed=seed, drop=2, add=2).domain
        atoms = evaluate(learned, ref, sets, explain=True)
        assert evaluate(learned, ref, sets).actions == atoms.actions


def test_the_counted_paths_are_taken():
    ref = load_domain(IPC / "domains" / "blocksworld.pddl")
    learned = perturb(ref, seed=0, drop=3, add=3).domain
    types = {t for _, t in trajectory_sets("blocksworld", 1)[0].problem.objects}
    pair = slots(ref, learned)
    fast = PairCompiler(ref, learned, pair, static_predicates(ref)).compile(types).text
    assert "count(effc," in fast and "counted(" in fast
    explained = PairCompiler(ref, learned, pair, static_predicates(ref), explain=True).compile(types).text
    assert "count(effc," not in explained and "counted(" not in explained


def test_streamed_batches_equal_one_program_and_hold_one_batch_at_a_time():
    ref = load_domain(IPC / "domains" / "depots.pddl")
    learned = perturb(ref, seed=2, drop=2, add=2).domain
    sets = trajectory_sets("depots", 10)
    one = evaluate(learned, ref, sets)
    alive = most = 0

    def gone() -> None:
        nonlocal alive
        alive -= 1

    def stream():
        """One StateSet per state, made as it is asked for (a reader of files does the same)."""
        nonlocal alive, most
        for ss in sets:
            for k, st in enumerate(ss.states):
                piece = StateSet(ss.problem, [st], f"{ss.source}#{k}")
                weakref.finalize(piece, gone)
                alive += 1
                most = max(most, alive)
                yield piece
                del piece

    streamed = evaluate(learned, ref, stream(), batch_states=10, check_trajectories=False)
    assert streamed.actions == one.actions and streamed.states == one.states > 100
    assert streamed.timings["batches"] >= one.states // 10
    assert most <= 2 * 10 + 2  # the batch being evaluated and the next one being read, never all


def test_equal_states_count_as_often_as_they_occur():
    ref = load_domain(IPC / "domains" / "blocksworld.pddl")
    learned = perturb(ref, seed=4, drop=2, add=2).domain
    ss = trajectory_sets("blocksworld", 1)[0]
    rng = random.Random(0)
    states = [rng.choice(ss.states[:6]) for _ in range(25)]  # many repeats
    many = evaluate(learned, ref, [StateSet(ss.problem, states, "s.json")], explain=True)
    alone = [evaluate(learned, ref, [StateSet(ss.problem, [st], "s.json")], explain=True) for st in states]

    def counts(ev):
        return Counter({(a.action, fam, k): getattr(getattr(a, fam), k) for a in ev.actions
                        for fam in ("applicability", "effects") for k in ("tp", "fp", "fn", "tn")})

    total = Counter()
    for ev in alone:
        total.update(counts(ev))
    assert counts(many) == total
    # every occurrence is listed with its own position (the mistakes of a state, once per occurrence)
    assert len(many.mistakes) == sum(len(ev.mistakes) for ev in alone) > 0
    assert {m.source for m in many.mistakes} <= {f"s.json#{k}" for k in range(len(states))}
    assert Counter(m.state for m in many.mistakes) == Counter(
        k for k, ev in enumerate(alone) for _ in ev.mistakes)


def freed(ref, parameter: int):
    """`ref` with every precondition conjunct that names an action's `parameter`-th parameter dropped
    (the parameter then free: only its type constrains it), where the action has one."""
    from dataclasses import replace

    from amlasp.logic import conjuncts, free_vars
    from amlasp.model import And

    actions = []
    for a in ref.actions:
        if len(a.parameters) > parameter:
            v = a.parameters[parameter][0]
            kept = tuple(g for g in conjuncts(a.precondition) if v not in free_vars(g))
            a = replace(a, precondition=And(kept))
        actions.append(a)
    return replace(ref, actions=tuple(actions))


@pytest.mark.parametrize("d", ["floortile", "depots", "rovers", "satellite"])
def test_free_parameters_of_shared_actions_counted_equal_the_atoms(d):
    """A learned action both models have, with a parameter no precondition literal names (a dropped
    precondition), has its instances counted with that parameter left out (`PairProgram.free_fp`):
    the same scores as every instance made an atom (`--explain`), in one program and in batches."""
    ref = load_domain(IPC / "domains" / f"{d}.pddl")
    sets = trajectory_sets(d, 2)
    types = {t for ss in sets for _, t in ss.problem.objects}
    for parameter in (0, 1):
        learned = freed(ref, parameter)
        pair = slots(ref, learned)
        assert PairCompiler(ref, learned, pair, static_predicates(ref)).compile(types).free_fp
        atoms = evaluate(learned, ref, sets, explain=True, check_trajectories=False)
        for batch in (10000, 7):
            counted = evaluate(learned, ref, sets, check_trajectories=False, batch_states=batch)
            assert counted.actions == atoms.actions and counted.learned_only == atoms.learned_only


@pytest.mark.parametrize("d", DOMAINS)
def test_state_joins_in_rules_of_their_own_give_the_same_scores(d, monkeypatch):
    """eval's applicability rules join state atoms that share a variable in an `aux` rule of their own
    (`Compiler.split_joins`: floortile's paint_up, blocksworld's unstack): the scores of the rules
    written whole, with and without --explain, on perturbations."""
    _same_scores_after(d, lambda: monkeypatch.setattr(Compiler, "state_joins", lambda self, state, joined: state))


def test_floortile_paint_joins_its_robot_atoms_first():
    ref = load_domain(IPC / "domains" / "floortile.pddl")
    types = {t for _, t in trajectory_sets("floortile", 1)[0].problem.objects}
    text = PairCompiler(ref, ref, slots(ref, ref), static_predicates(ref)).compile(types).text
    paint = next(x for x in text.splitlines() if x.startswith("both(s(P,S),1,paint_up("))
    assert paint.split(" :- ")[1].startswith("aux(r,")


@pytest.mark.parametrize("d", DOMAINS)
def test_well_typed_states_drop_the_references_typing_with_the_same_scores(d, monkeypatch):
    """When every atom of a batch's problems is well-typed in the reference (`StateWriter.ill_typed`),
    the reference's rules type no variable that an atom's declaration types (`compile_pair(typed_atoms=)`):
    the scores of the rules that type every variable, with and without --explain."""
    compile_pair = driver.compile_pair
    _same_scores_after(d, lambda: monkeypatch.setattr(driver, "compile_pair",
                                                      lambda *args: compile_pair(*args[:-1], False)))


def test_the_references_typing_goes_only_for_well_typed_states():
    ref = load_domain(IPC / "domains" / "floortile.pddl")
    types = {t for _, t in trajectory_sets("floortile", 1)[0].problem.objects}
    pair = slots(ref, ref)
    assert "not_a(r," in PairCompiler(ref, ref, pair, static_predicates(ref)).compile(types).text
    assert "not_a(r," not in PairCompiler(ref, ref, pair, static_predicates(ref), typed_atoms=True).compile(types).text


def _same_scores_after(d: str, change) -> None:
    """eval's scores of two perturbations of `d`'s reference, with and without --explain, the same before
    and after `change()` (a monkeypatch that turns a compilation step off)."""
    ref = load_domain(IPC / "domains" / f"{d}.pddl")
    sets = trajectory_sets(d, 2)
    learned = [perturb(ref, seed=seed, drop=2, add=2).domain for seed in (0, 1)]

    def scores() -> list:
        return [(e.actions, e.learned_only) for e in (evaluate(lrn, ref, sets, explain=explain,
                                                               check_trajectories=False)
                                                      for lrn in learned for explain in (False, True))]
    before = scores()
    change()
    assert before == scores()
