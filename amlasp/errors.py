"""Errors the user can act on: every one names a file and a line."""

from __future__ import annotations

from pathlib import Path


class InputError(Exception):
    """Bad user input (PDDL, state file, plan). The CLI prints it on one line and exits 2."""

    def __init__(self, message: str, file: str | Path | None = None, line: int | None = None):
        self.message = message
        self.file = str(file) if file is not None else None
        self.line = line
        super().__init__(self.location() + message)

    def location(self) -> str:
        if self.file is None:
            return ""
        return f"{self.file}:{self.line}: " if self.line is not None else f"{self.file}: "


class UnsupportedError(InputError):
    """Valid PDDL that amlasp does not support: refusing beats a silently wrong number."""
