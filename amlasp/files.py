"""Files other tools read: written whole or not at all, JSON without NaN.

Core code (trajectory files, the bench results file) and the command line's `-o` both
write through here, so that an interrupted run never leaves a half-written file behind.
"""

from __future__ import annotations

import math
import os
import tempfile
from pathlib import Path
from typing import Any, Iterable


def write_atomic(path: str | Path, text: str) -> None:
    """Write via a temporary file in the same directory and rename: no half-written outputs."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=str(path.parent or "."))
    try:
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        umask = os.umask(0)
        os.umask(umask)
        # mkstemp makes the file private (0600); give it the mode a plain open() would
        os.chmod(tmp, path.stat().st_mode & 0o777 if path.exists() else 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def clean(value: Any) -> Any:
    """JSON-safe: NaN becomes null (JSON has no NaN, and most readers reject it)."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [clean(v) for v in value]
    return value


def path_list(paths: str | os.PathLike | Iterable[str | os.PathLike]) -> list[Path]:
    """An API argument that names files: one path (a str or a Path) or any iterable of them.

    A str is one path, never a sequence of characters (`states="dir/"` must not read 'd', 'i', 'r')."""
    if isinstance(paths, (str, os.PathLike)):
        return [Path(paths)]
    return [Path(p) for p in paths]
