"""Errors the user can act on: the single home of user-facing errors.

Each reads `file:line:col: message` (or `file: message`, or just the message for a bad
option), so that the CLI prints it on one line and exits 2, and an editor can jump to the
faulty token; anything else that escapes is a bug (exit 4). A name longer than `NAME_LIMIT`
characters is shortened in the message: a 5,000-character name must not flood the terminal.
"""

from __future__ import annotations

import re
import signal
from dataclasses import dataclass
from pathlib import Path

#: Names (quoted in messages) longer than this are shortened to their start, "…" and their length.
NAME_LIMIT = 60

_QUOTED = re.compile(r"'([^'\n]{%d,})'" % (NAME_LIMIT + 1))


def short(text: str, limit: int = NAME_LIMIT) -> str:
    """`text`, or its first characters, "…" and its length when it is longer than `limit`."""
    text = str(text)
    if len(text) <= limit:
        return text
    return f"{text[:limit - 20]}…({len(text)} chars)"


def _shorten_names(message: str) -> str:
    """Every quoted name in `message` longer than NAME_LIMIT, shortened; newlines become spaces (one line)."""
    message = message.replace("\r", " ").replace("\n", " ")
    return _QUOTED.sub(lambda m: f"'{short(m.group(1))}'", message)


class InputError(Exception):
    """Bad user input (PDDL, state file, plan, option), located in its file, line and column where it has them.

    `at` is any object with `line` and `col` attributes (a token or list of the s-expression reader).
    `kind` is the error's class, a short stable name (`undeclared-variable`, `wrong-arity`, ...; `KINDS`)
    given where the error is raised, so that a reader that recovers (`parse_domain(recover=True)`) can
    count broken definitions by class without reading messages."""

    #: The class of an error raised without one.
    default_kind = "syntax"

    def __init__(self, message: str, file: str | Path | None = None, line: int | None = None,
                 col: int | None = None, *, at: object = None, kind: str | None = None):
        self.kind = kind or self.default_kind
        if at is not None:
            line = getattr(at, "line", None) or line
            col = getattr(at, "col", None) or col
        self.message = _shorten_names(message)
        self.file = str(file) if file is not None else None
        self.line = line if line else None
        self.col = col if col and self.line is not None else None
        super().__init__(self.location() + self.message)

    def location(self) -> str:
        """`file:line:col: `, `file:line: `, `file: ` or nothing: the prefix of the message."""
        if self.file is None:
            return ""
        if self.line is None:
            return f"{self.file}: "
        return f"{self.file}:{self.line}:{self.col}: " if self.col is not None else f"{self.file}:{self.line}: "

    def moved(self, file: str | Path | None = None, line: int | None = None, col: int | None = None) -> "InputError":
        """The same error (same class) reported at another place: a snippet read alone, put back in its file."""
        return type(self)(self.message, file if file is not None else self.file, line, col, kind=self.kind)


class UnsupportedError(InputError):
    """Valid PDDL that amlasp does not support: refusing beats a silently wrong number."""

    default_kind = "unsupported"


#: The classes of errors in a domain's definitions (`InputError.kind`), as a recovering reader reports them.
KINDS = ("syntax", "unbalanced", "unsupported", "invalid-name", "duplicate", "name-clash", "undeclared-type",
         "type-cycle", "undeclared-predicate", "undeclared-variable", "unknown-constant", "wrong-arity",
         "condition-as-effect", "effect-as-condition", "derived-in-effect", "unstratified-negation",
         "unknown-object", "unknown-action", "wrong-type")


def error_class(e: InputError) -> str:
    """The class of an input error, as a row of a partial run shows it (`Unreadable.error_class`): the one
    its raiser gave it (`InputError.kind`, `KINDS`), as a broken definition shows it too."""
    return e.kind


@dataclass(frozen=True)
class Unreadable:
    """One input of many that could not be read: its row (status `error`) in a partial run.

    A command over many inputs (problems, state files, units, batch records, answers) records this
    instead of stopping, and goes on with the others (docs/input.md, "Many inputs: partial runs")."""

    input: str  # the input as the command names it (a file, a record's line)
    message: str  # the located one-line message, `file:line:col: message`
    error_class: str  # `error_class(e)`

    @classmethod
    def of(cls, input: str | Path, e: InputError) -> "Unreadable":
        return cls(str(input), str(e), error_class(e))


class InputWarning(UserWarning):
    """Input read leniently, or inconsistent with another input: said, never silently accepted.

    Raised through Python's `warnings` (so that API users see it and can filter it); the command
    line prints each as `amlasp: warning: ...`, and `amlasp --strict` turns it into an error (exit 2)."""


def warn_input(message: str, file: str | Path | None = None, line: int | None = None, col: int | None = None, *,
               at: object = None) -> None:
    """Issue an `InputWarning` located like an `InputError` (`file:line:col: message`)."""
    import warnings
    warnings.warn(InputWarning(str(InputError(message, file, line, col, at=at))), stacklevel=3)


class Interrupted(KeyboardInterrupt):
    """SIGINT or SIGTERM turned into an exception (`signum` says which): the command line exits
    128 + signum. Raised while workers run (`jobs.interruptible`: bench's run, eval's and questions' chunks)
    and while `watchdog.within` waits for its child."""

    def __init__(self, signum: int = signal.SIGINT):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


class TimeLimitReached(Exception):
    """A time limit passed before the work had an answer (`watchdog.within`): the answer is unknown
    (exit 3); the message says what the work had reached."""


__all__ = ["InputError", "UnsupportedError", "KINDS", "Unreadable", "error_class",
           "InputWarning", "TimeLimitReached", "Interrupted", "warn_input",
           "NAME_LIMIT", "short"]

