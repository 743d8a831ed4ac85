"""Benchmark: eval's CPU time per state on random-walk states, this checkout against another (--baseline).

The states: seeded random walks in the reference model (floortile by default), written as JSON lines
files by `bench_eval.write_walks` (walks of 100 steps from random trajectory states; kept under --data
DIR and reused). Each run is a fresh process that evaluates the files with the reference against a
perturbed copy (`perturb`, seed 1, 2 literals dropped, 2 added: bench_eval.py part 6's model) and
prints its CPU seconds (its own and its clingo workers'); the checkouts alternate, best of --repeat,
and their `Evaluation.to_dict()` must be equal (the script exits non-zero otherwise).

    python benchmarks/bench_perstate.py --baseline /path/to/main/checkout [--states 10000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import json, os, sys, time
from pathlib import Path
from amlasp.experiments.perturb import perturb
from amlasp.metrics.evaluate import evaluate
from amlasp.pddl.parse import load_domain
ipc, folder, domain, out = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3], sys.argv[4]
ref = load_domain(ipc / "domains" / f"{domain}.pddl")
learned = perturb(ref, seed=1, drop=2, add=2).domain
before = os.times()
ev = evaluate(learned, ref, sorted(folder.glob("*.jsonl")), problems=ipc / "problems" / "learning" / domain)
after = os.times()
cpu = sum(after[:4]) - sum(before[:4])
Path(out).write_text(json.dumps(ev.to_dict(), sort_keys=True))
print(json.dumps({"states": ev.states, "cpu": cpu}))
"""


def run(checkout: Path, folder: Path, domain: str, out: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    done = subprocess.run([sys.executable, "-c", CHILD, str(ROOT / "benchmarks" / "ipc"), str(folder), domain,
                           str(out)], env=env, capture_output=True, text=True, check=True, cwd=checkout)
    return json.loads(done.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", required=True, help="a checkout to compare with (e.g. a worktree of main)")
    ap.add_argument("--states", type=int, default=10000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--data", help="keep the walks' files here (reused when they hold enough states)")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_eval import write_walks

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.data) / f"floortile-walks-{args.seed}-{args.states}" if args.data else Path(tmp) / "w"
        if not any(folder.glob("*.jsonl")):
            write_walks(folder, args.states, args.seed)
        best: dict[str, float] = {}
        results: dict[str, str] = {}
        for _ in range(args.repeat):
            for name, checkout in (("baseline", Path(args.baseline).resolve()), ("this", ROOT)):
                out = Path(tmp) / f"{name}.json"
                r = run(checkout, folder, "floortile", out)
                results[name] = out.read_text()
                best[name] = min(best.get(name, float("inf")), r["cpu"])
                print(f"{name}: {r['states']} states, {r['cpu']:.2f} s CPU ({1000 * r['cpu'] / r['states']:.3f} ms a "
                      f"state), load {os.getloadavg()[0]:.1f}", flush=True)
        n = r["states"]
        print(f"best of {args.repeat}: baseline {1000 * best['baseline'] / n:.3f} ms a state, this "
              f"{1000 * best['this'] / n:.3f} ms; ratio {best['this'] / best['baseline']:.2f}; results equal: "
              f"{results['baseline'] == results['this']}")
        if results["baseline"] != results["this"]:
            sys.exit("results differ")


if __name__ == "__main__":
    main()
