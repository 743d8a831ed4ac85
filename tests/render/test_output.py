"""What a command writes and what it must leave alone (issue 13).

Inputs are never modified and never overwritten by `-o` (five ways used to replace one); `-o`
is atomic (a failed command or a failed write leaves the old file as it was, and no temporary
file); a file that cannot be written is bad input (exit 2, one plain line naming it); JSON
output is byte-identical from run to run; a bug of ours exits 4, apart from "unknown" (3).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.cli import run
from tests.support.paths import DATA, EXAMPLES, IPC, ROOT

BAD = DATA / "bad"
D, P, PLAN = (BAD / f for f in ("domain.pddl", "problem.pddl", "plan.txt"))
E = EXAMPLES / "blocksworld"


@pytest.fixture()
def data(tmp_path: Path) -> Path:
    """A copy of the blocksworld inputs a user would have: models, trajectories, problems, a JSON state file."""
    shutil.copy(IPC / "learned" / "nolam" / "blocksworld.pddl", tmp_path / "learned.pddl")
    shutil.copy(IPC / "domains" / "blocksworld.pddl", tmp_path / "ref.pddl")
    (tmp_path / "trajs").mkdir()
    (tmp_path / "probs").mkdir()
    for k in range(3):
        shutil.copy(IPC / "trajectories" / "learning" / "blocksworld" / f"{k}_blocksworld_traj", tmp_path / "trajs")
        shutil.copy(IPC / "problems" / "learning" / "blocksworld" / f"{k}_blocksworld_prob.pddl", tmp_path / "probs")
    (tmp_path / "json").mkdir()
    shutil.copy(IPC / "problems" / "learning" / "blocksworld" / "0_blocksworld_prob.pddl",
                tmp_path / "json" / "p0.pddl")
    (tmp_path / "json" / "states.json").write_text(json.dumps({"p0.pddl": [["(handempty)"]]}))
    return tmp_path


def digest(root: Path) -> dict[str, str]:
    return {str(f.relative_to(root)): hashlib.sha256(f.read_bytes()).hexdigest()
            for f in sorted(root.rglob("*")) if f.is_file()}


# --------------------------------------------------------------------------- -o never replaces an input

def _refused(result, target: Path, before: bytes) -> None:
    assert result.exit_code == 2, (result.stderr, result.stdout)
    assert result.stderr == f"amlasp: error: {target}: refusing to overwrite an input file\n"
    assert target.read_bytes() == before


def test_eval_refuses_to_overwrite_a_trajectory_of_a_states_directory(data):
    target = data / "trajs" / "1_blocksworld_traj"
    _refused(run("eval", data / "learned.pddl", data / "ref.pddl", "--states", data / "trajs", "--problems",
                 data / "probs", "-f", "json", "-o", target), target, target.read_bytes())


def test_eval_refuses_to_overwrite_a_problem_of_the_problems_directory(data):
    target = data / "probs" / "2_blocksworld_prob.pddl"
    _refused(run("eval", data / "learned.pddl", data / "ref.pddl", "--states", data / "trajs", "--problems",
                 data / "probs", "-f", "json", "-o", target), target, target.read_bytes())


def test_eval_refuses_to_overwrite_the_problem_a_json_state_file_names(data):
    target = data / "json" / "p0.pddl"
    _refused(run("eval", data / "learned.pddl", data / "ref.pddl", "--states", data / "json" / "states.json",
                 "-f", "json", "-o", target), target, target.read_bytes())


def test_solve_refuses_to_overwrite_its_problem_file(data):
    target = data / "probs" / "0_blocksworld_prob.pddl"
    _refused(run("solve", data / "learned.pddl", data / "ref.pddl", "-p", target, "-f", "json", "-o", target),
             target, target.read_bytes())


def test_solve_refuses_to_overwrite_a_problem_of_its_directory(data):
    target = data / "probs" / "1_blocksworld_prob.pddl"
    _refused(run("solve", data / "learned.pddl", data / "ref.pddl", "-p", data / "probs", "-f", "json", "-o",
                 target), target, target.read_bytes())


def test_facts_and_compare_refuse_their_inputs_too(data):
    for target in (data / "probs" / "0_blocksworld_prob.pddl", data / "trajs" / "0_blocksworld_traj"):
        _refused(run("facts", data / "ref.pddl", data / "probs" / "0_blocksworld_prob.pddl", "--states",
                     data / "trajs", "-o", target), target, target.read_bytes())
    target = data / "learned.pddl"
    _refused(run("compare", target, data / "ref.pddl", "-f", "json", "-o", target), target, target.read_bytes())


def test_a_new_file_in_an_input_directory_is_fine(data):
    out = data / "probs" / "result.json"
    r = run("solve", data / "learned.pddl", data / "ref.pddl", "-p", data / "probs" / "0_blocksworld_prob.pddl",
            "-f", "json", "-o", out, "--timeout", "30")
    assert r.exit_code == 0, r.stderr
    assert json.loads(out.read_text())["summary"]["problems"] == 1


def test_no_command_modifies_its_inputs(data):
    before = digest(data)
    out = data.parent / f"{data.name}-out"
    out.mkdir()
    runs = [
        ("applicable", data / "ref.pddl", data / "probs" / "0_blocksworld_prob.pddl", "--states", data / "trajs",
         "--problems", data / "probs"),
        ("facts", data / "ref.pddl", data / "probs" / "0_blocksworld_prob.pddl", "-o", out / "f.lp"),
        ("eval", data / "learned.pddl", data / "ref.pddl", "--states", data / "trajs", "--problems", data / "probs",
         "-f", "json", "-o", out / "e.json"),
        ("eval", data / "learned.pddl", data / "ref.pddl", "--states", data / "json" / "states.json", "-f", "csv"),
        ("compare", data / "learned.pddl", data / "ref.pddl", "-f", "json", "-o", out / "c.json"),
        ("diff", data / "learned.pddl", data / "ref.pddl", data / "probs" / "0_blocksworld_prob.pddl"),
    ]
    for args in runs:
        assert run(*args).exit_code in (0, 1), args
    assert digest(data) == before


# --------------------------------------------------------------------------- -o is atomic

def test_an_existing_output_keeps_its_content_when_the_command_fails(data, tmp_path):
    out = tmp_path / "result.json"
    out.write_text("previous result\n")
    broken = data / "trajs" / "2_blocksworld_traj"
    broken.write_text(broken.read_text().replace("(handempty)", "(handempty", 1))
    args = ("eval", data / "ref.pddl", data / "ref.pddl", "--states", data / "trajs", "--problems",
            data / "probs", "-f", "json", "-o", out)
    r = run("--strict", *args)  # the first unreadable state file stops the command
    assert r.exit_code == 2 and str(broken) in r.stderr
    r = run("facts", data / "ref.pddl", data / "trajs" / "2_blocksworld_traj", "-o", out)
    assert r.exit_code == 2
    assert out.read_text() == "previous result\n"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".result")) == []
    r = run(*args)  # a partial run: the results of the other files are written whole, then exit 2
    assert r.exit_code == 2 and str(broken) in r.stderr and json.loads(out.read_text())["errors"][0]["input"] == \
        str(broken)


# --------------------------------------------------------------------------- write failures are bad input

def _write_failure(result, target: Path, reason: str) -> None:
    assert result.exit_code == 2, (result.stderr, result.stdout)
    assert result.stderr == f"amlasp: error: {target}: cannot write: {reason}\n"


def test_a_missing_directory_or_a_directory_target_is_bad_input(tmp_path):
    _write_failure(run("facts", D, P, "-o", tmp_path / "no" / "such" / "f.lp"), tmp_path / "no" / "such" / "f.lp",
                   "no such directory")
    _write_failure(run("facts", D, P, "-o", tmp_path), tmp_path, "is a directory")
    _write_failure(run("compare", D, D, "-f", "json", "-o", tmp_path), tmp_path, "is a directory")


def test_a_full_device_is_bad_input():
    _write_failure(run("facts", D, P, "-o", "/dev/full"), Path("/dev/full"), "no space left on the device")
    assert Path("/dev/full").is_char_device()


def test_an_unwritable_directory_is_bad_input(tmp_path, monkeypatch):
    locked = tmp_path / "locked"
    locked.mkdir()
    target = locked / "f.lp"
    immutable = False
    if os.geteuid() != 0:
        locked.chmod(0o555)
    elif subprocess.run(["chattr", "+i", str(locked)], capture_output=True).returncode == 0:
        immutable = True
    else:  # root without chattr: the file system refuses as it would for anyone else
        import errno
        import tempfile

        def refuse(*a, **k):
            raise PermissionError(errno.EACCES, "Permission denied", str(locked / ".f.lp.xyz"))
        monkeypatch.setattr(tempfile, "mkstemp", refuse)
    try:
        r = run("facts", D, P, "-o", target)
        assert r.exit_code == 2 and re.fullmatch(
            rf"amlasp: error: {re.escape(str(target))}: cannot write: (permission denied|operation not permitted)\n",
            r.stderr), r.stderr
        assert not target.exists()
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(locked)])
        locked.chmod(0o755)


def test_a_file_size_limit_is_bad_input_and_keeps_the_old_file(tmp_path):
    out = tmp_path / "f.lp"
    out.write_text("old\n")

    def limit():  # 4 KB: the facts program is larger
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
    p = subprocess.run([sys.executable, "-m", "amlasp", "facts", str(D), str(P), "-o", str(out)], cwd=ROOT,
                       capture_output=True, text=True, preexec_fn=limit, timeout=120,
                       env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert p.returncode == 2 and p.stderr == f"amlasp: error: {out}: cannot write: file too large (a file-size limit)\n"
    assert out.read_text() == "old\n" and [f.name for f in tmp_path.iterdir()] == ["f.lp"]


# --------------------------------------------------------------------------- same command, same bytes

_SECONDS = re.compile(r'("seconds": )-?[0-9][0-9.e+-]*')


@pytest.mark.parametrize("args", [
    ["applicable", f"{IPC}/domains/depots.pddl", f"{IPC}/problems/learning/depots/0_depots_prob.pddl", "--states",
     f"{IPC}/trajectories/learning/depots/0_depots_traj", "-f", "json"],
    ["validate", f"{E}/domain.pddl", f"{E}/problem.pddl", f"{E}/plan.txt", "-f", "json"],
    ["plan", f"{E}/domain.pddl", f"{E}/problem.pddl", "--all", "-f", "json"],
    ["landmarks", f"{E}/domain.pddl", f"{E}/problem.pddl", "-f", "json"],
    ["diff", f"{E}/learned.pddl", f"{E}/domain.pddl", f"{E}/problem.pddl", "--all", "-f", "json"],
    ["eval", f"{IPC}/learned/nolam/ferry.pddl", f"{IPC}/domains/ferry.pddl", "--states",
     f"{IPC}/trajectories/learning/ferry", "--problems", f"{IPC}/problems/learning/ferry", "--explain", "-f", "json"],
    ["compare", f"{IPC}/learned/nolam/depots.pddl", f"{IPC}/domains/depots.pddl", "--explain", "-f", "json"],
], ids=lambda a: a[0])
def test_json_output_is_byte_identical_across_runs(args):
    """Two runs with different string hashing give the same bytes (compare's `seconds`, its wall time, aside)."""
    outs = []
    for seed in ("11", "12"):
        p = subprocess.run([sys.executable, "-m", "amlasp", *args], cwd=ROOT, capture_output=True, text=True,
                           env=dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=str(ROOT)), timeout=300)
        assert p.returncode in (0, 1), p.stderr
        outs.append(_SECONDS.sub(r"\g<1>0", p.stdout) if args[0] == "compare" else p.stdout)
    assert outs[0] == outs[1] and len(outs[0]) > 50


# --------------------------------------------------------------------------- exit codes

def test_an_internal_error_exits_4_in_one_line(monkeypatch):
    from amlasp.reasoning import engine

    def broken(*a, **k):
        raise RuntimeError("a bug\nover two lines")
    monkeypatch.setattr(engine, "applicable", broken)
    r = run("applicable", D, P)
    assert r.exit_code == 4
    assert r.stderr == ("amlasp: internal error: RuntimeError: a bug over two lines "
                        "(set AMLASP_DEBUG=1 for details)\n")


PLAIN_CASES = [
    ["[green]valid[/green]: 8 step(s), goal reached, cost 8"],
    ["[red]invalid[/red]: step 3, (unstack b1 b2), is not applicable", "  unmet precondition: (clear b1)",
     "  unmet precondition: (handempty)"],
    ["[red]invalid[/red]: all 2 step(s) executable, but the goal is not reached", "  unmet goal: (on b2 b1)"],
    ["[bold]1.000[/bold] plain", "", "    deeper indent", "a-b_c (x y) {z} 'q' \"r\" 50% #1 ~!@$^&*=+|;,.<>/?"],
    ["x" * 239], ["x" * 240], ["x" * 300],
    ["time: 12:30"], ["a :smile: b"], ["escaped \\[bold] tag"], ["[link=https://x]x[/link]"], ["trailing  "],
    ["tab\there"], ["caf\u00e9"], ["\u4e2d\u6587"], ["[/bold] stray close"], ["[bold]unclosed"],
]


#: The cases written without rich: ours (the first four), a line one short of the console, a colon
#: that starts no emoji code, a tag left open; the others go to rich (which refuses a stray closing tag).
WITHOUT_RICH = {0, 1, 2, 3, 4, 7, 16}


@pytest.mark.parametrize("case", range(len(PLAIN_CASES)))
def test_markup_lines_printed_without_rich_are_what_rich_prints(case, monkeypatch):
    """`deliver` writes console-markup lines itself where no terminal is (a one-line answer then needs
    no rich): only where the text is exactly what rich would print, else it leaves them to rich."""
    import io

    from rich.console import Console

    from amlasp.render import output
    for key in (*output._TERMINAL_ENV, "COLUMNS"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    buf = io.StringIO()
    rich = Console(file=buf, highlight=False, soft_wrap=False, width=output.WIDE)
    lines = PLAIN_CASES[case]
    try:
        for line in lines:
            rich.print(line)
    except Exception:  # noqa: BLE001 - rich refuses it: so must we (by leaving it to rich)
        buf = None
    plain = output._plain(lines)
    assert plain is None or buf is not None and plain == buf.getvalue()
    assert (plain is not None) == (case in WITHOUT_RICH)


def test_a_terminal_or_a_forced_colour_is_left_to_rich(monkeypatch):
    import io

    from amlasp.render import output
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert output._plain(["[green]valid[/green]"]) is None
    monkeypatch.delenv("FORCE_COLOR")
    assert output._plain(["[green]valid[/green]"]) == "valid\n"
    monkeypatch.setenv("COLUMNS", "5")
    assert output._plain(["[green]valid[/green]"]) is None

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True
    monkeypatch.delenv("COLUMNS")
    monkeypatch.setattr(sys, "stdout", Tty())
    assert output._plain(["[green]valid[/green]"]) is None
