"""Predictive power against its peer: `amlasp.amlgym.predictive_power` (amlasp's drop-in for AMLGym's
metric, computed by `amlasp eval`'s engine) and AMLGym's own `predictive_power` (unified-planning's
simulator, ground action by ground action), the same call on the same inputs, timed side by side.

Inputs: the NOLAM-learned models and the reference domains of the 10 domains whose predictive power
tests/test_amlgym.py checks, on the states of the shipped test trajectories (benchmarks/states/<d>/,
3 per domain), passed as AMLGym's lists of atom strings with one simulator pair per problem. AMLGym
runs in its own Python (its dependencies are not amlasp's), given by `--amlgym`; how to make one:

    python3 -m venv /tmp/amlgym-venv
    /tmp/amlgym-venv/bin/pip install --no-deps amlgym==1.0.13
    /tmp/amlgym-venv/bin/pip install numpy scikit-learn alive-progress tarski clingo \\
        unified-planning up-fast-downward

Prints per domain the states, each side's CPU seconds (best of `--repeat`; each side's process time
of the call alone, files written and imports excluded), the ratio, and whether the four means agree
(within 1e-9). Run: `python benchmarks/bench_amlgym.py --amlgym /tmp/amlgym-venv/bin/python`.
"""

from __future__ import annotations

import argparse
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

# The child run by AMLGym's Python: argv = work folder, repeat; stdin = the tasks as JSON.
PEER = r"""
import json, sys, time, warnings
warnings.simplefilter("ignore")
from amlgym.metrics import predictive_power
from amlgym.modeling.UPEnv import UPEnv
import unified_planning.shortcuts as ups
ups.get_environment().credits_stream = None
out = {}
for d, task in json.load(sys.stdin).items():
    best, res = None, None
    for _ in range(int(sys.argv[2])):
        learned = [UPEnv(task["learned"], p) for p in task["problems"]]
        ref = [UPEnv(task["reference"], p) for p in task["problems"]]
        t = time.process_time()
        res = predictive_power(learned, ref, task["states"], show_progress=False)
        cpu = time.process_time() - t
        best = cpu if best is None else min(best, cpu)
    out[d] = {"cpu": best, "result": {k: {m: float(v) for m, v in r.items()} for k, r in res.items()}}
print(json.dumps(out))
"""


def trajectory_states(path: Path) -> list[list[str]]:
    """The states of a trajectory file as AMLGym's lists of atom strings (tests/data/amlgym/record.py)."""
    out = []
    for m in re.finditer(r"\(:state((?:\s*\([^()]*\))*)\s*\)", path.read_text()):
        out.append([" ".join(a.split()) for a in re.findall(r"\([^()]*\)", m.group(1))])
    return out


def tasks(work: Path) -> dict[str, dict]:
    """Per domain: the model files (copied: AMLGym writes scratch files next to its inputs), the
    problems and their states."""
    out = {}
    for d in DOMAINS:
        learned, reference = work / f"{d}_learned.pddl", work / f"{d}_ref.pddl"
        shutil.copy(IPC / "learned" / "nolam" / f"{d}.pddl", learned)
        shutil.copy(IPC / "domains" / f"{d}.pddl", reference)
        trajs = sorted((STATES / d).glob("*_traj"))
        out[d] = {"learned": str(learned), "reference": str(reference),
                  "problems": [str(STATES / d / "problems" / t.name.replace("_traj", "_prob.pddl")) for t in trajs],
                  "states": [trajectory_states(t) for t in trajs]}
    return out


def ours(task: dict, repeat: int) -> tuple[float, dict]:
    from amlasp import amlgym
    best, res = math.inf, {}
    for _ in range(repeat):
        learned = [amlgym.UPEnv(task["learned"], p) for p in task["problems"]]
        ref = [amlgym.UPEnv(task["reference"], p) for p in task["problems"]]
        t = time.process_time()
        res = amlgym.predictive_power(learned, ref, task["states"], show_progress=False)
        best = min(best, time.process_time() - t)
    return best, res


def same(a: dict, b: dict) -> bool:
    return all(math.isclose(float(a[k][m]), float(b[k][m]), abs_tol=1e-9) for k in b for m in b[k])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--amlgym", required=True, help="a Python with AMLGym 1.0.13 installed (see above)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--domains", nargs="*", default=list(DOMAINS))
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at start")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        todo = {d: t for d, t in tasks(work).items() if d in args.domains}
        peer = subprocess.run([args.amlgym, "-c", PEER, str(work), str(args.repeat)], input=json.dumps(todo),
                              capture_output=True, text=True, cwd=work)
        if peer.returncode:
            sys.exit(f"AMLGym failed:\n{peer.stderr[-2000:]}")
        theirs = json.loads(peer.stdout)
        print(f"{'domain':12s} {'states':>6s} {'amlasp s':>9s} {'AMLGym s':>9s} {'ratio':>7s}  same means")
        tot_ours = tot_theirs = 0.0
        for d, task in todo.items():
            cpu, res = ours(task, args.repeat)
            t = theirs[d]
            tot_ours += cpu
            tot_theirs += t["cpu"]
            n = sum(len(s) for s in task["states"])
            print(f"{d:12s} {n:6d} {cpu:9.3f} {t['cpu']:9.3f} {t['cpu'] / cpu:6.0f}x  {same(res, t['result'])}")
    print(f"{'total':12s} {'':6s} {tot_ours:9.3f} {tot_theirs:9.3f} {tot_theirs / tot_ours:6.0f}x  "
          f"(AMLGym time / amlasp time; load average {os.getloadavg()[0]:.2f} at the end)")


if __name__ == "__main__":
    sys.exit(main())
