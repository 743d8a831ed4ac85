"""`amlasp plan` beside Fast Downward's A* with LM-cut, end to end, on ACPBench's shortest-plan problems.

The problems are the 40 of ACPBench's development split whose optimal plan length the benchmark gives
(its `nexta` items: `opt`), copied into benchmarks/acpbench_plan (CDLA-Permissive-2.0, LICENSE there;
`optimal.json` holds each `opt`). For each problem, `repeat` times in turn:

- Fast Downward: its driver (`fast-downward.py DOMAIN PROBLEM --search "astar(lmcut())"`) in a fresh
  temporary folder, as a user runs it: translator and search included;
- amlasp: `python -m amlasp plan DOMAIN PROBLEM -f json --time-limit 60` (with `--prover`, default auto):
  start-up, reading, Fast Downward or clingo, and the validation of the plan included;
- the same call with `amlasp server` running (a server of the run's own): the caller's wall time, and the
  CPU of the caller and of the server's side (the child that ran the call, with Fast Downward's processes
  it waited for: benchmarks/served.py).

Each is a process of its own; wall time by `time.perf_counter`, CPU time as the children's user + system
time (`resource.RUSAGE_CHILDREN`, which counts the processes they waited for). The best of the runs is
reported, and amlasp's best over Fast Downward's best (amlasp's byte code is compiled first, as an
installation has it); the plan length is checked against ACPBench's
`opt`. The machine's load (`os.getloadavg`) is printed before and after each problem: on a shared
machine, compare ratios, not seconds.

`--baseline DIR` (a checkout of other code, e.g. a worktree of main's commit) also times `python -m amlasp plan`
run from DIR (its code imported, byte code compiled first), in turn with the others: this code's and
DIR's ratios measured in the same minutes; `--no-served` leaves the server out.

    python benchmarks/bench_plan.py [--repeat 3] [--prover auto|asp|fd] [--only SUBSTRING] [--limit 60]
        [--baseline DIR] [--no-served]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
from served import Served  # noqa: E402

PROBLEMS = ROOT / "benchmarks" / "acpbench_plan"


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _timed(cmd: list[str], cwd: Path, limit: float, env: dict | None = None
           ) -> tuple[float, float, subprocess.CompletedProcess | None]:
    """(wall s, CPU s, the completed process or None when it passed `limit`)."""
    cpu, start = _children_cpu(), time.perf_counter()
    try:
        done: subprocess.CompletedProcess | None = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True,
                                                                  timeout=limit, env=env)
    except subprocess.TimeoutExpired:
        done = None
    return time.perf_counter() - start, _children_cpu() - cpu, done


def fast_downward(domain: Path, problem: Path, limit: float) -> tuple[float, float, int | None]:
    """Fast Downward's driver with A* and LM-cut: (wall, CPU, plan length or None)."""
    from amlasp.external.fast_downward import downward_root
    driver = downward_root() / "fast-downward.py"
    with tempfile.TemporaryDirectory(prefix="bench-fd-") as tmp:
        wall, cpu, done = _timed([sys.executable, str(driver), str(domain), str(problem), "--search",
                                  "astar(lmcut())"], Path(tmp), limit)
        plan = Path(tmp) / "sas_plan"
        length = None
        if done is not None and plan.exists():
            length = sum(1 for ln in plan.read_text().splitlines() if ln.strip() and not ln.startswith(";"))
    return wall, cpu, length


#: The calls without a server: a runtime folder of the run's own, where no server runs (a user's own is not asked).
ALONE = dict(os.environ, XDG_RUNTIME_DIR=tempfile.mkdtemp(prefix="bench-alone-"))


def amlasp(domain: Path, problem: Path, limit: float, prover: str, env: dict = ALONE, root: Path = ROOT
           ) -> tuple[float, float, int | None, str]:
    """`amlasp plan` (the code of `root`): (wall, CPU, plan length or None, the prover it names or its status)."""
    cmd = [sys.executable, "-m", "amlasp", "plan", str(domain.resolve()), str(problem.resolve()), "-f", "json",
           "--time-limit", f"{limit:g}", "--prover", prover]
    if root != ROOT:
        env = dict(env, PYTHONPATH=str(root))
    wall, cpu, done = _timed(cmd, root, limit + 30, env)
    if done is None or done.returncode not in (0, 1):
        return wall, cpu, None, "killed" if done is None else f"exit {done.returncode}"
    out = json.loads(done.stdout)
    return wall, cpu, out["length"], out.get("prover") or out["status"]


def served_amlasp(server: Served, domain: Path, problem: Path, limit: float, prover: str
                  ) -> tuple[float, float, int | None, str]:
    """`amlasp` with the server running: its CPU the caller's and the server's side's."""
    count, before = server.served(), server.cpu()
    wall, cpu, length, by = amlasp(domain, problem, limit, prover, server.env)
    cpu += server.cpu() - before
    return wall, cpu, length, by if server.served() == count + 1 else "not served"


def main() -> None:
    import compileall
    import contextlib
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--prover", default="auto")
    ap.add_argument("--only", default="")
    ap.add_argument("--limit", type=float, default=60.0)
    ap.add_argument("--baseline", type=Path, default=None)
    ap.add_argument("--no-served", action="store_true")
    args = ap.parse_args()
    base: Path | None = args.baseline.resolve() if args.baseline is not None else None
    # byte code written once, as `pip install` does (PYTHONDONTWRITEBYTECODE would have every run compile)
    for root in [ROOT] + ([base] if base is not None else []):
        compileall.compile_dir(str(root / "amlasp"), quiet=1)
    optimal = json.loads((PROBLEMS / "optimal.json").read_text())
    names = [n for n in sorted(optimal) if args.only in n]
    print(f"load at start {os.getloadavg()[0]:.2f}; {os.cpu_count()} cores; best of {args.repeat}; "
          f"amlasp plan --prover {args.prover}")
    print(f"{'problem':40} {'opt':>3} | {'FD wall':>7} {'FD cpu':>6} | {'amlasp wall':>11} {'cpu':>5} {'by':>8} "
          f"| {'ratio':>5} | {'served wall':>11} {'cpu':>5} | {'ratio':>5} | "
          + (f"{'base wall':>9} {'cpu':>5} | {'ratio':>5} | " if base is not None else "") + "load")
    ratios, served_ratios, base_ratios = [], [], []
    worst, served_worst, base_worst = (0.0, ""), (0.0, ""), (0.0, "")
    with contextlib.nullcontext() if args.no_served else Served(ALONE) as server:
        for name in names:
            d, p = PROBLEMS / name / "domain.pddl", PROBLEMS / name / "problem.pddl"
            load = os.getloadavg()[0]
            fd, ours, served, based = [], [], [], []
            for _ in range(args.repeat):
                fd.append(fast_downward(d, p, args.limit))
                ours.append(amlasp(d, p, args.limit, args.prover))
                if server is not None:
                    served.append(served_amlasp(server, d, p, args.limit, args.prover))
                if base is not None:
                    based.append(amlasp(d, p, args.limit, args.prover, root=base))
            fd_best, ours_best = min(fd), min(ours)
            lengths = {x[2] for x in fd + ours + served + based}
            if lengths != {optimal[name]} or any(x[3] == "not served" for x in served):
                print(f"  !! {name}: lengths {sorted(map(str, lengths))}, ACPBench's opt {optimal[name]}; "
                      f"served by {sorted({x[3] for x in served})}")
            ratio = ours_best[0] / fd_best[0]
            ratios.append(ratio)
            worst = max(worst, (ratio, name))
            line = f"{name:40} {optimal[name]:>3} | {fd_best[0]:7.2f} {fd_best[1]:6.2f} | {ours_best[0]:11.2f} " \
                   f"{ours_best[1]:5.2f} {ours_best[3]:>8} | {ratio:5.2f} | "
            if served:
                served_best = (min(x[0] for x in served), min(x[1] for x in served))
                served_ratio = served_best[0] / fd_best[0]
                served_ratios.append(served_ratio)
                served_worst = max(served_worst, (served_ratio, name))
                line += f"{served_best[0]:11.2f} {served_best[1]:5.2f} | {served_ratio:5.2f} | "
            else:
                line += f"{'-':>11} {'-':>5} | {'-':>5} | "
            if based:
                base_best = min(based)
                base_ratio = base_best[0] / fd_best[0]
                base_ratios.append(base_ratio)
                base_worst = max(base_worst, (base_ratio, name))
                line += f"{base_best[0]:9.2f} {base_best[1]:5.2f} | {base_ratio:5.2f} | "
            print(f"{line}{load:.1f}-{os.getloadavg()[0]:.1f}", flush=True)
    summary = f"ratio amlasp/FD (wall, best of {args.repeat}): {_spread(ratios, worst)}"
    if served_ratios:
        summary += f"; with `amlasp server` running: {_spread(served_ratios, served_worst)}"
    if base_ratios:
        summary += f"; the baseline's ({base}): {_spread(base_ratios, base_worst)}"
    print(f"{summary}; load at end {os.getloadavg()[0]:.2f}")


def _spread(ratios: list[float], worst: tuple[float, str]) -> str:
    """The median and the worst of `ratios`, and how many are above 2."""
    ratios = sorted(ratios)
    return f"median {ratios[len(ratios) // 2]:.2f}, worst {worst[0]:.2f} ({worst[1]}), " \
           f"{sum(r > 2 for r in ratios)} of {len(ratios)} above 2"


if __name__ == "__main__":
    main()
