"""The reasoning commands as a user runs them: exit codes, JSON shapes, messages, bad input.

plan 0 plan / 1 none; reach 0 yes / 1 no / 3 unknown; justify 0 well-justified / 1 not;
landmarks --check 0 landmark / 1 not proven; diff 0 no disagreement / 1 found; bad input 2.
"""

from __future__ import annotations

import json

from amlasp.model import GroundAction
from amlasp.pddl.parse import load_domain, load_problem
from amlasp.reasoning.engine import execute
from tests.support.cli import run
from tests.support.examples import BLOCKSWORLD, BLOCKSWORLD4
from tests.support.paths import EXAMPLES

BW = EXAMPLES / "blocksworld"
DOM, PROB = BLOCKSWORLD.domain_file, BLOCKSWORLD.problem_file
PLAN, LEARNED = (str(BW / f) for f in ("plan.txt", "learned.pddl"))
BW4 = BLOCKSWORLD4.problem_file


def test_plan_json_is_a_validated_shortest_plan():
    res = run("plan", DOM, PROB, "--format", "json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["status"] == "plan" and out["length"] == 8 == BLOCKSWORLD.optimal and len(out["plans"]) == 1
    d = load_domain(DOM)
    p = load_problem(PROB, d)
    steps = [GroundAction(x.strip("()").split()[0], tuple(x.strip("()").split()[1:])) for x in out["plans"][0]]
    assert execute(d, p, steps).valid


def test_plan_all_top_and_no_plan():
    every = json.loads(run("plan", DOM, PROB, "--all", "-f", "json").stdout)
    top = json.loads(run("plan", DOM, PROB, "--top", "2", "-f", "json").stdout)
    assert len(top["plans"]) == min(2, len(every["plans"]))
    assert all(p in every["plans"] for p in top["plans"])
    short = run("plan", DOM, PROB, "--max-steps", "3", "--prover", "asp")
    assert short.exit_code == 1 and "no plan up to 3 steps (not proven unsolvable)" in short.output
    # Fast Downward proves the length: the shortest is longer than the bound
    short = run("plan", DOM, PROB, "--max-steps", "3", "--prover", "fd")
    assert short.exit_code == 1 and "no plan up to 3 steps: the shortest has 8" in short.output


def test_reach_exit_codes():
    yes = run("reach", DOM, PROB, "(on b2 b1)", "-f", "json")
    assert yes.exit_code == 0 and json.loads(yes.stdout)["witness"]
    no = run("reach", DOM, PROB, "(on b1 b1)")
    assert no.exit_code == 1 and "never holds" in no.output
    unknown = run("reach", DOM, PROB, "(on b3 b2)", "(on b2 b1)", "--max-steps", "2")
    assert unknown.exit_code == 3 and "unknown up to 2 steps" in unknown.output
    action = run("reach", DOM, PROB, "--action", "(stack b3 b3)")
    assert action.exit_code == 1 and "never" in action.output
    state = run("reach", DOM, PROB, "(holding b1)", "--state", "(clear b1) (ontable b1) (handempty)")
    assert state.exit_code == 0 and "witness of 1 step" in state.output


def test_justify_exit_codes(tmp_path):
    assert run("justify", DOM, PROB, PLAN).exit_code == 0
    steps = [x for x in open(PLAN).read().splitlines() if x.startswith("(")]
    detour = tmp_path / "detour.txt"
    detour.write_text("\n".join(steps[:2] + ["(pick_up b3)", "(put_down b3)"] + steps[2:]) + "\n")
    res = run("justify", DOM, PROB, str(detour), "-f", "json")
    assert res.exit_code == 1
    out = json.loads(res.stdout)
    assert out["valid"] and not out["well_justified"]
    assert {"step": 3, "actions": ["(pick_up b3)", "(put_down b3)"]} in out["removable_pairs"]


def test_landmarks_check_and_table():
    assert run("landmarks", DOM, PROB, "--check", "(holding b2)").exit_code == 0
    res = run("landmarks", DOM, PROB, "-f", "json")
    assert res.exit_code == 0
    kinds = {x["kind"] for x in json.loads(res.stdout)["landmarks"]}
    assert kinds <= {"initial", "goal", "relaxed"} and "goal" in kinds


def test_diff_exit_codes_and_table(tmp_path):
    same = run("diff", LEARNED, DOM, PROB, BW4)
    assert same.exit_code == 0 and same.output.count("equivalent on the whole reachable space") == 2
    broken = tmp_path / "broken.pddl"  # stack without (clear ?y)
    broken.write_text(open(DOM).read().replace(":precondition (and (holding ?x) (clear ?y))",
                                               ":precondition (holding ?x)"))
    assert broken.read_text() != open(DOM).read()
    res = run("diff", str(broken), DOM, PROB, BW4)
    assert res.exit_code == 1 and "disagreements per action" in res.output and "stack" in res.output
    out = json.loads(run("diff", str(broken), DOM, PROB, "-f", "json").stdout)
    cx = out[0]["counterexample"]
    assert cx["kind"] == "only_learned" and cx["action"].startswith("(stack") and cx["unmet"]


def test_bad_input_is_one_line_exit_2(tmp_path):
    bad = tmp_path / "bad.pddl"
    bad.write_text("(define (domain x)\n  (:action a :parameters (?x) :precondition (p ?x)))\n")
    for args in (("plan", str(bad), PROB), ("reach", DOM, PROB, "(on b1 nowhere)"), ("landmarks", DOM, PROB,
                 "--check", "(flying b1)"), ("justify", DOM, PROB, str(bad)), ("diff", str(bad), DOM, PROB)):
        res = run(*args)
        assert res.exit_code == 2, (args, res.output)
        assert len(res.output.strip().splitlines()) == 1 and "Traceback" not in res.output


def test_plan_and_validate_with_action_costs(tmp_path):
    """Issue 21 on the command line: plan says the cheapest plan's cost and who proved it; validate
    reports the cost of that plan; a bad --prover is refused as usage."""
    from tests.support.paths import DATA
    d, p = DATA / "costs" / "transport" / "domain.pddl", DATA / "costs" / "transport" / "small-2.pddl"
    out = run("plan", d, p, "--prover", "clingo", "-f", "json")
    assert out.exit_code == 0, out.output
    answer = json.loads(out.stdout)
    assert (answer["cost"], answer["cost_optimal"], answer["optimality"]) == (7, True, "clingo")
    plan = tmp_path / "plan.txt"
    plan.write_text("\n".join(answer["plans"][0]) + "\n")
    out = run("validate", d, p, plan, "-f", "json")
    assert out.exit_code == 0 and json.loads(out.stdout)["cost"] == 7
    out = run("validate", d, p, plan)
    assert "cost 7" in out.stdout
    assert run("plan", d, p, "--prover", "gurobi").exit_code == 2


def test_plan_and_reach_say_which_prover_answered():
    """Issue 33: --prover asp|fd|auto on plan and reach, auto (Fast Downward, installed here) the default;
    the JSON key `prover` and the text name who proved the answer; the names before (clingo) still read."""
    by = {k: json.loads(run("plan", DOM, PROB, "--prover", k, "-f", "json").stdout) for k in ("auto", "asp", "fd")}
    assert [by[k]["prover"] for k in ("auto", "asp", "fd")] == ["fd", "asp", "fd"]
    assert len({by[k]["length"] for k in by}) == 1
    assert json.loads(run("plan", DOM, PROB, "--prover", "clingo", "-f", "json").stdout)["prover"] == "asp"
    assert "proven shortest by Fast Downward's A*" in run("plan", DOM, PROB).stdout
    assert "proven shortest by clingo" in run("plan", DOM, PROB, "--prover", "asp").stdout
    both = json.loads(run("plan", DOM, PROB, "--top", "2", "-f", "json").stdout)
    assert both["prover"] == "asp + fd"
    yes = run("reach", DOM, PROB, "(on b2 b1)", "--prover", "asp")
    assert yes.exit_code == 0 and "(by clingo)" in yes.stdout
    assert json.loads(run("reach", DOM, PROB, "(on b2 b1)", "-f", "json").stdout)["prover"] == "fd"
    assert run("reach", DOM, PROB, "(on b2 b1)", "--prover", "gurobi").exit_code == 2
