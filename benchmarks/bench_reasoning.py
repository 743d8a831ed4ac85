"""Benchmark of the reasoning commands: `plan` and `diff` on the IPC problems, up to a time limit.

For each IPC domain the 20 problems (learning and solving sets, empty files skipped) are taken
from small to large (objects, then initial atoms); each run is a separate process, killed at the
limit. A domain stops at its first failure, so the last success is the largest problem handled
within the limit (a larger one may still succeed: sizes are not difficulty).

- plan: shortest plan by incremental ASP planning (`amlasp.reasoning.planning.plan`, `time_limit`=limit).
- diff cx: the reference against a copy with one precondition literal dropped (seeded choice):
  time to the shortest counterexample (or to exhaust the space when the change is invisible).
- diff eq: the reference against itself, no depth bound: time to explore the whole reachable
  space (the hardest case, the verdict "equivalent on the whole reachable space").
- justify (extra): ACPBench's two longest plans (87 and 154 steps).

Prints one line per run and a summary table per task. Run:
`python benchmarks/bench_reasoning.py [--limit 60] [--tasks plan,cx,eq,justify] [--domains d ...]`.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IPC = ROOT / "benchmarks" / "ipc"


def problems(domain: str) -> list[tuple[int, int, Path]]:
    """(objects, initial atoms, file) from small to large, empty files skipped."""
    from amlasp.pddl.parse import load_domain, load_problem
    d = load_domain(IPC / "domains" / f"{domain}.pddl")
    out = []
    for kind in ("learning", "solving"):
        for f in sorted((IPC / "problems" / kind / domain).glob("*.pddl")):
            if f.stat().st_size > 0:
                p = load_problem(f, d)
                out.append((len(p.objects), len(p.init), f))
    return sorted(out, key=lambda x: (x[0], x[1], str(x[2])))


def drop_one_precondition(domain, seed: int = 1):
    from amlasp.model import And, Not
    rng = random.Random(seed)
    pool = [(a, l) for a in domain.actions for l in (a.precondition_literals() or ()) if l.atom.predicate != "="]
    a, lit = rng.choice(pool)
    kept = tuple(x.atom if x.positive else Not(x.atom) for x in a.precondition_literals() if x != lit)
    new = replace(a, precondition=And(kept))
    return replace(domain, actions=tuple(new if x is a else x for x in domain.actions)), f"{a.name}: -{lit}"


def one(task: str, domain: str, problem: str, limit: float) -> dict:
    """Runs in the child process: one timed call, its figures as a dict."""
    from amlasp.pddl.parse import load_domain, load_problem
    from amlasp.reasoning.diff import diff
    from amlasp.reasoning.planning import plan
    d = load_domain(IPC / "domains" / f"{domain}.pddl")
    p = load_problem(problem, d)
    wall, cpu = time.perf_counter(), time.process_time()
    if task == "plan":
        r = plan(d, p, max_steps=200, time_limit=limit)
        out = {"ok": r.status == "plan", "status": r.status, "length": r.length, "horizon": r.horizon}
    elif task == "cx":
        learned, change = drop_one_precondition(d)
        r = diff(learned, d, p, max_steps=10**6, max_states=10**7)
        cx = r.counterexample
        out = {"ok": cx is not None or r.exhausted, "change": change, "states": r.explored_states,
               "cx": None if cx is None else len(cx.path), "verdict": r.verdict}
    else:
        r = diff(d, d, p, max_steps=10**6, max_states=10**7)
        out = {"ok": r.exhausted, "states": r.explored_states, "depth": r.depth, "verdict": r.verdict}
    out.update(wall=time.perf_counter() - wall, cpu=time.process_time() - cpu)
    return out


def run(task: str, domain: str, problem: Path, limit: float) -> dict:
    """A child process per run: grounding cannot be interrupted, killing can."""
    cmd = [sys.executable, __file__, "--one", task, domain, str(problem), "--limit", str(limit)]
    grace = 15 if task == "plan" else 0  # plan stops itself at the limit; diff is killed there
    try:
        res = subprocess.run(cmd, capture_output=True, text=True, timeout=limit + grace)
    except subprocess.TimeoutExpired:
        return {"ok": False, "status": "killed at the limit", "wall": limit + grace}
    if res.returncode != 0:
        return {"ok": False, "status": "error: " + res.stderr.strip().splitlines()[-1][:200]}
    out = json.loads(res.stdout.strip().splitlines()[-1])
    if out.get("wall", 0) > limit:
        out["ok"] = False
    return out


def justify_long() -> None:
    from amlasp.model import GroundAction
    from amlasp.pddl.parse import parse_domain, parse_problem
    from amlasp.reasoning.justify import justify
    items = json.loads((ROOT / "tests" / "data" / "acpbench" / "just" / "dev.gen.json").read_text())
    for item in items:
        body = re.search(r'"(.*)"', item["question"]).group(1)
        words = [b.lower().split() for b in re.findall(r"\(([^()]*)\)", body)]
        steps = [GroundAction(w[0], tuple(w[1:])) for w in words]
        if len(steps) < 60:
            continue
        d = parse_domain(item["PDDL_domain"], "domain.pddl")
        p = parse_problem(item["PDDL_problem"], d, "problem.pddl")
        best = None
        for _ in range(3):
            wall, cpu = time.perf_counter(), time.process_time()
            r = justify(d, p, steps)
            t = (time.perf_counter() - wall, time.process_time() - cpu)
            best = t if best is None or t[0] < best[0] else best
        print(f"justify {len(steps)}-step plan: {len(r.removable_single)} single and {len(r.removable_pairs)} pair "
              f"removals, best of 3: {best[0]:.2f} s wall, {best[1]:.2f} s CPU", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=float, default=60.0, help="seconds per run")
    ap.add_argument("--tasks", default="plan,cx,eq,justify")
    ap.add_argument("--domains", nargs="*", default=None)
    ap.add_argument("--one", nargs=3, metavar=("TASK", "DOMAIN", "PROBLEM"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        print(json.dumps(one(*args.one, limit=args.limit)))
        return
    tasks = args.tasks.split(",")
    if "justify" in tasks:
        justify_long()
    doms = args.domains or sorted(p.stem for p in (IPC / "domains").glob("*.pddl"))
    summary: dict[str, list[str]] = {}
    for task in [t for t in tasks if t in ("plan", "cx", "eq")]:
        for dom in doms:
            best, tried, todo = None, 0, problems(dom)
            for objects, atoms, f in todo:
                r = run(task, dom, f, args.limit)
                tried += 1
                detail = {k: v for k, v in r.items() if k not in ("ok", "wall", "cpu")}
                print(f"{task} {dom} {f.parent.parent.name}/{f.name} objects={objects} init={atoms} "
                      f"{'ok' if r['ok'] else 'FAIL'} wall={r.get('wall', 0):.2f}s cpu={r.get('cpu', 0):.2f}s "
                      f"{json.dumps(detail)}", flush=True)
                if not r["ok"]:
                    break
                best = (objects, atoms, f, r)
            if best is None:
                row = f"| {dom} | none (smallest fails) | | | |"
            else:
                objects, atoms, f, r = best
                what = (f"length {r['length']}" if task == "plan" else
                        f"{r['states']} states" + (f", cx of {r['cx']}" if r.get("cx") is not None else ""))
                every = " (all solved)" if tried == len(todo) and r["ok"] else ""
                row = f"| {dom} | {f.parent.parent.name}/{f.name}{every} | {objects} | {what} | {r['wall']:.1f} s |"
            summary.setdefault(task, []).append(row)
    for task, rows in summary.items():
        print(f"\n{task}: largest problem handled within {args.limit:g} s")
        print("| domain | problem | objects | result | time |\n| --- | --- | --- | --- | --- |")
        print("\n".join(rows))


if __name__ == "__main__":
    main()
