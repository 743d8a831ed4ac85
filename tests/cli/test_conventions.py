"""CLI conventions (issue 10): --version, shell completion, every --help ends with real examples
that run, choices listed from their Enums, option types rendered as Typer documents them (PATH,
INTEGER, a flag without a type), and `plan --top` saying how many plans it was asked for."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from amlasp import __version__
from amlasp.choices import ANSWER_FORMATS, RESULT_FORMATS
from amlasp.cli import COMMANDS
from amlasp.metrics.solve import PlannerConfig
from tests.support.cli import run, run_module
from tests.support.paths import EXAMPLES, ROOT

BW = EXAMPLES / "blocksworld"
GROUPS = {"gen": ["trajectories"], "bench": ["run", "report"], "questions": ["generate", "grade"],
          "server": ["start", "status", "stop"]}  # in this order, the examples run: a server started is stopped
ALL = [[c] for c in COMMANDS if c not in GROUPS] + [[g, c] for g, cs in GROUPS.items() for c in cs]


def help_text(*command: str) -> str:
    r = run(*command, "--help", env={"COLUMNS": "100", "TERM": "dumb"})
    assert r.exit_code == 0, r.output
    return r.stdout


def test_version():
    p = run_module("--version")
    assert p.returncode == 0 and p.stdout == f"amlasp {__version__}\n"


def test_shell_completion_is_offered_and_completes():
    top = help_text()
    assert "--install-completion" in top and "--show-completion" in top
    env = dict(os.environ, _AMLASP_COMPLETE="complete_bash", COMP_CWORD="5",
               COMP_WORDS=f"amlasp compare {BW}/learned.pddl {BW}/domain.pddl -f ")
    p = subprocess.run([sys.executable, "-m", "amlasp"], env=env, capture_output=True, text=True, timeout=60)
    assert p.stdout.split() == [f.value for f in RESULT_FORMATS]
    env.update(COMP_CWORD="1", COMP_WORDS="amlasp comp")
    p = subprocess.run([sys.executable, "-m", "amlasp"], env=env, capture_output=True, text=True, timeout=60)
    assert p.stdout.split() == ["compare"]


def _examples(text: str) -> list[str]:
    """The calls under the closing `Examples:` of a --help text (a long one continued onto several lines)."""
    tail = text[text.rindex("Examples:") + len("Examples:"):]
    calls: list[str] = []
    for line in (x.strip() for x in tail.splitlines()):
        if line.startswith("amlasp ") and not (calls and calls[-1].endswith(" \\")):
            calls.append(line)
        elif line and calls:
            calls[-1] = calls[-1].removesuffix(" \\") + " " + line
    calls = [c.removesuffix(" \\") for c in calls]
    return calls


@pytest.mark.parametrize("command", ALL, ids=" ".join)
def test_every_help_ends_with_one_or_two_examples_of_itself(command):
    text = help_text(*command)
    assert "Examples:" in text and not text[text.rindex("Examples:"):].count("╭")  # the last section
    calls = _examples(text)
    itself = "amlasp " + " ".join(command)
    assert 1 <= len(calls) <= 2 and all(c == itself or c.startswith(itself + " ") for c in calls), calls


def test_top_level_help_lists_every_command_and_an_example():
    text = help_text()
    for name in COMMANDS:
        assert re.search(rf"│ {name}\s", text), name
    assert _examples(text)


@pytest.mark.parametrize("command", ALL, ids=" ".join)
def test_help_renders_types_as_typer_documents_them(command):
    text = help_text(*command)
    for bad in ("<bool>", "<path>", "<int>", "<str>", "<float>", "list["):
        assert bad not in text, bad
    assert not re.search(r"\{[a-z_]+\}", text)  # an argument as {name} (typer 0.27+)
    usage = next(x for x in text.splitlines() if "Usage:" in x)
    assert re.fullmatch(r"\s*Usage: \S+ [a-z ]*\[OPTIONS\]( \[?[A-Z_]+\]?(\.\.\.)?)*\s*", usage), usage


def test_choices_are_listed_from_their_enums():
    assert "[" + "|".join(f.value for f in RESULT_FORMATS) + "]" in help_text("compare")
    assert "[" + "|".join(f.value for f in ANSWER_FORMATS) + "]" in help_text("plan")
    assert "[" + "|".join(c.value for c in PlannerConfig) + "]" in help_text("solve")
    from amlasp.experiments.bench import Executor
    bench = help_text("bench", "run")
    assert "[" + "|".join(e.value for e in Executor) + "]" in bench
    assert "[" + "|".join(c.value for c in PlannerConfig) + "]" in bench
    # the value is still checked by the Enum, with the one message of every option
    r = run("compare", BW / "learned.pddl", BW / "domain.pddl", "-f", "yaml")
    assert r.exit_code == 2 and "unknown --format 'yaml' (choose from table, json, csv, markdown, latex)" in r.stderr


def test_the_examples_run(tmp_path):
    """Every example of every --help, run from a directory that holds the shipped data (as a clone's root)."""
    for name in ("examples", "benchmarks"):
        (tmp_path / name).symlink_to(ROOT / name)
    calls = [c for command in ALL for c in _examples(help_text(*command))]  # bench run before bench report
    calls += _examples(help_text())
    assert len(calls) >= 20
    for call in calls:
        args = shlex.split(call)[1:]
        p = subprocess.run([sys.executable, "-m", "amlasp", *args], cwd=tmp_path, capture_output=True, text=True,
                           timeout=600, env=dict(os.environ, PYTHONPATH=os.environ.get("PYTHONPATH", str(ROOT))))
        assert p.returncode in (0, 1), f"{call}: {p.stderr}"  # 1: a negative answer (diff finds a disagreement)


@pytest.mark.parametrize("args,first", [
    (["--top", "3"], "1 shortest plan of length 8 (3 asked; there is no other of length 8)"),
    (["--top", "1"], "a shortest plan, of length 8"),
    (["--all"], "the only shortest plan, of length 8"),
])
def test_plan_says_how_many_it_was_asked_for(args, first):
    r = run("plan", BW / "domain.pddl", BW / "problem.pddl", *args)
    assert r.exit_code == 0 and r.stdout.splitlines()[0].startswith(f"{first} (validated")


def test_several_plans_found_and_more_may_exist():
    ferry = ROOT / "benchmarks" / "ipc"
    r = run("plan", ferry / "domains" / "ferry.pddl", ferry / "problems" / "solving" / "ferry" / "0_ferry_prob.pddl",
            "--top", "2")
    head = r.stdout.splitlines()[0]
    assert r.exit_code == 0 and ("2 shortest plans" in head and "may be more" in head
                                 or "1 shortest plan" in head and "no other" in head), head


PLAN = [str(BW / "domain.pddl"), str(BW / "problem.pddl"), str(BW / "plan.txt")]


@pytest.mark.parametrize("args", [["--help"], ["validate", "--help"], ["validate", *PLAN],
                                  ["validate", *PLAN[:2], str(BW / "no-such.plan")],
                                  ["validate", *PLAN[:2], str(BW / "problem.pddl")], ["facts", PLAN[0]]],
                         ids=["help", "command help", "valid plan", "bad input", "unreadable plan", "facts"])
def test_a_closed_pipe_exits_141_quietly(args):
    """`amlasp ... | head -1`: the reader goes away. The exit code is 141 (128 + SIGPIPE), not 1 (a
    negative answer, which click and rich would make of it), and nothing is printed at exit."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.Popen([sys.executable, "-m", "amlasp", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env=env, cwd=ROOT)
    p.stdout.close()  # before anything is written: every write meets a closed pipe
    err = p.stderr.read().decode()
    p.stderr.close()
    if args[-1].endswith("no-such.plan"):
        assert p.wait() == 2 and err.startswith("amlasp: error: ")  # bad input is said before any output
    else:
        assert (p.wait(), err) == (141, "")


@pytest.mark.parametrize("args", [["--help"], ["validate", *PLAN], ["facts", PLAN[0]]])
def test_a_full_disk_is_one_line_and_exit_2(args):
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "amlasp", *args], stdout=full, stderr=subprocess.PIPE, text=True,
                           env=env, cwd=ROOT)
    assert (r.returncode, r.stderr) == (2, "amlasp: error: cannot write the output: No space left on device\n")


def test_a_negative_answer_read_whole_through_a_pipe_is_still_1(tmp_path):
    short = tmp_path / "short.plan"
    short.write_text("".join((BW / "plan.txt").read_text().splitlines(keepends=True)[:2]))
    r = subprocess.run([sys.executable, "-m", "amlasp", "validate", *PLAN[:2], str(short)], capture_output=True,
                       text=True, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert r.returncode == 1 and r.stdout.startswith("invalid"), (r.stdout, r.stderr)
