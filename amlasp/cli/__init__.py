"""The `amlasp` command line: parses options, calls the API, renders. No metric lives here.

Start-up is what a script calling `amlasp` in a loop feels: the command modules import nothing
heavy at the top (each command imports what it uses when it runs), and `main` registers only the
command being run (`group.load_commands`). This module holds what every command shares and imports
no Typer: Typer's app and the helpers commands declare their options with are in `group`, and the
entry point `main` is `amlasp.launch`'s, which runs the one-plan `validate` call without Typer."""

from __future__ import annotations

import errno
import os
import sys
import warnings
from typing import Callable, Optional, Sequence, TypeVar

from ..errors import InputError, InputWarning, TimeLimitReached
from ..render.escape import control

#: The widest line of an example in --help: an 80-column terminal, less the help's margin.
EXAMPLE_WIDTH = 76


def examples(*commands: str) -> str:
    """The end of a command's --help: one or two real calls (Typer's `epilog`), each broken between
    arguments with a shell continuation (` \\`) so that an 80-column terminal never wraps one mid-command.

    Typer joins the lines of an epilog's paragraph and strips each: every line is a paragraph of its own
    here, and an empty paragraph is the blank line between two examples."""
    paragraphs = ["Examples:", ""]
    for n, command in enumerate(commands):
        paragraphs += ([""] if n else []) + _continued(command)
    return "\n\n".join(paragraphs)


def _continued(command: str) -> list[str]:
    """`command` in lines of at most EXAMPLE_WIDTH characters, each but the last ending in ` \\`."""
    out: list[str] = []
    for word in command.split(" "):
        if out and len(out[-1]) + 1 + len(word) + 2 <= EXAMPLE_WIDTH:
            out[-1] += " " + word
        else:
            out.append(word)
    return [line + " \\" for line in out[:-1]] + out[-1:]


T = TypeVar("T")


#: Exit code of a bug of ours: distinct from 0 ok, 1 negative verdict, 2 bad input, 3 unknown (issues 10, 13).
INTERNAL_ERROR = 4
#: Exit code of an unknown answer (a time limit reached before there was one).
UNKNOWN = 3
#: Exit code when the reader of the output went away (`amlasp ... | head -1`): 128 + SIGPIPE, what a
#: shell reports for a program that SIGPIPE ended; not 1, which is a negative answer.
PIPE_CLOSED = 141
#: Exit code of an interrupt (Ctrl-C): 128 + SIGINT.
INTERRUPTED = 130
#: Errors of writing the output (a full disk, a file too large): said in one line, exit 2.
_WRITE_ERRORS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EROFS})


def unwritable(e: OSError) -> int:
    """Exit code 2, said in one line, for an error of writing the output; any other error raised again."""
    if e.errno not in _WRITE_ERRORS:
        raise e
    print(f"amlasp: error: cannot write the output: {e.strerror}", file=sys.stderr)
    return 2


def guarded(fn: Callable[[], T]) -> T:
    """Bad input → one line on stderr and exit 2; a bug → one line and exit 4; never a traceback."""
    import typer
    try:
        return fn()
    except typer.Exit:
        raise
    except (Exception, KeyboardInterrupt) as e:
        raise typer.Exit(exit_code(e)) from None


def exit_code(e: BaseException) -> int:
    """The exit code of what a command raised, with its one line on stderr (called in the `except`)."""
    if isinstance(e, (InputError, InputWarning)):  # a warning is an error under --strict
        print(f"amlasp: error: {control(str(e))}", file=sys.stderr)
        return 2
    if isinstance(e, TimeLimitReached):  # unknown: what was reached, one line
        print(f"amlasp: {control(str(e))}", file=sys.stderr)
        return UNKNOWN
    if isinstance(e, BrokenPipeError):
        return PIPE_CLOSED
    if isinstance(e, KeyboardInterrupt):  # Ctrl-C, or SIGTERM where a handler turned it into this (`signum`)
        return 128 + getattr(e, "signum", INTERRUPTED - 128)
    if isinstance(e, OSError):
        return unwritable(e)
    if debugging():  # a bug of ours: the traceback, and still the exit code of a bug (not 1, a negative verdict)
        import traceback
        traceback.print_exc()
        return INTERNAL_ERROR
    text = control(" ".join(str(e).split())[:300])  # else one line
    print(f"amlasp: internal error: {type(e).__name__}: {text} (set AMLASP_DEBUG=1 for details)", file=sys.stderr)
    return INTERNAL_ERROR


def debugging() -> bool:
    """`AMLASP_DEBUG=1` (or true, yes): tracebacks of internal errors. `0`, `false` or empty is off."""
    return os.environ.get("AMLASP_DEBUG", "").strip().lower() in ("1", "true", "yes")


#: `amlasp --strict`: every warning about the inputs is an error (exit 2).
STRICT = False


def warn(messages) -> None:
    """Warnings about the inputs, one line each on stderr (an error under --strict)."""
    for m in messages:
        if STRICT:
            raise InputError(f"{m} (an error under --strict)")
        print(f"amlasp: warning: {control(str(m))}", file=sys.stderr)


def keep_going() -> bool:
    """Whether a command over many inputs records an unreadable one as a row and goes on: yes, unless
    `amlasp --strict`, which stops at the first as before (docs/input.md, "Many inputs: partial runs")."""
    return not STRICT


def partial(erred: Sequence[str], total: int, noun: str) -> None:
    """After a partial run's complete results are written: each erred input's located message (`erred`),
    a summary line, and exit 2 (bad input) when any erred (docs/input.md, "Many inputs: partial runs").
    `noun` names the inputs, in the plural."""
    if not erred:
        return
    import typer
    say_erred(erred, total, noun)
    raise typer.Exit(2)


def say_erred(erred: Sequence[str], total: int, noun: str) -> None:
    """`partial`'s lines on stderr, without its exit: each erred input's message, then how many."""
    for message in erred:
        print(f"amlasp: error: {control(message)}", file=sys.stderr)
    if erred:
        print(f"amlasp: {len(erred)} of {total} {noun} could not be read (status error)", file=sys.stderr)


def _show(message, category, filename, lineno, file=None, line=None) -> None:
    """`warnings.showwarning` for the command line: an `InputWarning` is one line like `warn`'s."""
    if issubclass(category, InputWarning):
        warn([str(message)])
    else:
        _python_show(message, category, filename, lineno, file, line)


_python_show = warnings.showwarning


def interrupted(e: BaseException, what: str) -> None:
    """Say what an interrupt ended (every worker) and what was saved (`what`), on one line."""
    import signal
    name = signal.Signals(getattr(e, "signum", signal.SIGINT)).name
    print(f"amlasp: interrupted ({name}): every worker ended; {what}", file=sys.stderr)


#: The shipped data the examples of --help use (run from the repository's root).
EX, IPC = "examples/blocksworld", "benchmarks/ipc"


def names(values: Optional[Sequence[str]], option: str) -> Optional[list[str]]:
    """A repeatable option's names, each value also a comma list: `--domain a,b --domain c` is a, b, c."""
    if values is None:
        return None
    out = [x.strip() for v in values for x in v.split(",") if x.strip()]
    if not out:
        raise InputError(f"{option} names nothing")
    return out


# Each command module registers its commands on `app` when imported; `main` imports only the module
# of the command being run (all of them for `amlasp --help` or an unknown name), so that a call pays
# for no other command's imports. Order: that of `amlasp --help`, the three metric families first.
COMMANDS = {
    "compare": "compare", "eval": "eval", "solve": "solve", "similarity": "similarity",
    "applicable": "core", "step": "core", "validate": "core", "facts": "core",
    "plan": "reason", "reach": "reason", "justify": "reason", "landmarks": "reason", "diff": "reason",
    "gen": "gen", "questions": "questions", "bench": "bench", "server": "server",
}


def configure(strict: bool = False, max_grounding: Optional[float] = None) -> None:
    """The group's options (`amlasp --strict --max-grounding N CMD`), and warnings said as `warn` does."""
    global STRICT
    STRICT = strict
    if max_grounding is not None:  # read where the guard is checked (asp/size.py)
        os.environ["AMLASP_MAX_GROUNDING"] = repr(max_grounding)
    warnings.showwarning = _show
    warnings.simplefilter("error" if strict else "always", InputWarning)
