"""The `amlasp` command line: parses options, calls the API, renders. No metric lives here."""

from __future__ import annotations

import os
import sys
from typing import Callable, TypeVar

import typer

from ..errors import InputError

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="Evaluate learned PDDL action models with Answer Set Programming (clingo).",
)

T = TypeVar("T")


def guarded(fn: Callable[[], T]) -> T:
    """Bad input → one line on stderr and exit 2; never a traceback."""
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
        print(f"amlasp: internal error: {type(e).__name__}: {e} (set AMLASP_DEBUG=1 for details)", file=sys.stderr)
        raise typer.Exit(3)


def warn(messages) -> None:
    for m in messages:
        print(f"amlasp: warning: {m}", file=sys.stderr)


# registration order is the order of `amlasp --help`: the three metric families first
from . import compare  # noqa: E402,F401
from . import eval  # noqa: E402,F401
from . import solve  # noqa: E402,F401
from . import core  # noqa: E402,F401  (applicable, step, validate, facts)
from . import reason  # noqa: E402,F401  (plan, reach, justify, landmarks, diff)
from . import gen  # noqa: E402,F401
from . import questions  # noqa: E402,F401  (questions generate, questions grade)
from . import bench  # noqa: E402,F401


def main() -> None:
    app()
