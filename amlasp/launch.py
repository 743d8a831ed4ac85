"""`amlasp`'s entry point (`python -m amlasp` too): the command line's `main`.

Apart from the command line's modules, so that none of them imports it: `amlasp validate DOMAIN
PROBLEM PLAN`, the call a script makes once per plan, has nothing for Typer to parse and runs the
command's own function (`cli.validating.one_plan`) without importing Typer (40 ms of that call);
every other call goes through Typer's app (`cli.group`), which registers only the command being run.
With `amlasp server` running, the one-plan call is handed to it (`amlasp.server`), which runs the same
function in a process already warm.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # not typing's, nor pathlib here: a one-plan call handed to a server imports neither
if TYPE_CHECKING:
    from typing import Any, Sequence, Tuple

    #: A one-plan call's files (domain, problem, plan), format and whether it reads the plan leniently.
    OnePlan = Tuple[str, str, str, str, bool]


def main() -> None:
    call = one_plan_call(sys.argv[1:])
    if call is not None:
        from .server.client import served
        try:
            answer = served(sys.argv[1:])  # None: no server of ours is running
        except KeyboardInterrupt:  # Ctrl-C before the server's child took the call: as if it had
            from .cli import INTERRUPTED
            sys.exit(INTERRUPTED)
        sys.exit(run_one_plan(call) if answer is None else answer)
    from .cli import PIPE_CLOSED, unwritable
    from .cli.group import app, load_commands
    stdout = _identity(sys.__stdout__)
    if sys.argv[1:2] != ["--version"]:  # the version needs no command
        load_commands(_command(sys.argv[1:]))
    code: Any
    try:
        app(prog_name="amlasp")  # also under `python -m amlasp`: one name in usage lines and completion
        code = 0
    except SystemExit as e:
        code = e.code
    except BrokenPipeError:
        code = PIPE_CLOSED
    except OSError as e:  # writing help or a usage error to a full disk
        code = unwritable(e)
    sys.exit(_flushed(code, stdout))


def one_plan_call(args: Sequence[str]) -> OnePlan | None:
    """`validate DOMAIN PROBLEM PLAN [-f table|json] [--lenient]`, nothing else given: the call that runs
    without Typer, which would parse next to nothing here (and a server may run: `amlasp.server`); None
    for any other call."""
    form = "table"
    lenient = "--lenient" in args[1:]
    if lenient:
        args = [a for i, a in enumerate(args) if not i or a != "--lenient"]
    if len(args) == 6 and args[4] in ("-f", "--format") and args[5] in ("table", "json"):
        args, form = args[:4], args[5]
    if len(args) != 4 or args[0] != "validate" or any(a.startswith("-") for a in args[1:]):
        return None
    return args[1], args[2], args[3], form, lenient


def run_one_plan(call: OnePlan) -> Any:
    """Run the one-plan call (`validating.one_plan`, the `validate` command's own function) on this
    process's streams; its exit code."""
    from pathlib import Path

    from .cli import configure, exit_code
    stdout = _identity(sys.__stdout__)
    configure()
    try:
        from .cli.validating import one_plan
        domain, problem, plan, form, lenient = call
        code: Any = one_plan(Path(domain), Path(problem), Path(plan), form, lenient)
    except SystemExit as e:  # rich's, on a closed pipe (`_flushed` tells it apart)
        code = e.code if isinstance(e.code, int) else 1
    except (Exception, KeyboardInterrupt) as e:
        code = exit_code(e)
    return _flushed(code, stdout)


def _command(args: Sequence[str]) -> list[str]:
    """The command's name among `args` (after the group's options), as a list of at most one."""
    rest = list(args)
    while rest and rest[0] in ("--strict", "--max-grounding") or (rest and rest[0].startswith("--max-grounding=")):
        rest = rest[2:] if rest[0] == "--max-grounding" else rest[1:]
    return rest[:1]


def _identity(stream: Any) -> tuple[int, int] | None:
    """The device and inode behind `stream`, None if it has none."""
    try:
        st = os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return None
    return st.st_dev, st.st_ino


def _flushed(code: Any, stdout: tuple[int, int] | None) -> Any:
    """`code`, or PIPE_CLOSED when the output's reader went away (`stdout`: what standard output was
    at the start). rich and click turn a closed pipe into exit 1, a negative answer here: rich points
    standard output at /dev/null first, click wraps `sys.stdout`; and Python prints an error when it
    flushes at exit unless nothing is left to write."""
    click = sys.modules.get("typer._click.utils")  # loaded with Typer; not on the one-plan path
    from .cli import PIPE_CLOSED, unwritable
    closed = code == PIPE_CLOSED or (click is not None and isinstance(sys.stdout, click.PacifyFlushWrapper)) or (
        stdout is not None and _identity(sys.__stdout__) != stdout)
    if not closed:
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            closed = True
        except OSError as e:
            return unwritable(e)
    if not closed:
        return code
    try:  # nothing more reaches the closed pipe, at exit either
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.__stdout__.fileno())  # type: ignore[union-attr]
    except (OSError, ValueError, AttributeError):
        pass
    return PIPE_CLOSED

__all__ = ["main", "one_plan_call", "run_one_plan"]
