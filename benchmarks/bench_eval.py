"""Benchmark of `amlasp eval`: predictive power of a perturbed reference, timed.

1. Each IPC domain with training trajectories: the reference against a perturbed copy of itself
   (2 literals dropped, 2 added; `amlasp.experiments.perturb`) on all states of its 10 trajectories, read
   from the files (reading is timed separately).
2. The same 20 domains on a larger state set: the trajectory states and random successors of
   them (depth 1 and 2, computed with the reference), >= 30,000 states, in memory.
3. Blocksworld on >= 10,000 random states (random towers) of its 10 training problems, written
   to a JSON state file and evaluated from it.
4. Floortile on 50,000 states: random walks from its trajectory states (computed with the
   reference), in memory.
5. Floortile on 100,000 such states written to JSON state files (one per walk), evaluated in a
   fresh process that reads them a file at a time: its CPU time and peak memory (the states
   streamed in batches, never all held).
6. Floortile on 10,000, 100,000 and 1,000,000 states of random walks of 100 steps (each from a random
   trajectory state) in JSON lines state files (100 walks a file, each walk its first state in full,
   then each step's changes; the smaller sets are the first files), each set evaluated in a fresh
   process: wall and CPU seconds (with its clingo worker's), states/s, peak memory of the process and
   of its worker (VmHWM), and the exponent of time against states (log-log fit).

7. Eval on every core (`eval --jobs N`, `--executor dask`: amlasp/jobs.py): part 6's floortile states
   (`--jobs-states`, default 100,000; 1,000,000 on a quiet machine), written again 2,000 states a file,
   evaluated by a fresh process with `--jobs 1` (the serial run), `--jobs 2` and a local Dask cluster of 2
   workers, in turn, best of `--repeat` (default 1): wall and CPU seconds (all processes), the peak of
   the memory of all its processes together (their resident memory summed, sampled every 0.1 s), the
   speed-up over `--jobs 1` and the Dask run's wall time against `--jobs 2`'s; the three results must be
   equal (their JSON text). `--serial-fraction F`: the serial run on the first F of the files, its
   figures extrapolated to all (said so).

Prints states/s and seconds (wall clock and this process's CPU time: the machine may be shared)
and the peak memory. No peer: no other tool computes these metrics on states (AMLGym's
predictive power runs on other inputs: tests/test_amlgym.py checks that our figures agree with it).
Run: `python benchmarks/bench_eval.py [--quick] [--parts 1234567] [--data DIR]` (part 6 writes its
files, 130 MB for a million states, to DIR/floortile-walks-SEED, kept there and reused by a later run
that asks for no more states; without DIR, to a temporary folder).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from amlasp.asp import run as engine
from amlasp.asp.worker import resident_mb
from amlasp.experiments.perturb import perturb
from amlasp.metrics.evaluate import evaluate
from amlasp.model import Atom, Domain, GroundAction
from amlasp.pddl.parse import load_domain
from amlasp.pddl.states import StateSet, load_states
from amlasp.render.formats import fmt

ROOT = Path(__file__).resolve().parent.parent
IPC = ROOT / "benchmarks" / "ipc"


def domains() -> list[str]:
    return sorted(p.name for p in (IPC / "trajectories" / "learning").iterdir() if p.is_dir())


def trajectory_files(d: str) -> list[Path]:
    """Trajectories whose problem file is not empty (visitall's learning problems 3..9 are)."""
    out = []
    for f in sorted((IPC / "trajectories" / "learning" / d).iterdir()):
        prob = IPC / "problems" / "learning" / d / f.name.replace("_traj", "_prob.pddl")
        if prob.exists() and prob.stat().st_size > 0:
            out.append(f)
    return out


class Clock:
    def __init__(self) -> None:
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def stop(self) -> tuple[float, float]:
        return time.perf_counter() - self.wall, time.process_time() - self.cpu


def peak_mb() -> float:
    """The process's peak resident memory: VmHWM (that of its own image: ru_maxrss of a child may
    count its parent's memory at the fork), else ru_maxrss."""
    return resident_mb("VmHWM") or resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def successor(domain: Domain, state: frozenset[Atom], ga: GroundAction) -> frozenset[Atom]:
    """STRIPS successor (delete, then add) for generating test states; conditional effects unused here."""
    a = domain.action(ga.name)
    sub = dict(zip((v for v, _ in a.parameters), ga.args))

    def ground(x: Atom) -> Atom:
        return Atom(x.predicate, tuple(sub.get(t, t) for t in x.args))

    dels = {ground(e.literal.atom) for e in a.effects if not e.literal.positive}
    adds = {ground(e.literal.atom) for e in a.effects if e.literal.positive}
    return frozenset((state - dels) | adds)


def applicable_all(ref: Domain, sets: list[StateSet], states: list[list[frozenset[Atom]]]) -> list[list[list]]:
    """Applicable ground actions of every state of every problem, in one clingo call (for generating states)."""
    from amlasp.asp.compile import compile_domain
    from amlasp.asp.decode import Decoder
    from amlasp.asp.facts import domain_facts, problem_facts, state_facts
    parts = [engine.encoding("types"), engine.encoding("semantics"), domain_facts(ref, "m"),
             compile_domain(ref, "m", effects=False, typing="negative").text, "#show app/3."]
    first, ranges = 0, []
    dec = Decoder()
    dec.add(*(a.name for a in ref.actions))
    for pid, (ss, sts) in enumerate(zip(sets, states)):
        parts.append(problem_facts(ss.problem, pid, init=False))
        text, nxt = state_facts(sts, pid, first)
        parts.append(text)
        ranges.append((first, nxt))
        first = nxt
        dec.add(*(o for o, _ in ss.problem.objects), *(c for c, _ in ref.constants))
    acts: dict[int, list] = {}
    for sym in engine.solve_once(parts):
        name, args = dec.call(sym.arguments[2])
        acts.setdefault(sym.arguments[1].number, []).append(GroundAction(name, args))
    return [[sorted(acts.get(s, [])) for s in range(a, b)] for a, b in ranges]


def walk(ref: Domain, sets: list[StateSet], rng: random.Random, fanout: tuple[int, ...]) -> list[StateSet]:
    """The states and random successors of them, level by level (one clingo call per level)."""
    levels = [list(ss.states) for ss in sets]
    every = [list(ss.states) for ss in sets]
    for k in fanout:
        nxt_levels = []
        for sts, acts_per_state, acc in zip(levels, applicable_all(ref, sets, levels), every):
            nxt = []
            for st, acts in zip(sts, acts_per_state):
                for ga in rng.sample(acts, min(k, len(acts))):
                    nxt.append(successor(ref, st, ga))
            acc += nxt
            nxt_levels.append(nxt)
        levels = nxt_levels
    return [StateSet(ss.problem, acc, ss.source) for ss, acc in zip(sets, every)]


def random_blocks_state(blocks: list[str], rng: random.Random) -> list[str]:
    """A random blocksworld state: towers, and maybe one block in the hand."""
    order = blocks[:]
    rng.shuffle(order)
    lits = []
    held = order.pop() if order and rng.random() < 0.3 else None
    if held:
        lits.append(f"(holding {held})")
    else:
        lits.append("(handempty)")
    towers: list[list[str]] = []
    for b in order:
        if towers and rng.random() < 0.6:
            rng.choice(towers).append(b)
        else:
            towers.append([b])
    for t in towers:
        lits.append(f"(ontable {t[0]})")
        lits += [f"(on {upper} {lower})" for lower, upper in zip(t, t[1:])]
        lits.append(f"(clear {t[-1]})")
    return lits


def part1(names: list[str], seed: int) -> list[tuple[Domain, Domain, list[StateSet]]]:
    print("## 1. reference vs perturbed reference, all trajectory states (read from files)")
    print(f"{'domain':12s} {'states':>7s} {'read s':>7s} {'eval s':>7s} {'cpu s':>6s} {'states/s':>9s} "
          f"{'appP':>5s} {'appR':>5s} {'effP':>5s} {'effR':>5s}  changes")
    loaded = []
    tot_states = tot_read = tot_eval = tot_cpu = 0.0
    for d in names:
        ref = load_domain(IPC / "domains" / f"{d}.pddl")
        learned = perturb(ref, seed=seed, drop=2, add=2)
        files = trajectory_files(d)
        c = Clock()
        sets = load_states(files, ref, problems_dir=IPC / "problems" / "learning" / d)
        read_wall, _ = c.stop()
        c = Clock()
        ev = evaluate(learned.domain, ref, sets)
        wall, cpu = c.stop()
        n = ev.states
        tot_states += n
        tot_read += read_wall
        tot_eval += wall
        tot_cpu += cpu
        a, e = ev.applicability, ev.effects
        print(f"{d:12s} {n:7d} {read_wall:7.2f} {wall:7.2f} {cpu:6.2f} {n / wall:9.0f} "
              f"{fmt(a.precision_avg, 2):>5s} {fmt(a.recall_avg, 2):>5s} {fmt(e.precision_avg, 2):>5s} "
              f"{fmt(e.recall_avg, 2):>5s}  "
              f"{'; '.join(map(str, learned.changes))[:90]}")
        loaded.append((ref, learned.domain, sets))
    print(f"{'total':12s} {int(tot_states):7d} {tot_read:7.2f} {tot_eval:7.2f} {tot_cpu:6.2f} "
          f"{tot_states / tot_eval:9.0f}   (reading: states+problems, {tot_states / tot_read:.0f} states/s)")
    return loaded


def part2(loaded, seed: int, fanout: tuple[int, ...]) -> None:
    print(f"\n## 2. trajectory states + random successors (fan-out {fanout}), in memory")
    rng = random.Random(seed)
    c = Clock()
    big = [(ref, lrn, walk(ref, sets, rng, fanout)) for ref, lrn, sets in loaded]
    gen, _ = c.stop()
    total = sum(len(s.states) for _, _, sets in big for s in sets)
    print(f"generated {total} states in {gen:.1f}s (not part of the evaluation time)")
    tot_wall = tot_cpu = 0.0
    rows = []
    steps: dict[str, float] = {}
    for ref, lrn, sets in big:
        c = Clock()
        ev = evaluate(lrn, ref, sets)
        wall, cpu = c.stop()
        tot_wall += wall
        tot_cpu += cpu
        for k in ("facts", "parse", "ground", "solve"):
            steps[k] = steps.get(k, 0.0) + ev.timings.get(k, 0.0)
        rows.append(f"{ref.name}:{ev.states}/{wall:.2f}s")
    print("  " + "  ".join(rows))
    print("  wall seconds by step: " + ", ".join(f"{k} {v:.2f}" for k, v in steps.items()))
    print(f"TOTAL {total} states: {tot_wall:.2f}s wall ({total / tot_wall:.0f} states/s), "
          f"{tot_cpu:.2f}s CPU ({total / tot_cpu:.0f} states/CPU-s); peak memory {peak_mb():.0f} MB")


def part3(n: int, seed: int) -> None:
    print(f"\n## 3. blocksworld, {n} random states of the 10 training problems, from a JSON file")
    rng = random.Random(seed)
    ref = load_domain(IPC / "domains" / "blocksworld.pddl")
    learned = perturb(ref, seed=seed, drop=2, add=2)
    pdir = IPC / "problems" / "learning" / "blocksworld"
    probs = sorted(pdir.glob("*_prob.pddl"))
    from amlasp.pddl.parse import load_problem
    data = {}
    for p in probs:
        blocks = [o for o, _ in load_problem(p, ref).objects]
        data[p.name] = [random_blocks_state(blocks, rng) for _ in range(n // len(probs) + 1)]
    with tempfile.TemporaryDirectory() as tmp:
        f = Path(tmp) / "states.json"
        f.write_text(json.dumps(data))
        c = Clock()
        sets = load_states([f], ref, problems_dir=pdir)
        read, _ = c.stop()
        c = Clock()
        ev = evaluate(learned.domain, ref, sets)
        wall, cpu = c.stop()
    print(f"{ev.states} states: read {read:.2f}s, evaluate {wall:.2f}s wall / {cpu:.2f}s CPU "
          f"({ev.states / wall:.0f} states/s); applicability P/R {ev.applicability.precision_avg:.3f}/"
          f"{ev.applicability.recall_avg:.3f}; changes: {'; '.join(map(str, learned.changes))}")


def floortile_walks(n: int, seed: int) -> tuple[Domain, list[StateSet]]:
    """`n` floortile states: its 10 trajectories' states, then random walks from each of them
    (the walks advance together, one `applicable_many` call per step), each walk a StateSet."""
    from amlasp.reasoning.engine import applicable_many
    d = "floortile"
    ref = load_domain(IPC / "domains" / f"{d}.pddl")
    sets = load_states(trajectory_files(d), ref, problems_dir=IPC / "problems" / "learning" / d)
    starts = sum(len(ss.states) for ss in sets)
    per = max(1, -(-(n - starts) // (2 * starts)))  # steps of each walk, two walks per state
    rng = random.Random(seed)
    walks = [StateSet(ss.problem, [], f"{Path(ss.source).name}-walk{k}-{j}")
             for ss in sets for k in range(len(ss.states)) for j in range(2)]
    current = [st for ss in sets for st in ss.states for _ in range(2)]
    total = starts
    by_problem: dict[int, list[int]] = {}  # the walks of each problem: one set of states per problem and call
    for i, w in enumerate(walks):
        by_problem.setdefault(id(w.problem), []).append(i)
    groups = list(by_problem.values())
    for _ in range(per):
        answers = applicable_many(ref, [(walks[g[0]].problem, [current[i] for i in g]) for g in groups])
        for g, acts_of in zip(groups, answers):
            for i, acts in zip(g, acts_of):
                if acts and total < n:
                    current[i] = successor(ref, current[i], rng.choice(acts))
                    walks[i].states.append(current[i])
                    total += 1
    return ref, sets + [w for w in walks if w.states]


def distinct(sets: list[StateSet]) -> int:
    return len({(id(ss.problem), st) for ss in sets for st in ss.states})


def part4(n: int, seed: int) -> None:
    print(f"\n## 4. floortile, {n} states of random walks from its trajectory states, in memory")
    c = Clock()
    ref, sets = floortile_walks(n, seed)
    gen, _ = c.stop()
    learned = perturb(ref, seed=seed, drop=2, add=2)
    total = sum(len(ss.states) for ss in sets)
    print(f"generated {total} states ({distinct(sets)} distinct) in {gen:.1f}s (not part of the evaluation time)")
    c = Clock()
    ev = evaluate(learned.domain, ref, sets)
    wall, cpu = c.stop()
    steps = ", ".join(f"{k} {ev.timings.get(k, 0.0):.2f}" for k in ("facts", "parse", "ground", "solve"))
    print(f"{ev.states} states: {wall:.2f}s wall, {cpu:.2f}s CPU ({ev.states / cpu:.0f} states/CPU-s), "
          f"{ev.timings['batches']} batches; wall seconds by step: {steps}; applicability P/R "
          f"{ev.applicability.precision_avg:.3f}/{ev.applicability.recall_avg:.3f}")


def part5(n: int, seed: int) -> None:
    print(f"\n## 5. floortile, {n} states in JSON state files (one per walk), streamed by a fresh process")
    ref, sets = floortile_walks(n, seed)
    pdir = IPC / "problems" / "learning" / "floortile"
    with tempfile.TemporaryDirectory() as tmp:
        for i, ss in enumerate(sets):
            data = {Path(ss.problem.file).name: [[f"({a.predicate} {' '.join(a.args)})".replace(" )", ")")
                                                  for a in st] for st in ss.states]}
            (Path(tmp) / f"{i:05d}.json").write_text(json.dumps(data))
        size = sum(f.stat().st_size for f in Path(tmp).iterdir()) / 2**20
        out = subprocess.run([sys.executable, __file__, "--stream", tmp, str(pdir), str(seed)],
                             capture_output=True, text=True, check=True)
    r = json.loads(out.stdout)
    print(f"{r['states']} states ({distinct(sets)} distinct) in {len(sets)} files ({size:.0f} MB): "
          f"{r['cpu']:.2f}s CPU ({r['states'] / r['cpu']:.0f} states/CPU-s), {r['batches']} batches; "
          f"peak memory of the process {r['peak_mb']:.0f} MB (its baseline after imports {r['base_mb']:.0f} MB)")


def write_walks(folder: Path, n: int, seed: int, length: int = 100, per_file: int = 100) -> float:
    """`n` floortile states written to JSON lines files: walks of about `length` random steps (n / length
    walks, each from a random one of the trajectories' states, advancing together: one `applicable_many` call
    per step), each walk its first state in full, then each step as `del`/`add`; `per_file` walks a
    file. The walks are alike for any `n` (only their number grows), so time per state should not
    depend on `n`. Bytes written."""
    from amlasp.reasoning.engine import applicable_many
    d = "floortile"
    ref = load_domain(IPC / "domains" / f"{d}.pddl")
    sets = load_states(trajectory_files(d), ref, problems_dir=IPC / "problems" / "learning" / d)
    starts = [(ss.problem, st) for ss in sets for st in ss.states]
    text = lambda atoms: sorted(f"({a.predicate} {' '.join(a.args)})".replace(" )", ")") for a in atoms)  # noqa: E731
    walks = -(-n // length)
    rng = random.Random(seed)
    first = [rng.choice(starts) for _ in range(walks)]
    problems, current = [p for p, _ in first], [st for _, st in first]
    lines = [[json.dumps({"problem": Path(problems[i].file).name, "state": text(current[i])})] for i in range(walks)]
    total, alive = walks, set(range(walks))
    groups: dict[int, list[int]] = {}
    for i, p in enumerate(problems):
        groups.setdefault(id(p), []).append(i)
    while total < n and alive:
        live = [[i for i in g if i in alive] for g in groups.values()]
        live = [g for g in live if g]
        answers = applicable_many(ref, [(problems[g[0]], [current[i] for i in g]) for g in live])
        for g, acts_of in zip(live, answers):
            for i, acts in zip(g, acts_of):
                if not acts or total >= n:
                    alive.discard(i)
                    continue
                old, current[i] = current[i], successor(ref, current[i], rng.choice(acts))
                lines[i].append(json.dumps({"del": text(old - current[i]), "add": text(current[i] - old)}))
                total += 1
    folder.mkdir(parents=True, exist_ok=True)
    for k in range(0, walks, per_file):
        body = "".join(x + "\n" for w in lines[k:k + per_file] for x in w)
        (folder / f"walks{k // per_file:05d}.jsonl").write_text(body)
    return sum(f.stat().st_size for f in folder.glob("*.jsonl"))


def part6(sizes: list[int], seed: int, data: str | None) -> None:
    import math
    print(f"\n## 6. floortile, {', '.join(map(str, sizes))} states in JSON lines files (walks of 100 steps, 10,000 "
          "states a file, changes), each set streamed by a fresh process")
    pdir = IPC / "problems" / "learning" / "floortile"
    rows = []
    with tempfile.TemporaryDirectory(dir=data) as tmp:
        folder = Path(data) / f"floortile-walks-{seed}" if data else Path(tmp)
        made = folder / "states.txt"  # how many states the folder's files hold, once they are all written
        if made.is_file() and int(made.read_text()) >= max(sizes):
            size = sum(f.stat().st_size for f in folder.glob("*.jsonl")) / 2**20
            print(f"reused {made.read_text().strip()} states of {folder}, {size:.0f} MB")
        else:
            c = Clock()
            size = write_walks(folder, max(sizes), seed) / 2**20  # the smaller sets: its first files
            gen, _ = c.stop()
            made.write_text(str(max(sizes)))
            print(f"generated {max(sizes)} states in {gen:.0f}s, {size:.0f} MB (not part of the evaluation time)")
        print(f"{'states':>9s} {'wall s':>7s} {'CPU s':>7s} {'states/s':>9s} {'peak MB':>8s} {'worker MB':>9s} "
              f"{'workers':>7s} {'batches':>7s}  load", flush=True)
        for n in sizes:
            out = subprocess.run([sys.executable, __file__, "--stream", str(folder), str(pdir), str(seed), "--first",
                                  str(-(-n // 10000))], capture_output=True, text=True, check=True)
            r = json.loads(out.stdout)
            load = os.getloadavg()[0]
            rows.append((r["states"], r["wall"], r["cpu"]))
            print(f"{r['states']:9d} {r['wall']:7.1f} {r['cpu']:7.1f} {r['states'] / r['wall']:9.0f} "
                  f"{r['peak_mb']:8.0f} {r['worker_mb']:9.0f} {r['workers']:7d} {r['batches']:7d}  {load:.2f}",
                  flush=True)
    if len(rows) > 1:
        xs = [math.log(s) for s, _, _ in rows]
        for what, k in (("wall", 1), ("CPU", 2)):
            ys = [math.log(r[k]) for r in rows]
            mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
            slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
            print(f"fitted exponent of {what} time against states ({rows[0][0]} to {rows[-1][0]}, log-log least "
                  f"squares): {slope:.3f}")
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def walks_folder(data: str | None, tmp: str, n: int, seed: int) -> Path:
    """Part 6's folder of at least `n` floortile states (written unless a run before left them in `data`)."""
    folder = Path(data) / f"floortile-walks-{seed}" if data else Path(tmp)
    made = folder / "states.txt"  # how many states the folder's files hold, once they are all written
    if made.is_file() and int(made.read_text()) >= n:
        print(f"reused {made.read_text().strip()} states of {folder}")
    else:
        c = Clock()
        size = write_walks(folder, n, seed) / 2**20
        made.write_text(str(n))
        print(f"generated {n} states in {c.stop()[0]:.0f}s, {size:.0f} MB (not part of the evaluation time)")
    return folder


def split_walks(folder: Path, n: int, per_file: int = 20) -> Path:
    """The first `n` states of part 6's files again, `per_file` walks (of 100 states) a file, in a folder
    beside (made once): more chunks for part 7's workers than its 10,000-state files give."""
    out = folder.parent / f"{folder.name}-by{per_file * 100}-{n}"
    if not (out / "states.txt").is_file():
        out.mkdir(parents=True, exist_ok=True)
        walks: list[list[str]] = []
        for f in sorted(folder.glob("*.jsonl")):
            for line in f.read_text().splitlines():
                if '"problem"' in line:
                    walks.append([])
                walks[-1].append(line)
            if sum(map(len, walks)) >= n:
                break
        lines = [x for w in walks for x in w][:n]
        walks = [[]]
        for x in lines:
            if '"problem"' in x and len(walks[-1]) and sum('"problem"' in y for y in walks[-1]) == per_file:
                walks.append([])
            walks[-1].append(x)
        for k, w in enumerate(walks):
            (out / f"walks{k:05d}.jsonl").write_text("".join(x + "\n" for x in w))
        (out / "states.txt").write_text(str(len(lines)))
    return out


def tree_run(command: list[str]) -> tuple[str, float, float]:
    """Run `command`; its stdout, the peak of the resident memory of it and all its children together (MB,
    sampled every 0.1 s), and the CPU seconds of all of them (the most the samples saw: each process's own and
    that of the children it reaped, so that a Dask worker forked by a forkserver, and reaped by it, counts)."""
    import psutil
    p = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    root, peak, cpu = psutil.Process(p.pid), 0.0, 0.0
    while p.poll() is None:
        total, used = 0, 0.0
        try:
            for q in [root, *root.children(recursive=True)]:
                try:
                    total += q.memory_info().rss
                    t = q.cpu_times()
                    used += t.user + t.system + t.children_user + t.children_system
                except psutil.Error:
                    pass
        except psutil.Error:
            pass
        peak, cpu = max(peak, total / 2**20), max(cpu, used)
        time.sleep(0.1)
    out = p.stdout.read() if p.stdout else ""
    if p.returncode:
        raise RuntimeError(f"{command} ended with exit code {p.returncode}")
    return out, peak, cpu


def part7(n: int, seed: int, data: str | None, repeat: int, serial_fraction: float = 1.0) -> None:
    print(f"\n## 7. floortile, {n} states in JSON lines files (part 6's), on every core: --jobs 1, --jobs 2, "
          f"Dask (a local cluster of 2 workers); best of {repeat}, the runs in turn")
    pdir = IPC / "problems" / "learning" / "floortile"
    with tempfile.TemporaryDirectory(dir=data) as tmp:
        folder = split_walks(walks_folder(data, tmp, n, seed), n)
        files = len(list(folder.glob("*.jsonl")))
        first = {"jobs1": max(1, round(files * serial_fraction)), "jobs2": files, "dask2": files}
        best: dict[str, dict] = {}
        texts = {}
        for _ in range(repeat):
            for how in ("jobs1", "jobs2", "dask2"):
                load = os.getloadavg()[0]
                out, peak, tree_cpu = tree_run([sys.executable, __file__, "--stream", str(folder), str(pdir), str(seed),
                                      "--first", str(first[how]), "--how", how])
                r = json.loads(out)
                r["tree_mb"], r["load"] = peak, (load + os.getloadavg()[0]) / 2
                r["cpu"] = max(r["cpu"], tree_cpu)  # the run's own count misses the workers it did not reap
                texts[how] = r.pop("result")
                if how not in best or r["wall"] < best[how]["wall"]:
                    best[how] = r
        print(f"{'run':>8s} {'states':>9s} {'wall s':>7s} {'CPU s':>7s} {'states/s':>9s} {'peak MB (all)':>13s}  load")
        for how, r in best.items():
            print(f"{how:>8s} {r['states']:9d} {r['wall']:7.1f} {r['cpu']:7.1f} {r['states'] / r['wall']:9.0f} "
                  f"{r['tree_mb']:13.0f}  {r['load']:.2f}")
        r = best["dask2"]["restarts"]
        print(f"Dask workers restarted after a chunk above the memory limit: {r.get('restarted', 0)}, lost at "
              f"their restart and started again: {r.get('revived', 0)}, lost for good: {r.get('lost', 0)}")
        serial = best["jobs1"]
        scale = best["jobs2"]["states"] / serial["states"]
        if scale != 1:
            print(f"jobs1 measured on {serial['states']} of the {best['jobs2']['states']} states (--serial-fraction "
                  f"{serial_fraction:g}); extrapolated to all, linearly (part 6: time grows linearly with states; "
                  f"its memory does not grow, streamed): {serial['wall'] * scale:.1f} s wall, "
                  f"{serial['cpu'] * scale:.1f} s CPU")
        print(f"--jobs 2 is {serial['wall'] * scale / best['jobs2']['wall']:.2f}x --jobs 1 (wall), CPU "
              f"{best['jobs2']['cpu'] / (serial['cpu'] * scale):.2f}x; Dask's wall time is "
              f"{best['dask2']['wall'] / best['jobs2']['wall']:.2f}x --jobs 2's, its CPU "
              f"{best['dask2']['cpu'] / best['jobs2']['cpu']:.2f}x; results equal: "
              f"{len(set(texts.values() if scale == 1 else [texts['jobs2'], texts['dask2']])) == 1}"
              f"{'' if scale == 1 else ' (--jobs 2 and Dask)'}")
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def stream(folder: str, problems: str, seed: int, first: int | None = None, how: str = "serial") -> None:
    """The child of parts 5, 6 and 7: evaluate the files of `folder` (its `first` ones), print seconds and
    peak memory as JSON (CPU seconds: this process's and its children's: clingo workers, chunk workers).
    `how`: part 7's jobs1, jobs2 or dask2 (then the result's JSON text too)."""
    from amlasp.choices import Executor
    from amlasp.cluster import RESTARTS
    from amlasp.jobs import Jobs
    base = peak_mb()
    ref = load_domain(IPC / "domains" / "floortile.pddl")
    learned = perturb(ref, seed=seed, drop=2, add=2)
    jobs = {"serial": Jobs(), "jobs1": Jobs(1), "jobs2": Jobs(2), "dask2": Jobs(2, Executor.DASK)}[how]
    c, children = Clock(), os.times()
    files = sorted(Path(folder).glob("*.jsonl"))[:first] if first else folder
    ev = evaluate(learned.domain, ref, files, problems=problems, jobs=jobs)
    wall, cpu = c.stop()
    after = os.times()
    workers_cpu = after.children_user + after.children_system - children.children_user - children.children_system
    from amlasp.choices import Format
    from amlasp.render.evaluate import text
    print(json.dumps({"states": ev.states, "cpu": cpu + workers_cpu, "own_cpu": cpu, "wall": wall,
                      "batches": ev.timings["batches"],
                      "peak_mb": peak_mb(), "base_mb": base, "workers": ev.timings["workers"],
                      "worker_mb": max(ev.timings["worker_mb"],
                                       resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024),
                      "restarts": dict(RESTARTS),  # Dask workers restarted after a chunk (and revived, lost)
                      **({"result": text(ev, Format.JSON)} if how != "serial" else {})}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="3 domains, small synthetic sets")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--domains", nargs="*")
    ap.add_argument("--parts", default="123456", help="which parts to run after part 1 (default 123456; 7: eval "
                                                      "on every core, run alone with --parts 7)")
    ap.add_argument("--data", help="where part 6 writes its state files, kept for the next run "
                                   "(default: a temporary folder)")
    ap.add_argument("--sizes", type=int, nargs="*", help="part 6's numbers of states (default 10k, 100k, 1M)")
    ap.add_argument("--stream", nargs=3, help=argparse.SUPPRESS)  # parts 5 and 6's child: FOLDER PROBLEMS SEED
    ap.add_argument("--first", type=int, help=argparse.SUPPRESS)  # part 6's child: its first files
    ap.add_argument("--how", default="serial", help=argparse.SUPPRESS)  # part 7's child: jobs1, jobs2 or dask2
    ap.add_argument("--jobs-states", type=int, help="part 7's number of states (default 100,000; 20,000 --quick)")
    ap.add_argument("--repeat", type=int, default=1, help="part 7: runs of each kind, the best kept")
    ap.add_argument("--serial-fraction", type=float, default=1.0,
                    help="part 7: the share of the states --jobs 1 runs on, its figures extrapolated (default 1: all)")
    args = ap.parse_args()
    if args.stream:
        return stream(args.stream[0], args.stream[1], int(args.stream[2]), args.first, args.how)
    names = args.domains or (["blocksworld", "depots", "sokoban"] if args.quick else domains())
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at start")
    c = Clock()
    if args.parts == "7":  # alone: no part 1
        part7(args.jobs_states or (20000 if args.quick else 100000), args.seed, args.data, args.repeat,
              args.serial_fraction)
        return
    loaded = part1(names, args.seed)
    if "2" in args.parts:
        part2(loaded, args.seed, (1,) if args.quick else (3, 2))
    if "3" in args.parts:
        part3(1000 if args.quick else 10000, args.seed)
    if "4" in args.parts:
        part4(5000 if args.quick else 50000, args.seed)
    if "5" in args.parts:
        part5(10000 if args.quick else 100000, args.seed)
    if "6" in args.parts:
        part6(args.sizes or ([5000, 20000, 50000] if args.quick else [10000, 100000, 1000000]), args.seed, args.data)
    if "7" in args.parts:
        part7(args.jobs_states or (20000 if args.quick else 100000), args.seed, args.data, args.repeat,
              args.serial_fraction)
    wall, cpu = c.stop()
    print(f"\nbenchmark total {wall:.1f}s wall, {cpu:.1f}s CPU; peak memory {peak_mb():.0f} MB")


if __name__ == "__main__":
    sys.exit(main())
