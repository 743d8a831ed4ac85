"""Time `amlasp.metrics.compare` on the 25 IPC domains against perturbed copies of themselves.

(a) same names: `--drop` literals dropped and `--add` added (edit distance = number of changes);
(b) the same literal changes, then every predicate, action and parameter renamed and the parameters
    of every action permuted (clingo must find the renaming and prove the optimum).
(c) optionally (`--nolam`) the NOLAM-learned models of benchmarks/ipc/learned/nolam.
`--untyped` first removes all types from the reference (no pruning by types: the hardest case).

Each figure is the wall time of one `compare` call (facts, grounding, optimisation, metrics), best of
`--repeat`. Targets: proven optimum under 1 s per domain for (a) and under 10 s for (b).

    python benchmarks/bench_compare.py [--drop 3 --add 3 --seed 1 --repeat 1 --untyped --nolam]
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from amlasp.errors import InputError  # noqa: E402
from amlasp.experiments.perturb import perturb  # noqa: E402
from amlasp.metrics.compare import compare  # noqa: E402
from amlasp.model import Domain, Predicate  # noqa: E402
from amlasp.pddl.parse import load_domain, parse_domain  # noqa: E402
from amlasp.pddl.writer import to_pddl  # noqa: E402

IPC = ROOT / "benchmarks" / "ipc"


def untyped(d: Domain) -> Domain:
    """The same domain with every type replaced by object."""
    obj = lambda items: tuple((n, "object") for n, _ in items)  # noqa: E731
    return replace(d, types=(), constants=obj(d.constants),
                   predicates=tuple(Predicate(p.name, obj(p.parameters)) for p in d.predicates),
                   actions=tuple(replace(a, parameters=obj(a.parameters)) for a in d.actions))


def timed(learned, ref, repeat: int, time_limit: float):
    best, result = None, None
    for _ in range(repeat):
        t = time.perf_counter()
        result = compare(learned, ref, time_limit=time_limit)
        dt = time.perf_counter() - t
        best = dt if best is None else min(best, dt)
    return best, result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--drop", type=int, default=3)
    ap.add_argument("--add", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--untyped", action="store_true", help="remove all types first")
    ap.add_argument("--nolam", action="store_true", help="also time the NOLAM-learned models")
    args = ap.parse_args()

    print(f"bench_compare: {args.drop} dropped + {args.add} added literals, seed {args.seed}, best of {args.repeat}"
          f"{', types removed' if args.untyped else ''}")
    print("dist = edit distance found / changes made (renamings and permutations are free)")
    print(f"{'domain':14s} {'acts':>4s} {'lits':>4s} | {'(a) dist':>8s} {'opt':>4s} {'time s':>7s} | "
          f"{'(b) dist':>8s} {'opt':>4s} {'time s':>7s}")
    rows = []
    for path in sorted((IPC / "domains").glob("*.pddl")):
        ref = load_domain(path)
        if args.untyped:
            ref = parse_domain(to_pddl(untyped(ref)), path.name)
        lits = sum(len(a.precondition_literals() or ()) + len(a.effects) for a in ref.actions)
        pa = perturb(ref, seed=args.seed, drop=args.drop, add=args.add)
        pb = perturb(ref, seed=args.seed, drop=args.drop, add=args.add, permute=True, rename=True)
        la = parse_domain(to_pddl(pa.domain), f"{path.stem}-a.pddl")
        lb = parse_domain(to_pddl(pb.domain), f"{path.stem}-b.pddl")
        ta, ra = timed(la, ref, args.repeat, args.time_limit)
        tb, rb = timed(lb, ref, args.repeat, args.time_limit)
        ok_a = ra.edit_distance == pa.edits
        ok_b = rb.edit_distance == pb.edits
        rows.append((path.stem, ta, ra.optimal, ok_a, tb, rb.optimal, ok_b))
        note = ""  # distance <= changes always (the true renaming is a witness); < when a cheaper one exists
        if ra.edit_distance > pa.edits or rb.edit_distance > pb.edits:
            note = "  ERROR: distance above the number of changes"
        elif not (ok_a and ok_b):
            note = "  < changes: changes interact (a cheaper renaming exists)"
        print(f"{path.stem:14s} {len(ref.actions):4d} {lits:4d} | {ra.edit_distance:4d}/{pa.edits:<3d} "
              f"{'yes' if ra.optimal else 'NO':>4s} {ta:7.3f} | {rb.edit_distance:4d}/{pb.edits:<3d} "
              f"{'yes' if rb.optimal else 'NO':>4s} {tb:7.3f}{note}", flush=True)
    n = len(rows)
    a_t = sorted(r[1] for r in rows)
    b_t = sorted(r[4] for r in rows)
    print(f"(a) same names:        {sum(r[2] for r in rows)}/{n} proven, "
          f"{sum(r[3] for r in rows)}/{n} distance = changes, "
          f"max {a_t[-1]:.3f} s, median {a_t[n // 2]:.3f} s, total {sum(a_t):.2f} s, "
          f"{sum(t < 1 for t in a_t)}/{n} under 1 s")
    print(f"(b) renamed+permuted:  {sum(r[5] for r in rows)}/{n} proven, "
          f"{sum(r[6] for r in rows)}/{n} distance = changes, "
          f"max {b_t[-1]:.3f} s, median {b_t[n // 2]:.3f} s, total {sum(b_t):.2f} s, "
          f"{sum(t < 10 for t in b_t)}/{n} under 10 s")
    if args.nolam:
        print("\n(c) NOLAM-learned models against the reference")
        print(f"{'domain':14s} {'dist':>5s} {'opt':>4s} {'P':>6s} {'R':>6s} {'time s':>7s}")
        for path in sorted((IPC / "learned" / "nolam").glob("*.pddl")):
            try:
                t, r = timed(path, IPC / "domains" / path.name, args.repeat, args.time_limit)
            except InputError as e:
                print(f"{path.stem:14s} input error: {e}")
                continue
            s = r.summary()
            print(f"{path.stem:14s} {r.edit_distance:5d} {'yes' if r.optimal else 'NO':>4s} "
                  f"{s['precision_macro']:6.3f} {s['recall_macro']:6.3f} {t:7.3f}")


if __name__ == "__main__":
    main()
