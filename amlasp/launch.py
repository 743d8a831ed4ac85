"""`amlasp`'s entry point (`python -m amlasp` too): the command line's `main`.

Apart from the command line's modules, so that none of them imports it: `amlasp validate DOMAIN
PROBLEM PLAN`, the call a script makes once per plan, has nothing for Typer to parse and runs the
command's own function (`cli.validating.one_plan`) without importing Typer (40 ms of that call);
every other call goes through Typer's app (`cli.group`), which registers only the command being run.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Sequence

from .cli import PIPE_CLOSED, configure, exit_code, unwritable


def main() -> None:
    stdout = _identity(sys.__stdout__)
    code: Any = _one_plan(sys.argv[1:])
    if code is not None:
        sys.exit(_flushed(code, stdout))
    from .cli.group import app, load_commands
    if sys.argv[1:2] != ["--version"]:  # the version needs no command
        load_commands(_command(sys.argv[1:]))
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


def _one_plan(args: Sequence[str]) -> int | None:
    """`validate DOMAIN PROBLEM PLAN [-f table|json]`, nothing else given: run without Typer, which would
    parse next to nothing here (the same function as the command's, `validating.one_plan`); None for any
    other call."""
    form = "table"
    if len(args) == 6 and args[4] in ("-f", "--format") and args[5] in ("table", "json"):
        args, form = args[:4], args[5]
    if len(args) != 4 or args[0] != "validate" or any(a.startswith("-") for a in args[1:]):
        return None
    configure()
    try:
        from .cli.validating import one_plan
        return one_plan(Path(args[1]), Path(args[2]), Path(args[3]), form)
    except SystemExit as e:  # rich's, on a closed pipe (`_flushed` tells it apart)
        return e.code if isinstance(e.code, int) else 1
    except (Exception, KeyboardInterrupt) as e:
        return exit_code(e)


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
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.__stdout__.fileno())
    except (OSError, ValueError, AttributeError):
        pass
    return PIPE_CLOSED

__all__ = ["main"]
