"""The terminal side of single questions (render/reasoning.py)."""

from __future__ import annotations

from tests.support import cli
from tests.support.paths import EXAMPLES

BW = EXAMPLES / "blocksworld"


def test_landmarks_say_a_shared_proof_once_and_refer_to_it():
    r = cli.run("landmarks", BW / "domain.pddl", BW / "problem.pddl", env={"COLUMNS": "80"})
    assert r.exit_code == 0, r.stderr
    assert r.stdout.count("ignoring delete") == 1  # five relaxed landmarks, one proof
    assert r.stdout.count("proof 1 (below)") == 5 and "proof 1: false initially" in r.stdout
    assert r.stdout.count("holds in the initial state") == 5  # a short proof stays in its row
