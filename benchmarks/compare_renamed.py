"""`compare` of each domain against a copy of itself with every name renamed: distance 0 and F1 1?

Every predicate, function (but `total-cost`), action, variable and type of each domain file is given
a fresh random name (`tests/support/renaming.py`, on the text; constants keep theirs: compare
matches constants by name, docs/compare.md), and the copy is compared with the original under the
best renaming (`rename=True`, so that the F1 figures are those of the renaming found). A domain
passes when its edit distance is 0, proven optimal, and the pooled F1 (mean over actions and
cumulative) is 1. Domains amlasp refuses (an input error: durative actions, ...) are listed apart.

    python benchmarks/compare_renamed.py DIR_OR_FILES... [--seed 1] [--time-limit 60] [--jobs 1]

A file is named by its last three path components (`ipc-2004/.../domain-7.pddl`: the IPC sets name
every domain `domain.pddl`). The code compared is the `amlasp` Python imports first: this checkout's
unless PYTHONPATH names another (`PYTHONPATH=/work/main` measures main's code with this script).

The IPC domains: potassco/pddl-instances (one domain file per variant, duplicates by content once).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.append(str(ROOT))  # after PYTHONPATH: the amlasp it names is measured

from amlasp.errors import InputError, TimeLimitReached, UnsupportedError  # noqa: E402
from amlasp.metrics.compare import compare  # noqa: E402
from amlasp.pddl.parse import parse_domain  # noqa: E402
from tests.support.renaming import rename_all  # noqa: E402


def _name(path: Path) -> str:
    return "/".join(path.parts[-3:])


def one(path: Path, seed: int, time_limit: float) -> tuple[str, str, str]:
    """(file, status, detail): status `ok`, `differs`, `timeout` or `refused`."""
    name = _name(path)
    text = path.read_text(encoding="utf-8-sig", errors="replace")
    t = time.perf_counter()
    try:
        original = parse_domain(text, str(path), numeric_fluents=True)
        copy = parse_domain(rename_all(text, seed)[0], f"renamed {path.name}", numeric_fluents=True)
        r = compare(copy, original, rename=True, time_limit=time_limit)
    except (InputError, UnsupportedError) as e:
        return name, "refused", str(e).splitlines()[0][:160]
    except TimeLimitReached as e:
        return name, "timeout", f"{time.perf_counter() - t:.1f} s: " + str(e).splitlines()[0][:200]
    dt = time.perf_counter() - t
    s = r.summary()
    ok = s["edit_distance"] == 0 and r.optimal and s["f1_macro"] == 1.0 and s["f1_cumulative"] == 1.0
    detail = (f"distance {s['edit_distance']}{'' if r.optimal else ' (not proven)'}, F1 {s['f1_macro']:.3f}"
              f"/{s['f1_cumulative']:.3f}, {len(r.actions)} actions, {len(original.predicates)} predicates, {dt:.1f} s")
    if not ok:
        detail += "; " + "; ".join(r.edits[:3])
    return name, "ok" if ok else "differs", detail


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="+", type=Path)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    files = sorted(f for p in args.paths for f in ([p] if p.is_file() else p.glob("*.pddl")))
    seen: set[str] = set()
    unique = []
    for f in files:
        h = hashlib.sha256(f.read_bytes()).hexdigest()
        if h not in seen:
            seen.add(h)
            unique.append(f)
    counts: dict[str, int] = {}
    with ProcessPoolExecutor(args.jobs) as pool:
        for name, status, detail in pool.map(one, unique, [args.seed] * len(unique),
                                             [args.time_limit] * len(unique)):
            counts[status] = counts.get(status, 0) + 1
            print(f"{status:8} {name}: {detail}", flush=True)
    print(f"{len(unique)} domains (distinct files of {len(files)}): "
          + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))


if __name__ == "__main__":
    main()
