"""amlasp/pddl/inputs.py: the one listing of the files given as paths (states, trajectories, problems)."""

from __future__ import annotations

from pathlib import Path

import pytest

from amlasp.errors import InputError
from amlasp.metrics.solve import problem_files
from amlasp.pddl.inputs import input_files, listing
from amlasp.pddl.states import state_inputs


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    for name in ["10_x_traj", "2_x_traj", "1_x_traj", ".hidden", "b.pddl", "a10.pddl", "a9.pddl"]:
        (tmp_path / name).write_text("")
    (tmp_path / "sub.pddl").mkdir()
    return tmp_path


def test_directories_are_listed_in_natural_order_without_hidden_files(folder):
    assert [p.name for p in listing(folder)] == ["1_x_traj", "2_x_traj", "10_x_traj", "a9.pddl", "a10.pddl", "b.pddl"]
    assert [p.name for p in listing(folder, "*.pddl")] == ["a9.pddl", "a10.pddl", "b.pddl"]


def test_files_are_kept_as_given_and_directories_expanded_in_place(folder):
    got = input_files([folder / "b.pddl", folder, folder / ".hidden"], "*_traj")
    assert [p.name for p in got] == ["b.pddl", "1_x_traj", "2_x_traj", "10_x_traj", ".hidden"]


def test_a_missing_path_is_refused_with_its_location(folder):
    with pytest.raises(InputError, match="no such file or directory \\(in the suite manifest\\)") as e:
        input_files([folder, folder / "nope"], where=" (in the suite manifest)")
    assert "nope" in str(e.value)


def test_every_caller_lists_alike(folder):
    """solve's problems, eval's states and -o's inputs: one listing."""
    assert problem_files(folder) == listing(folder, "*.pddl")
    assert state_inputs([folder, folder / "nope"])[:6] == listing(folder)  # a missing path: load_states says so
