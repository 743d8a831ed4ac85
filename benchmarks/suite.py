"""The paper's benchmark suite: the 20 IPC learning-track domains, and how the shipped data is made.

    python benchmarks/suite.py states                       # regenerate benchmarks/states (shipped set)
    python benchmarks/suite.py states --count 100 --first 10 --out states-100   # the paper-size set
    python benchmarks/suite.py perfect [--jobs 2]           # the reference domains as a "perfect learner":
                                                            # one amlasp bench run + report, prints where the
                                                            # time went (planner, validation, ours) with the load

The shipped test-state set has 3 trajectories per domain, made from the first 3 solving
problems of each domain with the paper's defaults (p_rnd = 0.2, p_opt = 0.3, seed 0); the
paper's set has 100 trajectories per domain (10 per solving problem).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

from amlasp.experiments.bench import PAPER_DOMAINS
from amlasp.experiments.trajectories import P_OPT, P_RND, SEED, generate_trajectories
from amlasp.pddl.inputs import problem_files
from amlasp.render.progress import progress_bar

HERE = Path(__file__).resolve().parent
IPC = HERE / "ipc"
DOMAINS = PAPER_DOMAINS


def states(args) -> None:
    out = Path(args.out)
    for d in args.domains or DOMAINS:
        t0 = time.perf_counter()
        files = problem_files(IPC / "problems" / "solving" / d)[: args.first]
        with progress_bar() as progress:
            r = generate_trajectories(IPC / "domains" / f"{d}.pddl", files, out / d, count=args.count,
                                      p_rnd=args.p_rnd, p_opt=args.p_opt, seed=args.seed, timeout=args.timeout,
                                      jobs=args.jobs, progress=progress)
        frame = r.to_frame()
        made = frame[frame.status != "unsolved"]
        print(f"{d:12s} {len(made)}/{len(frame)} trajectories, {int(made.length.fillna(0).sum()) + len(made)} states, "
              f"{time.perf_counter() - t0:.1f} s", flush=True)


def _load() -> str:
    """The 1-minute load average (the machine is shared: every figure is printed beside it)."""
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "?"


def perfect(args) -> None:
    """One `bench run` of the suite with the reference domains as the learned models, then where its
    time went (Fast Downward, validation, ours: `amlasp.experiments.timing`) per domain and in all."""
    from amlasp.experiments.bench import ResultsFile, run
    from amlasp.experiments.report import report
    from amlasp.render.bench import report_text
    from amlasp.render.formats import Format
    with tempfile.TemporaryDirectory() as tmp:
        learned = Path(tmp) / "reference"
        learned.mkdir()
        for d in DOMAINS:
            shutil.copyfile(IPC / "domains" / f"{d}.pddl", learned / f"{d}.pddl")
        results = Path(args.results)
        load = _load()
        with progress_bar() as progress:
            s = run([learned], results, learners=["reference"], domains=args.domains or DOMAINS, jobs=args.jobs,
                    timeout=args.timeout, progress=progress)
        rep = report(results)
        recs = ResultsFile(results).read()[1]
        print("| domain | units | unit time (s) | planner (s) | validation (s) | ours (s) | ours % | solved | other |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
        for (_, d), t in s.domain_time.items():
            counts = rep.counts.get(("reference", d), {})
            other = ", ".join(f"{k} {v}" for k, v in counts.items() if v and k != "solved") or "-"
            units = sum(1 for r in recs if r["domain"] == d)
            print(f"| {d} | {units} | {t.busy:.1f} | {t.planner:.1f} | {t.validation:.1f} | {t.ours:.1f} | "
                  f"{100 * t.share('ours'):.1f} | {counts.get('solved', 0)}/{sum(counts.values())} | {other} |")
        t = s.time
        print(f"\n{s.done_now} unit(s) in {s.seconds:.1f} s wall (jobs={args.jobs}, timeout={args.timeout:g} s; "
              f"load {load} before, {_load()} after)")
        print(f"worker time {t.busy + t.idle:.1f} s = planner {t.planner:.1f} ({100 * t.share('planner'):.1f}%) + "
              f"validation {t.validation:.1f} ({100 * t.share('validation'):.1f}%) + ours {t.ours:.1f} "
              f"({100 * t.share('ours'):.1f}%) [% of busy time] + idle {t.idle:.1f}\n")
        print(report_text(rep, Format.MARKDOWN))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("states", help="generate test trajectories for the suite")
    s.add_argument("--out", default=str(HERE / "states"))
    s.add_argument("--count", type=int, default=3, help="trajectories per domain")
    s.add_argument("--first", type=int, default=3, help="use the first K solving problems, in turn")
    s.add_argument("--p-rnd", type=float, default=P_RND)
    s.add_argument("--p-opt", type=float, default=P_OPT)
    s.add_argument("--seed", type=int, default=SEED)
    s.add_argument("--timeout", type=float, default=60.0)
    s.add_argument("--jobs", type=int, default=2)
    s.add_argument("domains", nargs="*")
    p = sub.add_parser("perfect", help="bench run + report with the reference domains as the learned models")
    p.add_argument("--results", default="perfect-learner.jsonl")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--timeout", type=float, default=60.0)
    p.add_argument("domains", nargs="*")
    args = ap.parse_args(argv)
    {"states": states, "perfect": perfect}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
