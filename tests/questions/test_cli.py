"""`amlasp questions generate|grade` as a user runs them: files, formats, exit codes, one-line errors."""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import sys

import pytest

from tests.support.acpbench import ACP
from tests.support.cli import run, run_module
from tests.support.ipc import reference, small_problem
from tests.support.paths import ROOT

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

FERRY = [str(reference("ferry")), str(small_problem("ferry"))]


def test_generate_writes_items_and_a_balance_report(tmp_path):
    out = tmp_path / "items.jsonl"
    r = run("questions", "generate", *FERRY, "--tasks", "app,val,count", "--forms", "gen,bool", "-n", "2",
            "--seed", "1", "--depth", "1-3", "-o", out, "-f", "json")
    assert r.exit_code == 0, r.output
    report = json.loads(r.stdout)
    assert report["items"] == 12 and {(b["task"], b["form"]) for b in report["balance"]} == \
        {(t, f) for t in ("app", "val", "count") for f in ("gen", "bool")}
    items = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(items) == 12 and all(1 <= i["depth"] <= 3 for i in items)
    again = tmp_path / "again.jsonl"
    run("questions", "generate", *FERRY, "--tasks", "app,val,count", "--forms", "gen,bool", "-n", "2",
        "--seed", "1", "--depth", "1-3", "-o", again)
    assert again.read_bytes() == out.read_bytes()


def test_generate_to_stdout_keeps_the_report_off_it():
    r = run_module("questions", "generate", *FERRY, "--tasks", "app", "--forms", "bool", "-n", "2", timeout=300)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == 2 and all(json.loads(x)["form"] == "bool" for x in lines)
    assert "item(s) written to stdout" in r.stderr


@pytest.mark.parametrize("args,message", [
    (["--tasks", "app,fly"], "unknown task 'fly' (choose from app, prog, reach"),
    (["--forms", "essay"], "unknown form 'essay' (choose from gen, bool, mcq)"),
    (["--depth", "5-2"], "--depth 5-2: need 0 <= MIN <= MAX"),
    (["--depth", "x"], "--depth takes N or MIN-MAX"),
    (["--objects", "100-200"], "no problem has between 100 and 200 objects"),
    (["-n", "0"], "--per-task must be at least 1"),
])
def test_generate_bad_options_one_line_exit_2(args, message):
    r = run_module("questions", "generate", *FERRY, *args, timeout=120)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and message in r.stderr, r.stderr


def test_generate_bad_template_file_names_its_line(tmp_path):
    t = tmp_path / "ferry.toml"
    t.write_text('domain = "ferry"\n\n[predicates]\nat = "car {?x} is at {?l}"\n')
    r = run_module("questions", "generate", *FERRY, "--templates", t, "-n", "1", timeout=120)
    assert r.returncode == 2 and f"{t}:4:11: [predicates] at: slot {{?x}} is not a parameter" in r.stderr


def test_generate_refuses_to_overwrite_an_input():
    r = run_module("questions", "generate", *FERRY, "-o", FERRY[1], timeout=120)
    assert r.returncode == 2 and "refusing to overwrite" in r.stderr


def test_grade_formats_and_gold_check(tmp_path):
    items = tmp_path / "items.jsonl"
    run("questions", "generate", *FERRY, "--tasks", "app,nexta", "-n", "1", "-o", items)
    rows = [json.loads(x) for x in items.read_text().splitlines()]
    answers = tmp_path / "answers.jsonl"
    answers.write_text("".join(json.dumps({"id": i["id"], "answer": i["answer"] if k % 2 else "no"}) + "\n"
                               for k, i in enumerate(rows)))
    r = run("questions", "grade", items, answers, "-f", "json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["accuracy"][-1]["items"] == len(rows) and data["wrong"]
    for fmt, head in (("csv", "task,form,items"), ("markdown", "| task |"), ("latex", "\\begin{table}")):
        r = run("questions", "grade", items, answers, "-f", fmt)
        assert r.exit_code == 0 and head in r.stdout
    table = run("questions", "grade", items, answers)
    assert "Accuracy per task and form" in table.stdout and "Wrong answers" in table.stdout
    gold = run("questions", "grade", str(ACP / "val" / "dev.gen.json"), "-f", "json")
    assert gold.exit_code == 0 and json.loads(gold.stdout)["gold_disagreements"] == []


def test_grade_bad_answers_file(tmp_path):
    bad = tmp_path / "answers.jsonl"
    bad.write_text('{"id": 1, "answer": "yes"}\n{"id": 2}\n')
    r = run_module("questions", "grade", str(ACP / "val" / "dev.gen.json"), bad, timeout=120)
    assert r.returncode == 2 and f"{bad}:2:1: each answer is an object" in r.stderr
    bad.write_text('{"id": 1, "answer": \n')
    r = run_module("questions", "grade", str(ACP / "val" / "dev.gen.json"), bad, timeout=120)
    assert r.returncode == 2 and f"{bad}:1:21: not JSON: Expecting value" in r.stderr
    bad.write_text('[{"id": 1, "answer": "yes"},\n  {"answer": "no"}]\n')
    r = run_module("questions", "grade", str(ACP / "val" / "dev.gen.json"), bad, timeout=120)
    assert r.returncode == 2 and f"{bad}:2:3: each answer is an object" in r.stderr, r.stderr


def test_grade_bad_items_file_names_the_item(tmp_path):
    """Bad items: the item's own line and column, and for broken PDDL in an item, the place in that text."""
    items = tmp_path / "items.json"
    rows = json.loads((ACP / "val" / "dev.gen.json").read_text())[:2]
    rows[1]["PDDL_domain"] = rows[1]["PDDL_domain"].replace("(:action", "(:actoin", 1)
    items.write_text("[\n" + ",\n".join("  " + json.dumps(r) for r in rows) + "\n]\n")
    r = run_module("questions", "grade", items, "-f", "json", timeout=120)
    problem = f"{items}:3:3: item {rows[1]['id']}: PDDL_domain:5:6: unknown section ':actoin'"
    assert r.returncode == 2 and problem in r.stderr, r.stderr  # the item's problem; the rest is graded (exit 2:
    # an input could not be read, docs/input.md "Many inputs: partial runs")
    data = json.loads(r.stdout)
    assert data["gold_check"][-1]["checked"] == 1 and data["gold_check"][-1]["agree"] == 1
    assert [d["problem"] for d in data["unreadable_items"]] == [problem + " (did you mean :action?)"]
    items.write_text(json.dumps(rows[0]) + "\n" + json.dumps({"id": 7, "group": "poetry_gen"}) + "\n")
    r = run_module("questions", "grade", items, timeout=120)
    assert r.returncode == 2 and f"{items}:2:1: item 7: unknown group 'poetry_gen'" in r.stderr, r.stderr
    r = run("questions", "grade", str(ACP / "val" / "dev.gen.json"), "-f", "json")
    assert r.exit_code == 0


def test_generate_byte_identical_across_processes(tmp_path):
    """The same arguments and seed in two processes whose string hashes differ (PYTHONHASHSEED): the same
    bytes, so no set's iteration order leaks into a file."""
    outs = []
    for seed in ("1", "2"):
        out = tmp_path / f"items{seed}.jsonl"
        p = subprocess.run([sys.executable, "-m", "amlasp", "questions", "generate", *FERRY, "-n", "1", "--seed", "2",
                            "--tasks", "app,prog,areach,val,just,land,nexta,verify,count,value", "-o", str(out)],
                           env=dict(os.environ, PYTHONHASHSEED=seed), capture_output=True, text=True, timeout=600)
        assert p.returncode == 0, p.stderr
        outs.append(out.read_bytes())
    assert outs[0] == outs[1] and outs[0].count(b"\n") >= 25


def test_generate_draws_a_progress_bar_on_a_terminal(tmp_path):
    """The core reports progress through its callback; on a terminal (stderr a pty) the CLI draws it."""
    master, slave = pty.openpty()
    out = tmp_path / "items.jsonl"
    p = subprocess.Popen([sys.executable, "-m", "amlasp", "questions", "generate", *FERRY, "--tasks", "app,count",
                          "-n", "3", "-o", str(out)], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=slave,
                         env=dict(os.environ, COLUMNS="100", TERM="xterm"))
    os.close(slave)
    seen = bytearray()
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    assert p.wait(timeout=600) == 0
    os.close(master)
    text = seen.decode(errors="replace")
    assert re.search(r"app\s.*\d/9", text) and re.search(r"count\s.*9/9", text), text[-2000:]
    assert out.read_text().count("\n") == 18


EXAMPLE = ["questions", "generate", "benchmarks/ipc/domains/ferry.pddl",
           "benchmarks/ipc/problems/solving/ferry/0_ferry_prob.pddl",
           "--tasks", "app,prog,reach,val,land,nexta,verify,value", "-n", "1", "--seed", "1"]


def test_shipped_example_items_are_what_the_documented_command_generates(tmp_path):
    """examples/questions/items.jsonl (README tour, docs/questions.md) is what its command writes, byte for byte."""
    out = tmp_path / "items.jsonl"
    p = subprocess.run([sys.executable, "-m", "amlasp", *EXAMPLE, "-o", str(out)], cwd=ROOT, capture_output=True,
                       text=True, timeout=600, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert p.returncode == 0, p.stderr
    assert out.read_bytes() == (ROOT / "examples" / "questions" / "items.jsonl").read_bytes(), \
        "regenerate examples/questions/items.jsonl with the command in examples/questions/README.md"
    assert " ".join(EXAMPLE) in (ROOT / "examples" / "questions" / "README.md").read_text().replace(" \\\n    ", " ")


def test_shipped_example_answers_graded(tmp_path):
    q = ROOT / "examples" / "questions"
    r = run("questions", "grade", q / "items.jsonl", q / "answers.jsonl", "-f", "json")
    assert r.exit_code == 0
    data = json.loads(r.stdout)
    assert data["accuracy"][-1] == {"task": "all", "form": "all", "items": 22, "answered": 22, "correct": 14,
                                    "ambiguous": 0, "accuracy": 14 / 22, "coverage": 1.0, "precision": None,
                                    "recall": None}
    out = tmp_path / "grades.csv"
    r = run("questions", "grade", q / "items.jsonl", q / "answers.jsonl", "-o", out)
    header = "task,form,items,answered,correct,ambiguous,accuracy,coverage"
    assert r.exit_code == 0 and out.read_text().startswith(header)
    wrong = (tmp_path / "grades.wrong.csv").read_text().splitlines()
    assert wrong[0] == "id,task,form,answer,reason" and len(wrong) == 1 + 8


def test_acpbench_scoring_time_limit_option(tmp_path):
    """`--scoring acpbench --acpbench-time-limit S`: ACPBench's planner runs limited to S seconds; a
    `maybe` next action whose optimal search from its successor does not end in time scores 0."""
    item = next(i for i in json.loads((ACP / "nexta" / "dev.gen.json").read_text())
                if str(i["id"]) == "6017629270997064125")
    items, answers = tmp_path / "items.json", tmp_path / "answers.jsonl"
    items.write_text(json.dumps([item]))
    answers.write_text(json.dumps({"id": item["id"], "answer": "(DRIVE-TRUCK t1 l1-1 l1-0 c1)"}) + "\n")
    scored = [json.loads(run("questions", "grade", items, answers, "--scoring", "acpbench", "-f", "json", *extra)
                         .stdout) for extra in ((), ("--acpbench-time-limit", "0.001"))]
    assert [s["accuracy"][-1]["correct"] for s in scored] == [1, 0]
    assert "within 0.001 s" in scored[1]["wrong"][0]["reason"]
    bad = run("questions", "grade", items, answers, "--scoring", "acpbench", "--acpbench-time-limit", "0")
    assert bad.exit_code == 2
