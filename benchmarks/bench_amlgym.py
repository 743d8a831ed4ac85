"""Predictive power against its peer: `amlasp.amlgym.predictive_power` (amlasp's drop-in for AMLGym's
metric, computed by `amlasp eval`'s engine) and AMLGym's own `predictive_power` (unified-planning's
simulator, ground action by ground action), the same calls on the same inputs, timed side by side.

Inputs: the NOLAM-learned models and the reference domains of the 10 domains whose predictive power
tests/test_amlgym.py checks, on the test trajectories of `--states DIR` (default: the shipped
benchmarks/states/, 3 per domain), passed as AMLGym's lists of atom strings with one simulator pair
per trajectory. The paper's workload (100 trajectories per domain, 10 per solving problem; about
1,600-5,700 states per domain) is not shipped (65 MB for 9 domains); make it outside the repository with

    python benchmarks/suite.py states --count 100 --first 10 --timeout 10 --jobs 2 --out DIR \\
        blocksworld depots ferry goldminer grippers matchingbw miconic rovers satellite tpp

(the paper's generator and defaults; `--timeout 10` bounds the A* searches that cannot finish on the
larger problems, after which the greedy planner takes over, as with the default 60 s; minutes per
domain on 2 cores, README "bench_amlgym.py"). AMLGym's side of it takes most of an hour of CPU:
`--peer-repeat 1` and `--peer-cache FILE` (its figures kept, reused while the inputs are unchanged).

AMLGym runs in its own Python (its dependencies are not amlasp's), given by `--amlgym`; how to make one:

    python3 -m venv /tmp/amlgym-venv
    /tmp/amlgym-venv/bin/pip install --no-deps amlgym==1.0.13
    /tmp/amlgym-venv/bin/pip install numpy scikit-learn alive-progress tarski clingo \\
        unified-planning up-fast-downward

Timed, end to end, on each side: making the simulators (`UPEnv(domain, problem)` per trajectory:
AMLGym's parses both files with unified-planning, amlasp's names them and parses them in the call)
and the `predictive_power` call. Not timed: imports (both sides warm up on one state first) and
reading the trajectory files into atom strings (the caller's, the same for both). Prints per domain
the trajectories and states, each side's CPU seconds (best of `--repeat`, `--peer-repeat` for AMLGym),
the ratio, the load average when each side finished the domain, and whether the four means agree
(within 1e-9). Run: `python benchmarks/bench_amlgym.py --amlgym /tmp/amlgym-venv/bin/python [--states DIR]`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IPC = ROOT / "benchmarks" / "ipc"
STATES = ROOT / "benchmarks" / "states"
DOMAINS = ("blocksworld", "depots", "ferry", "goldminer", "grippers", "matchingbw", "miconic", "rovers", "satellite",
           "tpp")

# The child run by AMLGym's Python: argv = repeat; stdin = the tasks as JSON; a JSON line per domain.
PEER = r"""
import json, os, sys, time, warnings
warnings.simplefilter("ignore")
from amlgym.metrics import predictive_power
from amlgym.modeling.UPEnv import UPEnv
import unified_planning.shortcuts as ups
ups.get_environment().credits_stream = None

def call(task, states):
    learned = [UPEnv(task["learned"], p) for p in task["problems"]]
    ref = [UPEnv(task["reference"], p) for p in task["problems"]]
    return predictive_power(learned, ref, states, show_progress=False)

tasks = json.load(sys.stdin)
first = next(iter(tasks.values()))
call(dict(first, problems=first["problems"][:1]), [first["states"][0][:1]])  # warm-up: imports
for d, task in tasks.items():
    best, res = None, None
    for _ in range(int(sys.argv[1])):
        t = time.process_time()
        res = call(task, task["states"])
        cpu = time.process_time() - t
        best = cpu if best is None else min(best, cpu)
    print(json.dumps({"domain": d, "cpu": best, "load": os.getloadavg()[0],
                      "result": {k: {m: float(v) for m, v in r.items()} for k, r in res.items()}}), flush=True)
"""


def trajectory_states(path: Path) -> list[list[str]]:
    """The states of a trajectory file as AMLGym's lists of atom strings (tests/data/amlgym/record.py)."""
    out = []
    for m in re.finditer(r"\(:state((?:\s*\([^()]*\))*)\s*\)", path.read_text()):
        out.append([" ".join(a.split()) for a in re.findall(r"\([^()]*\)", m.group(1))])
    return out


def tasks(work: Path, states: Path, domains: list[str]) -> dict[str, dict]:
    """Per domain: the model files (copied: AMLGym writes scratch files next to its inputs), the
    problems and their states."""
    out = {}
    for d in domains:
        learned, reference = work / f"{d}_learned.pddl", work / f"{d}_ref.pddl"
        shutil.copy(IPC / "learned" / "nolam" / f"{d}.pddl", learned)
        shutil.copy(IPC / "domains" / f"{d}.pddl", reference)
        trajs = sorted((states / d).glob("*_traj"), key=lambda t: int(t.name.split("_")[0]))
        if not trajs:
            sys.exit(f"{states / d}: no trajectories (see --states)")
        out[d] = {"learned": str(learned), "reference": str(reference),
                  "problems": [str(states / d / "problems" / t.name.replace("_traj", "_prob.pddl")) for t in trajs],
                  "states": [trajectory_states(t) for t in trajs]}
    return out


def _call(task: dict, states: list) -> dict:
    from amlasp import amlgym
    learned = [amlgym.UPEnv(task["learned"], p) for p in task["problems"]]
    ref = [amlgym.UPEnv(task["reference"], p) for p in task["problems"]]
    return amlgym.predictive_power(learned, ref, states, show_progress=False)


def ours(task: dict, repeat: int) -> tuple[float, dict]:
    best, res = math.inf, {}
    for _ in range(repeat):
        t = time.process_time()
        res = _call(task, task["states"])
        best = min(best, time.process_time() - t)
    return best, res


def same(a: dict, b: dict) -> bool:
    return all(math.isclose(float(a[k][m]), float(b[k][m]), abs_tol=1e-9) for k in b for m in b[k])


def peer(python: str, todo: dict, repeat: int, work: Path) -> dict:
    """AMLGym's figures, per domain, as its Python prints them (echoed to stderr as they come: a long run)."""
    proc = subprocess.Popen([python, "-c", PEER, str(repeat)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=work)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    proc.stdin.write(json.dumps(todo))
    proc.stdin.close()
    out = {}
    for line in proc.stdout:
        r = json.loads(line)
        r["measured"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        out[r["domain"]] = r
        print(f"AMLGym {r['domain']}: {r['cpu']:.2f} s CPU (load {r['load']:.2f})", file=sys.stderr, flush=True)
    err = proc.stderr.read()
    if proc.wait():
        sys.exit(f"AMLGym failed:\n{err[-2000:]}")
    return out


def inputs_key(task: dict, repeat: int) -> str:
    """What the peer's figures depend on: the texts of the models and problems, the states, the repeat count."""
    h = hashlib.sha256()
    for f in (task["learned"], task["reference"], *task["problems"]):
        h.update(Path(f).read_bytes())
    h.update(json.dumps([task["states"], repeat]).encode())
    return h.hexdigest()


def peer_cached(python: str, todo: dict, repeat: int, work: Path, cache: Path | None) -> dict:
    """AMLGym's figures, those of domains whose inputs are unchanged read from `cache` (a JSON line per
    domain measured, appended as measured): its side of the paper's workload takes most of an hour."""
    keys = {d: inputs_key(t, repeat) for d, t in todo.items()}
    known = {}
    if cache is not None and cache.exists():
        for line in cache.read_text().splitlines():
            r = json.loads(line)
            if keys.get(r["domain"]) == r["key"]:
                known[r["domain"]] = dict(r, cached=True)
    missing = {d: t for d, t in todo.items() if d not in known}
    if missing:
        fresh = peer(python, missing, repeat, work)
        for d, r in fresh.items():
            r["key"] = keys[d]
            if cache is not None:
                with cache.open("a") as f:
                    f.write(json.dumps(r) + "\n")
        known.update(fresh)
    return known


def first(task: dict, k: int | None) -> dict:
    """The task on its first `k` trajectories (all with None)."""
    return task if k is None else dict(task, problems=task["problems"][:k], states=task["states"][:k])


def row(d: str, task: dict, peer_task: dict, t: dict, repeat: int) -> tuple[float, float, bool]:
    """One domain: amlasp on all its trajectories and on AMLGym's (when fewer), beside AMLGym's figure."""
    cpu, res = ours(task, repeat)
    part = len(peer_task["states"]) < len(task["states"])
    cpu_part, res_part = ours(peer_task, repeat) if part else (cpu, res)
    agree = same(res_part, t["result"])
    n = sum(len(s) for s in task["states"])
    load = f"{os.getloadavg()[0]:.1f}/{t['load']:.1f}"
    if part:  # AMLGym on the first trajectories only: the same-input ratio, and a bound for all of them
        print(f"{d:11s} {len(peer_task['states']):3d}/{len(task['states']):<3d} {n:6d} {cpu:7.3f} {cpu_part:7.3f} "
              f"{t['cpu']:8.2f} {t['cpu'] / cpu_part:5.0f}x {t['cpu'] / cpu:5.0f}x {load:>9s} {agree}", flush=True)
    else:
        print(f"{d:11s} {len(task['states']):7d} {n:6d} {cpu:7.3f} {'':7s} {t['cpu']:8.2f} {t['cpu'] / cpu:5.0f}x "
              f"{'':6s} {load:>9s} {agree}", flush=True)
    return cpu_part, t["cpu"], agree


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--amlgym", required=True, help="a Python with AMLGym 1.0.13 installed (see above)")
    ap.add_argument("--states", default=str(STATES), help="test trajectories: DIR/<domain>/*_traj and "
                    "DIR/<domain>/problems/ (default: the shipped set; see above for the paper's)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--peer-repeat", type=int, help="AMLGym's repeat count (default: --repeat)")
    ap.add_argument("--peer-trajectories", type=int, help="AMLGym on the first K trajectories of each domain only")
    ap.add_argument("--domains", nargs="*", default=list(DOMAINS))
    ap.add_argument("--peer-cache", type=Path, help="JSON lines of AMLGym's figures: those of unchanged inputs are "
                    "read from it (the table says when they were measured), the others measured and added")
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at start; states: {args.states}")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        todo = tasks(work, Path(args.states), args.domains)
        peer_todo = {d: first(t, args.peer_trajectories) for d, t in todo.items()}
        theirs = peer_cached(args.amlgym, peer_todo, args.peer_repeat or args.repeat, work, args.peer_cache)
        one = next(iter(todo.values()))
        _call(dict(one, problems=one["problems"][:1]), [one["states"][0][:1]])  # warm-up: imports
        print(f"{'domain':11s} {'traj':>7s} {'states':>6s} {'amlasp s':>7s} {'on K':>7s} {'AMLGym s':>8s} "
              f"{'ratio':>6s} {'bound':>6s} {'load':>9s} same")
        sums = [0.0, 0.0, 0]
        for d, task in todo.items():
            for i, x in enumerate(row(d, task, peer_todo[d], theirs[d], args.repeat)):
                sums[i] += x
    print(f"{'total':11s} {'':7s} {'':6s} {'':7s} {sums[0]:7.3f} {sums[1]:8.2f} {sums[1] / sums[0]:5.0f}x "
          f"{'':6s} {'':9s} {sums[2]}/{len(todo)}")
    print("CPU seconds of making the simulators and of the call, each side. traj K/N: AMLGym ran on the\n"
          "first K of N trajectories (--peer-trajectories); 'on K': amlasp on those; 'ratio': AMLGym/amlasp\n"
          "on the same K; 'bound': AMLGym on K / amlasp on all N, a lower bound of the ratio on all N\n"
          "(AMLGym's time on N exceeds its time on K). load: 1-minute load average after amlasp's/AMLGym's\n"
          f"run of the domain (at the end {os.getloadavg()[0]:.2f}). same: the four means within 1e-9.")
    for d in todo:
        if theirs[d].get("cached"):
            print(f"AMLGym's {d} figure read from {args.peer_cache}: measured {theirs[d]['measured']}, same inputs")


if __name__ == "__main__":
    sys.exit(main())
