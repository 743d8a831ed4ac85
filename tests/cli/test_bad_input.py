"""Bad input through the real command line: exit 2, one line `file:LINE:COL: message`, no traceback.

tests/data/bad/ holds a correct domain, problem and plan (domain.pddl, problem.pddl, plan.txt)
and copies of them broken in one place each; every case names the file, the line and the
column of the faulty token (checked by eye against the file), and the words a user needs.
A few cases run `python -m amlasp` in a subprocess to show that nothing else reaches stderr;
the rest use typer's CliRunner (same code, faster).
"""

from __future__ import annotations

import re

import pytest

from amlasp.errors import InputError
from tests.support.cli import run, run_module
from tests.support.paths import DATA

BAD = DATA / "bad"
D, P, PLAN = (str(BAD / f) for f in ("domain.pddl", "problem.pddl", "plan.txt"))


def bad(name: str) -> str:
    return str(BAD / name)


# id: (command line, file named in the error, line, column, words of the message)
CASES = {
    "missing-paren-domain": (["validate", bad("missing-paren-domain.pddl"), P, PLAN],
                             "missing-paren-domain.pddl", 20, 19, "missing '\\)'.*before ':effect' on line 21"),
    "missing-paren-problem": (["validate", D, bad("missing-paren-problem.pddl"), PLAN],
                              "missing-paren-problem.pddl", 5, 3, "missing '\\)'.*before '\\(:goal' on line 8"),
    "unknown-predicate-domain": (["validate", bad("unknown-predicate-domain.pddl"), P, PLAN],
                                 "unknown-predicate-domain.pddl", 12, 36, "undefined predicate 'on-table'"),
    "unknown-predicate-problem": (["validate", D, bad("unknown-predicate-problem.pddl"), PLAN],
                                  "unknown-predicate-problem.pddl", 6, 21, "undefined predicate 'free'"),
    "wrong-arity-domain": (["validate", bad("wrong-arity-domain.pddl"), P, PLAN],
                           "wrong-arity-domain.pddl", 17, 61, "'ontable' takes 1 argument\\(s\\), 2 given"),
    "wrong-arity-problem": (["validate", D, bad("wrong-arity-problem.pddl"), PLAN],
                            "wrong-arity-problem.pddl", 6, 11, "'clear' takes 1 argument\\(s\\), 2 given"),
    "unknown-object-problem": (["validate", D, bad("unknown-object-problem.pddl"), PLAN],
                               "unknown-object-problem.pddl", 6, 27, "unknown object 'c'"),
    "unknown-object-trajectory": (["applicable", D, P, "--states", bad("trajectory-unknown-object")],
                                  "trajectory-unknown-object", 4, 40, "unknown object 'z'"),
    "undeclared-type-domain": (["validate", bad("undeclared-type-domain.pddl"), P, PLAN],
                               "undeclared-type-domain.pddl", 19, 34, "undeclared type 'blok'$"),
    "undeclared-type-problem": (["validate", D, bad("undeclared-type-problem.pddl"), PLAN],
                                "undeclared-type-problem.pddl", 4, 19, "undeclared type 'brick'"),
    "empty-domain": (["validate", bad("empty.pddl"), P, PLAN], "empty.pddl", 1, 1, "empty file"),
    "empty-problem": (["applicable", D, bad("empty.pddl")], "empty.pddl", 1, 1, "empty file"),
    "comments-only": (["applicable", bad("comments-only.pddl"), P], "comments-only.pddl", 1, 1, "empty file"),
    "garbage-domain": (["validate", bad("garbage.pddl"), P, PLAN], "garbage.pddl", 1, 1, "binary data"),
    "garbage-plan": (["validate", D, P, bad("garbage.pddl")], "garbage.pddl", 1, 1, "binary data"),
    "domain-as-problem": (["validate", D, D, PLAN], "domain.pddl", 2, 9, "this is a domain file, expected a problem"),
    "problem-as-domain": (["applicable", P, P], "problem.pddl", 2, 9, "this is a problem file, expected a domain"),
    "numeric-domain": (["validate", bad("numeric-domain.pddl"), P, PLAN],
                       "numeric-domain.pddl", 10, 3, "unsupported feature: numeric fluents"),
    "numeric-problem": (["validate", D, bad("numeric-problem.pddl"), PLAN],
                        "numeric-problem.pddl", 8, 10, "unsupported feature: numeric fluents"),
    "same-symbol-domain": (["validate", bad("same-symbol-domain.pddl"), P, PLAN], "same-symbol-domain.pddl", 10, 17,
                           "predicate 'hand_empty' and predicate 'hand-empty' differ only in case or -/_"),
    "same-symbol-problem": (["validate", D, bad("same-symbol-problem.pddl"), PLAN], "same-symbol-problem.pddl", 4, 21,
                            "object 'b_2' and object 'b-2' differ only in case or -/_"),
    "step-unknown-action": (["step", D, P, "(pick-up a)", "(fly a)"], "<command line>", 1, 2, "unknown action 'fly'"),
}
SUBPROCESS = {"missing-paren-domain", "garbage-domain", "empty-problem",
              "numeric-domain", "domain-as-problem"}


def check(rc: int, stderr: str, file: str, line: int, col: int, words: str) -> None:
    assert rc == 2, stderr
    assert "Traceback" not in stderr
    lines = stderr.splitlines()
    assert len(lines) == 1, lines
    path = file if file.startswith("<") else str(BAD / file)
    assert re.match(rf"amlasp: error: {re.escape(path)}:{line}:{col}: .*{words}", lines[0]), lines[0]


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_input_is_one_line_with_file_line_and_column(case):
    args, file, line, col, words = CASES[case]
    if case in SUBPROCESS:
        proc = run_module(*args)
        check(proc.returncode, proc.stderr, file, line, col, words)
    else:
        result = run(*args)
        assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
        check(result.exit_code, result.stderr, file, line, col, words)


#: A plan line that cannot be read is no bad input but the plan's verdict, `unreadable` (exit 1), as in a batch
#: (issue 32): file, step, the line's place, the words of its error.
UNREADABLE = {
    "unknown-object-plan": ("unknown-object-plan.txt", 2, 2, 10, "unknown object 'c'"),
    "unknown-action-plan": ("unknown-action-plan.txt", 2, 3, 2, "unknown action 'place'"),
    "wrong-arity-plan": ("wrong-arity-plan.txt", 2, 3, 2, "'stack' takes 2 argument\\(s\\), 1 given"),
    "not-a-plan": ("not-a-plan.txt", 2, 2, 1, "one action like"),
}


@pytest.mark.parametrize("case", sorted(UNREADABLE))
def test_a_plan_line_that_cannot_be_read_is_the_verdict_unreadable(case):
    file, step, line, col, words = UNREADABLE[case]
    proc = run_module("validate", D, P, bad(file))
    assert proc.returncode == 1 and proc.stderr == "", proc.stderr
    said = " ".join(proc.stdout.split())  # as one line, however the terminal wrapped it
    assert re.match(rf"unreadable: step {step}: {re.escape(bad(file))}:{line}:{col}: .*{words}", said), said


def test_the_unbroken_originals_are_valid():
    """Each bad file differs from these in one place: they must pass, or the cases prove nothing."""
    result = run("validate", D, P, PLAN)
    assert result.exit_code == 0, result.output
    for name in ["missing-paren-domain.pddl", "unknown-predicate-domain.pddl", "wrong-arity-domain.pddl",
                 "undeclared-type-domain.pddl", "numeric-domain.pddl", "same-symbol-domain.pddl"]:
        assert _differs_in_one_place(BAD / name, BAD / "domain.pddl")
    for name in ["missing-paren-problem.pddl", "unknown-predicate-problem.pddl", "wrong-arity-problem.pddl",
                 "unknown-object-problem.pddl", "undeclared-type-problem.pddl", "numeric-problem.pddl",
                 "same-symbol-problem.pddl"]:
        assert _differs_in_one_place(BAD / name, BAD / "problem.pddl")


def _differs_in_one_place(a, b) -> bool:
    x, y = a.read_text().splitlines(), b.read_text().splitlines()
    import difflib
    changed = [op for op in difflib.SequenceMatcher(None, x, y).get_opcodes() if op[0] != "equal"]
    return len(changed) == 1


def test_missing_file_and_directory():
    result = run("applicable", D, bad("no-such-file.pddl"))
    assert result.exit_code == 2 and "no-such-file.pddl: no such file" in result.stderr
    result = run("applicable", D, BAD)
    assert result.exit_code == 2 and "is a directory" in result.stderr


def test_a_bad_domain_does_not_spoil_the_next_one(monkeypatch):
    """Our own checks refuse a `when` in a precondition first: switched off here, the conversion's own
    check still refuses it at its token, and the next domain is read as if nothing had happened."""
    from amlasp.pddl import formulas
    from amlasp.pddl.parse import parse_domain
    monkeypatch.setattr(formulas, "check_actions", lambda actions, vocab: None)
    good = (BAD / "domain.pddl").read_text()
    broken = good.replace(":precondition (holding ?x)", ":precondition (when (holding ?x) (clear ?x))", 1)
    with pytest.raises(InputError, match=r"^broken.pddl:16:19: undefined predicate 'when'$"):
        parse_domain(broken, "broken.pddl")
    assert parse_domain(good, "domain.pddl").name == "blocks"
