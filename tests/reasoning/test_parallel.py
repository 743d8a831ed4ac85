"""amlasp/reasoning/parallel.py: `validate --batch --jobs N` (and `--executor dask`). On a mixed batch — 20
problems whose plans are interleaved, valid and failing plans, a plan with a line that does not read, a plan
repaired by lenient reading, a problem that does not read, a field of the batch line — the verdicts, in input
order, are the serial run's: every record, the command line's JSON and CSV text byte for byte, the summary,
and with `--optimal` each problem's optimum; a problem's plans are validated in one chunk."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from amlasp.choices import Executor
from amlasp.jobs import Jobs
from amlasp.pddl.batch import read_batch
from amlasp.pddl.parse import load_domain
from amlasp.reasoning import parallel
from amlasp.reasoning.validations import validate_plans
from tests.support import cli
from tests.support.paths import IPC, ROOT

PLANS = ROOT / "benchmarks" / "plans" / "blocksworld"
BW = IPC / "domains" / "blocksworld.pddl"


@pytest.fixture(scope="module")
def batch(tmp_path_factory) -> Path:
    """The 100 blocksworld plans of benchmarks/plans in a random order, and 4 lines more: an unreadable
    step, a plan to repair (`--lenient`), a missing problem, each with a field `model`."""
    folder = tmp_path_factory.mktemp("batch")
    lines = []
    for line in (PLANS / "plans.jsonl").read_text().splitlines():
        row = json.loads(line)
        row["problem"] = str((PLANS / row["problem"]).resolve())
        row["plan"] = str(PLANS / row["plan"])
        lines.append(row)
    random.Random(7).shuffle(lines)
    for k, row in enumerate(lines):
        row["model"] = f"m{k % 3}"
    first = lines[0]["problem"]
    lines.insert(10, {"problem": first, "plan": "(no-such-action b2)\n(pick-up b1)\n", "model": "broken"})
    lines.insert(30, {"problem": first, "plan": "1. (pick-up b1)\n2. (stack b1 b2)\n", "model": "repair"})
    lines.insert(50, {"problem": str(folder / "missing.pddl"), "plan": "(pick-up b1)\n", "model": "missing"})
    path = folder / "batch.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in lines))
    return path


def verdicts(batch: Path, jobs: Jobs, **kw):
    d = load_domain(BW)
    return validate_plans(d, read_batch(batch, d, lenient=True), jobs=jobs, **kw)


def test_parallel_equals_serial(batch):
    serial = verdicts(batch, Jobs())
    assert len(serial) == 103 and {r["status"] for r in serial.records()} == {"valid", "invalid", "unreadable",
                                                                                 "error"}
    assert any(r["repairs"] for r in serial.records())
    for jobs in (Jobs(2), Jobs(3)):
        two = verdicts(batch, jobs)
        assert two.records() == serial.records()
        assert two.summary("model") == serial.summary("model")


def test_a_problem_is_one_chunk_and_the_chunks_cover_the_batch(batch):
    d = load_domain(BW)
    tasks = read_batch(batch, d, lenient=True)
    pairs = [(t.problem, t.reading) for t in tasks]
    chunks = parallel.plan_chunks(d, pairs, 8, optimal=False)
    assert 4 <= len(chunks) <= 20
    assert sorted(i for c in chunks for i in c) == [i for i, (p, _) in enumerate(pairs) if p is not None]
    where = {}
    for k, c in enumerate(chunks):
        for i in c:
            assert where.setdefault(tasks[i].problem_file, k) == k


def test_cli_jobs_byte_identical(batch, tmp_path):
    for form in ("json", "csv"):
        args = ["validate", BW, "--batch", batch, "--lenient", "-f", form, "--group-by", "model"]
        one = cli.run(*args, "-o", tmp_path / f"one.{form}")
        two = cli.run(*args, "-o", tmp_path / f"two.{form}", "--jobs", "2")
        assert one.exit_code == two.exit_code == 2, two.output  # a line's problem is missing: a partial run
        assert one.output.replace("one.", "") == two.output.replace("two.", "")
    ones, twos = sorted(tmp_path.glob("one*")), sorted(tmp_path.glob("two*"))
    assert len(ones) == len(twos) == 4  # verdicts and their summary (--group-by), in JSON and CSV
    for a, b in zip(ones, twos):
        assert a.read_bytes() == b.read_bytes()


def test_optimal_equals_serial(tmp_path):
    """Each problem's optimal search done once, in the worker of its chunk: the same optima and ratios."""
    pytest.importorskip("up_fast_downward")
    rows = [json.loads(x) for x in (PLANS / "plans.jsonl").read_text().splitlines()]
    rows = [{**r, "problem": str((PLANS / r["problem"]).resolve()), "plan": str(PLANS / r["plan"])}
            for r in rows if any(f"/{k}_blocksworld_prob" in r["problem"] for k in (0, 1, 2))]
    path = tmp_path / "b.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows[::-1]))
    serial = verdicts(path, Jobs(), optimal=True, optimal_timeout=60)
    assert {r["optimal_status"] for r in serial.records()} == {"solved"}
    assert verdicts(path, Jobs(2), optimal=True, optimal_timeout=60).records() == serial.records()


def test_dask_equals_serial(batch, dask_cluster):
    assert verdicts(batch, Jobs(executor=Executor.DASK, scheduler=dask_cluster)).records() == \
        verdicts(batch, Jobs()).records()
