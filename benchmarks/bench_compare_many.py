"""Candidates per second: a batch of generated domains against one reference (`compare CANDIDATES_DIR REF`).

The batch: `--candidates` domains made from the reference by `experiments.perturb` (literals dropped
and added, half of them with every name renamed and the parameters permuted, as an LLM's rewording
would) plus every tenth one broken (a parenthesis missing, or a predicate used but never declared),
written as files into a temporary folder. Figures, each the wall time of the whole batch:

- `compare_many`, one process (`--jobs 1`) and `--jobs N` processes;
- the peer, measured in the same run: the same candidates one `amlasp compare CAND REF -f json`
  process each (what a script without the batch command does), on the first `--peer` candidates,
  given as candidates per second; and the ratio.

Report the machine's load next to the figures (it is printed: /proc/loadavg before and after).

    python benchmarks/bench_compare_many.py [--reference blocksworld --candidates 100 --jobs 2 --peer 20]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from amlasp.experiments.perturb import perturb  # noqa: E402
from amlasp.metrics.compare.many import compare_candidates  # noqa: E402
from amlasp.pddl.parse import load_domain  # noqa: E402
from amlasp.pddl.writer import to_pddl  # noqa: E402

IPC = ROOT / "benchmarks" / "ipc"


def loadavg() -> str:
    try:
        return Path("/proc/loadavg").read_text().split(" ", 3)[:3].__str__()
    except OSError:
        return "n/a"


def make_batch(reference: Path, n: int, folder: Path) -> list[Path]:
    ref = load_domain(reference)
    files = []
    for k in range(n):
        text = to_pddl(perturb(ref, k, drop=k % 4, add=k % 3, permute=k % 2 == 1, rename=k % 2 == 1).domain)
        if k % 10 == 9:  # broken: a syntax error, or an undefined predicate
            text = text[:-3] if k % 20 == 9 else text.replace("(:predicates", "(:predicates (never-used ?x)", 1) \
                .replace(":effect (and", ":effect (and (undeclared-thing)", 1)
        f = folder / f"cand{k:03d}.pddl"
        f.write_text(text)
        files.append(f)
    return files


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reference", default="blocksworld", help="an IPC domain of benchmarks/ipc/domains")
    ap.add_argument("--candidates", type=int, default=100)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--peer", type=int, default=20, help="candidates timed one CLI process each")
    args = ap.parse_args()
    reference = IPC / "domains" / f"{args.reference}.pddl"
    print(f"load before: {loadavg()}")
    with tempfile.TemporaryDirectory() as tmp:
        files = make_batch(reference, args.candidates, Path(tmp))
        rates = {}
        for jobs in sorted({1, args.jobs}):
            t = time.perf_counter()
            r = compare_candidates(Path(tmp), reference, jobs=jobs)
            dt = time.perf_counter() - t
            s = r.summary()
            rates[jobs] = len(files) / dt
            print(f"compare_many --jobs {jobs}: {len(files)} candidates in {dt:.2f} s = {rates[jobs]:.1f} "
                  f"candidates/s ({s['read']} read, {len(files) - s['read']} failed, mean edit distance "
                  f"{s['mean_edit_distance']:.2f}, {s['mean_optimal']:.0%} proven optimal)")
        t = time.perf_counter()
        for f in files[:args.peer]:
            subprocess.run([sys.executable, "-m", "amlasp", "compare", str(f), str(reference), "-f", "json"],
                           capture_output=True, cwd=ROOT, check=False)
        dt = time.perf_counter() - t
        peer = args.peer / dt
        print(f"peer, one `amlasp compare` process per candidate: {args.peer} candidates in {dt:.2f} s = "
              f"{peer:.1f} candidates/s")
        for jobs, rate in rates.items():
            print(f"ratio compare_many --jobs {jobs} / peer: {rate / peer:.1f}x")
    print(f"load after: {loadavg()}")


if __name__ == "__main__":
    main()
