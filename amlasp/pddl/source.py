"""Reading an input file as text: what is not a readable text file is refused with a clear error.

Every reader of user files (domains, problems, states, plans) goes through `read_text`, so
a missing file, a directory or binary data reads the same everywhere, never as a traceback.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import InputError


def read_text(path: str | Path) -> str:
    """The UTF-8 text of `path`; binary data and other encodings are refused with the line they start on."""
    p = Path(path)
    if not p.exists():
        raise InputError("no such file", p)
    if p.is_dir():
        raise InputError("is a directory, expected a PDDL file", p)
    data = p.read_bytes()
    if b"\x00" in data:
        raise InputError("binary data, not a PDDL text file", p, 1)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise InputError("not UTF-8 text (is this a PDDL file?)", p, line) from None


__all__ = ["read_text"]
