"""The `amlasp` command line: parses options, calls the API, renders. No metric lives here.

Start-up is what a script calling `amlasp` in a loop feels: the command modules import nothing
heavy at the top (each command imports what it uses when it runs), and `main` registers only the
command being run (`load_commands`)."""

from __future__ import annotations

import os
import sys
from importlib import import_module
from typing import Callable, Sequence, TypeVar

import typer

from ..errors import InputError

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="Evaluate learned PDDL action models with Answer Set Programming (clingo).",
)

T = TypeVar("T")


#: Exit code of a bug of ours: distinct from 0 ok, 1 negative verdict, 2 bad input, 3 unknown (issues 10, 13).
INTERNAL_ERROR = 4


def guarded(fn: Callable[[], T]) -> T:
    """Bad input → one line on stderr and exit 2; a bug → one line and exit 4; never a traceback."""
    try:
        return fn()
    except InputError as e:
        print(f"amlasp: error: {e}", file=sys.stderr)
        raise typer.Exit(2)
    except (BrokenPipeError, KeyboardInterrupt):
        raise typer.Exit(130)
    except typer.Exit:
        raise
    except Exception as e:  # a bug of ours: say so in one line unless debugging
        if os.environ.get("AMLASP_DEBUG"):
            raise
        text = " ".join(str(e).split())[:300]
        print(f"amlasp: internal error: {type(e).__name__}: {text} (set AMLASP_DEBUG=1 for details)", file=sys.stderr)
        raise typer.Exit(INTERNAL_ERROR)


def warn(messages) -> None:
    for m in messages:
        print(f"amlasp: warning: {m}", file=sys.stderr)


# Each command module registers its commands on `app` when imported; `main` imports only the module
# of the command being run (all of them for `amlasp --help` or an unknown name), so that a call pays
# for no other command's imports. Order: that of `amlasp --help`, the three metric families first.
COMMANDS = {
    "compare": "compare", "eval": "eval", "solve": "solve",
    "applicable": "core", "step": "core", "validate": "core", "facts": "core",
    "plan": "reason", "reach": "reason", "justify": "reason", "landmarks": "reason", "diff": "reason",
    "gen": "gen", "questions": "questions", "bench": "bench",
}


@app.callback()
def _group() -> None:
    """Keeps `amlasp` a group of commands even when only one of them is registered."""


def load_commands(names: Sequence[str] = ()) -> typer.Typer:
    """Register the commands `names` (all by default, or if one is unknown) and return `app`."""
    modules = [COMMANDS[n] for n in names] if names and all(n in COMMANDS for n in names) else COMMANDS.values()
    for m in dict.fromkeys(modules):
        import_module(f"{__name__}.{m}")
    return app


def main() -> None:
    load_commands(sys.argv[1:2])
    app()
