"""Record AMLGym's own metric values on the shipped NOLAM models: the oracle of tests/test_amlgym.py.

Run with a Python that has AMLGym 1.0.13 (the version the benchmark data comes from) and the
packages its metrics import (AMLGym's full dependency list is ~150 MB with torch; the metrics
need only these):

    python3 -m venv /tmp/amlgym-venv
    /tmp/amlgym-venv/bin/pip install --no-deps amlgym==1.0.13
    /tmp/amlgym-venv/bin/pip install numpy scikit-learn alive-progress tarski clingo \
        unified-planning up-fast-downward
    /tmp/amlgym-venv/bin/python tests/data/amlgym/record.py

It writes `states/<domain>.json` (the test states of the predictive-power check, in AMLGym's own
JSON format, taken from the shipped trajectories benchmarks/states/<domain>/*_traj) and
`amlgym-1.0.13.json` (AMLGym's results on them). The amlasp side never imports AMLGym.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import tempfile
import warnings
from importlib.metadata import version
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
IPC = ROOT / "benchmarks" / "ipc"
STATES = ROOT / "benchmarks" / "states"

SYNTACTIC = ("barman", "blocksworld", "childsnack", "depots", "elevators", "ferry", "floortile", "goldminer",
             "grippers", "matchingbw", "miconic", "nomystery", "npuzzle", "parking", "rovers", "satellite", "sokoban",
             "spanner", "tpp", "transport")
PREDICTIVE = ("blocksworld", "depots", "ferry", "goldminer", "grippers", "matchingbw", "miconic", "rovers", "satellite",
              "tpp")
SINGLE = ("matchingbw",)
SOLVING = ("blocksworld", "childsnack", "elevators", "nomystery")  # first 3 solving problems each
TIMEOUT = 60


def trajectory_states(path: Path) -> list[list[str]]:
    """The states of a trajectory file as AMLGym's lists of atom strings."""
    text = path.read_text()
    out = []
    for m in re.finditer(r"\(:state((?:\s*\([^()]*\))*)\s*\)", text):
        out.append([" ".join(a.split()) for a in re.findall(r"\([^()]*\)", m.group(1))])
    return out


def write_states() -> None:
    (HERE / "states").mkdir(exist_ok=True)
    for d in PREDICTIVE:
        data = {}
        for traj in sorted((STATES / d).glob("*_traj")):
            data[traj.name.replace("_traj", "_prob.pddl")] = trajectory_states(traj)
        (HERE / "states" / f"{d}.json").write_text(json.dumps(data, separators=(",", ":")) + "\n")


def as_float(x):
    return None if x is None else float(x)


def main() -> None:
    write_states()
    from amlgym.metrics import predictive_power, problem_solving, syntactic_precision, syntactic_recall
    from amlgym.modeling.UPEnv import UPEnv
    import unified_planning.shortcuts as ups
    ups.get_environment().credits_stream = None
    warnings.simplefilter("ignore")
    import inspect
    import amlgym.metrics as metrics
    out: dict = {"amlgym": version("amlgym"), "unified_planning": version("unified-planning"),
                 "metrics": sorted(metrics.__all__),
                 "signatures": {name: [f"{p.name}={p.default!r}" if p.default is not p.empty else p.name
                                       for p in inspect.signature(getattr(metrics, name)).parameters.values()]
                                for name in metrics.__all__},
                 "syntactic": {}, "predictive": {}, "predictive_single": {}, "solving": {}}
    work = Path(tempfile.mkdtemp())
    os.chdir(work)  # AMLGym writes scratch files (tmp, tmp_domain.pddl, <model>_clean) next to its inputs / in cwd
    for d in SYNTACTIC:
        lrn, ref = work / f"{d}_learned.pddl", work / f"{d}_ref.pddl"
        shutil.copy(IPC / "learned" / "nolam" / f"{d}.pddl", lrn)
        shutil.copy(IPC / "domains" / f"{d}.pddl", ref)
        out["syntactic"][d] = {
            "precision": {k: as_float(v) for k, v in syntactic_precision(str(lrn), str(ref)).items()},
            "recall": {k: as_float(v) for k, v in syntactic_recall(str(lrn), str(ref)).items()}}
        print(d, out["syntactic"][d], file=sys.stderr)
    for d in PREDICTIVE:
        states = json.loads((HERE / "states" / f"{d}.json").read_text())
        lrn, ref = str(work / f"{d}_learned.pddl"), str(work / f"{d}_ref.pddl")
        probs = [str(STATES / d / "problems" / name) for name in states]
        res = predictive_power([UPEnv(lrn, p) for p in probs], [UPEnv(ref, p) for p in probs], list(states.values()),
                               show_progress=False)
        out["predictive"][d] = {k: {m: as_float(v) for m, v in r.items()} for k, r in res.items()}
        print(d, out["predictive"][d], file=sys.stderr)
        if d in SINGLE:  # one simulator pair, a plain list of states
            name, first = next(iter(states.items()))
            res = predictive_power(UPEnv(lrn, probs[0]), UPEnv(ref, probs[0]), first, show_progress=False)
            out["predictive_single"][d] = {"problem": name,
                                           **{k: {m: as_float(v) for m, v in r.items()} for k, r in res.items()}}
    for d in SOLVING:
        lrn, ref = str(work / f"{d}_learned.pddl"), str(work / f"{d}_ref.pddl")
        probs = [str(IPC / "problems" / "solving" / d / f"{k}_{d}_prob.pddl") for k in range(3)]
        res = problem_solving(lrn, ref, probs, timeout=TIMEOUT, show_progress=False)
        out["solving"][d] = {k: as_float(v) for k, v in res.items()}
        print(d, out["solving"][d], file=sys.stderr)
    (HERE / "amlgym-1.0.13.json").write_text(json.dumps(out, indent=1) + "\n")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
