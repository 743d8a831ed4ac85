"""Benchmark: applicable actions of many states, amlasp (clingo) vs unified-planning.

For blocksworld, depots and rovers this collects at least --states states per domain: the
states of the learning trajectories in benchmarks/ipc, then seeded random walks from them
(applicable actions from our engine, successors by the domain's STRIPS effects). It times
`amlasp.reasoning.engine.applicable_many` on all of them (one call, as `amlasp applicable --states`:
facts, grounding, solving and decoding included, parsing excluded), and UP's SequentialSimulator on an evenly spaced
subset (every 10th state of the problems in order, smallest first, until 10 s of UP time;
its one-off grounding per problem is reported but not counted), and compares per-state rates
on the same problems; it checks that both give the same applicable actions on every state both
computed.

    python benchmarks/bench_applicable.py [--states 1000] [--up-every 10] [--up-budget 10] [--seed 0]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from amlasp.reasoning.engine import applicable_many  # noqa: E402
from amlasp.model import Atom, Domain, GroundAction, Problem  # noqa: E402
from amlasp.pddl.parse import load_domain, load_problem  # noqa: E402
from amlasp.external.up_oracle import simulator  # noqa: E402
from amlasp.pddl.states import read_trajectory  # noqa: E402

IPC = ROOT / "benchmarks" / "ipc"
DOMAINS = ("blocksworld", "depots", "rovers")


def successor(domain: Domain, state: frozenset[Atom], g: GroundAction) -> frozenset[Atom]:
    """STRIPS successor (delete before add): enough for walks in these domains."""
    a = domain.action(g.name)
    sub = {v: x for (v, _), x in zip(a.parameters, g.args)}
    ground = {e: Atom(e.literal.atom.predicate, tuple(sub.get(x, x) for x in e.literal.atom.args)) for e in a.effects}
    assert all(e.unconditional for e in a.effects), "walks need STRIPS effects"
    dels = {ground[e] for e in a.effects if not e.literal.positive}
    adds = {ground[e] for e in a.effects if e.literal.positive}
    return frozenset((state - dels) | adds)


def collect(name: str, target: int, seed: int) -> tuple[Domain, list[tuple[Problem, list[frozenset[Atom]]]]]:
    """Trajectory states, then random walks from them until `target` states."""
    domain = load_domain(IPC / "domains" / f"{name}.pddl")
    groups = []
    for traj in sorted((IPC / "trajectories" / "learning" / name).glob("*_traj"), key=lambda p: int(p.name.split("_")[0])):
        problem = load_problem(IPC / "problems" / "learning" / name / traj.name.replace("_traj", "_prob.pddl"), domain)
        groups.append((problem, list(read_trajectory(traj, domain, problem).states)))
    rng = random.Random(seed)
    total = sum(len(s) for _, s in groups)
    frontier = [list(s) for _, s in groups]
    while total < target:
        answers = applicable_many(domain, [(problem, current) for (problem, _), current in zip(groups, frontier)])
        for (_, states), current, acts in zip(groups, frontier, answers):
            nxt = [successor(domain, s, rng.choice(a)) for s, a in zip(current, acts) if a]
            states.extend(nxt)
            total += len(nxt)
            current[:] = nxt
    return domain, groups


def time_ours(domain, groups, repeat: int = 3):
    """Best of `repeat` runs over all states (one `applicable_many` call, as `amlasp applicable --states`):
    (wall seconds, CPU seconds, answers)."""
    best, cpu, answers = float("inf"), float("inf"), None
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        answers = applicable_many(domain, groups)
        best, cpu = min(best, time.perf_counter() - t), min(cpu, time.process_time() - c)
    return best, cpu, answers


def time_up(name: str, groups, every: int, budget: float):
    """UP on every `every`-th state of the problems in order (smallest first) until `budget`
    seconds of UP time: (wall seconds, CPU seconds, grounding seconds, problems used, answers by (group, index))."""
    from unified_planning.io import PDDLReader
    from unified_planning.model import UPState
    from unified_planning.shortcuts import get_environment
    get_environment().credits_stream = None
    seconds = cpu = grounding = 0.0
    answers = {}
    used = 0
    for gi, (problem, states) in enumerate(groups):
        if seconds > budget:
            break
        used += 1
        up = PDDLReader().parse_problem(str(IPC / "domains" / f"{name}.pddl"), problem.file)
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
    ap.add_argument("--states", type=int, default=1000, help="states per domain (at least)")
    ap.add_argument("--up-every", type=int, default=10, help="UP on every k-th state")
    ap.add_argument("--up-budget", type=float, default=10.0, help="seconds of UP time per domain (then stop)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rows = []
    for name in DOMAINS:
        domain, groups = collect(name, args.states, args.seed)
        n = sum(len(s) for _, s in groups)
        ours_s, ours_cpu, ours = time_ours(domain, groups)
        up_s, up_cpu, up_ground, used, theirs = time_up(name, groups, args.up_every, args.up_budget)
        # like with like: our rate on all states of the problems UP ran on
        sub_s, sub_cpu, _ = time_ours(domain, groups[:used])
        sub_n = sum(len(s) for _, s in groups[:used])
        agree = all(theirs[k] == [str(a) for a in ours[k[0]][k[1]]] for k in theirs)
        up_n = len(theirs)
        ratio, ratio_cpu = (sub_n / sub_s) / (up_n / up_s), (sub_n / sub_cpu) / (up_n / up_cpu)
        rows.append((name, n, ours_s, ours_cpu, used, up_n, up_s, up_cpu, sub_n / sub_s, ratio, ratio_cpu, agree))
        print(f"{name}: {n} states in {len(groups)} problems, {sum(len(a) for g in ours for a in g)} applicable "
              f"actions; amlasp {ours_s:.3f} s wall, {ours_cpu:.3f} s CPU ({n / ours_s:,.0f} states/s). "
              f"On problems 0-{used - 1}: amlasp {sub_n} states in {sub_s:.3f} s ({sub_n / sub_s:,.0f} states/s), "
              f"UP {up_n} states in {up_s:.3f} s ({up_n / up_s:,.1f} states/s; grounding {up_ground:.1f} s not "
              f"counted): {ratio:,.0f}x wall, {ratio_cpu:,.0f}x CPU; same answers on all {up_n}: {agree}", flush=True)
    print()
    print("| domain | states | amlasp wall s | amlasp CPU s | amlasp states/s | UP problems | UP states | UP wall s "
          "| UP states/s | amlasp states/s (same problems) | ratio wall | ratio CPU | agree |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for name, n, s, c, used, up_n, up_s, up_c, sub_rate, ratio, ratio_cpu, agree in rows:
        print(f"| {name} | {n} | {s:.3f} | {c:.3f} | {n / s:,.0f} | {used} | {up_n} | {up_s:.2f} | {up_n / up_s:,.1f} "
              f"| {sub_rate:,.0f} | {ratio:,.0f}x | {ratio_cpu:,.0f}x | {agree} |")
    if not all(r[-1] for r in rows):
        sys.exit("answers differ from unified-planning")


if __name__ == "__main__":
    main()
