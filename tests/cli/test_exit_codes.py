"""Exit codes at the edges: a closed pipe after one large write (141), and debug mode (only
AMLASP_DEBUG=1/true/yes, and an internal error still exits 4)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.support.cli import run
from tests.support.paths import IPC, ROOT

BW = ROOT / "examples" / "blocksworld"


def test_a_pipe_closed_after_a_large_write_exits_141():
    """`amlasp facts ... | head -c 100` on half a megabyte: the first write fills the pipe, the reader
    goes, and the rest of the output is lost; that is 141, not 0 (CPython drops the rest silently)."""
    args = ["facts", IPC / "domains" / "sokoban.pddl",
            IPC / "problems" / "learning" / "sokoban" / "8_sokoban_prob.pddl", "--states",
            IPC / "trajectories" / "learning" / "sokoban" / "8_sokoban_traj"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.Popen([sys.executable, "-m", "amlasp", *map(str, args)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=env, cwd=ROOT)
    assert p.stdout.read(100)  # the output has begun: the large write is under way
    p.stdout.close()
    err = p.stderr.read().decode()
    assert (p.wait(timeout=120), err) == (141, "")


def _broken(monkeypatch):
    from amlasp.reasoning import engine

    def broken(*a, **k):
        raise RuntimeError("a bug")
    monkeypatch.setattr(engine, "applicable", broken)


@pytest.mark.parametrize("value", ["0", "false", "no", ""])
def test_debug_mode_is_off_unless_asked_for(monkeypatch, value):
    _broken(monkeypatch)
    r = run("applicable", BW / "domain.pddl", BW / "problem.pddl", env={"AMLASP_DEBUG": value})
    assert r.exit_code == 4
    assert r.stderr == "amlasp: internal error: RuntimeError: a bug (set AMLASP_DEBUG=1 for details)\n"


@pytest.mark.parametrize("value", ["1", "true", "YES"])
def test_debug_mode_shows_the_traceback_and_still_exits_4(monkeypatch, value):
    _broken(monkeypatch)
    r = run("applicable", BW / "domain.pddl", BW / "problem.pddl", env={"AMLASP_DEBUG": value})
    assert r.exit_code == 4, r.output
    assert "Traceback (most recent call last)" in r.stderr and "RuntimeError: a bug" in r.stderr
