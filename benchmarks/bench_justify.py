"""Benchmark of `justify` on long plans (issue 31: a 100,000-step plan ran past 60 s).

justify has no peer to compare with, so each line is the plan's length, amlasp's time (wall and CPU,
best of --repeat) and what it found. Two kinds of plan, each followed by a plan that reaches the goal,
so that the whole plan is valid:

- cycle: (unstack b3 b1)(stack b3 b1) repeated, on examples/blocksworld (the issue's case: two states
  in turn, so most shortened runs start in one state before the same steps);
- walk: a seeded random walk of blocksworld moves and the same moves undone in reverse, on IPC
  blocksworld's learning problem 9 (13 blocks: few states repeat), then Fast Downward's plan.

    python benchmarks/bench_justify.py [--steps 1000,10000,100000] [--repeat 1] [--seed 0]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from amlasp.external.fast_downward import plan_with_fast_downward  # noqa: E402
from amlasp.model import GroundAction, Problem  # noqa: E402
from amlasp.pddl.parse import load_domain, load_problem  # noqa: E402
from amlasp.reasoning.justify import justify  # noqa: E402
from benchmarks.timing import best_of  # noqa: E402

BW = ROOT / "examples" / "blocksworld"
IPC = ROOT / "benchmarks" / "ipc"
INVERSE = {"pick_up": "put_down", "put_down": "pick_up", "stack": "unstack", "unstack": "stack"}


def cycle(steps: int, goal: list[GroundAction]) -> list[GroundAction]:
    pair = [GroundAction("unstack", ("b3", "b1")), GroundAction("stack", ("b3", "b1"))]
    return pair * ((steps - len(goal)) // 2) + goal


def walk(problem: Problem, steps: int, goal: list[GroundAction], rng: random.Random) -> list[GroundAction]:
    """Random blocksworld moves from the initial state (the plan generator's own bookkeeping: amlasp checks
    the plan), then the same moves undone, then `goal`."""
    init = sorted(problem.init, key=str)  # a frozenset: its order changes with the hash seed
    on = {a.args[0]: a.args[1] for a in init if a.predicate == "on"}
    on |= {a.args[0]: None for a in init if a.predicate == "ontable"}
    held: str | None = None
    moves: list[GroundAction] = []
    while len(moves) < (steps - len(goal)) // 2:
        clear = [b for b in on if b != held and b not in on.values()]
        if held is None:
            x = rng.choice(clear)
            moves.append(GroundAction("pick_up", (x,)) if on[x] is None else GroundAction("unstack", (x, on[x])))
            held = x
            on[x] = "held"
        else:
            y = rng.choice(clear + [None])
            moves.append(GroundAction("put_down", (held,)) if y is None else GroundAction("stack", (held, y)))
            on[held], held = y, None
    return moves + [GroundAction(INVERSE[a.name], a.args) for a in reversed(moves)] + goal


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", default="1000,10000,100000")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    d = load_domain(BW / "domain.pddl")
    small = load_problem(BW / "problem.pddl", d)
    ipc_d = load_domain(IPC / "domains" / "blocksworld.pddl")
    big = load_problem(IPC / "problems" / "learning" / "blocksworld" / "9_blocksworld_prob.pddl", ipc_d)
    small_goal = list(plan_with_fast_downward(d, small).plan or [])
    big_goal = list(plan_with_fast_downward(ipc_d, big).plan or [])
    print(f"{'plan':<6} {'steps':>8} {'wall s':>8} {'CPU s':>8}  found")
    for steps in (int(x) for x in args.steps.split(",")):
        cases = [("cycle", d, small, cycle(steps, small_goal)),
                 ("walk", ipc_d, big, walk(big, steps, big_goal, random.Random(args.seed)))]
        for name, domain, problem, plan in cases:
            wall, cpu, r = best_of(lambda d=domain, p=problem, q=plan: justify(d, p, q), args.repeat)
            print(f"{name:<6} {len(plan):>8,} {wall:>8.2f} {cpu:>8.2f}  valid={r.valid} "
                  f"{len(r.removable_single)} single, {len(r.removable_pairs)} pairs removable", flush=True)


if __name__ == "__main__":
    main()
