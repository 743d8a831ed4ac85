"""Errors the user can act on: the single home of user-facing errors.

Each reads `file:line: message` (or `file: message`, or just the message for a bad option),
so that the CLI prints it on one line and exits 2; anything else that escapes is a bug.
"""

from __future__ import annotations

from pathlib import Path


class InputError(Exception):
    """Bad user input (PDDL, state file, plan, option), located in its file and line where it has one."""

    def __init__(self, message: str, file: str | Path | None = None, line: int | None = None):
        self.message = message
        self.file = str(file) if file is not None else None
        self.line = line
        super().__init__(self.location() + message)

    def location(self) -> str:
        """`file:line: `, `file: ` or nothing: the prefix of the message."""
        if self.file is None:
            return ""
        return f"{self.file}:{self.line}: " if self.line is not None else f"{self.file}: "


class UnsupportedError(InputError):
    """Valid PDDL that amlasp does not support: refusing beats a silently wrong number."""


class InputWarning(UserWarning):
    """Input read leniently, or inconsistent with another input: said, never silently accepted.

    Raised through Python's `warnings` (so that API users see it and can filter it); the command
    line prints each as `amlasp: warning: ...`, and `amlasp --strict` turns it into an error (exit 2)."""


def warn_input(message: str, file: str | Path | None = None, line: int | None = None) -> None:
    """Issue an `InputWarning` located like an `InputError` (`file:line: message`)."""
    import warnings
    where = "" if file is None else f"{file}:{line}: " if line is not None else f"{file}: "
    warnings.warn(InputWarning(where + message), stacklevel=3)


__all__ = ["InputError", "UnsupportedError", "InputWarning", "warn_input"]
