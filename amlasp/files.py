"""Files other tools read: written whole or not at all, JSON without NaN; and where paths may lead.

Core code (trajectory files, the bench results file) and the command line's `-o` both
write through here, so that an interrupted run never leaves a half-written file behind,
and a file that cannot be written (no such directory, a directory in the way, no
permission, a full disk or a file-size limit) is a user's error with a plain message,
the old file left as it was and no temporary file left over.

Paths that come from options or inputs are checked here, once for every command: an output is
never one of the inputs (`refuse_overwrite`), a write under an output folder stays inside it
(`inside`, after resolving links and `..`), a name used as a path part is a plain name
(`plain_name`), and a path named inside a JSON file or a manifest stays in the folder it is
relative to (`within`), so that no input can make a command read or echo another file.
"""

from __future__ import annotations

import errno
import math
import os
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
        import tempfile  # here: 4 ms of imports (shutil, random) that a one-plan validate never needs
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
        raise cannot_write(e, path) from None
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)


def cannot_write(e: OSError, path: str | Path) -> InputError:
    """A failed write (or a folder that cannot be made) as the user's error that names `path`."""
    return InputError(f"cannot write: {_REASONS.get(e.errno or 0, e.strerror or type(e).__name__)}", path)


def real(path: str | Path) -> Path:
    """`path` with every link and `..` resolved (as far as it exists)."""
    return Path(os.path.realpath(path))


def refuse_overwrite(outputs: Path | str | None | Iterable[Path | str | None],
                     inputs: Iterable[Path | str | None], what: str = "an input file") -> None:
    """No output may be a file the command reads: a typo would destroy an input.

    `outputs` are the files a command will write (for an output folder, each file it will write
    there); `inputs` the files it reads and the folders it reads files from (every file directly
    in one counts: a trajectory, a problem). Both are compared after resolving links and `..`.
    Called before any work, so that nothing is lost to a refusal."""
    targets: list[Path] = [Path(outputs)] if isinstance(outputs, (str, Path)) else \
        [] if outputs is None else [Path(o) for o in outputs if o is not None]
    files, folders = set(), set()
    for p in (Path(i) for i in inputs if i is not None):
        if p.is_dir():
            folders.add(real(p))
        elif p.exists():
            files.add(real(p))
    for out in targets:
        if not os.path.isfile(out):  # nothing there yet (or a device, a pipe): no input can be lost
            continue
        target = real(out)
        if target in files or target.parent in folders:
            raise InputError(f"refusing to overwrite {what}", out)


def plain_name(name: str, what: str) -> str:
    """`name`, if it can be one part of a path: not empty, not `.` or `..`, no separator, no NUL."""
    if not name or name in (".", "..") or any(c in name for c in "/\\\0"):
        raise InputError(f"{what} {name!r} cannot be a file or folder name (it would lead out of the folder); "
                         "rename it")
    if len(name.encode("utf-8", "surrogateescape")) > 255:
        raise InputError(f"{what} {name[:40]!r}… ({len(name)} characters) is too long for a file or folder name")
    return name


def inside(root: str | Path, *parts: str) -> Path:
    """`root/parts...` for writing, refused unless it is inside `root` once links and `..` are resolved."""
    base, target = real(root), real(Path(root).joinpath(*parts))
    if base not in target.parents:
        raise InputError(f"refusing to write outside {root}: {Path(*parts)} leads to {target}", root)
    return target


def within(base: str | Path, name: str) -> Path | None:
    """`base/name` when `name` is a relative path that stays in `base` (no absolute path, no `..` out of
    it); None otherwise. For names written inside a JSON file or a manifest: they may not reach, and so
    neither read nor echo, a file elsewhere (`/etc/hostname`, `../../etc/passwd`)."""
    if not name or "\0" in name or os.path.isabs(name) or Path(name).drive:
        return None
    norm = os.path.normpath(name)
    if norm == ".." or norm.startswith(".." + os.sep):
        return None
    return Path(base) / name


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
