"""Every example of issue 13 (hostile input), through the command line: what broke, and what it does now.

Each test builds the broken input from the correct files of tests/data/bad/ (a blocksworld
domain, problem and plan), runs the command a user would, and checks the exit code and the
one-line message: the faulty file, the line and column of the faulty token, and the words.
The fuzz corpus (tests/fuzz/) does the same for thousands of generated mutations.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.cli import run
from tests.support.paths import DATA, IPC, ROOT

BAD = DATA / "bad"
D, P, PLAN = (BAD / f for f in ("domain.pddl", "problem.pddl", "plan.txt"))
DOMAIN, PROBLEM = D.read_text(), P.read_text()


def write(tmp: Path, name: str, text: str | bytes) -> Path:
    f = tmp / name
    f.write_bytes(text) if isinstance(text, bytes) else f.write_text(text)
    return f


def error(result, file: Path | str, line: int, col: int, words: str) -> None:
    """Exit 2 and exactly one line `amlasp: error: FILE:LINE:COL: ...WORDS...`."""
    assert result.exit_code == 2, (result.exit_code, result.stderr, result.stdout)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, lines
    assert re.match(rf"amlasp: error: {re.escape(str(file))}:{line}:{col}: .*{words}", lines[0]), lines[0]


def unreadable(result, file: Path | str, line: int, col: int, words: str) -> None:
    """A plan line that cannot be read: the plan's verdict (issue 32), exit 1, `unreadable: step K: FILE:LINE:COL:
    ...WORDS...` on stdout, nothing on stderr."""
    assert result.exit_code == 1 and result.stderr == "", (result.exit_code, result.stderr, result.stdout)
    said = " ".join(result.stdout.split())
    assert re.match(rf"unreadable: step \d+: {re.escape(str(file))}:{line}:{col}: .*{words}", said), said


def position(text: str, needle: str, occurrence: int = 1) -> tuple[int, int]:
    """Line and column of the `occurrence`-th `needle` in `text` (the expected place of an error)."""
    i = -1
    for _ in range(occurrence):
        i = text.index(needle, i + 1)
    return text.count("\n", 0, i) + 1, i - (text.rfind("\n", 0, i) + 1) + 1


# --------------------------------------------------------------------------- internal errors and hangs

def test_deep_nesting_is_refused_with_the_limit_and_how_to_raise_it(tmp_path):
    deep = "(and " * 5000 + "(holding ?x)" + ")" * 5000
    dom = write(tmp_path, "d.pddl", DOMAIN.replace(":precondition (holding ?x)", ":precondition " + deep))
    line, col = position(dom.read_text(), "(and " * 100)
    r = run("validate", dom, P, PLAN)  # level 101: the 99th `(and`, inside `(define` and `(:action`
    error(r, dom, line, col + 5 * 98, r"nesting deeper than 100 levels \(set AMLASP_MAX_DEPTH to raise")
    states = write(tmp_path, "s.json", '{"problem.pddl": ' + "[" * 100000 + "]" * 100000 + "}")
    r = run("applicable", D, P, "--states", states)  # level 101: the 100th `[`, inside `{`
    error(r, states, 1, 18 + 99, "nesting deeper than 100 levels")
    plan = write(tmp_path, "plan.txt", "(pick-up a)\n" + "(" * 3000 + ")" * 3000 + "\n")
    unreadable(run("validate", D, P, plan), plan, 2, 101, "nesting deeper than 100 levels")


def test_a_raised_depth_limit_still_reads_deep_formulas(tmp_path, monkeypatch):
    """The walks are iterative: 1,000 nested `and`s are read when the limit allows it."""
    deep = "(and " * 1000 + "(holding ?x)" + ")" * 1000
    dom = write(tmp_path, "d.pddl", DOMAIN.replace(":precondition (holding ?x)", ":precondition " + deep))
    r = run("validate", dom, P, PLAN, env={"AMLASP_MAX_DEPTH": "2000"})
    assert r.exit_code == 0, r.stderr
    # beyond what the later stages (which recurse on formulas) take: still bad input, with what to do
    deep = "(not " * 2000 + "(holding ?x)" + ")" * 2000
    dom = write(tmp_path, "d.pddl", DOMAIN.replace(":precondition (holding ?x)", ":precondition " + deep))
    r = run("validate", dom, P, PLAN, env={"AMLASP_MAX_DEPTH": "5000"})
    error(r, dom, 16, 9014, "nesting too deep: a condition nests more than 200 levels .* keep AMLASP_MAX_DEPTH "
                            "\\(now 5000\\) below")


@pytest.mark.parametrize("role", ["domain", "problem", "plan", "states"])
def test_dev_zero_and_huge_files_are_refused_by_size(role, tmp_path):
    zero = "/dev/zero"
    args = {"domain": ["validate", zero, P, PLAN], "problem": ["validate", D, zero, PLAN],
            "plan": ["validate", D, P, zero], "states": ["applicable", D, P, "--states", zero]}[role]
    r = run(*args)
    assert r.exit_code == 2 and r.stderr.count("\n") == 1, r.stderr
    limit = "AMLASP_MAX_DOMAIN_MB" if role == "domain" else "AMLASP_MAX_INPUT_MB"
    assert "amlasp: error: /dev/zero: " in r.stderr and f"set {limit} to raise the limit" in r.stderr


def test_size_limits_are_configurable(tmp_path):
    plan = write(tmp_path, "plan.txt", PLAN.read_text() + "; padding\n" * 20000)  # ~200 KB
    assert run("validate", D, P, plan).exit_code == 0
    r = run("validate", D, P, plan, env={"AMLASP_MAX_INPUT_MB": "0.1"})
    assert r.exit_code == 2 and "file larger than 0.1 MB (set AMLASP_MAX_INPUT_MB" in r.stderr
    r = run("validate", D, P, plan, env={"AMLASP_MAX_INPUT_MB": "ten"})
    assert r.exit_code == 2 and "AMLASP_MAX_INPUT_MB must be a number, got 'ten'" in r.stderr


def test_a_generated_multi_megabyte_domain_is_refused_up_front(tmp_path):
    """The issue's 5 MB domain of 22,544 actions took 27 s of CPU for `facts` and 96 s (4.7 GB) for a
    failed `compare`; a domain beyond AMLASP_MAX_DOMAIN_MB (5 MB: every IPC domain file is below 4 MB)
    is refused before it is read."""
    actions = DOMAIN[DOMAIN.index("(:action"):DOMAIN.rindex(")")]
    def domain(n: int, name: str):
        copies = [actions.replace("(:action ", f"(:action v{k}-") for k in range(n)]
        return write(tmp_path, name, DOMAIN[:DOMAIN.index("(:action")] + "".join(copies) + ")\n")
    big = domain(10000, "big.pddl")
    assert big.stat().st_size > 5 * 1024 * 1024
    r = run("facts", big)
    assert r.exit_code == 2 and r.stderr == (f"amlasp: error: {big}: domain file larger than 5 MB "
                                             "(set AMLASP_MAX_DOMAIN_MB to raise the limit of 5 MB)\n")
    mid = domain(2000, "mid.pddl")  # over 1 MB, the default until issue 31 (IPC 2008's cybersec is 1.6 MB)
    assert mid.stat().st_size > 1024 * 1024
    assert run("facts", mid, "--no-rules").exit_code == 0
    assert run("facts", mid, "--no-rules", env={"AMLASP_MAX_DOMAIN_MB": "1"}).exit_code == 2


# --------------------------------------------------------------------------- rejections at the right place

def test_wrong_arity_is_reported_at_the_use_not_an_earlier_correct_one(tmp_path):
    text = DOMAIN.replace("(holding ?x)))\n  (:action put-down", "(holding ?x ?x)))\n  (:action put-down")
    dom = write(tmp_path, "d.pddl", text)
    line, col = position(text, "holding ?x ?x")
    error(run("validate", dom, P, PLAN), dom, line, col, r"predicate 'holding' takes 1 argument\(s\), 2 given")


def test_an_undeclared_type_in_a_problem_is_reported_at_the_type(tmp_path):
    text = PROBLEM.replace("(:objects a b - block)", "(:objects a\n     b - brick)")
    prob = write(tmp_path, "p.pddl", text)
    line, col = position(text, "brick")
    error(run("validate", D, prob, PLAN), prob, line, col, r"undeclared type 'brick' \(not in domain blocks")


def test_an_unbalanced_paren_in_a_plan_is_reported_on_its_own_line(tmp_path):
    plan = write(tmp_path, "plan.txt", "; plan\n(pick-up a)\n\n  ((stack a b)\n")
    unreadable(run("validate", D, P, plan), plan, 4, 3, r"missing '\)': this '\(' is never closed")
    plan = write(tmp_path, "plan.txt", "(pick-up a)\n(\n")
    unreadable(run("validate", D, P, plan), plan, 2, 1, "expected one action like")


def test_a_bad_json_literal_is_reported_at_its_own_line_and_column(tmp_path):
    """`(on a b)` is fine for problem.pddl but not for p1.pddl (no object b): the error is the second one,
    not the first place the text occurs."""
    shutil.copy(P, tmp_path / "problem.pddl")
    write(tmp_path, "p1.pddl", PROBLEM.replace("(:objects a b - block)", "(:objects a c - block)")
          .replace("(ontable b)", "(ontable c)").replace("(clear b)", "(clear c)").replace("(on a b)", "(on a c)"))
    text = '{\n "problem.pddl": [["(on a b)", "(clear a)"]],\n "p1.pddl": [["(clear a)",\n   "(on a b)"]]\n}\n'
    states = write(tmp_path, "s.json", text)
    error(run("applicable", D, P, "--states", states), states, 4, 11, "unknown object 'b'")


def test_an_undefined_predicate_in_a_problem_names_the_domain_too(tmp_path):
    prob = write(tmp_path, "p.pddl", PROBLEM.replace("(handempty)", "(hand-free)"))
    line, col = position(prob.read_text(), "hand-free")
    error(run("applicable", D, prob), prob, line, col,
          rf"undefined predicate 'hand-free' \(not declared in domain blocks, {re.escape(str(D))}\)")


def test_long_names_are_shortened_in_messages(tmp_path):
    long = "t" * 5000
    prob = write(tmp_path, "p.pddl", PROBLEM.replace("a b - block", f"a b - {long}"))
    r = run("applicable", D, prob)
    assert r.exit_code == 2 and len(r.stderr) < 250, r.stderr
    assert re.search(r"undeclared type 't{40}…\(5000 chars\)'", r.stderr), r.stderr


@pytest.mark.parametrize("where,old,new", [
    ("parameters", ":parameters (?x - block)\n    :precondition (holding", ":parameters (?x - (either block))\n"
                                                                          "    :precondition (holding"),
    ("predicates", "(clear ?x - block)", "(clear ?x - (either block))"),
])
def test_either_types_are_read(tmp_path, where, old, new):
    """Issue 21: `either` types are read (tests/pddl/test_either.py has their semantics)."""
    dom = write(tmp_path, "d.pddl", DOMAIN.replace(old, new, 1))
    r = run("validate", dom, P, PLAN)
    assert r.exit_code == 0 and "valid" in r.stdout, r.stderr


def test_an_either_parent_type_is_an_unsupported_feature(tmp_path):
    text = DOMAIN.replace("(:types block)", "(:types block - (either object))", 1)
    dom = write(tmp_path, "d.pddl", text)
    line, col = position(text, "(either")
    error(run("validate", dom, P, PLAN), dom, line, col, "unsupported feature: an either type as a parent in :types$")


def test_a_json_key_that_is_no_problem_file_is_reported_at_the_key(tmp_path):
    for key in ["", ".", "missing.pddl", "x" * 300, "a\\u0000b"]:
        states = write(tmp_path, "s.json", '{\n  "%s": [[]]\n}' % key)
        r = run("applicable", D, P, "--states", states)
        error(r, states, 2, 3, "not found in")
        assert "is a directory" not in r.stderr


def test_solve_names_the_files_when_the_planner_cannot_read_them():
    from amlasp.external.fast_downward import run_planner
    from amlasp.external.planner_task import PlannerTask
    r = run_planner(PlannerTask("(define (domain d))", "(define (problem p) (:domain d) (:objects )",
                                source="learned.pddl, p.pddl"), timeout=10)
    assert r.status == "invalid_model"
    assert r.detail == ("Fast Downward cannot read the model (learned.pddl, p.pddl): Error: Could not parse problem "
                        "file: the problem as given to it | Reason: Missing ')'")
    assert "line:" not in r.detail


# --------------------------------------------------------------------------- typing

TYPED = """(define (domain parking) (:requirements :strips :typing)
  (:types car curb - object)
  (:predicates (at ?c - car ?p - curb) (free ?p - curb))
  (:action park :parameters (?c - car ?p - curb)
    :precondition (free ?p) :effect (and (at ?c ?p) (not (free ?p)))))
"""
TYPED_PROBLEM = """(define (problem p) (:domain parking)
  (:objects car_0 - car curb_0 curb_1 - curb)
  (:init (free curb_0) (free curb_1))
  (:goal (and (at car_0 curb_0))))
"""


def test_problem_atoms_are_type_checked(tmp_path):
    dom = write(tmp_path, "d.pddl", TYPED)
    ok = write(tmp_path, "ok.pddl", TYPED_PROBLEM)
    assert run("applicable", dom, ok).exit_code == 0
    text = TYPED_PROBLEM.replace("(free curb_1)", "(free curb_1) (at curb_0 curb_1)")
    prob = write(tmp_path, "p.pddl", text)
    line, col = position(text, "curb_0 curb_1)")
    message = "object 'curb_0' has type 'curb', but argument 1 of predicate 'at' has type 'car'"
    for command in (["applicable"], ["facts"], ["plan"], ["step", "(park car_0 curb_0)"]):
        error(run(command[0], dom, prob, *command[1:]), prob, line, col, re.escape(message))


def test_plan_and_trajectory_actions_are_type_checked(tmp_path):
    dom = write(tmp_path, "d.pddl", TYPED)
    prob = write(tmp_path, "p.pddl", TYPED_PROBLEM)
    plan = write(tmp_path, "plan.txt", "(park curb_1 curb_0)\n")
    message = "object 'curb_1' has type 'curb', but parameter 1 of action 'park' has type 'car'"
    r = run("validate", dom, prob, plan)  # a plan: the step is not applicable, its type unmet (as VAL: invalid)
    assert r.exit_code == 1 and "step 1, (park curb_1 curb_0), is not applicable" in r.stdout, r.output
    assert "unmet precondition: curb_1 - car" in r.stdout
    error(run("step", dom, prob, "(park curb_1 curb_0)"), "<command line>", 1, 7, re.escape(message))
    traj = write(tmp_path, "t_traj", "(:trajectory\n(:state (free curb_0) (free curb_1))\n"
                                     "(:action (park curb_1 curb_0))\n(:state (free curb_1))\n)\n")
    error(run("applicable", dom, prob, "--states", traj), traj, 3, 16, re.escape(message))
    traj = write(tmp_path, "t_traj", "(:trajectory\n(:state (free curb_0) (free car_0))\n)\n")
    error(run("applicable", dom, prob, "--states", traj), traj, 2, 29,
          re.escape("object 'car_0' has type 'car', but argument 1 of predicate 'free' has type 'curb'"))
    error(run("reach", dom, prob, "(free car_0)"), "<command line>", 1, 7, "object 'car_0' has type 'car'")


# --------------------------------------------------------------------------- valid input accepted

def _same_validation(tmp_path, domain_text: str, problem_text: str = PROBLEM, plan_text: str | None = None):
    dom = write(tmp_path, "d.pddl", domain_text.encode() if isinstance(domain_text, str) else domain_text)
    prob = write(tmp_path, "p.pddl", problem_text)
    plan = write(tmp_path, "plan.txt", plan_text if plan_text is not None else PLAN.read_text())
    r = run("validate", dom, prob, plan, "-f", "json")
    assert r.exit_code == 0, r.stderr
    return json.loads(r.stdout)


def test_empty_conjunctions_are_accepted_as_preconditions_and_effects(tmp_path):
    want = json.loads(run("validate", D, P, PLAN, "-f", "json").stdout)
    for old, new in [(":precondition (holding ?x)", ":precondition (and (holding ?x) (and))"),
                     ("(ontable ?x)))\n  (:action stack", "(ontable ?x) (and)))\n  (:action stack"),
                     ("(handempty) (holding ?x)))", "(handempty) (and (and) (holding ?x))))")]:
        assert _same_validation(tmp_path, DOMAIN.replace(old, new)) == want
    text = DOMAIN.replace(":precondition (and (clear ?x) (ontable ?x) (handempty))", ":precondition (and)")
    dom = write(tmp_path, "d.pddl", text)
    assert run("applicable", dom, P, "-f", "json").exit_code == 0


@pytest.mark.parametrize("variant", ["bom", "cr", "crlf", "bom+cr"])
def test_bom_and_any_line_endings_are_accepted(tmp_path, variant):
    def encode(text: str) -> bytes:
        if "cr" in variant:
            text = text.replace("\n", "\r" if variant.endswith("cr") else "\r\n")
        return (b"\xef\xbb\xbf" if variant.startswith("bom") else b"") + text.encode()
    want = json.loads(run("validate", D, P, PLAN, "-f", "json").stdout)
    dom, prob, plan = (write(tmp_path, n, encode(f.read_text())) for n, f in
                       (("d.pddl", D), ("p.pddl", P), ("plan.txt", PLAN)))
    r = run("validate", dom, prob, plan, "-f", "json")
    assert r.exit_code == 0 and json.loads(r.stdout) == want, r.stderr
    # positions are the ones an editor shows, whatever the line endings
    bad = write(tmp_path, "bad.txt", encode("; plan\n(pick-up a)\n(stack a zz)\n"))
    unreadable(run("validate", dom, prob, bad), bad, 3, 10, "unknown object 'zz'")


def test_requirements_and_names_that_crashed_the_reader(tmp_path):
    dom = write(tmp_path, "d.pddl", DOMAIN.replace("(:requirements :strips :typing)", "(:requirements ())"))
    line, col = position(dom.read_text(), "())")
    error(run("validate", dom, P, PLAN), dom, line, col, "expected a requirement like :strips")
    # `clean?x` is `clean ?x`, as the pddl package reads it (it was a KeyError)
    text = DOMAIN.replace("(clear ?x - block)", "(clear?x - block)")
    assert _same_validation(tmp_path, text) == json.loads(run("validate", D, P, PLAN, "-f", "json").stdout)


# --------------------------------------------------------------------------- silently dropped

def test_duplicate_json_keys_are_refused(tmp_path):
    shutil.copy(P, tmp_path / "problem.pddl")
    states = write(tmp_path, "s.json", '{"problem.pddl": [["(clear a)"]],\n "problem.pddl": [["(clear b)"]]}')
    error(run("applicable", D, P, "--states", states), states, 2, 2, "duplicate key 'problem.pddl'")


def test_two_states_without_an_action_between_them_are_refused(tmp_path):
    traj = write(tmp_path, "t_traj", "(:trajectory\n(:state (clear a))\n(:state (clear b))\n)\n")
    error(run("applicable", D, P, "--states", traj), traj, 3, 1, "two states without an action between them")
    traj = write(tmp_path, "t_traj", "(:trajectory\n(:state (clear a))\n(:action (pick-up a))\n)\n")
    error(run("applicable", D, P, "--states", traj), traj, 4, 1, "ends with an action")


# --------------------------------------------------------------------------- facts

@pytest.mark.parametrize("tag", ['"', "M", "not", "a b", "x).", "1a", ""])
def test_facts_tag_is_validated(tag):
    r = run("facts", D, P, "--tag", tag)
    assert r.exit_code == 2 and "is not a valid model tag" in r.stderr and r.stdout == ""


def test_facts_accepts_a_valid_tag_and_clingo_reads_the_program():
    import clingo
    r = run("facts", D, P, "--tag", "learned_1")
    assert r.exit_code == 0
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], r.stdout)
    ctl.ground([("base", [])])
    assert [str(a.symbol) for a in ctl.symbolic_atoms.by_signature("model", 1)] == ["model(learned_1)"]


def _amlasp(*args: str, seed: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "amlasp", *args], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=300)


def test_facts_is_deterministic_across_hash_seeds():
    traj = IPC / "trajectories" / "learning" / "depots" / "0_depots_traj"
    args = ["facts", str(IPC / "domains" / "depots.pddl"), str(IPC / "problems" / "learning" / "depots" /
                                                               "0_depots_prob.pddl"), "--states", str(traj)]
    outs = {_amlasp(*args, seed=s).stdout for s in ("1", "2", "3")}
    assert len(outs) == 1 and len(outs.pop()) > 10000
