"""`amlasp validate` with many plans (issue 32): a batch line's own fields in its verdict, `--group-by`,
every format and `-o`, `status`, `plan_file`/`plan_text`, the metrics, `--optimal`."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from tests.support.cli import run
from tests.support.paths import ROOT

EX = ROOT / "examples" / "blocksworld"
PLAN = [x for x in (EX / "plan.txt").read_text().splitlines() if x.startswith("(")]


@pytest.fixture
def batch(tmp_path: Path) -> Path:
    (tmp_path / "p.pddl").write_text((EX / "problem.pddl").read_text())
    (tmp_path / "a.plan").write_text((EX / "plan.txt").read_text())
    b = tmp_path / "b.jsonl"
    lines = [
        {"problem": "p.pddl", "plan": "a.plan", "model": "gpt", "id": 1},
        {"problem": "p.pddl", "plan": "\n".join(PLAN[:3] + ["(stack b3 b1)"]), "model": "gpt", "id": 2},
        {"problem": "p.pddl", "plan": PLAN[:-1], "model": "llama", "id": 3, "note": "=HYPERLINK(\"x\") | a & b_c"},
        {"problem": "p.pddl", "plan": PLAN[:2] + ["(frob b1)"], "model": "llama", "id": 4, "name": "mine"},
    ]
    b.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return b


def _json(stdout: str) -> list[dict]:
    return [json.loads(x) for x in stdout.splitlines()]


def test_fields_status_and_metrics_in_json(batch):
    r = run("validate", EX / "domain.pddl", "--batch", batch, "-f", "json")
    assert r.exit_code == 1, r.output
    out = _json(r.stdout)
    assert [x["status"] for x in out] == ["valid", "invalid", "invalid", "unreadable"]
    assert [(x["model"], x["id"]) for x in out] == [("gpt", 1), ("gpt", 2), ("llama", 3), ("llama", 4)]
    assert out[0]["plan_file"] == str(batch.parent / "a.plan") and out[0]["plan_text"] is None
    assert out[1]["plan_file"] is None and out[1]["plan_text"].endswith("(stack b3 b1)")
    assert [x["name"] for x in out] == [str(batch.parent / "a.plan"), f"{batch}:2", f"{batch}:3", "mine"]
    # (stack b3 b1) fails at step 4, after three steps; the plan without its last step misses (on b3 b2)
    assert [x["executable_prefix"] for x in out[:3]] == [8, 3, 7]
    assert out[1]["goals_unmet"] == ["(on b2 b1)", "(on b3 b2)"] and out[1]["unmet_goals"] == []
    assert (out[2]["goals_unmet"], out[2]["goal_share"]) == (["(on b3 b2)"], 0.5)
    assert out[3]["error"].endswith("action 3: unknown action 'frob' (not in domain blocksworld, "
                                    f"{EX / 'domain.pddl'})") and out[3]["failed_step"] == 3
    assert len({tuple(x) for x in out}) == 1 and out[0]["note"] is None  # every line every column, fields too
    assert list(out[0])[:5] == ["name", "problem", "plan_file", "plan_text", "status"]


def test_group_by_a_field_in_the_table_and_json(batch):
    r = run("validate", EX / "domain.pddl", "--batch", batch, "--group-by", "model", "-f", "json")
    groups = [x for x in _json(r.stdout) if "group_by" in x]
    assert groups == [
        {"group_by": "model", "group": "gpt", "plans": 2, "valid_share": 0.5, "mean_executable_prefix": 5.5,
         "unreadable_share": 0.0, "error_share": 0.0, "mean_goal_share": 0.5},
        {"group_by": "model", "group": "llama", "plans": 2, "valid_share": 0.0, "mean_executable_prefix": 4.5,
         "unreadable_share": 0.5, "error_share": 0.0, "mean_goal_share": 0.25}]  # the unreadable: 2 steps ran
    table = run("validate", EX / "domain.pddl", "--batch", batch, "--group-by", "model")
    assert table.exit_code == 1 and "by model: 2 group(s)" in table.stdout
    assert "4 plan(s): 1 valid, 2 invalid, 1 unreadable" in table.stdout
    by_problem = run("validate", EX / "domain.pddl", "--batch", batch, "--group-by", "problem", "-f", "json")
    assert [x["plans"] for x in _json(by_problem.stdout) if "group_by" in x] == [4]
    bad = run("validate", EX / "domain.pddl", "--batch", batch, "--group-by", "nothing")
    assert bad.exit_code == 2 and "--group-by 'nothing': no batch line has that field" in bad.stderr


def test_csv_markdown_latex_escape_the_fields(batch, tmp_path):
    r = run("validate", EX / "domain.pddl", "--batch", batch, "-f", "csv")
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    assert [x["status"] for x in rows] == ["valid", "invalid", "invalid", "unreadable"]
    assert rows[2]["note"].startswith("'=HYPERLINK")  # a spreadsheet formula neutralised
    assert rows[0]["model"] == "gpt" and rows[1]["goals_unmet"] == '["(on b2 b1)","(on b3 b2)"]'
    md = run("validate", EX / "domain.pddl", "--batch", batch, "-f", "markdown").stdout
    assert "\\| a &amp; b_c" in md and md.startswith("| name | problem | plan_file |")
    tex = run("validate", EX / "domain.pddl", "--batch", batch, "-f", "latex").stdout
    assert "\\begin{tabular}" in tex and "a \\& b\\_c" in tex


def test_output_file_its_format_and_the_summary_beside_it(batch, tmp_path):
    out = tmp_path / "verdicts.csv"
    r = run("validate", EX / "domain.pddl", "--batch", batch, "--group-by", "model", "-o", out)
    assert r.exit_code == 1 and r.stdout == ""
    assert next(csv.reader(io.StringIO(out.read_text())))[:3] == ["name", "problem", "plan_file"]
    summary = list(csv.DictReader(io.StringIO((tmp_path / "verdicts.summary.csv").read_text())))
    assert [(x["group"], x["plans"]) for x in summary] == [("gpt", "2"), ("llama", "2")]
    md = tmp_path / "v.md"
    assert run("validate", EX / "domain.pddl", "--batch", batch, "-o", md).exit_code == 1
    assert md.read_text().startswith("| name |")
    js = tmp_path / "v.json"
    run("validate", EX / "domain.pddl", "--batch", batch, "-o", js)
    assert [x["id"] for x in _json(js.read_text())] == [1, 2, 3, 4]
    before = batch.read_text()
    refused = run("validate", EX / "domain.pddl", "--batch", batch, "-f", "json", "-o", batch)
    assert refused.exit_code == 2 and batch.read_text() == before
    plan = batch.parent / "a.plan"
    kept = plan.read_text()
    named = run("validate", EX / "domain.pddl", "--batch", batch, "-f", "json", "-o", plan)  # a file it names
    assert named.exit_code == 2 and "refusing to overwrite" in named.stderr and plan.read_text() == kept
    clash = run("validate", EX / "domain.pddl", "--batch", batch, "-f", "csv", "-o", js)
    assert clash.exit_code == 2 and "extension of -o says json" in clash.stderr


def test_one_plan_in_a_result_format_and_to_a_file(tmp_path):
    r = run("validate", EX / "domain.pddl", EX / "problem.pddl", EX / "plan.txt", "-f", "csv")
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    assert r.exit_code == 0 and len(rows) == 1 and rows[0]["status"] == "valid" and rows[0]["executable_prefix"] == "8"
    out = tmp_path / "one.json"
    assert run("validate", EX / "domain.pddl", EX / "problem.pddl", EX / "plan.txt", "-o", out).exit_code == 0
    one = json.loads(out.read_text())  # the one-plan report, its keys and the ones issue 32 added
    assert (one["valid"], one["status"], one["executable_prefix"], one["goal_share"]) == (True, "valid", 8, 1.0)


def test_optimal_in_the_command(batch):
    pytest.importorskip("up_fast_downward")
    r = run("validate", EX / "domain.pddl", "--batch", batch, "--optimal", "-f", "json", "--group-by", "model")
    out = _json(r.stdout)
    assert [x["optimal_cost"] for x in out[:4]] == [8] * 4 and [x["cost_ratio"] for x in out[:4]] == [1.0, None,
                                                                                                         None, None]
    assert [x["mean_cost_ratio"] for x in out[4:]] == [1.0, None]
    table = run("validate", EX / "domain.pddl", "--batch", batch, "--optimal")
    assert "optimal" in table.stdout.splitlines()[2]
