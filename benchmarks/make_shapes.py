"""Generate the plans of bench_validate.py's batch shapes in logistics and sokoban (benchmarks/plans/).

For each of 20 problems (logistics: IPC 2000's typed STRIPS instances 1-18, 20 and 21, copied to
benchmarks/ipc_big/logistics, Fast Downward's `greedy` finding no plan for 19; sokoban:
benchmarks/ipc/problems/{learning,solving}/sokoban), Fast Downward's plan (`greedy`) and two variants,
seeded: `swap` (two adjacent steps exchanged) and `short` (the last two steps removed: the goal is
missed); a problem Fast Downward does not solve in 120 s is left out (sokoban's learning 9 and solving
9, on a loaded machine: 18 problems). And for the first problem, 20 plans: the valid one, ten swaps
and nine cuts at random places (the shape "many plans of one problem"). Whether a plan is valid is not
assumed: bench_validate.py asks VAL. The batch files list the plans with their problems (paths
relative to the file): `plans.jsonl` (every problem's three plans) and `one_problem.jsonl`.
Blocksworld (`blocksworld`, not made by default): the 20 plans of one problem alone (the plans of its
20 problems are make_plans.py's).

    python benchmarks/make_shapes.py [--seed 0] [logistics sokoban blocksworld]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from make_plans import fd_plan, write_plan  # noqa: E402

IPC = ROOT / "benchmarks" / "ipc"
OUT = ROOT / "benchmarks" / "plans"
BIG = ROOT / "benchmarks" / "ipc_big"


def problems(domain: str) -> tuple[Path, list[Path]]:
    """The domain file and the 20 problem files of `domain`."""
    if domain == "logistics":
        return BIG / "logistics" / "domain.pddl", [BIG / "logistics" / f"instance-{i}.pddl"
                                                        for i in (*range(1, 19), 20, 21)]
    return IPC / "domains" / f"{domain}.pddl", [IPC / "problems" / part / domain / f"{i}_{domain}_prob.pddl"
                                                for part in ("learning", "solving") for i in range(10)]


def swap(plan: list, rng: random.Random) -> list:
    i = rng.randrange(len(plan) - 1)
    return plan[:i] + [plan[i + 1], plan[i]] + plan[i + 2:]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("domains", nargs="*", default=["logistics", "sokoban"])
    args = ap.parse_args()
    for domain in args.domains:
        rng = random.Random(args.seed)
        out = OUT / domain
        out.mkdir(parents=True, exist_ok=True)
        domain_file, files = problems(domain)
        lines, one = [], []
        for n, problem_file in enumerate(files[:1] if domain == "blocksworld" else files):
            rel = "../../" + problem_file.relative_to(ROOT / "benchmarks").as_posix()
            try:
                plan = fd_plan(domain_file, problem_file)
            except SystemExit as e:  # left out, and said
                print(e, file=sys.stderr)
                continue
            source = f"Fast Downward's plan for {problem_file.parent.name}/{problem_file.name}"
            kinds = []
            if domain != "blocksworld":
                kinds = [("valid", plan), ("swap", swap(plan, rng)), ("short", plan[:-2])]
            for kind, steps in kinds:
                name = f"{n}_{kind}.plan"
                write_plan(out / name, steps, f"{kind} variant of {source}")
                lines.append({"problem": rel, "plan": name})
            if n == 0:
                if domain == "blocksworld":
                    write_plan(out / "0_one_valid.plan", plan, f"valid: {source}")
                one.append({"problem": rel, "plan": "0_one_valid.plan" if domain == "blocksworld" else "0_valid.plan"})
                for k in range(19):
                    steps = swap(plan, rng) if k < 10 else plan[:rng.randrange(len(plan))]
                    name = f"0_one_{k}.plan"
                    write_plan(out / name, steps, f"{'swap' if k < 10 else 'cut'} variant of {source}")
                    one.append({"problem": rel, "plan": name})
        if domain != "blocksworld":  # its plans.jsonl is make_plans.py's 100 plans
            (out / "plans.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
        (out / "one_problem.jsonl").write_text("".join(json.dumps(x) + "\n" for x in one))
        print(f"{domain}: {len(lines)} + {len(one)} plans in {out}")


if __name__ == "__main__":
    main()
