"""amlasp/asp/worker.py: programs solved in a worker process give solve_once's answer; the worker is
replaced when its memory passes the limit, and its failures are errors of ours (WorkerError)."""

from __future__ import annotations

from collections import Counter

import pytest

from amlasp.asp.run import solve_once
from amlasp.asp.worker import Solver, WorkerError

PROGRAM = ["p(1..3). q(X,Y) :- p(X), p(Y), X < Y. n(N) :- N = #count{X,Y: q(X,Y)}.", "#show q/2. #show n/1."]


def test_answers_equal_solve_once_and_the_worker_is_replaced_above_its_limit():
    timings: Counter = Counter()
    with Solver(limit_mb=1e9) as solver:
        assert sorted(map(str, solver.solve(PROGRAM, timings))) == sorted(map(str, solve_once(PROGRAM)))
        solver.solve(PROGRAM)
        assert solver.started == 1 and solver.peak_mb > 0 and timings["ground"] > 0
    with Solver(limit_mb=1) as solver:  # every worker is above 1 MB: one per program
        for _ in range(3):
            assert [str(s) for s in solver.solve(["a. #show a/0."])] == ["a"]
        assert solver.started == 3
    assert solver._proc is None


def test_a_failure_in_the_worker_is_an_internal_error_and_the_next_program_starts_another():
    with Solver() as solver:
        with pytest.raises(WorkerError, match="internal error in the clingo worker: RuntimeError"):
            solver.solve(["p(."])
        assert solver.solve(["#show."]) == [] and solver.started == 2
        assert solver._proc is not None
        solver._proc.kill()
        solver._proc.wait()
        with pytest.raises(WorkerError, match="the clingo worker ended"):
            solver.solve(["a."])


def test_the_worker_is_this_amlasp_whatever_the_working_folder(tmp_path, monkeypatch):
    """`python -c` puts its working folder first on the path: another `amlasp` there must not be the worker's."""
    (tmp_path / "amlasp").mkdir()
    (tmp_path / "amlasp" / "__init__.py").write_text("raise ImportError('the wrong amlasp')\n")
    monkeypatch.chdir(tmp_path)
    with Solver() as solver:
        assert [str(s) for s in solver.solve(["a. #show a/0."])] == ["a"]
