"""The paper's benchmark suite: the 20 IPC learning-track domains, and how the shipped data is made.

    python benchmarks/suite.py states                       # regenerate benchmarks/states (shipped set)
    python benchmarks/suite.py states --count 100 --first 10 --out states-100   # the paper-size set
    python benchmarks/suite.py perfect [--jobs 2]           # the reference domains as a "perfect learner":
                                                            # amlasp bench run + report, prints wall times

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


def perfect(args) -> None:
    from amlasp.experiments.bench import run
    from amlasp.experiments.report import report
    from amlasp.render.bench import report_text
    from amlasp.render.formats import Format
    with tempfile.TemporaryDirectory() as tmp:
        learned = Path(tmp) / "reference"
        learned.mkdir()
        for d in DOMAINS:
            shutil.copyfile(IPC / "domains" / f"{d}.pddl", learned / f"{d}.pddl")
        results = Path(args.results)
        t0 = time.perf_counter()
        print("| domain | units | wall time (s) | unit time (s) | solved | other outcomes |")
        print("|---|---:|---:|---:|---:|---|")
        for d in args.domains or DOMAINS:  # one domain at a time, so that each has its own wall time
            t = time.perf_counter()
            with progress_bar() as progress:
                s = run([learned], results, learners=["reference"], domains=[d], jobs=args.jobs,
                        timeout=args.timeout, progress=progress)
            rep = report(results)
            counts = rep.counts.get(("reference", d), {})
            other = ", ".join(f"{k} {v}" for k, v in counts.items() if v and k != "solved") or "-"
            print(f"| {d} | {s.units} | {time.perf_counter() - t:.1f} | {sum(s.domain_seconds.values()):.1f} | "
                  f"{counts.get('solved', 0)}/{sum(counts.values())} | {other} |", flush=True)
        print(f"\ntotal wall time: {time.perf_counter() - t0:.1f} s (jobs={args.jobs}, timeout={args.timeout:g} s)\n")
        print(report_text(report(results), Format.MARKDOWN))


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
