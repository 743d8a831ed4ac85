"""Benchmark: applicable actions of many states, amlasp (clingo) against pymimir (C++) and unified-planning.

For each domain (default: blocksworld, depots, rovers, floortile, sokoban) the states are those of
the 10 learning trajectories in benchmarks/ipc (with --states N, then seeded random walks from them
until N states: applicable actions from our engine, STRIPS successors). Each figure is the best of
--repeat runs, wall clock and CPU, parsing excluded for every tool:

- amlasp: one `amlasp.reasoning.engine.applicable_many` call over all states, as `amlasp applicable
  --states` makes it (facts, grounding, solving, decoding into ground actions).
- pymimir 0.13 (optional, `pip install pymimir`), lifted (KPKC) and grounded generators. Its problem
  set-up (parsing, and for `grounded` the grounding) is printed, not counted. Two figures: the
  generator alone on states already built in its state repository, and end to end from the same
  atom sets to the same answers (building each state from its atoms, generating, reading the
  actions' names).
- unified-planning's SequentialSimulator (optional, --up): every --up-every-th state of the problems
  in order until --up-budget seconds of UP time; its one-off grounding is printed, not counted; a
  rate per state, compared with amlasp's on the same problems.

Answers are checked equal state by state against every peer (the script exits non-zero otherwise).

    python benchmarks/bench_applicable.py [--domains ...] [--states 0] [--repeat 5] [--up] [--seed 0]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from timing import best_of  # noqa: E402

from amlasp.model import Atom, Domain, GroundAction, Problem  # noqa: E402
from amlasp.pddl.parse import load_domain, load_problem  # noqa: E402
from amlasp.pddl.states import read_trajectory  # noqa: E402
from amlasp.reasoning.engine import applicable_many  # noqa: E402

IPC = ROOT / "benchmarks" / "ipc"
DOMAINS = ("blocksworld", "depots", "rovers", "floortile", "sokoban")


def successor(domain: Domain, state: frozenset[Atom], g: GroundAction) -> frozenset[Atom]:
    """STRIPS successor (delete before add): enough for walks in these domains."""
    a = domain.action(g.name)
    sub = {v: x for (v, _), x in zip(a.parameters, g.args)}
    ground = {e: Atom(e.literal.atom.predicate, tuple(sub.get(x, x) for x in e.literal.atom.args)) for e in a.effects}
    assert all(e.unconditional for e in a.effects), "walks need STRIPS effects"
    dels = {ground[e] for e in a.effects if not e.literal.positive}
    adds = {ground[e] for e in a.effects if e.literal.positive}
    return frozenset((state - dels) | adds)


def collect(name: str, target: int, seed: int) -> tuple[Domain, list[tuple[Path, Problem, list[frozenset[Atom]]]]]:
    """Trajectory states, then random walks from them until `target` states."""
    domain = load_domain(IPC / "domains" / f"{name}.pddl")
    groups = []
    for traj in sorted((IPC / "trajectories" / "learning" / name).glob("*_traj"),
                       key=lambda p: int(p.name.split("_")[0])):
        file = IPC / "problems" / "learning" / name / traj.name.replace("_traj", "_prob.pddl")
        problem = load_problem(file, domain)
        groups.append((file, problem, list(read_trajectory(traj, domain, problem).states)))
    rng = random.Random(seed)
    total = sum(len(s) for _, _, s in groups)
    frontier = [list(s) for _, _, s in groups]
    while total < target:
        answers = applicable_many(domain, [(problem, current) for (_, problem, _), current in zip(groups, frontier)])
        for (_, _, states), current, acts in zip(groups, frontier, answers):
            nxt = [successor(domain, s, rng.choice(a)) for s, a in zip(current, acts) if a]
            states.extend(nxt)
            total += len(nxt)
            current[:] = nxt
    return domain, groups




@contextlib.contextmanager
def quiet_stdout():
    """pymimir's grounder prints every reachable atom on the C++ stdout: send it to /dev/null."""
    sys.stdout.flush()
    saved = os.dup(1)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    try:
        yield
    finally:
        os.dup2(saved, 1)
        os.close(null)
        os.close(saved)


def time_mimir(name: str, groups, mode: str, repeat: int):
    """pymimir's generator in `mode` on every state: (set-up CPU s, generator (wall, CPU), end to end
    (wall, CPU), answers per group and state as sorted action texts). None if pymimir is missing."""
    try:
        import pymimir as pm
        import pymimir.advanced.formalism as pf
    except ImportError:
        return None
    c0 = time.process_time()
    problems = []
    with quiet_stdout():
        domain = pm.Domain(str(IPC / "domains" / f"{name}.pddl"))
        for file, problem, states in groups:
            mp = pm.Problem(domain, str(file), mode=mode)
            ap = mp._advanced_problem  # pymimir's documented route to build states from atoms
            fluent = {k.lower(): v for k, v in ap.get_domain().get_name_to_fluent_predicate().items()}
            objects = {o.get_name().lower(): o for o in ap.get_problem_and_domain_objects()}
            context = mp._search_context
            repo, generator = context.get_state_repository(), context.get_applicable_action_generator()
            static = {p.lower() for p in ap.get_domain().get_name_to_static_predicate()}
            init_static = frozenset(a for a in problem.init if a.predicate in static)
            # pymimir takes the static atoms from the problem: the states must agree with it
            assert all(frozenset(a for a in s if a.predicate in static) == init_static for s in states), name
            problems.append((mp, ap, fluent, objects, repo, generator, states))
        for _mp, _ap, _fluent, _objects, repo, generator, _states in problems:  # the first call builds its tables
            generator.generate_applicable_actions(repo.get_or_create_initial_state()[0])
    setup = time.process_time() - c0

    def build(ap, fluent, objects, repo, state):
        atoms = [ap.get_or_create_ground_atom(fluent[a.predicate], pf.ObjectList([objects[x] for x in a.args]))
                 for a in state if a.predicate in fluent]
        return repo.get_or_create_state(pf.FluentGroundAtomList(atoms), [])[0]

    def names(mp, actions):
        return sorted("(" + " ".join([g.get_action().get_name().lower()]
                                     + [o.get_name().lower() for o in g.get_objects()])
                      + ")" for g in (pm.GroundAction(x, mp) for x in actions))

    built = [[build(ap, fluent, objects, repo, s) for s in states]
             for mp, ap, fluent, objects, repo, generator, states in problems]
    gen = best_of(lambda: [[generator.generate_applicable_actions(s) for s in ms]
                           for (_, _, _, _, _, generator, _), ms in zip(problems, built)], repeat)
    e2e = best_of(lambda: [[names(mp, generator.generate_applicable_actions(build(ap, fluent, objects, repo, s)))
                            for s in states] for mp, ap, fluent, objects, repo, generator, states in problems], repeat)
    return setup, gen[:2], e2e[:2], e2e[2]


def time_up(name: str, groups, every: int, budget: float):
    """UP on every `every`-th state of the problems in order until `budget` seconds of UP time:
    (wall s, CPU s, grounding s, problems used, answers by (group, index))."""
    from unified_planning.io import PDDLReader
    from unified_planning.model import UPState
    from unified_planning.shortcuts import get_environment

    from amlasp.external.up_oracle import simulator
    get_environment().credits_stream = None
    seconds = cpu = grounding = 0.0
    answers = {}
    used = 0
    for gi, (file, _problem, states) in enumerate(groups):
        if seconds > budget:
            break
        used += 1
        up = PDDLReader().parse_problem(str(IPC / "domains" / f"{name}.pddl"), str(file))
        fluents = {f.name.lower(): f for f in up.fluents}
        objects = {o.name.lower(): o for o in up.all_objects}
        em = up.environment.expression_manager
        with simulator(up) as sim:
            t = time.perf_counter()
            list(sim.get_applicable_actions(sim.get_initial_state()))  # grounds every action once
            grounding += time.perf_counter() - t
            for si in range(0, len(states), every):
                values = {fluents[a.predicate](*(objects[x] for x in a.args)): em.TRUE() for a in states[si]}
                state = UPState(values, up)
                t, c = time.perf_counter(), time.process_time()
                acts = list(sim.get_applicable_actions(state))
                seconds += time.perf_counter() - t
                cpu += time.process_time() - c
                answers[gi, si] = sorted(str(GroundAction(a.name.lower(), tuple(p.object().name.lower() for p in ps)))
                                         for a, ps in acts)
    return seconds, cpu, grounding, used, answers


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--domains", nargs="+", default=list(DOMAINS))
    ap.add_argument("--states", type=int, default=0, help="states per domain at least (random walks beyond the "
                    "trajectories' states); 0: the trajectories' states only")
    ap.add_argument("--repeat", type=int, default=5, help="runs per figure (the best is kept)")
    ap.add_argument("--up", action="store_true", help="also time unified-planning (slow: minutes)")
    ap.add_argument("--up-every", type=int, default=10, help="UP on every k-th state")
    ap.add_argument("--up-budget", type=float, default=10.0, help="seconds of UP time per domain (then stop)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} cores", flush=True)
    rows, ok = [], True
    for name in args.domains:
        domain, groups = collect(name, args.states, args.seed)
        n = sum(len(s) for _, _, s in groups)
        pairs = [(problem, states) for _, problem, states in groups]
        wall, cpu, ours = best_of(lambda domain=domain, pairs=pairs: applicable_many(domain, pairs), args.repeat)
        texts = [[[str(a) for a in acts] for acts in per] for per in ours]
        count = sum(len(a) for g in ours for a in g)
        print(f"{name}: {n} states in {len(groups)} problems, {count} applicable actions; amlasp {1000 * wall:.1f} ms "
              f"wall, {1000 * cpu:.1f} ms CPU", flush=True)
        row = {"domain": name, "states": n, "wall": wall, "cpu": cpu, "load": os.getloadavg()[0]}
        for mode in ("lifted", "grounded"):
            got = time_mimir(name, groups, mode, args.repeat)
            if got is None:
                print("  pymimir is not installed: skipped")
                break
            setup, (gw, gc), (ew, ec), answers = got
            agree = sum(a == b for ga, gb in zip(answers, texts) for a, b in zip(ga, gb))
            ok &= agree == n
            row[mode] = (gc, ec, agree)
            print(f"  pymimir {mode}: generator {1000 * gc:.1f} ms CPU ({1000 * gw:.1f} wall), end to end "
                  f"{1000 * ec:.1f} ms CPU ({1000 * ew:.1f} wall); set-up {1000 * setup:.0f} ms not counted; "
                  f"amlasp/pymimir CPU: {cpu / gc:.2f}x the generator, {cpu / ec:.2f}x end to end; "
                  f"same answers on {agree}/{n} states", flush=True)
        if args.up:
            up_s, up_cpu, up_ground, used, theirs = time_up(name, groups, args.up_every, args.up_budget)
            sub = [(problem, states) for _, problem, states in groups[:used]]
            sub_s, sub_cpu, _ = best_of(lambda domain=domain, sub=sub: applicable_many(domain, sub), args.repeat)
            sub_n = sum(len(s) for _, s in sub)
            agree = sum(theirs[k] == texts[k[0]][k[1]] for k in theirs)
            ok &= agree == len(theirs)
            ratio = (len(theirs) / up_cpu) and (sub_n / sub_cpu) / (len(theirs) / up_cpu)
            row["up"] = (len(theirs), used, up_cpu, ratio, agree)
            print(f"  unified-planning: {len(theirs)} states of problems 0-{used - 1} in {up_cpu:.2f} s CPU "
                  f"({len(theirs) / up_cpu:,.1f} states/s; grounding {up_ground:.1f} s not counted); amlasp on those "
                  f"problems {sub_n / sub_cpu:,.0f} states/s: {ratio:,.0f}x UP's rate; same answers on "
                  f"{agree}/{len(theirs)}", flush=True)
        rows.append(row)
    print()
    print("| domain | states | amlasp CPU ms | pymimir lifted: generator / end to end ms | ratio | "
          "pymimir grounded: generator / end to end ms | ratio | answers equal | load |")
    print("|---|---:|---:|---:|---:|---:|---:|---|---:|")
    for r in rows:
        cells = []
        for mode in ("lifted", "grounded"):
            if mode in r:
                gc, ec, _ = r[mode]
                cells += [f"{1000 * gc:.1f} / {1000 * ec:.1f}", f"{r['cpu'] / gc:.1f}x / {r['cpu'] / ec:.2f}x"]
            else:
                cells += ["—", "—"]
        agree = ", ".join(f"{m} {r[m][2]}/{r['states']}" for m in ("lifted", "grounded") if m in r)
        print(f"| {r['domain']} | {r['states']:,} | {1000 * r['cpu']:.1f} | " + " | ".join(cells) +
              f" | {agree} | {r['load']:.1f} |")
    if any("up" in r for r in rows):
        print()
        print("| domain | UP states (problems) | UP CPU s | amlasp rate / UP rate | answers equal |")
        print("|---|---:|---:|---:|---|")
        for r in rows:
            if "up" in r:
                k, used, c, ratio, agree = r["up"]
                print(f"| {r['domain']} | {k} ({used}) | {c:.2f} | {ratio:,.0f}x | {agree}/{k} |")
    if not ok:
        sys.exit("answers differ")


if __name__ == "__main__":
    main()
