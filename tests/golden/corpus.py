"""A fixed corpus of CLI invocations over the shipped data, and their recorded outputs.

The outputs (exit code, stdout, stderr) were recorded before the package was restructured
(issue 9) and must stay byte-identical: `python tests/golden/corpus.py --record` rewrites
them, which is only right when a change of behaviour is intended and said in its commit.

Two normalisations, both for reasons outside the code under test: `seconds` (wall time) is zeroed
in JSON, and `facts` output is compared as a sorted list of lines without the encodings'
comments (its order follows Python's string hashing, which varies between runs, issue 13;
the comments name source files, which moved).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXPECTED = Path(__file__).resolve().parent / "expected"

I = "benchmarks/ipc"
E = "examples/blocksworld"
G = "tests/golden/inputs"
N = f"{I}/learned/nolam"
D = f"{I}/domains"


def _traj(domain: str) -> list[str]:
    return ["--states", f"{I}/trajectories/learning/{domain}", "--problems", f"{I}/problems/learning/{domain}"]


CASES: dict[str, list[str]] = {
    # syntactic
    "compare_blocksworld": ["compare", f"{N}/blocksworld.pddl", f"{D}/blocksworld.pddl", "-f", "json"],
    "compare_depots": ["compare", f"{N}/depots.pddl", f"{D}/depots.pddl", "-f", "json"],
    "compare_miconic_rename": ["compare", f"{N}/miconic.pddl", f"{D}/miconic.pddl", "--rename", "-f", "json"],
    "compare_ferry_align": ["compare", f"{N}/ferry.pddl", f"{D}/ferry.pddl", "--align", "-f", "json"],
    "compare_satellite_csv": ["compare", f"{N}/satellite.pddl", f"{D}/satellite.pddl", "-f", "csv"],
    "compare_rovers_markdown": ["compare", f"{N}/rovers.pddl", f"{D}/rovers.pddl", "-f", "markdown", "--explain"],
    "compare_gripper_latex": ["compare", f"{N}/grippers.pddl", f"{D}/grippers.pddl", "-f", "latex"],
    "compare_example_table": ["compare", f"{E}/learned.pddl", f"{E}/domain.pddl", "--explain"],
    # predictive power
    "eval_depots": ["eval", f"{N}/depots.pddl", f"{D}/depots.pddl", *_traj("depots"), "-f", "json"],
    "eval_blocksworld_states": ["eval", f"{N}/blocksworld.pddl", f"{D}/blocksworld.pddl", "--states",
                                "benchmarks/states/blocksworld", "--problems", "benchmarks/states/blocksworld/problems",
                                "-f", "json"],
    "eval_missing_problems": ["eval", f"{N}/blocksworld.pddl", f"{D}/blocksworld.pddl", "--states",
                              "benchmarks/states/blocksworld", "-f", "json"],
    "eval_miconic_explain": ["eval", f"{N}/miconic.pddl", f"{D}/miconic.pddl", *_traj("miconic"), "--explain",
                             "-f", "json"],
    "eval_ferry_csv": ["eval", f"{N}/ferry.pddl", f"{D}/ferry.pddl", *_traj("ferry"), "-f", "csv"],
    "eval_example_table": ["eval", f"{E}/learned.pddl", f"{E}/domain.pddl", "--states", f"{E}/problem.pddl"],
    # problem solving
    "solve_blocksworld": ["solve", f"{N}/blocksworld.pddl", f"{D}/blocksworld.pddl", "-p",
                          f"{I}/problems/solving/blocksworld/0_blocksworld_prob.pddl", "-f", "json"],
    "solve_childsnack_invalid": ["solve", f"{N}/childsnack.pddl", f"{D}/childsnack.pddl", "-p",
                                 f"{I}/problems/solving/childsnack/0_childsnack_prob.pddl", "-f", "json"],
    # single questions
    "applicable_example": ["applicable", f"{E}/domain.pddl", f"{E}/problem.pddl", "-f", "json"],
    "applicable_depots_states": ["applicable", f"{D}/depots.pddl", f"{I}/problems/learning/depots/0_depots_prob.pddl",
                                 "--states", f"{I}/trajectories/learning/depots/0_depots_traj", "-f", "json"],
    "applicable_example_table": ["applicable", f"{E}/domain.pddl", f"{E}/problem.pddl"],
    "step_example": ["step", f"{E}/domain.pddl", f"{E}/problem.pddl", "(unstack b3 b1)", "(put_down b3)",
                     "-f", "json"],
    "step_failing": ["step", f"{E}/domain.pddl", f"{E}/problem.pddl", "(unstack b3 b1)", "(stack b1 b3)"],
    "validate_valid": ["validate", f"{E}/domain.pddl", f"{E}/problem.pddl", f"{E}/plan.txt", "-f", "json"],
    "validate_invalid": ["validate", f"{E}/domain.pddl", f"{E}/problem.pddl", f"{G}/bad_plan.txt", "-f", "json"],
    "validate_goal_unmet": ["validate", f"{E}/domain.pddl", f"{E}/problem.pddl", f"{G}/short_plan.txt"],
    "validate_learned_table": ["validate", f"{E}/learned.pddl", f"{E}/problem.pddl", f"{E}/plan.txt"],
    "plan_top3": ["plan", f"{E}/domain.pddl", f"{E}/problem.pddl", "--top", "3", "-f", "json"],
    "plan_all_table": ["plan", f"{E}/domain.pddl", f"{E}/problem.pddl", "--all"],
    "plan_ferry": ["plan", f"{D}/ferry.pddl", f"{I}/problems/solving/ferry/0_ferry_prob.pddl", "-f", "json"],
    "reach_yes": ["reach", f"{E}/domain.pddl", f"{E}/problem.pddl", "(on b1 b3)", "-f", "json"],
    "reach_action": ["reach", f"{E}/domain.pddl", f"{E}/problem.pddl", "--action", "(stack b2 b3)"],
    "reach_no": ["reach", f"{E}/domain.pddl", f"{E}/problem.pddl", "(on b1 b1)", "-f", "json"],
    "reach_state": ["reach", f"{E}/domain.pddl", f"{E}/problem.pddl", "(holding b2)", "--state",
                    "(ontable b1) (ontable b2) (ontable b3) (clear b1) (clear b2) (clear b3) (handempty)"],
    "justify_valid": ["justify", f"{E}/domain.pddl", f"{E}/problem.pddl", f"{E}/plan.txt", "-f", "json"],
    "justify_redundant": ["justify", f"{E}/domain.pddl", f"{E}/problem.pddl", f"{G}/redundant_plan.txt"],
    "landmarks_example": ["landmarks", f"{E}/domain.pddl", f"{E}/problem.pddl", "-f", "json"],
    "landmarks_table": ["landmarks", f"{D}/ferry.pddl", f"{I}/problems/solving/ferry/0_ferry_prob.pddl"],
    "landmarks_check": ["landmarks", f"{E}/domain.pddl", f"{E}/problem.pddl", "--check", "(holding b2)"],
    "diff_miconic": ["diff", f"{N}/miconic.pddl", f"{D}/miconic.pddl",
                     f"{I}/problems/solving/miconic/1_miconic_prob.pddl", "-f", "json"],
    "diff_example_all": ["diff", f"{E}/learned.pddl", f"{E}/domain.pddl", f"{E}/problem.pddl", "--all"],
    "diff_equal": ["diff", f"{D}/ferry.pddl", f"{D}/ferry.pddl", f"{I}/problems/solving/ferry/0_ferry_prob.pddl",
                   "-f", "json"],
    "facts_example": ["facts", f"{E}/domain.pddl", f"{E}/problem.pddl", "--plan", f"{E}/plan.txt"],
    "facts_no_rules": ["facts", f"{D}/depots.pddl", f"{I}/problems/learning/depots/0_depots_prob.pddl", "--no-rules",
                       "--states", f"{I}/trajectories/learning/depots/0_depots_traj"],
    # bad input
    "bad_domain": ["validate", "tests/data/bad/unknown-predicate-domain.pddl",
                   "tests/data/bad/problem.pddl", "tests/data/bad/plan.txt"],
    # the paper's tables from a fixed results file
    "bench_report_json": ["bench", "report", f"{G}/bench-results.jsonl", "-f", "json"],
    "bench_report_csv": ["bench", "report", f"{G}/bench-results.jsonl", "-f", "csv"],
    "bench_report_latex": ["bench", "report", f"{G}/bench-results.jsonl", "-f", "latex"],
    "bench_report_table": ["bench", "report", f"{G}/bench-results.jsonl", "--aggregate", "cumulative"],
}


_SECONDS = re.compile(r'("seconds": )-?[0-9][0-9.e+-]*')


def normalise(name: str, stdout: str) -> str:
    stdout = _SECONDS.sub(r"\g<1>0", stdout)
    if name.startswith("facts_"):
        return "\n".join(sorted(x for x in stdout.splitlines() if not x.startswith("%"))) + "\n"
    return stdout


def run(name: str) -> dict:
    env = dict(os.environ, COLUMNS="120", AMLASP_DEBUG="")
    env.pop("AMLASP_DEBUG")
    p = subprocess.run([sys.executable, "-m", "amlasp", *CASES[name]], cwd=ROOT, capture_output=True, text=True,
                       env=env, stdin=subprocess.DEVNULL, timeout=600)
    return {"args": CASES[name], "exit": p.returncode, "stdout": normalise(name, p.stdout), "stderr": p.stderr}


def expected(name: str) -> dict:
    return json.loads((EXPECTED / f"{name}.json").read_text())


def record(names: list[str]) -> None:
    EXPECTED.mkdir(exist_ok=True)
    with ThreadPoolExecutor(2) as pool:
        for name, out in zip(names, pool.map(run, names)):
            (EXPECTED / f"{name}.json").write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n")
            print(f"{name}: exit {out['exit']}, {len(out['stdout'])} chars", file=sys.stderr)


if __name__ == "__main__":
    if sys.argv[1:2] != ["--record"]:
        sys.exit("usage: python tests/golden/corpus.py --record [NAME ...]")
    record(sys.argv[2:] or list(CASES))
