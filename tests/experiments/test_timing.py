"""A unit's time split from its record (older records included), and a run's from its units."""

from __future__ import annotations

import pytest

from amlasp.experiments.timing import TimeSplit, run_split, unit_split


def test_a_solve_record_splits_into_planner_validation_and_ours():
    t = unit_split({"task": "solve", "seconds": 1.0, "planner_seconds": 0.7, "validation_seconds": 0.1})
    assert (t.planner, t.validation, t.idle) == (0.7, 0.1, 0.0) and t.ours == pytest.approx(0.2)
    assert t.share("ours") == pytest.approx(0.2)


def test_compare_eval_failed_and_older_records_are_read():
    assert unit_split({"task": "compare", "seconds": 0.4}) == TimeSplit(ours=0.4)
    assert unit_split({"task": "solve", "seconds": 0.5, "planner_seconds": 0.45}) == TimeSplit(0.45, 0.0,
                                                                                                 pytest.approx(0.05))
    assert unit_split({"task": "eval", "failed": True, "error": "worker failed: lost"}) == TimeSplit()


def test_a_run_is_workers_times_wall():
    units = TimeSplit(planner=10.0, validation=1.0, ours=0.5)
    t = run_split(units, wall=6.0, workers=2, idle=0.5)
    assert (t.planner, t.validation, t.idle) == (10.0, 1.0, 0.5) and t.ours == pytest.approx(0.5)
    assert t.busy + t.idle == pytest.approx(12.0) and t.share("ours") == pytest.approx(0.5 / 11.5)
    assert TimeSplit().share("ours") == 0.0
