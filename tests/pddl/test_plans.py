"""amlasp/pddl/plans.py: a plan is read as far as it goes (issue 32, item 1). The empty text is the empty plan,
as VAL and the benchmarks read it; a line that cannot be read stops the reading with its located error, and
the steps before it are kept, so that they are executed (tests/cli/test_plan_reading.py: the verdicts)."""

from __future__ import annotations

import pytest

from amlasp.errors import InputError
from amlasp.pddl.parse import load_domain, load_problem
from amlasp.pddl.plans import load_plan, parse_plan, read_plan_text
from tests.support.paths import EXAMPLES

EX = EXAMPLES / "blocksworld"
D = load_domain(EX / "domain.pddl")
P = load_problem(EX / "problem.pddl", D)


@pytest.mark.parametrize("text", ["", "\n\n", "   \n", "; no plan found\n", "; empty\n\n; still empty"])
def test_a_text_without_an_action_is_the_empty_plan(text):
    reading = read_plan_text(text, D, P, "x.plan")
    assert reading.steps == () and reading.error is None and reading.step is None
    assert parse_plan(text, D, P) == []


def test_an_empty_file_is_the_empty_plan(tmp_path):
    (tmp_path / "empty.plan").write_text("")
    assert load_plan(tmp_path / "empty.plan", D, P).steps == ()


@pytest.mark.parametrize("text,steps,line,col,words", [
    ("(unstack b3 b1)\n(put_down b3)\nfoo bar\n(unstack b1 b2)\n", 2, 3, 1, "expected one action like"),
    ("; plan\n(unstack b3 b1)\n\n(fly b3)\n", 1, 4, 2, "unknown action 'fly'"),
    ("(unstack b3 b9)\n", 0, 1, 13, "unknown object 'b9'"),
    ("(put_down b3)\n(stack b3)\n", 1, 2, 2, "action 'stack' takes 2 argument(s), 1 given"),
    ("no plan is possible\n", 0, 1, 1, "got 'no plan is possible'"),
])
def test_reading_stops_at_the_first_line_that_cannot_be_read_and_keeps_the_steps_before(text, steps, line, col, words):
    reading = read_plan_text(text, D, P, "x.plan")
    assert len(reading.steps) == steps and reading.step == steps + 1
    assert (reading.error.file, reading.error.line, reading.error.col) == ("x.plan", line, col)
    assert words in reading.error.message
    with pytest.raises(InputError, match=f"^x.plan:{line}:{col}: "):  # the readers that need a whole plan
        parse_plan(text, D, P, "x.plan")


def test_a_file_that_cannot_be_read_at_all_is_an_error_not_a_reading(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        load_plan(tmp_path / "missing.plan", D, P)
    (tmp_path / "binary.plan").write_bytes(b"(unstack b3 b1)\n\x00\x01")
    with pytest.raises(InputError, match="binary data"):
        load_plan(tmp_path / "binary.plan", D, P)


def test_strict_reading_repairs_nothing():
    """The default reads the IPC format only (a step number `0:` and a duration `[1]` are the format's)."""
    reading = read_plan_text("0: (unstack b3 b1) [1]\n1. (put_down b3)\n", D, P, "x.plan")
    assert len(reading.steps) == 1 and reading.repairs == () and reading.error.line == 2
