"""Text from inputs (names, answers, records, messages), escaped for the format it goes into.

Learner, domain and action names, answers written by language models and error texts are
untrusted: a cell `=HYPERLINK(...)` is a formula in a spreadsheet, `|` or `<script>` breaks a
Markdown table or page, `[/bold]` crashes rich and `[link=...]` makes a terminal hyperlink, an
ESC or OSC sequence drives the terminal, `$\\frac{$` is mathtext to matplotlib. One function per
format, used by every writer of that format (`render/`), and `control` by the command line's
warnings and errors. Text we write ourselves (a `[bold]` mark, a `\\textbf`) is added after escaping.
Imports nothing heavy: the command line's messages use `control` without loading rich.
"""

from __future__ import annotations

import re
from typing import Any

#: C0 and C1 control characters (ESC, BEL, CR, DEL, CSI, OSC ...) and the bidirectional overrides that
#: reorder a line as it is shown ("Trojan source"); tab and newline are kept apart (`control`'s `lines`).
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_CONTROL_ALL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _visible(m: re.Match) -> str:
    c = ord(m.group())
    return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"


def control(text: str, lines: bool = False) -> str:
    """Control characters shown as escapes (`\\x1b`), so that none reaches a terminal or a file as
    itself; `lines`: keep newlines and tabs (a multi-line cell), else they are escaped as well."""
    return (_CONTROL if lines else _CONTROL_ALL).sub(_visible, text)


class Markup(str):
    """Console markup we wrote (`[bold]0.9[/bold]`): a table cell or title that is not escaped."""


def markup(text: Any) -> str:
    """Plain text for rich's console markup: tags (`[/bold]`, `[link=...]`) print literally."""
    if isinstance(text, Markup):
        return text
    from rich.markup import escape  # rich's own rule of what is a tag, so that the two cannot differ
    return escape(control(str(text), lines=True))


#: A cell a spreadsheet reads as a number (`-0.5`, `+3`, `1e-3`): numeric, so not a formula.
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
#: The first characters that make a spreadsheet read a cell as a formula (OWASP, "CSV Injection").
_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """A CSV cell: text that a spreadsheet would run as a formula gets a leading `'` (OWASP's advice);
    numbers, and text that is a plain number such as `-0.5`, stay as they are; control characters other
    than newline and tab are shown as escapes."""
    if not isinstance(value, str):
        return value
    value = control(value, lines=True)  # a CSV on a terminal is text on a terminal: no ESC sequence
    return "'" + value if value.startswith(_FORMULA) and not _NUMBER.fullmatch(value) else value


_MARKDOWN = {"\\": "\\\\", "|": "\\|", "`": "\\`", "[": "\\[", "]": "\\]", "<": "&lt;", ">": "&gt;", "&": "&amp;"}


def markdown(text: Any) -> str:
    """A Markdown table cell: `|` cannot end it, raw HTML, links and code spans show as text, and a
    newline cannot end the row."""
    return "".join(_MARKDOWN.get(c, c) for c in control(str(text)))


_LATEX = {"&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
          "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "\\": r"\textbackslash{}"}


def latex(text: Any) -> str:
    """LaTeX text mode: every special character as itself."""
    return "".join(_LATEX.get(c, c) for c in control(str(text)))


def html(text: Any) -> str:
    """HTML text or an attribute's value."""
    from html import escape  # imported here: the command line's messages use `control` alone
    return escape(control(str(text), lines=True), quote=True)


#: The longest label a figure shows: a 5,000-character name would make a figure of metres (MemoryError).
PLOT_LABEL = 40


def plot(text: Any, limit: int = PLOT_LABEL) -> str:
    """A matplotlib label: cut to `limit` characters with an ellipsis, `$` never starts mathtext."""
    return clip(control(str(text)), limit).replace("$", r"\$")


def clip(text: str, limit: int) -> str:
    """`text` cut to `limit` characters with an ellipsis (a label that must stay short)."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


__all__ = ["control", "Markup", "markup", "csv_cell", "markdown", "latex", "html", "plot", "clip", "PLOT_LABEL"]
