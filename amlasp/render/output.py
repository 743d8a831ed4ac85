"""Delivering a command's result: to stdout, or with `-o` to a file written atomically.

Every command hands its result to `deliver`, in one of two shapes: text (json, csv, markdown,
latex), written as it is; or rich renderables (tables, panels, console-markup lines), drawn
for the terminal or, into a file, without colour and wide enough that no table is cut.
"""

from __future__ import annotations

import io
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Sequence, Union

from ..files import refuse_overwrite, write_atomic  # noqa: F401 (refuse_overwrite: the commands' import)

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
            write_stdout(result if result.endswith("\n") else result + "\n")
        else:
            write_atomic(output, result)
        return
    if output is None:
        plain = _plain(result)
        if plain is not None:
            write_stdout(plain)
            return
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


#: The colour and weight tags of our console markup, which print as nothing where there is no terminal.
_STYLE_TAG = re.compile(r"\[/?(?:bold|dim|italic|green|red|yellow)\]")
#: rich's emoji codes (`:warning:`), which it would print as the emoji.
_EMOJI_CODE = re.compile(r":\S*?:")
#: What makes rich detect a terminal (or a notebook) where `isatty` says there is none.
_TERMINAL_ENV = ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "JUPYTER_COLUMNS", "JUPYTER_LINES")


def _plain(result: Sequence) -> str | None:
    """Console-markup lines as rich would print them to standard output that is no terminal, where
    that is their text without our style tags: without importing rich (20 ms of a one-line answer
    such as `validate`'s). None for anything else (a renderable, other markup, an escape, an emoji
    code, a character of another width, a line longer than the console, a terminal): rich prints it.
    tests/render/test_output.py checks it against rich."""
    if any(k in os.environ for k in _TERMINAL_ENV):
        return None
    try:
        if sys.stdout.isatty():
            return None
    except (ValueError, AttributeError):
        return None
    columns = os.environ.get("COLUMNS")
    width = WIDE if columns is None else int(columns) if columns.isdigit() else 0
    lines = []
    for r in result:
        if not isinstance(r, str):
            return None
        if not _closes_opened(r):  # rich refuses a stray closing tag
            return None
        text = _STYLE_TAG.sub("", r)
        if (len(text) >= width or not text.isascii() or not text.isprintable() or "[" in text or "]" in text
                or "\\" in text or text != text.rstrip() or _EMOJI_CODE.search(text)):
            return None
        lines.append(text + "\n")
    return "".join(lines)


def _closes_opened(line: str) -> bool:
    """Each closing style tag of `line` closes the last one opened."""
    opened: list[str] = []
    for tag in _STYLE_TAG.findall(line):
        if not tag.startswith("[/"):
            opened.append(tag[1:-1])
        elif not opened or opened.pop() != tag[2:-1]:
            return False
    return True


def write_stdout(text: str) -> None:
    """`text` on standard output, a closed pipe said as `BrokenPipeError` (exit 141, `cli.guarded`).

    CPython's buffered writer takes a partial write to a pipe whose reader went away (`amlasp facts
    ... | head -1` on half a megabyte) as done: the rest is dropped without an error. Writing the
    bytes in a loop of `os.write` sees the closed pipe on the next call."""
    out = sys.stdout
    try:
        fd = out.fileno()
    except (OSError, ValueError, AttributeError):  # not a file: a test's capture, a notebook
        out.write(text)
        return
    out.flush()
    view = memoryview(text.encode(out.encoding or "utf-8", out.errors or "strict"))
    while view:
        view = view[os.write(fd, view):]
