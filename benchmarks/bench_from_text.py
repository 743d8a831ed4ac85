"""What reading a plan out of a language model's answer costs (`validate --from-text`, issue 32 item 5),
beside reading the same plan from a plan file, in the same run.

    python benchmarks/bench_from_text.py [--copies 20] [--repeat 3]

CPU seconds (best of --repeat), the ratio to the plain plans, and the load before and after:

* read: every answer of tests/data/responses (`--copies` times each) read with `response.read_response`,
  beside its intended plan (the `.plan` beside it) read with `plans.parse_plan`;
* batch: the same as `validate --batch` does it (`batch.read_batch` of a JSON lines file, each plan given
  inline, then `validations.validate_plans`), with answers and `--from-text`, beside the plans without;
* long: one answer of 1.5 MB (a chain of thought of 20,000 sentences, then a numbered plan of 6 steps):
  its time and throughput.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from timing import best_of  # noqa: E402

from amlasp.pddl.batch import read_batch  # noqa: E402
from amlasp.pddl.parse import load_domain, load_problem  # noqa: E402
from amlasp.pddl.plans import parse_plan  # noqa: E402
from amlasp.pddl.response import read_response  # noqa: E402
from amlasp.pddl.source import read_text  # noqa: E402
from amlasp.questions.language import action_sentences  # noqa: E402
from amlasp.reasoning import validations  # noqa: E402

CORPUS = ROOT / "tests" / "data" / "responses"


def row(name: str, peer: float, ours: float, unit: str) -> None:
    print(f"{name:<6} {unit:<34} plan text {peer:8.3f} s   answer {ours:8.3f} s   ratio {ours / peer:5.1f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--copies", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    print(f"load {os.getloadavg()[0]:.2f}")
    folders = sorted(p for p in CORPUS.iterdir() if p.is_dir())
    tasks = {}
    for f in folders:
        d = load_domain(f / "domain.pddl")
        tasks[f.name] = (d, load_problem(f / "problem.pddl", d), action_sentences(d))
    pairs = [(f.parent.name, read_text(f), f.with_suffix(".plan").read_text()) for f in sorted(CORPUS.glob("*/*.txt"))]
    pairs *= args.copies

    def answers():
        for name, text, _ in pairs:
            d, p, s = tasks[name]
            read_response(text, d, p, "a", s)

    def plans():
        for name, _, plan in pairs:
            d, p, _ = tasks[name]
            parse_plan(plan, d, p)
    peer = best_of(plans, args.repeat)[1]
    ours = best_of(answers, args.repeat)[1]
    row("read", peer, ours, f"{len(pairs)} answers of 4 domains")

    d, p, s = tasks["blocksworld"]
    problem = CORPUS / "blocksworld" / "problem.pddl"
    bw = [x for x in pairs if x[0] == "blocksworld"]
    with tempfile.TemporaryDirectory() as tmp:
        with_answers, with_plans = Path(tmp) / "answers.jsonl", Path(tmp) / "plans.jsonl"
        with_answers.write_text("".join(json.dumps({"problem": str(problem), "plan": t}) + "\n" for _, t, _ in bw))
        with_plans.write_text("".join(json.dumps({"problem": str(problem), "plan": q}) + "\n" for _, _, q in bw))

        def batch(path, sentences):
            tasks_ = read_batch(path, d, answers=sentences)
            assert all(t.error is None for t in tasks_)
            return validations.validate_plans(d, [(t.problem, t.plan) for t in tasks_])
        peer = best_of(lambda: batch(with_plans, None), args.repeat)[1]
        ours = best_of(lambda: batch(with_answers, s), args.repeat)[1]
    row("batch", peer, ours, f"{len(bw)} blocksworld plans, validated")

    thoughts = "Let me think about which block to move, since c is on a and b must go on d. " * 20_000
    long = thoughts + "\n\nFinal plan:\n" + (CORPUS / "blocksworld" / "06-numbered-english.txt").read_text()
    ours = best_of(lambda: read_response(long, d, p, "a", s), args.repeat)[1]
    print(f"long   one answer of {len(long) / 1e6:.1f} MB (6 steps at its end): {ours:.3f} s, "
          f"{len(long) / 1e6 / ours:.1f} MB/s")
    print(f"load {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
