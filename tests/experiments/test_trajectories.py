"""Trajectory generation: valid, reproducible, random detours re-planned, dead ends undone."""

from __future__ import annotations

import json
import random

import pytest

from amlasp.errors import InputError
from amlasp.experiments.trajectories import generate, generate_trajectories, goal_reached
from amlasp.external.fast_downward import plan_with_fast_downward
from amlasp.model import GroundAction as G
from amlasp.pddl.parse import load_domain, load_problem
from amlasp.pddl.states import load_states
from amlasp.reasoning.engine import execute
from tests.support.cli import run
from tests.support.examples import ROADS
from tests.support.ipc import reference
from tests.support.paths import IPC

FERRY = reference("ferry")
FERRY_PROBLEMS = [IPC / "problems" / "solving" / "ferry" / f"{i}_ferry_prob.pddl" for i in range(2)]


@pytest.fixture(scope="module")
def ferry():
    d = load_domain(FERRY)
    return d, load_problem(FERRY_PROBLEMS[1], d)


def test_trajectory_is_executable_and_reaches_the_goal(ferry):
    d, p = ferry
    t = generate(d, p, random.Random(3), p_rnd=0.5, p_opt=0.0, timeout=30)
    assert t.random_steps > 0 and len(t.states) == len(t.actions) + 1
    ex = execute(d, p, list(t.actions))
    assert ex.valid and list(ex.states) == list(t.states)
    assert goal_reached(p, t.states[-1]) and not any(goal_reached(p, s) for s in t.states[:-1])


def test_same_seed_same_trajectory_and_no_randomness_is_the_plan(ferry):
    d, p = ferry
    a = generate(d, p, random.Random("s:ferry:1"), p_rnd=0.3, p_opt=0.0, timeout=30)
    b = generate(d, p, random.Random("s:ferry:1"), p_rnd=0.3, p_opt=0.0, timeout=30)
    assert a.text() == b.text()
    straight = generate(d, p, random.Random(0), p_rnd=0.0, p_opt=0.0, timeout=30)
    assert straight.actions == plan_with_fast_downward(d, p, d, "greedy", 30).plan and straight.random_steps == 0
    optimal = generate(d, p, random.Random(0), p_rnd=0.0, p_opt=1.0, timeout=30)
    assert optimal.config == "opt" and len(optimal.actions) == len(plan_with_fast_downward(d, p, d, "opt", 30).plan)


def test_random_action_into_a_dead_end_is_undone():
    d, p = ROADS.load()
    # every step is random; the only alternative to the plan is `crash`, a dead end
    t = generate(d, p, random.Random(0), p_rnd=1.0, p_opt=0.0, timeout=30)
    assert t.actions == (G("drive", ("a", "b")), G("drive", ("b", "c")))
    assert t.backtracks == 2 and t.random_steps == 0 and t.replans == 2


def test_files_resume_and_cli(tmp_path):
    out = tmp_path / "states"
    r = generate_trajectories(FERRY, FERRY_PROBLEMS, out, count=3, p_rnd=0.2, seed=7, timeout=30)
    assert [o.status for o in r.outcomes] == ["generated"] * 3
    assert sorted(x.name for x in out.iterdir()) == ["0_ferry_traj", "1_ferry_traj", "2_ferry_traj", "problems"]
    assert (out / "problems" / "2_ferry_prob.pddl").read_bytes() == FERRY_PROBLEMS[0].read_bytes()  # used in turn
    d = load_domain(FERRY)
    sets = load_states([out], d, problems_dir=out / "problems")
    assert len(sets) == 3 and all(execute(d, s.problem, s.actions).valid for s in sets)
    assert list(r.to_frame()["length"]) == [len(s.states) - 1 for s in sets]
    before = (out / "1_ferry_traj").read_text()
    res = run("gen", "trajectories", FERRY, "-p", FERRY_PROBLEMS[0], "-p", FERRY_PROBLEMS[1], "--output", out,
              "--count", "3", "--seed", "7", "--format", "json")
    assert res.exit_code == 0, res.output
    assert [o["status"] for o in json.loads(res.stdout)] == ["existing"] * 3  # a stopped run resumes
    assert (out / "1_ferry_traj").read_text() == before
    (out / "problems" / "0_ferry_prob.pddl").write_text("(define (problem other))")
    (out / "0_ferry_traj").unlink()
    with pytest.raises(InputError, match="not a copy"):
        generate_trajectories(FERRY, FERRY_PROBLEMS, out, count=1)
    with pytest.raises(InputError, match="probability"):
        generate_trajectories(FERRY, FERRY_PROBLEMS, out, p_rnd=1.5)


@pytest.mark.parametrize("name", ["../escaped", "a/b", ".."])
def test_a_name_that_would_lead_out_of_the_output_folder_is_refused(tmp_path, name):
    out = tmp_path / "out"
    res = run("gen", "trajectories", IPC / "domains" / "ferry.pddl", "-p", FERRY_PROBLEMS[0], "-o", out, "--name", name)
    assert res.exit_code == 2 and "cannot be a file or folder name" in res.stderr, res.output
    assert not list(tmp_path.iterdir())  # nothing written, in the folder or beside it
