"""Benchmark: `amlasp questions generate` — items per second, and what each planner-backed task costs.

1. `--items` items (default 1,000) of the six tasks answered by simulation (app, prog, val, verify,
   count, value; gen, bool and mcq forms) on a mid-size IPC problem (default rovers 4: 2 rovers,
   7 waypoints, 4 objectives; 25 objects), best of `--repeat` runs. Peer: unified-planning's
   simulator recomputing the same answers (each item's walk replayed from the problem's initial
   state, then the applicable actions, the action's or the sequence's effects, the first
   inapplicable step, the fact, the count, the object), the problem parsed and grounded once
   (favouring the peer); every answer must agree. CPU seconds (the machine may be shared) and wall.
2. `--planned` items per task and form (default 3) of the five planner-backed tasks (reach, areach,
   just, land, nexta) on the same problem and on a smaller one of the domain (`--small`, default
   rovers 1: 14 objects): seconds per item, states skipped as undecided (a task stops after 8 in a
   row without an item). Fast Downward runs as a child process: its CPU time is counted apart (a
   run killed at the time limit is not counted: its CPU time is lost to the figures).
3. nexta on ACPBench's 40 development items: every optimal first action by Fast Downward's A* with
   LM-cut (reasoning/optimal.py) against ASP horizon search (plan.lp: the optimal length, then for each
   applicable action whether a plan one step shorter follows), `--asp-limit` seconds per item
   (default 20): items finished, time per item, agreement where both finish.
4. Every ACPBench development item (tests/data/acpbench, 8 tasks x 40) re-derived from its PDDL and
   compared with its gold answer (`questions grade --check-gold`): per task, items decided, agreeing,
   disagreeing, seconds per item (mean and max, load beside).

5. `questions generate` on every core (amlasp/jobs.py: a task a chunk, the costliest first): `--jobs-items` items
   (default 10,000) of the six simulated tasks on the same problem with `--jobs 1` and `--jobs 2`, in turn, each
   in a process of its own as the command runs, best of `--jobs-repeat` (default 1): wall and CPU seconds (the
   process and its workers), the speed-up, the
   load; each task's CPU in the serial run, and what they give on two idle cores (the pool's schedule of
   them, with and without --jobs 2's added CPU); the two item files must be equal, byte for byte.

    python benchmarks/bench_questions.py [--items 1000] [--repeat 3] [--planned 3] [--asp-limit 20] [--skip 3]
                                         [--acp-tasks T,..] [--acp-limit 10] [--jobs-items 10000] [--jobs-repeat 1]
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from amlasp.questions.generate import Options, generate, load_sources  # noqa: E402
from amlasp.questions.items import Task  # noqa: E402

IPC = ROOT / "benchmarks" / "ipc"
SIMULATED = (Task.APP, Task.PROG, Task.VAL, Task.VERIFY, Task.COUNT, Task.VALUE)
PLANNED = (Task.REACH, Task.AREACH, Task.JUST, Task.LAND, Task.NEXTA)


def timed(fn):
    """fn's result, wall seconds, this process's CPU seconds, and its children's (Fast Downward)."""
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    w, c = time.perf_counter(), time.process_time()
    out = fn()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    child = after.ru_utime + after.ru_stime - kids.ru_utime - kids.ru_stime
    return out, time.perf_counter() - w, time.process_time() - c, child


def up_peer(domain: Path, problem: Path):
    """UP's problem and simulator, once (tests/support/questions.py: the tests' oracle)."""
    from tests.support.questions import Simulation
    from tests.support.up import up_files
    return Simulation(up_files(domain, problem))


def up_agrees(s, item: dict) -> bool:
    """Does UP give the item's answer? Its walk replayed from the problem's initial state, then
    tests.support.questions.check_simulated from the state the item describes."""
    from amlasp.questions.registry import entry
    from tests.support.notation import actions as read_actions
    from tests.support.questions import check_simulated
    start = s.start()
    if not entry(item["task"]).after_sequence:
        start, failed = s.run(start, read_actions(" ".join(item["walk"])))
        if failed != -1:
            return False
    try:
        check_simulated(item, s, start)
    except AssertionError:
        return False
    return True


def part1(domain: Path, problem: Path, n: int, seed: int, repeat: int) -> None:
    per = math.ceil(n / (len(SIMULATED) * 3))
    best = (math.inf, math.inf, None)
    for _ in range(repeat):  # sources loaded afresh each time: no memo carried over
        g, wall, cpu, _ = timed(lambda: generate(load_sources(domain, [problem]),
                                                 Options(tasks=SIMULATED, per_task=per, seed=seed)))
        best = (min(best[0], wall), min(best[1], cpu), g)
    wall, cpu, g = best
    items = [i.to_dict() for i in g.items]
    peer, pwall, pcpu, _ = timed(lambda: up_peer(domain, problem))
    bad, uwall, ucpu, _ = timed(lambda: [i["id"] for i in items if not up_agrees(peer, i)])
    if bad:
        raise SystemExit(f"UP disagrees on {len(bad)} item(s), e.g. {bad[0]}")
    load = os.getloadavg()[0]
    print(f"1. {len(items)} items ({', '.join(map(str, SIMULATED))}; gen/bool/mcq) on {problem.name}, "
          f"load {load:.1f}")
    print(f"   amlasp questions generate (best of {repeat}): {cpu:.2f} s CPU, {wall:.2f} s wall "
          f"= {len(items) / cpu:.0f} items/s (CPU)")
    print(f"   UP simulator recomputing the answers: {ucpu:.2f} s CPU, {uwall:.2f} s wall "
          f"(+ {pcpu:.2f} s CPU parsing and grounding once); {len(items)}/{len(items)} agree")
    print(f"   ratio UP/amlasp CPU = {ucpu / cpu:.2f} (amlasp also writes the English and the distractors)")


def part2(domain: Path, problem: Path, n: int, seed: int) -> None:
    sources = load_sources(domain, [problem])
    print(f"2. planner-backed tasks, {n} per task and form, on {problem.name} ({len(sources[0].problem.objects)} "
          f"objects), load {os.getloadavg()[0]:.1f}")
    for task in PLANNED:
        g, wall, cpu, child = timed(lambda task=task: generate(sources, Options(tasks=(task,), per_task=n, seed=seed)))
        skipped = sum(v for (t, r), v in g.skipped.items() if r == "undecided")
        stopped = " (stopped: no item after 8 undecided states)" if task in g.gave_up else ""
        print(f"   {task:7s} {len(g.items):3d} items: {wall:6.1f} s wall, {cpu:5.1f} s CPU in amlasp's process, "
              f"{child:5.1f} s CPU in Fast Downward; {wall / max(len(g.items), 1):5.2f} s/item wall; "
              f"{skipped} state(s) undecided{stopped}")


def part3(asp_limit: float) -> None:
    from amlasp.questions.gold import case_of, load_items
    from amlasp.reasoning.engine import applicable, execute
    from amlasp.reasoning.optimal import OptimalStatus, optimal_first_actions
    from amlasp.reasoning.planning import plan
    items = load_items(IPC.parent.parent / "tests" / "data" / "acpbench" / "nexta" / "dev.gen.json")
    fd_t, asp_t, fd_done, asp_done, agree = [], [], 0, 0, 0
    for item in items:
        c = case_of(item)
        r, w, _, _ = timed(lambda c=c: optimal_first_actions(c.domain, c.problem, time_limit=60))
        fd_t.append(w)
        fd_done += r.status is OptimalStatus.SOLVED
        t0 = time.perf_counter()
        deadline = t0 + asp_limit
        best = plan(c.domain, c.problem, max_steps=60, time_limit=asp_limit)
        firsts = None
        if best.status == "plan":
            firsts = set()
            for a in applicable(c.domain, c.problem)[0]:
                left = deadline - time.perf_counter()
                if left <= 0:
                    firsts = None
                    break
                after = execute(c.domain, c.problem, [a]).states[1]
                rest = plan(c.domain, c.problem, init=after, max_steps=best.length - 1, time_limit=left)
                if rest.status == "plan":
                    firsts.add(a)
                elif rest.horizon < best.length - 1:
                    firsts = None
                    break
        w = min(time.perf_counter() - t0, asp_limit)
        asp_t.append(w)
        if firsts is not None and time.perf_counter() - t0 <= asp_limit:
            asp_done += 1
            agree += r.status is OptimalStatus.SOLVED and firsts == set(r.optimal) and best.length == r.length
    print(f"3. nexta on ACPBench's {len(items)} items: every optimal first action and the optimal length, "
          f"load {os.getloadavg()[0]:.1f}")
    print(f"   Fast Downward (A*, LM-cut): {fd_done}/{len(items)} done, {sum(fd_t) / len(fd_t):.2f} s/item wall "
          f"(max {max(fd_t):.1f} s)")
    print(f"   ASP horizon search (limit {asp_limit:g} s): {asp_done}/{len(items)} done, "
          f"{sum(asp_t) / len(asp_t):.2f} s/item wall (timeouts counted at the limit); "
          f"agree on {agree}/{asp_done} both finished; ratio ASP/FD = {sum(asp_t) / sum(fd_t):.2f}")


def part4(limit: float, tasks: list[str]) -> None:
    """Every ACPBench development item's gold re-derived (`grade --check-gold`): per task, how many are
    decided, agree, disagree, the mean and the largest time per item (the load beside)."""
    from amlasp.questions.gold import Undecided, case_of, check, load_items
    print(f"4. ACPBench's development items re-derived (gold check, {limit:g} s per planner call)")
    for task in tasks:
        items = load_items(IPC.parent.parent / "tests" / "data" / "acpbench" / task / "dev.gen.json")
        times, agree, differ, open_, loads = [], 0, 0, [], []
        for item in items:
            t0 = time.perf_counter()
            try:
                found = check(case_of(item), limit)
                agree += not found
                differ += bool(found)
            except Undecided as e:
                open_.append(f"{item['id']}: {e}")
            times.append(time.perf_counter() - t0)
            loads.append(os.getloadavg()[0])
        print(f"   {task:7s} {len(items)} items: {len(items) - len(open_)} decided ({agree} agree, {differ} disagree), "
              f"{sum(times) / len(times):5.2f} s/item wall, max {max(times):5.2f} s; items over 10 s: "
              f"{sum(t > 10 for t in times)}; load {min(loads):.1f}-{max(loads):.1f}")
        for line in open_:
            print(f"      undecided {line[:150]}")


def part5_child(domain: Path, problem: Path, n: int, seed: int, jobs: int) -> None:
    """One run of part 5 in a process of its own, as `amlasp questions generate --jobs N` runs: its wall and CPU
    seconds (its workers' too), each task's CPU (serially), the items' digest, as JSON. (Run in the process that
    had just done the serial run, the pool's workers were forked from it and inherited its state, its clingo
    symbols among it: --jobs 2 took 98-105 s of CPU there against 87.0 s in a process of its own,
    benchmarks/README.md.)"""
    import hashlib
    import json

    from amlasp.jobs import Jobs
    per = math.ceil(n / (len(SIMULATED) * 3))
    options = Options(tasks=SIMULATED, per_task=per, seed=seed)
    marks: dict[str, list[float]] = {}

    def progress(stage: str, done: int, total: int) -> None:
        marks.setdefault(stage, [time.process_time()]).append(time.process_time())

    start = time.process_time()
    g, wall, cpu, child = timed(lambda: generate(load_sources(domain, [problem]), options,
                                                 progress if jobs == 1 else None, jobs=Jobs(jobs)))
    ends = [start] + [marks[str(t)][-1] for t in SIMULATED] if jobs == 1 else []
    print(json.dumps({"wall": wall, "cpu": cpu + child, "tasks": [b - a for a, b in zip(ends, ends[1:])],
                      "items": hashlib.sha256(g.jsonl().encode()).hexdigest(), "lines": len(g.jsonl().splitlines())}))


def part5(domain: Path, problem: Path, n: int, seed: int, repeat: int = 1) -> None:
    """--jobs 1 and --jobs 2 in turn, each in a process of its own (`part5_child`); each task's CPU seconds in the
    serial run (from its progress calls), and the idle-machine wall time of --jobs 2 that they give: the pool's
    schedule (the tasks handed out costliest first, each to the first worker free) of each task's serial CPU,
    scaled by --jobs 2's CPU over the serial run's."""
    import json
    import subprocess

    from amlasp.questions.generate import handed_out
    options = Options(tasks=SIMULATED, per_task=math.ceil(n / (len(SIMULATED) * 3)), seed=seed)
    best: dict[int, tuple] = {}
    files: dict[int, str] = {}
    lines = 0
    for _ in range(repeat):
        for jobs in (1, 2):
            load = os.getloadavg()[0]
            out = subprocess.run([sys.executable, __file__, "--part5-child", str(jobs), "--domain", domain.stem,
                                  "--problem", problem.name, "--jobs-items", str(n), "--seed", str(seed)],
                                 capture_output=True, text=True, check=True).stdout
            r = json.loads(out.splitlines()[-1])
            files[jobs], lines = r["items"], r["lines"]
            if jobs not in best or r["wall"] < best[jobs][0]:
                best[jobs] = (r["wall"], r["cpu"], (load + os.getloadavg()[0]) / 2, r["tasks"])
    print(f"5. {lines} items ({', '.join(map(str, SIMULATED))}; gen/bool/mcq) on {problem.name}, a task a chunk, "
          f"handed out costliest first; each run a process of its own; best of {repeat}, the runs in turn")
    for jobs, (wall, cpu, load, _) in best.items():
        print(f"   --jobs {jobs}: {wall:.1f} s wall, {cpu:.1f} s CPU (all processes), load {load:.1f}")
    serial, tasks = best[1][1], best[1][3]
    print("   serial CPU per task: " + ", ".join(f"{t} {c:.1f} s" for t, c in zip(SIMULATED, tasks)))
    inflation = best[2][1] / serial
    for scale, what in ((1.0, "no CPU added"), (inflation, f"--jobs 2's CPU, {inflation:.2f}x the serial run's")):
        free = [0.0, 0.0]
        for k in handed_out(options):
            free[free.index(min(free))] += tasks[k] * scale
        print(f"   on two idle cores ({what}): --jobs 2 ≈ {max(free):.1f} s, {sum(tasks) / max(free):.2f}x --jobs 1")
    print(f"   --jobs 2 is {best[1][0] / best[2][0]:.2f}x --jobs 1 (wall, at the loads above); item files equal: "
          f"{files[1] == files[2]}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--domain", default="rovers")
    ap.add_argument("--problem", default="4_rovers_prob.pddl")
    ap.add_argument("--items", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--planned", type=int, default=3)
    ap.add_argument("--small", default="1_rovers_prob.pddl", help="the smaller problem of part 2")
    ap.add_argument("--asp-limit", type=float, default=20.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--skip", type=int, nargs="*", default=[], help="parts to skip (1, 2, 3, 4, 5)")
    ap.add_argument("--jobs-items", type=int, default=10000, help="part 5's items")
    ap.add_argument("--jobs-repeat", type=int, default=1, help="part 5's rounds (--jobs 1 and 2 in turn), best kept")
    ap.add_argument("--acp-tasks", default="app,prog,reach,areach,val,just,land,nexta", help="part 4's tasks")
    ap.add_argument("--acp-limit", type=float, default=10.0, help="part 4's time limit per planner call")
    ap.add_argument("--part5-child", type=int, help=argparse.SUPPRESS)  # part 5's run of --jobs N
    a = ap.parse_args()
    domain = IPC / "domains" / f"{a.domain}.pddl"
    problem = IPC / "problems" / "solving" / a.domain / a.problem
    if a.part5_child:
        return part5_child(domain, problem, a.jobs_items, a.seed, a.part5_child)
    if 1 not in a.skip:
        part1(domain, problem, a.items, a.seed, a.repeat)
    if 2 not in a.skip:
        for p in (problem, problem.with_name(a.small)):
            part2(domain, p, a.planned, a.seed)
    if 3 not in a.skip:
        part3(a.asp_limit)
    if 4 not in a.skip:
        part4(a.acp_limit, a.acp_tasks.split(","))
    if 5 not in a.skip:
        part5(domain, problem, a.jobs_items, a.seed, a.jobs_repeat)


if __name__ == "__main__":
    main()
