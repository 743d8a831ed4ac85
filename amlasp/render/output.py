"""Delivering a command's result: to stdout, or with `-o` to a file written atomically.

Every command hands its result to `deliver`, in one of two shapes: text (json, csv, markdown,
latex), written as it is; or rich renderables (tables, panels, console-markup lines), drawn
for the terminal or, into a file, without colour and wide enough that no table is cut.
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Sequence, Union

from ..errors import InputError
from ..files import write_atomic

if TYPE_CHECKING:
    from rich.console import Console, RenderableType

#: Columns of a pipe or a file: wide, so that tables are never cut.
WIDE = 240

#: Text, or renderables (strings among them are console markup). Text is printed as it is, so a
#: command answering in JSON never imports rich (20 ms of a script's call).
Result = Union[str, Sequence["RenderableType"]]


def console(stderr: bool = False) -> Console:
    """A terminal keeps its width; a pipe gets a wide one (unless COLUMNS says otherwise)."""
    from rich.console import Console
    c = Console(stderr=stderr, highlight=False, soft_wrap=False)
    if not c.is_terminal and "COLUMNS" not in os.environ:
        c = Console(stderr=stderr, highlight=False, soft_wrap=False, width=WIDE)
    return c


def deliver(result: Result, output: Path | None = None) -> None:
    """Print `result`, or write it to `output` atomically.

    Text goes as it is, except that stdout gets a final newline if it lacks one (the shell's
    prompt starts on its own line). Tables lay themselves out for the width they get
    (`formats.FitTable`), so a narrow pipe loses no number either.
    """
    if isinstance(result, str):
        if output is None:
            print(result, end="" if result.endswith("\n") else "\n")
        else:
            write_atomic(output, result)
        return
    if output is None:
        c = console()
        for r in result:
            c.print(r)
        return
    from rich.console import Console
    buf = io.StringIO()
    c = Console(file=buf, width=WIDE, highlight=False, soft_wrap=False)
    for r in result:
        c.print(r)
    write_atomic(output, buf.getvalue())


def refuse_overwrite(output: Path | None, inputs: Iterable[Path | str | None], what: str = "an input file") -> None:
    """`-o` must not name a file the command reads: a typo would destroy an input.

    `inputs` are the files the command reads and the directories it reads files from (every
    file directly in one counts: a trajectory, a problem); `pddl.states.state_inputs` lists
    the files behind `--states`. Called before any work, so that nothing is lost to a refusal."""
    if output is None or not output.exists():
        return
    target = output.resolve()
    for p in map(Path, filter(None, inputs)):
        if not p.exists():
            continue
        if p.resolve() == target or p.is_dir() and target.parent == p.resolve() and target.is_file():
            raise InputError(f"refusing to overwrite {what}", output)
