"""`amlasp`'s entry point (`python -m amlasp` too): the command line's `main`.

Apart from the command line's modules, so that none of them imports it: `amlasp validate DOMAIN
PROBLEM PLAN`, the call a script makes once per plan, has nothing for Typer to parse and runs the
command's own function (`cli.validating.one_plan`) without importing Typer (40 ms of that call); so do
`validate` in its other forms and `plan` when their options are plain (`quick_call`: a batch, a short
plan's search); every other call goes through Typer's app (`cli.group`), which registers only the
command being run. With `amlasp server` running, the calls of the SERVED commands are handed to it
(`amlasp.server`), whose warm child runs them as this process would (`run`).
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # not typing's, nor pathlib here: a one-plan call handed to a server imports neither
if TYPE_CHECKING:
    from typing import Any, Callable, Sequence, Tuple

    #: A one-plan call's files (domain, problem, plan), format and whether it reads the plan leniently.
    OnePlan = Tuple[str, str, str, str, bool]


def main() -> None:
    args = sys.argv[1:]
    if served_call(args):
        from .server.client import served
        try:
            answer = served(args)  # None: no server of ours is running
        except KeyboardInterrupt:  # Ctrl-C before the server's child took the call: as if it had
            from .cli import INTERRUPTED
            sys.exit(INTERRUPTED)
        if answer is not None:
            sys.exit(answer)
    direct = _without_typer(args)
    if direct is None:
        sys.exit(run_typer(args))
    code = direct()
    _leave(code)
    sys.exit(code)


#: The commands `amlasp server` runs (`served_call`): short reasoning on one domain, each run as without it.
SERVED = frozenset({"validate", "plan", "reach", "applicable", "step", "justify"})


def served_call(args: Sequence[str]) -> bool:
    """Whether a running server may take this call: one of the SERVED commands, in any form."""
    return bool(set(_command(args)) & SERVED)


def run(args: Sequence[str]) -> Any:
    """Run `amlasp ARGS` in this process (on its streams; a server's child runs it alike): the one-plan call
    and the calls `quick_call` reads without Typer, every other call through Typer's app; its exit code."""
    direct = _without_typer(args)
    return run_typer(args) if direct is None else direct()


def _without_typer(args: Sequence[str]) -> Callable[[], Any] | None:
    """The run of the one-plan call or of a call `quick_call` reads, which need no Typer; None for any other."""
    call = one_plan_call(args)
    if call is not None:
        return lambda: run_one_plan(call)
    quick = quick_call(args)
    if quick is not None:
        return lambda: run_quick(*quick)
    return None


def run_typer(args: Sequence[str]) -> Any:
    """`amlasp ARGS` through Typer's app; its exit code."""
    from .cli import PIPE_CLOSED, unwritable
    from .cli.group import app, load_commands
    stdout = _identity(sys.__stdout__)
    if args[:1] != ["--version"]:  # the version needs no command
        load_commands(_command(args))
    code: Any
    try:
        app(args=list(args), prog_name="amlasp")  # also under `python -m amlasp`: one name in usage lines
        code = 0
    except SystemExit as e:
        code = e.code
    except BrokenPipeError:
        code = PIPE_CLOSED
    except OSError as e:  # writing help or a usage error to a full disk
        code = unwritable(e)
    return _flushed(code, stdout)


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
    def body() -> int:
        from pathlib import Path

        from .cli.validating import one_plan
        domain, problem, plan, form, lenient = call
        return one_plan(Path(domain), Path(problem), Path(plan), form, lenient)
    return _run(body)


#: The options of the commands `quick_call` reads without Typer: each option's parameter and the kind of
#: its value (flag: none; path, text; int and float: digits only, read as click reads them). Anything else
#: (another option, `--opt=value`, a value that starts with `-`, an option given twice, --help) goes to Typer.
QUICK_OPTIONS: dict[str, dict[str, tuple[str, str]]] = {
    "validate": {"--batch": ("batch", "path"), "--group-by": ("group_by", "text"), "-f": ("format", "text"),
                 "--format": ("format", "text"), "-o": ("output", "path"), "--output": ("output", "path"),
                 "--lenient": ("lenient", "flag"), "--from-text": ("from_text", "flag")},
    "plan": {"-n": ("max_steps", "int"), "--max-steps": ("max_steps", "int"), "--all": ("all_plans", "flag"),
             "-k": ("top", "int"), "--top": ("top", "int"), "-t": ("time_limit", "float"),
             "--time-limit": ("time_limit", "float"), "--prover": ("prover", "text"), "-f": ("format", "text"),
             "--format": ("format", "text")},
}


def quick_call(args: Sequence[str]) -> tuple[str, list[str], dict[str, Any]] | None:
    """`validate` (every form but --optimal) and `plan` with options that need no Typer to read: the command,
    its arguments and its options (by parameter name, as Typer would pass them); None for any other call."""
    if not args or args[0] not in QUICK_OPTIONS:
        return None
    known = QUICK_OPTIONS[args[0]]
    positional: list[str] = []
    options: dict[str, Any] = {}
    rest = list(args[1:])
    while rest:
        a = rest.pop(0)
        if not a or _undecodable(a):
            return None
        if not a.startswith("-"):
            positional.append(a)
            continue
        if a not in known or known[a][0] in options:
            return None
        name, kind = known[a]
        if kind == "flag":
            options[name] = True
            continue
        if not rest or not rest[0] or rest[0].startswith("-") or _undecodable(rest[0]):
            return None
        value = rest.pop(0)
        if kind in ("int", "float"):
            whole, dot, part = value.partition(".")
            if not (whole.isascii() and whole.isdigit()) or (dot and (kind == "int" or not (part.isascii()
                                                                                          and part.isdigit()))):
                return None
            options[name] = int(value) if kind == "int" else float(value)
        else:
            options[name] = value
    if args[0] == "plan" and len(positional) != 2 or not positional:
        return None
    return args[0], positional, options


def _undecodable(arg: str) -> bool:
    """An argument with bytes that are not UTF-8 (surrogate escapes): Typer's path."""
    try:
        arg.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def run_quick(command: str, positional: list[str], options: dict[str, Any]) -> Any:
    """Run a call `quick_call` read with the command's own function, as Typer would with these values."""
    def body() -> int:
        from pathlib import Path

        def path(name: str) -> Path | None:
            return None if options.get(name) is None else Path(options[name])
        files = [Path(p) for p in positional]
        if command == "validate":
            from .cli.validating import many_plans
            return many_plans(files[0], files[1] if len(files) > 1 else None, files[2:], path("batch"),
                              options.get("group_by"), False, None, options.get("format"), path("output"),
                              options.get("lenient", False), options.get("from_text", False))
        from .cli.planning import shortest_plans
        return shortest_plans(files[0], files[1], options.get("max_steps", 30), options.get("all_plans", False),
                              options.get("top", 1), options.get("time_limit"), options.get("prover", "auto"),
                              options.get("format", "table"))
    return _run(body)


def _run(body: Callable[[], int]) -> Any:
    """A command's own function run as the command runs it (the group's options at their defaults), on this
    process's streams: its exit code, an error said in one line as `cli.guarded` says it."""
    from .cli import configure, exit_code
    stdout = _identity(sys.__stdout__)
    configure()
    try:
        code: Any = body()
    except SystemExit as e:  # rich's, on a closed pipe (`_flushed` tells it apart)
        code = e.code if isinstance(e.code, int) else 1
    except (Exception, KeyboardInterrupt) as e:
        code = exit_code(e)
    return _flushed(code, stdout)


def _leave(code: Any) -> None:
    """Exit now with `code`, once a call without Typer has answered: Python's teardown of a process that loaded
    clingo and our modules (its modules cleared, its objects collected, in several full collections) costs
    20-30 ms of CPU, a tenth of a short `plan` or `validate`, and an answer needs nothing of it. The exit
    handlers run (a temporary folder left is removed) and the streams are flushed first; where another thread
    runs (`sys.exit` would wait for it), or a stream cannot be flushed, Python exits as usual."""
    threading = sys.modules.get("threading")
    if not isinstance(code, int) or threading is not None and threading.active_count() > 1:
        return
    import atexit
    atexit._run_exitfuncs()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    os._exit(code)


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

__all__ = ["QUICK_OPTIONS", "SERVED", "main", "one_plan_call", "quick_call", "run", "run_one_plan", "run_quick",
           "run_typer", "served_call"]
