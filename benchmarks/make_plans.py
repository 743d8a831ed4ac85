"""Generate the plan corpus of benchmarks/plans: valid and corrupted plans for batch validation.

Blocksworld: for each of the 20 IPC problems of benchmarks/ipc/problems/{learning,solving}/blocksworld,
Fast Downward's plan (`plan_with_fast_downward`, the `greedy` configuration) and four variants,
seeded: `detour` (after some steps, the step's inverse and the step again: valid and longer),
`swap` (two adjacent steps exchanged), `object` (one argument of one step replaced by another
block), `short` (the last two steps removed: the goal is missed). 100 plans, and the batch file
`plans.jsonl` that lists them with their problems (paths relative to it). Whether a variant is
valid is not assumed: the benchmark and the tests ask VAL and unified-planning.

Floortile: Fast Downward's plan for problem 4 of the learning set (221 atoms, 170 of them static).

    python benchmarks/make_plans.py [--seed 0]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from amlasp.external.fast_downward import plan_with_fast_downward  # noqa: E402
from amlasp.model import GroundAction  # noqa: E402
from amlasp.pddl.parse import load_domain, load_problem  # noqa: E402

IPC = ROOT / "benchmarks" / "ipc"
OUT = ROOT / "benchmarks" / "plans"
INVERSE = {"pick_up": "put_down", "put_down": "pick_up", "stack": "unstack", "unstack": "stack"}


def fd_plan(domain_file: Path, problem_file: Path) -> list[GroundAction]:
    d = load_domain(domain_file)
    r = plan_with_fast_downward(d, load_problem(problem_file, d), config="greedy", timeout=120)
    if r.plan is None:
        sys.exit(f"{problem_file}: Fast Downward found no plan ({r.status}: {r.detail})")
    return list(r.plan)


def variants(plan: list[GroundAction], blocks: list[str], rng: random.Random) -> dict[str, list[GroundAction]]:
    """The valid plan and its four variants (blocksworld's actions: each has an inverse)."""
    detour: list[GroundAction] = []
    for a in plan:
        detour.append(a)
        if rng.random() < 0.4:
            detour += [GroundAction(INVERSE[a.name], a.args), a]
    i = rng.randrange(len(plan) - 1)
    swap = plan[:i] + [plan[i + 1], plan[i]] + plan[i + 2:]
    j = rng.randrange(len(plan))
    k = rng.randrange(len(plan[j].args))
    other = rng.choice([b for b in blocks if b != plan[j].args[k]])
    wrong = GroundAction(plan[j].name, plan[j].args[:k] + (other,) + plan[j].args[k + 1:])
    return {"valid": plan, "detour": detour, "swap": swap, "object": plan[:j] + [wrong] + plan[j + 1:],
            "short": plan[:-2]}


def write_plan(path: Path, plan: list[GroundAction], comment: str) -> None:
    path.write_text(f"; {comment}\n" + "".join(f"{a}\n" for a in plan))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    out = OUT / "blocksworld"
    out.mkdir(parents=True, exist_ok=True)
    domain_file = IPC / "domains" / "blocksworld.pddl"
    domain = load_domain(domain_file)
    lines = []
    for part in ("learning", "solving"):
        for i in range(10):
            problem_file = IPC / "problems" / part / "blocksworld" / f"{i}_blocksworld_prob.pddl"
            blocks = [o for o, _ in load_problem(problem_file, domain).objects]
            for kind, plan in variants(fd_plan(domain_file, problem_file), blocks, rng).items():
                name = f"{part}_{i}_{kind}.plan"
                write_plan(out / name, plan, f"{kind} variant of Fast Downward's plan for {part}/{problem_file.name}")
                lines.append({"problem": f"../../ipc/problems/{part}/blocksworld/{problem_file.name}", "plan": name})
    (out / "plans.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    floortile = OUT / "floortile"
    floortile.mkdir(parents=True, exist_ok=True)
    problem_file = IPC / "problems" / "learning" / "floortile" / "4_floortile_prob.pddl"
    plan = fd_plan(IPC / "domains" / "floortile.pddl", problem_file)
    write_plan(floortile / "learning_4.plan", plan, f"Fast Downward's plan for learning/{problem_file.name}")
    print(f"{len(lines)} blocksworld plans in {out}, lengths "
          f"{min(len(x.read_text().splitlines()) - 1 for x in out.glob('*.plan'))}"
          f"-{max(len(x.read_text().splitlines()) - 1 for x in out.glob('*.plan'))}; floortile: {len(plan)} steps")


if __name__ == "__main__":
    main()
