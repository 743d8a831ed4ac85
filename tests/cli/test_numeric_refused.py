"""Numeric models through the real command line: `compare` reads them; every semantic command refuses
the first numeric construct of the domain with exit 2, at its file:line:col, saying what is
supported (docs/input.md's table)."""

from __future__ import annotations

import pytest

from amlasp.pddl.check import NUMERIC_SUPPORT
from tests.support.cli import run, run_module
from tests.support.paths import DATA

N = DATA / "numeric"
D, P, PLAN = N / "domain.pddl", N / "problem.pddl", N / "plan.txt"

COMMANDS = {
    "eval": ["eval", D, D, "--states", P],
    "solve": ["solve", D, D, "-p", N],
    "applicable": ["applicable", D, P],
    "step": ["step", D, P, "(drive t1 a b)"],
    "validate": ["validate", D, P, PLAN],
    "facts": ["facts", D, P],
    "plan": ["plan", D, P],
    "reach": ["reach", D, P, "(at t1 b)"],
    "justify": ["justify", D, P, PLAN],
    "landmarks": ["landmarks", D, P],
    "diff": ["diff", D, D, P],
    "questions": ["questions", "generate", D, P],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_semantic_commands_refuse_the_first_numeric_construct(command, tmp_path):
    res = run(*COMMANDS[command], "-o", tmp_path / "out") if command == "questions" else run(*COMMANDS[command])
    assert res.exit_code == 2, (res.stdout, res.stderr)
    line = res.stderr.strip()
    assert "\n" not in line and "Traceback" not in res.stderr
    assert line == (f"amlasp: error: {D}:3:55: unsupported feature: requirement :numeric-fluents; "
                    f"{NUMERIC_SUPPORT}")


def test_gen_trajectories_refuses_too(tmp_path):
    res = run("gen", "trajectories", N / "no-requirement.pddl", "-p", N, "-o", tmp_path)
    assert res.exit_code == 2
    assert f"no-requirement.pddl:6:3: unsupported feature: numeric fluents (:functions); {NUMERIC_SUPPORT}" \
        in res.stderr


def test_compare_reads_what_the_others_refuse():
    res = run_module("compare", D, N / "no-requirement.pddl", "-f", "json")
    assert res.returncode == 0 and '"edit_distance": 0' in res.stdout, res.stderr
