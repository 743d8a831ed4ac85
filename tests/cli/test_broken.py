"""The command line on a learned domain with a broken action (tests/data/broken): compare, eval and solve
score the rest (exit 0), show the broken action with its place and say it on stderr; `--strict` refuses the
file (exit 2); `--lenient-reference` reads a flawed reference."""

from __future__ import annotations

import json

import pytest

from tests.pddl.test_recover import BROKEN
from tests.support.cli import run_module

LEARNED, REFERENCE = BROKEN / "undeclared-variable.pddl", BROKEN / "reference.pddl"
WHERE = f"{LEARNED}:13:33: undeclared variable '?y'"
COMMANDS = {
    "compare": ["compare", LEARNED, REFERENCE],
    "eval": ["eval", LEARNED, REFERENCE, "-s", BROKEN / "states", "-p", BROKEN],
    "solve": ["solve", LEARNED, REFERENCE, "-p", BROKEN / "problem.pddl"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_broken_action_is_shown_with_its_place_and_the_rest_scored(command):
    p = run_module(*COMMANDS[command], timeout=120)
    assert p.returncode == 0, p.stderr
    assert f"amlasp: warning: {WHERE} (action 'pick_up' is not scored)" in p.stderr
    out = " ".join(p.stdout.split())  # the table may wrap a long line
    assert "broken learned action pick_up" in out and f"{WHERE} [undeclared-variable]" in out
    if command != "solve":
        assert "pick_up (broken)" in out


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_strict_refuses_the_file(command):
    p = run_module("--strict", *COMMANDS[command], timeout=120)
    assert p.returncode == 2
    assert p.stderr.strip().splitlines()[-1] == (f"amlasp: error: {WHERE} (action 'pick_up' is not scored)")


@pytest.mark.parametrize("command", ["compare", "eval", "solve"])
def test_json_lists_the_broken_definition(command):
    p = run_module(*COMMANDS[command], "-f", "json", timeout=120)
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert d["broken"] == [{"kind": "action", "name": "pick_up", "error": "undeclared-variable",
                            "message": "undeclared variable '?y'", "file": str(LEARNED), "line": 13, "col": 33}]
    assert d["summary"]["broken_actions"] == 1


def test_lenient_reference_reads_a_reference_with_a_broken_action():
    args = ["compare", REFERENCE, BROKEN / "wrong-arity.pddl"]
    p = run_module(*args)
    assert p.returncode == 2 and "takes 1 argument(s), 2 given" in p.stderr
    p = run_module(*args, "--lenient-reference", "-f", "json")
    assert p.returncode == 0, p.stderr
    assert "(action 'put_down' is not scored)" in p.stderr
    assert [a["action"] for a in json.loads(p.stdout)["actions"]] == ["pick_up", "stack", "unstack"]
