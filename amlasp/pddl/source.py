"""Reading an input file as text: what is not a readable text file is refused with a clear error.

Every reader of user files (domains, problems, states, plans) goes through `read_text`, so
a missing file, a directory, binary data or a file larger than the input limit reads the same
everywhere, never as a traceback or a MemoryError (`/dev/zero` has no size: the read itself
is bounded). The text comes back normalised: a UTF-8 byte-order mark dropped and every line
ending (CRLF, or the CR of old Mac files) a plain `\\n`, so that lines and columns are the
ones an editor shows.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import InputError
from ..limits import MAX_INPUT_MB, Limit, max_bytes

BOM = "\ufeff"


def read_text(path: str | Path, limit: Limit = MAX_INPUT_MB, what: str = "file") -> str:
    """The normalised UTF-8 text of `path`; refused: missing, a directory, too large, binary, not UTF-8."""
    p = Path(path)
    try:
        if not p.exists():
            raise InputError("no such file", p)
        if p.is_dir():
            raise InputError("is a directory, expected a PDDL file", p)
        cap = max_bytes(limit)
        with open(p, "rb") as fh:
            data = fh.read(cap + 1)
    except OSError as e:
        raise InputError(f"cannot read: {e.strerror or type(e).__name__}", p) from None
    if len(data) > cap:
        raise InputError(f"{what} larger than {limit.value():g} MB ({limit.hint()})", p)
    nul = data.find(b"\x00")
    if nul >= 0:
        line, col = _position(data, nul)
        raise InputError("binary data, not a PDDL text file", p, line, col)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line, col = _position(data, e.start)
        raise InputError("not UTF-8 text (is this a PDDL file?)", p, line, col) from None
    return normalise(text)


def normalise(text: str) -> str:
    """Without a leading byte-order mark, with `\\n` line endings (CRLF and lone CR both become `\\n`)."""
    if text.startswith(BOM):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def _position(data: bytes, offset: int) -> tuple[int, int]:
    """Line and column (in characters, 1-based) of byte `offset`."""
    prefix = normalise(data[:offset].decode("utf-8", errors="replace"))
    return prefix.count("\n") + 1, len(prefix) - prefix.rfind("\n")


__all__ = ["read_text", "normalise", "BOM"]
