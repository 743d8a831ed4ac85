"""Files other tools read: written whole or not at all, JSON without NaN.

Core code (trajectory files, the bench results file) and the command line's `-o` both
write through here, so that an interrupted run never leaves a half-written file behind,
and a file that cannot be written (no such directory, a directory in the way, no
permission, a full disk or a file-size limit) is a user's error with a plain message,
the old file left as it was and no temporary file left over.
"""

from __future__ import annotations

import errno
import math
import os
import tempfile
from pathlib import Path
from typing import Any, Iterable

from .errors import InputError

_REASONS = {
    errno.ENOENT: "no such directory",
    errno.ENOTDIR: "a part of the path is not a directory",
    errno.EISDIR: "is a directory",
    errno.EACCES: "permission denied",
    errno.EPERM: "operation not permitted",
    errno.EROFS: "read-only file system",
    errno.ENOSPC: "no space left on the device",
    errno.EDQUOT: "disk quota exceeded",
    errno.EFBIG: "file too large (a file-size limit)",
    errno.ENAMETOOLONG: "file name too long",
}


def write_atomic(path: str | Path, text: str) -> None:
    """Write via a temporary file in the same directory and rename: no half-written outputs.

    Failures are `InputError`s that name `path` (never the temporary file); the temporary file is removed.
    A device or pipe (`-o /dev/stdout`) is written to directly: renaming over it would replace it."""
    path = Path(path)
    if path.is_dir():
        raise InputError("cannot write: is a directory", path)
    tmp: str | None = None
    try:
        if path.exists() and not path.is_file():
            with open(path, "w") as fh:
                fh.write(text)
            return
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=str(path.parent or "."))
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        umask = os.umask(0)
        os.umask(umask)
        # mkstemp makes the file private (0600); give it the mode a plain open() would
        os.chmod(tmp, path.stat().st_mode & 0o777 if path.exists() else 0o666 & ~umask)
        os.replace(tmp, path)
        tmp = None
    except OSError as e:
        reason = _REASONS.get(e.errno or 0, e.strerror or type(e).__name__)
        raise InputError(f"cannot write: {reason}", path) from None
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)


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
