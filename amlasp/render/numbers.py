"""Numbers for people, one cell at a time: the one formatting of a value that every output shares.

A module of its own, below both `formats` (the files' formats) and `tables` (the terminal's
tables, which load rich only when a table is drawn), so that neither imports the other to format a cell.
"""

from __future__ import annotations

import math
from typing import Any


def fmt(value: Any, digits: int = 3) -> str:
    """Numbers for people: fixed digits, `n/a` for undefined (never NaN)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


__all__ = ["fmt"]
