"""JSON state files name their problems relative to their folder: a key may not reach another file
(`/etc/hostname`, `../../etc/passwd`), so none is read and none is echoed in an error."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.support import cli
from tests.support.paths import ROOT

BW = ROOT / "examples" / "blocksworld"


@pytest.mark.parametrize("how", ["absolute", "dotdot"])
def test_a_json_key_outside_the_folder_is_refused_without_reading_it(tmp_path, how):
    secret = tmp_path / "secret.pddl"
    secret.write_text("SECRET-LINE-1 (define\n")
    states = tmp_path / "run" / "states.json"
    states.parent.mkdir()
    shutil.copy(BW / "problem.pddl", states.parent / "p.pddl")
    key = str(secret) if how == "absolute" else "../secret.pddl"
    states.write_text(json.dumps({key: [["(handempty)"]]}))
    res = cli.run("facts", BW / "domain.pddl", BW / "problem.pddl", "--states", states)
    assert res.exit_code == 2, res.output
    assert "not found in" in res.stderr and "stay inside it" in res.stderr
    assert "SECRET" not in res.output


def test_a_json_key_inside_the_folder_is_read(tmp_path):
    states = tmp_path / "states.json"
    (tmp_path / "sub").mkdir()
    shutil.copy(BW / "problem.pddl", tmp_path / "sub" / "p.pddl")
    states.write_text(json.dumps({"sub/../sub/p.pddl": [["(handempty)"]]}))
    res = cli.run("facts", BW / "domain.pddl", BW / "problem.pddl", "--states", states, "--no-rules")
    assert res.exit_code == 0, res.output
