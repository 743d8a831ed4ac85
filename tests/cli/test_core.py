"""The core commands as a user runs them: applicable, step, validate, facts."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import clingo
import pytest

from amlasp.model import Atom
from amlasp.model import GroundAction as G
from amlasp.pddl.parse import load_domain, load_problem
from amlasp.pddl.states import read_trajectory
from amlasp.reasoning.engine import applicable, execute
from tests.support.cli import run, run_module
from tests.support.examples import BLOCKSWORLD
from tests.support.ipc import reference
from tests.support.paths import EXAMPLES, IPC

BW = EXAMPLES / "blocksworld"
DOM, PROB, PLAN = BLOCKSWORLD.domain_file, BLOCKSWORLD.problem_file, str(BW / "plan.txt")
TRAJ = IPC / "trajectories" / "learning" / "blocksworld"
LEARN = IPC / "problems" / "learning" / "blocksworld"
IPC_BW = str(reference("blocksworld"))


# -- applicable

def test_applicable_json_shape_on_a_trajectory():
    traj = TRAJ / "3_blocksworld_traj"
    res = run("applicable", IPC_BW, str(LEARN / "3_blocksworld_prob.pddl"), "--states", str(traj), "--format", "json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    d = load_domain(IPC_BW)
    p = load_problem(LEARN / "3_blocksworld_prob.pddl", d)
    states = read_trajectory(traj, d, p).states
    assert [x["state"] for x in out] == list(range(len(states)))
    assert all(set(x) == {"state", "applicable"} for x in out)
    assert [x["applicable"] for x in out] == [[str(a) for a in acts] for acts in applicable(d, p, states)]
    for x in out:
        assert x["applicable"] == sorted(x["applicable"]) and x["applicable"]
        assert all(a == a.lower() and a.startswith("(") and a.endswith(")") for a in x["applicable"])


def test_applicable_initial_state_json_and_table():
    res = run("applicable", DOM, PROB, "-f", "json")
    assert json.loads(res.stdout) == [{"state": 0, "applicable": ["(unstack b3 b1)"]}]
    res = run("applicable", DOM, PROB)
    assert res.exit_code == 0 and "1 applicable action(s)" in res.stdout and "(unstack b3 b1)" in res.stdout


def test_applicable_names_are_lower_case(tmp_path):
    (tmp_path / "d.pddl").write_text("""(DEFINE (DOMAIN Up) (:REQUIREMENTS :STRIPS :TYPING) (:TYPES Block)
      (:PREDICATES (Clear ?X - Block)) (:ACTION Take-It :PARAMETERS (?X - Block) :PRECONDITION (Clear ?X)
      :EFFECT (NOT (Clear ?X))))""")
    (tmp_path / "p.pddl").write_text("(define (problem p) (:domain Up) (:objects B2 A1 - Block) "
                                     "(:init (Clear B2) (Clear A1)) (:goal (and (not (Clear A1)))))")
    res = run("applicable", str(tmp_path / "d.pddl"), str(tmp_path / "p.pddl"), "-f", "json")
    assert json.loads(res.stdout) == [{"state": 0, "applicable": ["(take-it a1)", "(take-it b2)"]}]


def test_applicable_json_states_of_several_problems(tmp_path):
    """A JSON state file names its problems: all are answered in one grounding, in file order."""
    d = load_domain(IPC_BW)
    data, expected = {}, []
    for k in (5, 0):
        name = f"{k}_blocksworld_prob.pddl"
        shutil.copy(LEARN / name, tmp_path / name)
        p = load_problem(LEARN / name, d)
        states = read_trajectory(TRAJ / f"{k}_blocksworld_traj", d, p).states[:4]
        data[name] = [sorted(str(a) for a in s) for s in states]
        expected += applicable(d, p, states)
    (tmp_path / "states.json").write_text(json.dumps(data, indent=1))
    res = run("applicable", IPC_BW, str(LEARN / "0_blocksworld_prob.pddl"), "--states", str(tmp_path / "states.json"),
              "-f", "json")
    assert res.exit_code == 0, res.output
    assert [x["applicable"] for x in json.loads(res.stdout)] == [[str(a) for a in acts] for acts in expected]
    assert any("b6" in a for x in json.loads(res.stdout)[:4] for a in x["applicable"])  # problem 5 has 6 blocks


# -- validate

def test_validate_exit_codes(tmp_path):
    assert run("validate", DOM, PROB, PLAN).exit_code == 0
    steps = [x for x in (BW / "plan.txt").read_text().splitlines() if x.startswith("(")]
    swapped = tmp_path / "swapped.txt"
    swapped.write_text("\n".join([steps[0], steps[2], steps[1]] + steps[3:]))
    res = run("validate", DOM, PROB, str(swapped), "-f", "json")
    assert res.exit_code == 1
    out = json.loads(res.stdout)
    assert out["failed_step"] == 2 and out["failed_action"] == "(unstack b1 b2)" and not out["valid"]
    assert out["unmet_preconditions"] == ["(handempty)"]
    short = tmp_path / "short.txt"
    short.write_text("\n".join(steps[:-1]))
    res = run("validate", DOM, PROB, str(short))
    assert res.exit_code == 1 and "goal is not reached" in res.stdout and "(on b3 b2)" in res.stdout
    bad = tmp_path / "bad.txt"
    bad.write_text("(unstack b3 b9)\n")
    res = run("validate", DOM, PROB, str(bad))  # a line that cannot be read: the verdict unreadable (issue 32)
    assert res.exit_code == 1 and f"unreadable: step 1: {bad}:1:13: unknown object 'b9'" in " ".join(res.stdout.split())
    assert run("validate", DOM, PROB, str(tmp_path / "missing.txt")).exit_code == 2  # no plan file: bad input


def test_validate_subprocess_exit_codes(tmp_path):
    """The installed entry point (`python -m amlasp`) gives the same three codes."""
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"(fly b1)\x00\n")  # a plan line that cannot be read is a verdict: binary data is no plan
    short = tmp_path / "short.txt"
    short.write_text("(unstack b3 b1)\n")
    codes = [run_module("validate", DOM, PROB, plan).returncode for plan in (PLAN, short, bad)]
    assert codes == [0, 1, 2]


# -- step

def test_step_prints_each_state():
    res = run("step", DOM, PROB, "(unstack b3 b1)", "put_down b3")
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert lines == [
        "state 0: (clear b3) (handempty) (on b1 b2) (on b3 b1) (ontable b2)",
        "(unstack b3 b1) → state 1: (clear b1) (holding b3) (on b1 b2) (ontable b2)",
        "(put_down b3) → state 2: (clear b1) (clear b3) (handempty) (on b1 b2) (ontable b2) (ontable b3)",
    ]


def test_step_stops_at_an_inapplicable_action():
    res = run("step", DOM, PROB, "(unstack b3 b1)", "(stack b3 b3)", "(put_down b3)")
    assert res.exit_code == 1
    assert "step 2: (stack b3 b3) is not applicable; unmet: (clear b3)" in res.stdout
    assert "state 2" not in res.stdout
    res = run("step", DOM, PROB, "(unstack b3 b1)", "-f", "json")
    out = json.loads(res.stdout)
    assert out["states"][1] == ["(clear b1)", "(holding b3)", "(on b1 b2)", "(ontable b2)"]


# -- facts

QUERY = """
movable(X) :- app(m,0,pick_up(X)).
movable(X) :- app(m,0,unstack(X,_)).
next(F) :- holds(0,F), not del(m,0,unstack(b3,b1),F).
next(F) :- add(m,0,unstack(b3,b1),F).
#show movable/1. #show next/1. #show app/3.
"""


def clingo_answer(*files) -> set[str]:
    ctl = clingo.Control(["--warn=none"])
    for f in files:
        ctl.load(str(f))
    ctl.ground([("base", [])])
    answers = []
    ctl.solve(on_model=lambda m: answers.append({str(s) for s in m.symbols(shown=True)}))
    assert len(answers) == 1
    return answers[0]


def test_facts_file_runs_in_plain_clingo_with_a_custom_query(tmp_path):
    out = tmp_path / "bw.lp"
    res = run("facts", DOM, PROB, "-o", str(out))
    assert res.exit_code == 0 and res.stdout == "" and out.exists()
    (tmp_path / "query.lp").write_text(QUERY)
    got = clingo_answer(out, tmp_path / "query.lp")
    d = load_domain(DOM)
    p = load_problem(PROB, d)
    assert {s for s in got if s.startswith("movable")} == {"movable(b3)"}
    assert {s for s in got if s.startswith("app")} == {"app(m,0,unstack(b3,b1))"} == {
        f"app(m,0,{a.name}({','.join(a.args)}))" for a in applicable(d, p)[0]}
    successor = execute(d, p, [G("unstack", ("b3", "b1"))]).states[1]
    assert {s for s in got if s.startswith("next")} == {f"next({a.predicate}({','.join(a.args)}))" for a in successor}


def test_facts_with_states_and_plan_and_clingo_main(tmp_path):
    """`python -m clingo` (clingo's own main) reads the file too; states are numbered in file order."""
    out = tmp_path / "bw.lp"
    traj = TRAJ / "0_blocksworld_traj"
    res = run("facts", IPC_BW, str(LEARN / "0_blocksworld_prob.pddl"),
              "--states", str(traj), "--plan", PLAN, "-o", str(out))
    assert res.exit_code == 0, res.output
    (tmp_path / "q.lp").write_text("n(N) :- N = #count { S : state(S,_) }. steps(N) :- plan_length(N).\n"
                                   "#show n/1. #show steps/1.")
    proc = subprocess.run([sys.executable, "-m", "clingo", str(out), str(tmp_path / "q.lp")], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode in (0, 10), proc.stderr  # `python -m clingo` exits 0, a stand-alone clingo 10
    assert "SATISFIABLE" in proc.stdout
    assert "n(5)" in proc.stdout and "steps(8)" in proc.stdout


def test_facts_without_rules_has_only_schema_facts():
    res = run("facts", DOM, "--no-rules")
    assert res.exit_code == 0
    assert "action(m,stack,2)." in res.stdout and "pre(m,stack,pos,holding(v(1)))." in res.stdout
    assert ":-" not in res.stdout


@pytest.mark.parametrize("which", ["domain", "problem", "plan", "states"])
def test_facts_refuses_to_overwrite_an_input(tmp_path, which):
    files = {}
    for name, src in (("domain", BW / "domain.pddl"), ("problem", BW / "problem.pddl"), ("plan", BW / "plan.txt"),
                      ("states", TRAJ / "0_blocksworld_traj")):
        files[name] = tmp_path / src.name
        shutil.copy(src, files[name])
    if which == "states":  # a trajectory of the example problem
        files["states"].write_text("(:trajectory (:state (on b1 b2) (ontable b2) (on b3 b1) (clear b3) (handempty)))")
    before = {k: f.read_bytes() for k, f in files.items()}
    res = run("facts", str(files["domain"]), str(files["problem"]), "--plan", str(files["plan"]),
              "--states", str(files["states"]), "-o", str(files[which]))
    assert res.exit_code == 2 and "refusing to overwrite an input file" in res.stderr
    assert {k: f.read_bytes() for k, f in files.items()} == before


def test_facts_output_is_written_atomically_over_an_old_output(tmp_path):
    out = tmp_path / "old.lp"
    out.write_text("% an old export\n")
    assert run("facts", DOM, PROB, "-o", str(out)).exit_code == 0
    text = out.read_text()
    assert "an old export" not in text and "holds(0,on(b3,b1))." in text
    assert [p.name for p in tmp_path.iterdir()] == ["old.lp"]  # no temporary file left behind
    assert Atom("on", ("b3", "b1")) in load_problem(PROB, load_domain(DOM)).init
