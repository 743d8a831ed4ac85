"""Options that take several names take them repeated or as a comma list (`cli.names`)."""

from __future__ import annotations

import json

import pytest

from amlasp.cli import names
from amlasp.errors import InputError
from tests.support import cli
from tests.support.paths import IPC


def test_names_split_commas_and_repetitions_in_order():
    assert names(["blocksworld,ferry", " miconic "], "--domain") == ["blocksworld", "ferry", "miconic"]
    assert names(None, "--domain") is None
    with pytest.raises(InputError, match="--domain names nothing"):
        names([","], "--domain")


def test_bench_run_takes_a_comma_list_of_domains_and_tasks(tmp_path):
    results = tmp_path / "r.jsonl"
    r = cli.run("bench", "run", "--learned", IPC / "learned" / "nolam", "--domain", "blocksworld,ferry",
                "--task", "compare", "--results", results)
    assert r.exit_code == 0, r.stderr
    recs = [json.loads(line) for line in results.read_text().splitlines()][1:]
    assert sorted((x["domain"], x["task"]) for x in recs) == [("blocksworld", "compare"), ("ferry", "compare")]


def test_questions_generate_takes_repeated_tasks_and_forms(tmp_path):
    ferry = [IPC / "domains" / "ferry.pddl", IPC / "problems" / "solving" / "ferry" / "0_ferry_prob.pddl"]
    out = tmp_path / "items.jsonl"
    r = cli.run("questions", "generate", *ferry, "--tasks", "app", "--tasks", "val", "--forms", "bool", "-n", "1",
                "--seed", "1", "-o", out)
    assert r.exit_code == 0, r.stderr
    items = [json.loads(line) for line in out.read_text().splitlines()]
    assert {(x["task"], x["form"]) for x in items} == {("app", "bool"), ("val", "bool")}
