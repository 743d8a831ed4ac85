"""Running the commands that read a mutated input, and putting each run in its outcome class.

Runs are in-process (typer's runner: the same code as `amlasp`, without starting Python for
each), with a time limit; `subprocess=True` runs `python -m amlasp` instead, where the real
exit code and stderr are the point. Each run lands in one class:

  failures, whatever was expected: internal_error (exit 4, or an exception escaping the
    command), traceback (in the output), hang (over the time limit), bad_exit (not 0-4);
  a valid mutation: same, or different (another result), or rejected (exit 2 where the
    original was read);
  a fault: located (exit 2, one line naming the file, line and column expected, with the
    words), or mislocated (refused elsewhere, or with other words), or accepted;
  random damage: accepted, refused_located (the message names an input file of the run and
    a line it has), usage_error (a damaged command-line argument read as an option), or
    refused_unlocated.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from typer.testing import CliRunner

from tests.support.cli import app  # every command registered (the CLI loads them lazily)
from tests.support.paths import ROOT

from .inputs import Task, write
from .mutations import Case

#: What each role is read by: (command line with {role} placeholders, the roles the command reads).
COMMANDS: dict[str, list[list[str]]] = {
    "domain": [["applicable", "{domain}", "{problem}", "-f", "json"],
               ["validate", "{domain}", "{problem}", "{plan}", "-f", "json"],
               ["facts", "{domain}", "{problem}"],
               ["compare", "{learned}", "{domain}", "-f", "json", "--time-limit", "10"],
               ["solve", "{learned}", "{domain}", "-p", "{problem}", "-f", "json", "--timeout", "20"]],
    "problem": [["applicable", "{domain}", "{problem}", "-f", "json"],
                ["validate", "{domain}", "{problem}", "{plan}", "-f", "json"],
                ["facts", "{domain}", "{problem}", "--no-rules"],
                ["plan", "{domain}", "{problem}", "-n", "2", "-f", "json"],
                ["diff", "{learned}", "{domain}", "{problem}", "-n", "1", "-f", "json"]],
    "plan": [["validate", "{domain}", "{problem}", "{plan}", "-f", "json"],
             ["facts", "{domain}", "{problem}", "--plan", "{plan}", "--no-rules"],
             ["justify", "{domain}", "{problem}", "{plan}", "-f", "json"]],
    "trajectory": [["applicable", "{domain}", "{problem}", "--states", "{trajectory}", "-f", "json"],
                   ["eval", "{learned}", "{domain}", "--states", "{trajectory}", "--problems", "{problems}", "-f",
                    "json"],
                   ["facts", "{domain}", "{problem}", "--states", "{trajectory}", "--no-rules"]],
    "states": [["applicable", "{domain}", "{problem}", "--states", "{states}", "--problems", "{problems}", "-f",
                "json"],
               ["eval", "{learned}", "{domain}", "--states", "{states}", "--problems", "{problems}", "-f", "json"]],
    "literal": [["reach", "{domain}", "{problem}", "{literal}", "-n", "2", "-f", "json"],
                ["landmarks", "{domain}", "{problem}", "--check", "{literal}", "-f", "json"]],
    "action": [["step", "{domain}", "{problem}", "{action}", "-f", "json"],
               ["reach", "{domain}", "{problem}", "--action", "{action}", "-n", "2", "-f", "json"]],
}
TWO_MODELS = {"compare", "eval", "solve", "diff"}  # results depend on names matching across models: not
# compared on renaming
SLOW = {"solve"}  # Fast Downward's start-up: in the long run only
SOURCES = {"literal": "<command line>", "action": "<command line>"}  # what a command-line argument is called
_READS = {"compare": {"domain", "learned"}, "solve": {"domain", "learned", "problem"}}


class Hang(BaseException):
    """Raised by the alarm: a BaseException, so that the command's own `except Exception` cannot swallow it."""


@dataclass
class Run:
    args: list[str]
    exit: int | None
    stdout: str
    stderr: str
    seconds: float
    exception: str = ""
    unreadable: str | None = None  # `validate`'s verdict on a plan line that cannot be read: its located error


def invoke(args: list[str], limit: float, subprocess_run: bool = False) -> Run:
    start = time.perf_counter()
    if subprocess_run:
        try:
            p = subprocess.run([sys.executable, "-m", "amlasp", *args], capture_output=True, text=True, cwd=ROOT,
                               timeout=limit, env=dict(os.environ, PYTHONPATH=str(ROOT)), stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            return Run(args, None, "", "", time.perf_counter() - start, "Hang")
        return Run(args, p.returncode, p.stdout, p.stderr, time.perf_counter() - start)

    def alarm(*_):
        raise Hang()
    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        r = CliRunner().invoke(app, args)
    except Hang:
        return Run(args, None, "", "", time.perf_counter() - start, "Hang")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    exc = "" if r.exception is None or isinstance(r.exception, SystemExit) else repr(r.exception)
    return Run(args, r.exit_code, r.stdout, r.stderr, time.perf_counter() - start, exc)


def signature(command: str, run: Run, rename: tuple[str, str] | None) -> object:
    """What must not change under a valid mutation: the exit code and the result, names mapped back."""
    out = run.stdout if rename is None else run.stdout.replace(rename[0], rename[1])
    if command == "facts":
        return run.exit, sorted(x for x in out.splitlines() if x and not x.startswith("%"))
    try:
        data = json.loads(out)
    except ValueError:
        return run.exit, out
    if command == "plan":
        data = {"status": data["status"], "length": data["length"]}
    elif command == "reach":
        data = data["answer"]
    elif command == "diff":
        data = [(x["verdict"], x["depth"]) for x in data]
    elif command == "solve":
        data = data["summary"]
    elif command == "landmarks":
        data = [row["fact"] for row in data["landmarks"]]
    return run.exit, _canonical(data)


def _canonical(x: object) -> object:
    """Lists as multisets, floats to 12 digits (a macro average summed in another order differs in its last bit)."""
    if isinstance(x, float):
        return round(x, 12)
    if isinstance(x, dict):
        return {k: _canonical(v) for k, v in x.items() if k != "seconds"}
    if isinstance(x, list):
        return sorted((_canonical(v) for v in x), key=lambda v: json.dumps(v, sort_keys=True))
    return x


_ERROR = re.compile(r"amlasp: error: (.+?):(?:(\d+):(\d+):)? (.*)")


def classify(case: Case, command: list[str], run: Run, files: dict[str, str], texts: dict[str, str],
             original: Run | None) -> str:
    if run.exception == "Hang":
        return "hang"
    if run.exception or run.exit == 4 or "internal error" in run.stderr:
        return "internal_error"
    if "Traceback" in run.stderr + run.stdout:
        return "traceback"
    if run.exit not in (0, 1, 2, 3):
        return "bad_exit"
    e = case.expect
    name = command[0]
    if e.kind == "same":
        if original is None or (e.rename and name in TWO_MODELS):
            return "same"
        if run.exit == 2 and original.exit != 2:
            return "rejected"
        return "same" if signature(name, run, e.rename) == signature(name, original, None) else "different"
    lines = run.stderr.splitlines()
    errors = [x for x in lines if x.startswith("amlasp: error: ")]
    others = [x for x in lines if not x.startswith(("amlasp: error: ", "amlasp: warning: "))]
    refused = run.exit == 2
    unread = run.unreadable
    if unread is not None and not errors:  # a plan line that cannot be read: a verdict (issue 32), located too
        errors, refused = [f"amlasp: error: {unread}"], True
    if e.kind == "fault" and e.role in _READS.get(name, {e.role}):
        if not refused:
            return "accepted"
        where = SOURCES.get(e.role) or files.get(e.role, "")
        if name == "reach" and e.role == "action":
            where = "<--action>"
        loc = f"{where}: " if e.line == 0 else f"{where}:{e.line}:{e.col}: "
        ok = len(errors) == 1 and not others and errors[0].startswith("amlasp: error: " + loc) \
            and re.search(e.words, errors[0][len("amlasp: error: " + loc):])
        return "located" if ok else "mislocated"
    if not refused:
        return "accepted"
    if run.stderr.startswith("Usage: ") and case.role in ("literal", "action"):
        return "usage_error"  # an argument that starts with '-' is taken for an option (`--` separates them)
    m = _ERROR.fullmatch(errors[0]) if len(errors) == 1 and not others else None
    if m is None:
        return "refused_unlocated"
    file, line = m.group(1), m.group(2)
    if file in texts and line is not None and not 1 <= int(line) <= texts[file].count("\n") + 2:
        return "refused_unlocated"
    if file not in texts and file not in ("/dev/zero", "<command line>", "<--action>", "<--state>"):
        return "refused_unlocated"
    return "refused_located"


def _unreadable(command: str, run: Run) -> str | None:
    """The located error of `validate`'s verdict on a plan with a line that cannot be read (exit 1), if it is one."""
    if command != "validate" or run.exit != 1:
        return None
    try:
        verdict = json.loads(run.stdout)
    except ValueError:
        return None
    return verdict.get("error") if isinstance(verdict, dict) else None


def run_case(case: Case, original: dict[str, Run] | None, limit: float = 60.0, subprocess_run: bool = False,
             slow: bool = False) -> list[tuple[list[str], Run, str]]:
    """Every command reading the mutated role (with `slow`, `solve` too), on the mutated task: (command, run, class)."""
    with tempfile.TemporaryDirectory(prefix="amlasp-fuzz-") as tmp:
        files = write(case.task, Path(tmp))
        texts = {files[r]: getattr(case.task, r) for r in ("domain", "learned", "problem", "trajectory", "plan",
                                                          "states") if files[r] != "/dev/zero"}
        out = []
        for command in commands(case.role, slow):
            args = [a.format(**files) for a in command]
            run = invoke(args, limit, subprocess_run)
            run.unreadable = _unreadable(command[0], run)  # its file named as the command named it
            run.stdout = run.stdout.replace(str(tmp), "")  # file names in results: the same in the original
            orig = original.get(command[0]) if original else None
            out.append((command, run, classify(case, command, run, files, texts, orig)))
        return out


def commands(role: str, slow: bool) -> list[list[str]]:
    return [c for c in COMMANDS[role] if slow or c[0] not in SLOW]


def originals(t: Task, role: str, limit: float = 60.0, slow: bool = False) -> dict[str, Run]:
    """The unmutated task's runs: what a valid mutation must reproduce."""
    with tempfile.TemporaryDirectory(prefix="amlasp-fuzz-") as tmp:
        files = write(t, Path(tmp))
        runs = {c[0]: invoke([a.format(**files) for a in c], limit) for c in commands(role, slow)}
    for r in runs.values():
        r.stdout = r.stdout.replace(str(tmp), "")
    return runs
