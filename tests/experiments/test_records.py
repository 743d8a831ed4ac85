"""A results file is an input: records of the wrong shape are refused at their line (exit 2), never a
traceback of `bench report` (exit 4); a byte-order mark is accepted as in every other input."""

from __future__ import annotations

import json
import re

import pytest

from amlasp.errors import InputError
from amlasp.experiments.records import check_record
from tests.support import cli

META = {"task": "meta", "amlasp": "0.1.0", "settings": {"config": "greedy", "timeout": 60, "memory_mb": 4096}}
GOOD = {"learner": "sam", "domain": "ferry", "task": "compare", "seconds": 0.1,
        "summary": {"precision_macro": 0.5, "recall_macro": 1.0, "precision_cumulative": 0.5,
                    "recall_cumulative": 1.0}}


def _without(key: str) -> dict:
    return {k: v for k, v in GOOD.items() if k != key}


BAD = {
    "no learner": (_without("learner"), "no 'learner'"),
    "list domain": ({**GOOD, "domain": ["ferry"]}, "'domain' must be a non-empty string"),
    "list summary": ({**GOOD, "summary": [1]}, "'summary' must be an object"),
    "text metric": ({**GOOD, "summary": {**GOOD["summary"], "precision_macro": "high"}},
                    "'summary.precision_macro' must be a number or null, not str"),
    "eval table": ({**GOOD, "task": "eval", "summary": {"applicability": [0.5]}},
                   "'summary.applicability' must be an object"),
    "unknown task": ({**GOOD, "task": "bake"}, "unknown task 'bake'"),
    "failed": ({**GOOD, "failed": "yes"}, "'failed' must be true or false"),
    "settings": ({"task": "meta", "settings": [60]}, "'settings' must be an object"),
    "text seconds": ({**GOOD, "seconds": "fast"}, "'seconds' must be a number of seconds (at least 0)"),
    "negative planner": ({**GOOD, "task": "solve", "planner_seconds": -1},
                         "'planner_seconds' must be a number of seconds (at least 0)"),
    "validation true": ({**GOOD, "task": "solve", "validation_seconds": True},
                        "'validation_seconds' must be a number of seconds (at least 0)"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bench_report_refuses_a_malformed_record_at_its_line(case, tmp_path):
    rec, message = BAD[case]
    path = tmp_path / "results.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in [META, GOOD, rec, GOOD]))
    r = cli.run("bench", "report", path)
    assert r.exit_code == 2, r.stderr
    assert re.fullmatch(rf"amlasp: error: {re.escape(str(path))}:3: not a results record: {re.escape(message)}.*\n",
                        r.stderr), r.stderr


def test_records_of_bench_run_pass():
    assert check_record(GOOD, "r", 2) is GOOD
    solve = {"learner": "sam", "domain": "ferry", "task": "solve", "problem": "p.pddl", "status": "solved",
             "plan_length": 3, "detail": "valid", "seconds": 0.2}
    assert check_record(solve, "r", 3) is solve  # as older versions wrote it: no time split
    split = {**solve, "planner_seconds": 0.15, "validation_seconds": 0.01}
    assert check_record(split, "r", 3) is split
    eval_ = {"learner": "sam", "domain": "ferry", "task": "eval", "summary": {
        "states": 4, "applicability": {"precision_avg": None, "precision_cumulative_with_learned_only": 1.0},
        "ignored_predicates": []}}
    assert check_record(eval_, "r", 4) is eval_
    with pytest.raises(InputError, match="^r:5: "):
        check_record([], "r", 5)


def test_invalid_utf8_is_refused_located_and_a_bom_is_accepted(tmp_path):
    text = "".join(json.dumps(r) + "\n" for r in [META, GOOD])
    bom = tmp_path / "bom.jsonl"
    bom.write_bytes(b"\xef\xbb\xbf" + text.encode())
    plain = tmp_path / "plain.jsonl"
    plain.write_text(text)
    r, ref = cli.run("bench", "report", bom, "-f", "json"), cli.run("bench", "report", plain, "-f", "json")
    assert r.exit_code == 0 and ref.exit_code == 0, r.stderr
    assert json.loads(r.stdout) == json.loads(ref.stdout)
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(text.encode() + b'{"learner": "\xff\xfe", "task": "compare"}\n')
    r = cli.run("bench", "report", bad)
    assert r.exit_code == 2 and r.stderr.startswith(f"amlasp: error: {bad}:3:14: not UTF-8"), r.stderr
