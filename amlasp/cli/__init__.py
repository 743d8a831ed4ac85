"""The `amlasp` command line: parses options, calls the API, renders. No metric lives here.

Start-up is what a script calling `amlasp` in a loop feels: the command modules import nothing
heavy at the top (each command imports what it uses when it runs), and `main` registers only the
command being run (`load_commands`)."""

from __future__ import annotations

import errno
import os
import sys
import warnings
from importlib import import_module
from typing import Any, Callable, Optional, Sequence, TypeVar

import typer

from ..choices import Choice
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


app = typer.Typer(
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="Evaluate learned PDDL action models with Answer Set Programming (clingo).",
    epilog=examples("amlasp compare examples/blocksworld/learned.pddl examples/blocksworld/domain.pddl",
                    "amlasp eval examples/blocksworld/learned.pddl examples/blocksworld/domain.pddl "
                    "--states examples/blocksworld/problem.pddl -o eval.csv"),
)

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


def _unwritable(e: OSError) -> int:
    """Exit code 2, said in one line, for an error of writing the output; any other error raised again."""
    if e.errno not in _WRITE_ERRORS:
        raise e
    print(f"amlasp: error: cannot write the output: {e.strerror}", file=sys.stderr)
    return 2


def guarded(fn: Callable[[], T]) -> T:
    """Bad input → one line on stderr and exit 2; a bug → one line and exit 4; never a traceback."""
    try:
        return fn()
    except (InputError, InputWarning) as e:  # a warning is an error under --strict
        print(f"amlasp: error: {control(str(e))}", file=sys.stderr)
        raise typer.Exit(2) from None
    except TimeLimitReached as e:  # unknown: what was reached, one line
        print(f"amlasp: {control(str(e))}", file=sys.stderr)
        raise typer.Exit(UNKNOWN) from None
    except BrokenPipeError:
        raise typer.Exit(PIPE_CLOSED) from None
    except KeyboardInterrupt as e:  # Ctrl-C, or SIGTERM where a handler turned it into this (`signum`)
        raise typer.Exit(128 + getattr(e, "signum", INTERRUPTED - 128)) from None
    except OSError as e:
        raise typer.Exit(_unwritable(e)) from None
    except typer.Exit:
        raise
    except Exception as e:  # a bug of ours: say so in one line unless debugging
        if debugging():  # the traceback, and still the exit code of a bug (not 1, a negative verdict)
            import traceback
            traceback.print_exc()
            raise typer.Exit(INTERNAL_ERROR) from None
        text = control(" ".join(str(e).split())[:300])
        print(f"amlasp: internal error: {type(e).__name__}: {text} (set AMLASP_DEBUG=1 for details)", file=sys.stderr)
        raise typer.Exit(INTERNAL_ERROR) from None


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


def _show(message, category, filename, lineno, file=None, line=None) -> None:
    """`warnings.showwarning` for the command line: an `InputWarning` is one line like `warn`'s."""
    if issubclass(category, InputWarning):
        warn([str(message)])
    else:
        _python_show(message, category, filename, lineno, file, line)


_python_show = warnings.showwarning


#: The options every metric command shares (compare, eval, solve): their help texts.
FORMAT_HELP = "output format (default: the one -o's extension names, .csv .json .md .tex; else table)"
OUTPUT_HELP = "write to this file (atomically); with CSV the summary goes to FILE.summary.csv"
SUMMARY_HELP = "only the summary table (one row per figure), e.g. for -f csv to stdout"


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


def choice_option(default: Optional[str], *names: str, choices: Sequence[Choice], help: str) -> Any:
    """An option taking one of `choices` (members of a `Choice` Enum): listed in --help as
    [a|b|c] and offered by shell completion; `Choice.parse` checks the value when the command
    runs, so that every command rejects a bad one with the same message."""
    values = [c.value for c in choices]
    return typer.Option(default, *names, metavar="[" + "|".join(values) + "]", help=help,
                        autocompletion=lambda incomplete: [v for v in values if v.startswith(incomplete)])


# Each command module registers its commands on `app` when imported; `main` imports only the module
# of the command being run (all of them for `amlasp --help` or an unknown name), so that a call pays
# for no other command's imports. Order: that of `amlasp --help`, the three metric families first.
COMMANDS = {
    "compare": "compare", "eval": "eval", "solve": "solve", "similarity": "similarity",
    "applicable": "core", "step": "core", "validate": "core", "facts": "core",
    "plan": "reason", "reach": "reason", "justify": "reason", "landmarks": "reason", "diff": "reason",
    "gen": "gen", "questions": "questions", "bench": "bench",
}


def _version(value: bool) -> None:
    if value:
        from .. import __version__
        print(f"amlasp {__version__}")
        raise typer.Exit()


@app.callback()
def _group(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                        help="Print the version and exit."),
           strict: bool = typer.Option(False, "--strict", help="treat every warning about the inputs as an error "
                                       "(exit 2): a problem naming another domain, a learned model read leniently, "
                                       "an inconsistent trajectory"),
           max_grounding: Optional[float] = typer.Option(None, "--max-grounding", min=1, metavar="N",
                                                         help="rule instances a grounding may make (default 2e7; "
                                                         "env AMLASP_MAX_GROUNDING): larger ones are refused "
                                                         "before they start")) -> None:
    """Evaluate learned PDDL action models with Answer Set Programming (clingo)."""
    global STRICT
    STRICT = strict
    if max_grounding is not None:  # read where the guard is checked (asp/size.py)
        os.environ["AMLASP_MAX_GROUNDING"] = repr(max_grounding)
    warnings.showwarning = _show
    warnings.simplefilter("error" if strict else "always", InputWarning)


def load_commands(names: Sequence[str] = ()) -> typer.Typer:
    """Register the commands `names` (all by default, or if one is unknown) and return `app`."""
    modules = [COMMANDS[n] for n in names] if names and all(n in COMMANDS for n in names) else COMMANDS.values()
    for m in dict.fromkeys(modules):
        import_module(f"{__name__}.{m}")
    _reflow(app)
    return app


def _reflow(group: typer.Typer) -> None:
    """Each command's help from its docstring with the lines of a paragraph joined: Typer keeps them, and
    a line broken for the source's width is a hard break in the middle of a sentence at any terminal width."""
    import inspect
    for c in group.registered_commands:
        if c.help is None and c.callback is not None and c.callback.__doc__:
            c.help = "\n\n".join(" ".join(p.split()) for p in inspect.cleandoc(c.callback.__doc__).split("\n\n"))
    for g in group.registered_groups:
        if g.typer_instance is not None:
            _reflow(g.typer_instance)


def main() -> None:
    if sys.argv[1:2] != ["--version"]:  # the version needs no command
        load_commands(_command(sys.argv[1:]))
    stdout = _identity(sys.__stdout__)
    try:
        app(prog_name="amlasp")  # also under `python -m amlasp`: one name in usage lines and completion
        code: Any = 0
    except SystemExit as e:
        code = e.code
    except BrokenPipeError:
        code = PIPE_CLOSED
    except OSError as e:  # writing help or a usage error to a full disk
        code = _unwritable(e)
    sys.exit(_flushed(code, stdout))


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
    from typer._click.utils import PacifyFlushWrapper

    closed = code == PIPE_CLOSED or isinstance(sys.stdout, PacifyFlushWrapper) or (
        stdout is not None and _identity(sys.__stdout__) != stdout)
    if not closed:
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            closed = True
        except OSError as e:
            return _unwritable(e)
    if not closed:
        return code
    try:  # nothing more reaches the closed pipe, at exit either
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.__stdout__.fileno())
    except (OSError, ValueError, AttributeError):
        pass
    return PIPE_CLOSED
