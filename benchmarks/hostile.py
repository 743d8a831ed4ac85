"""Hostile inputs of issue 20 ("runaway resources"), made reproducibly into a folder.

    python benchmarks/hostile.py OUT [--free 6] [--predicates 50000] [--steps 1000000]
                                     [--objects 100000] [--json-states 200000]

writes into OUT:
- `ferry-free.pddl`: the IPC ferry model whose `sail` has `--free` extra location parameters that
  no precondition or effect names (a learned model's unconstrained parameters); evaluate it with
  `amlasp eval OUT/ferry-free.pddl benchmarks/ipc/domains/ferry.pddl --states
  benchmarks/ipc/trajectories/learning/ferry --problems benchmarks/ipc/problems/learning/ferry`;
- `wide.pddl`, `wide-renamed.pddl`: a domain of `--predicates` predicates (about 0.6 MB for 50,000)
  and a copy with its predicates renamed, for `amlasp compare`;
- `two.pddl`, `long.plan`: a ferry problem of two locations and a valid plan of `--steps` steps
  (sailing back and forth), for `amlasp validate`;
- `many.pddl`: a ferry problem with `--objects` cars, for `amlasp applicable`;
- `big.json`: `--json-states` ferry states of `two.pddl` in the JSON states format, for
  `amlasp eval --states OUT/big.json -o OUT/out.csv`;
- `wide-copy.pddl`: `wide.pddl` again under another file name (the same predicate names).

    python benchmarks/hostile.py OUT --run [CASE ...] [--tree DIR] [--timeout 400]

runs the cases on the files of OUT (all of them without CASE), each once under `/usr/bin/time`
(wall time, maximum resident set size of the command and its children), with the amlasp of `--tree`
(default: this one; another checkout for a figure before a change), and prints one line each:
case, seconds, MB, exit code (and a compare's edit distance and whether it is proven),
`/proc/loadavg`'s 1-minute load at its start, the first line of its error output. Cases:
`compare-same` (the 50,000 predicates with the same names, the default time limit of 60 s),
`compare-same-1s` and `compare-same-600s` (the same with `--time-limit 1`, `600`),
`compare-renamed` (every predicate renamed), `compare-rename` (same names, `--rename`; both with
`--time-limit 600`), `applicable-many` (the `--objects` cars).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FERRY = ROOT / "benchmarks" / "ipc" / "domains" / "ferry.pddl"


def ferry_free(free: int) -> str:
    """The ferry domain with `free` unused location parameters on `sail`."""
    text = FERRY.read_text()
    extra = " ".join(f"?u{i} - location" for i in range(free))
    return text.replace("(?from - location ?to - location)", f"(?from - location ?to - location {extra})", 1)


def wide(predicates: int, prefix: str = "p") -> str:
    """A domain of `predicates` unary predicates and two actions that use the first few."""
    preds = "\n".join(f"({prefix}{i} ?x)" for i in range(predicates))
    return f"""(define (domain wide)
(:requirements :strips)
(:predicates
{preds})
(:action a :parameters (?x ?y)
 :precondition (and ({prefix}0 ?x) ({prefix}1 ?y))
 :effect (and ({prefix}2 ?x) (not ({prefix}0 ?x))))
(:action b :parameters (?x)
 :precondition ({prefix}2 ?x)
 :effect (and ({prefix}0 ?x) (not ({prefix}2 ?x)))))
"""


TWO = """(define (problem two) (:domain ferry)
(:objects l0 l1 - location c0 - car)
(:init (noteq l0 l1) (noteq l1 l0) (empty_ferry) (at c0 l0) (at_ferry l0))
(:goal (and (at_ferry l0) (at c0 l0))))
"""


def long_plan(steps: int) -> str:
    """`steps` (even) sail actions there and back: valid for `TWO`."""
    pair = "(sail l0 l1)\n(sail l1 l0)\n"
    return "; back and forth\n" + pair * (steps // 2)


def many(objects: int) -> str:
    """A ferry problem with `objects` cars, all at the ferry's location."""
    cars = " ".join(f"c{i}" for i in range(objects))
    at = " ".join(f"(at c{i} l0)" for i in range(objects))
    return f"""(define (problem many) (:domain ferry)
(:objects l0 l1 - location {cars} - car)
(:init (noteq l0 l1) (noteq l1 l0) (empty_ferry) (at_ferry l0) {at})
(:goal (and (at c0 l1))))
"""


def big_json(states: int) -> str:
    """`states` states of `TWO` (the ferry here or there, the car on board or not)."""
    kinds = [["(noteq l0 l1)", "(noteq l1 l0)", "(empty_ferry)", f"(at c0 l{i % 2})", f"(at_ferry l{j})"]
             for i in range(2) for j in range(2)]
    kinds += [["(noteq l0 l1)", "(noteq l1 l0)", "(on c0)", f"(at_ferry l{j})"] for j in range(2)]
    return json.dumps({"two.pddl": [kinds[i % len(kinds)] for i in range(states)]})


#: The cases of `--run`: the arguments of `amlasp`, with {out} the folder of the files.
CASES = {
    "compare-same": "compare {out}/wide.pddl {out}/wide-copy.pddl -f json --summary",
    "compare-same-1s": "compare {out}/wide.pddl {out}/wide-copy.pddl -f json --summary --time-limit 1",
    "compare-same-600s": "compare {out}/wide.pddl {out}/wide-copy.pddl -f json --summary --time-limit 600",
    "compare-renamed": "compare {out}/wide.pddl {out}/wide-renamed.pddl -f json --summary --time-limit 600",
    "compare-rename": "compare {out}/wide.pddl {out}/wide-copy.pddl -f json --summary --rename --time-limit 600",
    "applicable-many": f"applicable {FERRY} {{out}}/many.pddl -f json",
}


def run(out: Path, cases: list[str], tree: Path, timeout: float) -> None:
    """Each case once: seconds, MB (maximum resident set), exit code, load, first error line."""
    timer = shutil.which("time") or "/usr/bin/time"
    env = dict(os.environ, PYTHONPATH=str(tree))
    for case in cases:
        load = Path("/proc/loadavg").read_text().split()[0] if Path("/proc/loadavg").exists() else "?"
        stats = out / f".{case}.time"
        cmd = [timer, "-f", "%e %M", "-o", str(stats), sys.executable, "-m", "amlasp",
               *CASES[case].format(out=out).split()]
        t = time.monotonic()
        p = subprocess.Popen(cmd, cwd=tree, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             start_new_session=True)
        try:
            got, err = p.communicate(timeout=timeout)
            wall, kb = stats.read_text().split()[-2:]
            figures = f"{float(wall):8.2f} s {int(kb) / 1024:8.0f} MB exit {p.returncode}"
            if case.startswith("compare") and p.returncode == 0:
                summary = json.loads(got)
                figures += f" distance {summary['edit_distance']} optimal {summary['optimal']}"
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, 9)
            _, err = p.communicate()
            figures = f"killed at {time.monotonic() - t:.0f} s"
        first = (err.strip().splitlines() or [""])[0]
        print(f"{case:16} {figures}  load {load}  {first[:160]}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--free", type=int, default=6)
    ap.add_argument("--predicates", type=int, default=50000)
    ap.add_argument("--steps", type=int, default=1000000)
    ap.add_argument("--objects", type=int, default=100000)
    ap.add_argument("--json-states", type=int, default=200000)
    ap.add_argument("--run", nargs="*", choices=list(CASES), help="run these cases (all: none named)")
    ap.add_argument("--tree", type=Path, default=ROOT, help="the checkout of amlasp to run (--run)")
    ap.add_argument("--timeout", type=float, default=400.0, help="seconds before a case is killed (--run)")
    a = ap.parse_args()
    if a.run is not None:
        run(a.out.resolve(), a.run or list(CASES), a.tree.resolve(), a.timeout)
        return
    a.out.mkdir(parents=True, exist_ok=True)
    files = {
        "ferry-free.pddl": ferry_free(a.free),
        "wide.pddl": wide(a.predicates),
        "wide-copy.pddl": wide(a.predicates),
        "wide-renamed.pddl": re.sub(r"\bp(\d+)", r"q\1", wide(a.predicates)),
        "two.pddl": TWO,
        "long.plan": long_plan(a.steps),
        "many.pddl": many(a.objects),
        "big.json": big_json(a.json_states),
    }
    for name, text in files.items():
        (a.out / name).write_text(text)
        print(f"{a.out / name}: {len(text) / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
