"""A run's scratch folder: where its workers write their units' files and their planners' temporary files.

A worker killed mid-unit (SIGKILL, out of memory) never reaches its own clean-up (`units._local`'s
`finally`), so every temporary file of a run's workers lives under one folder per run, made and removed
by the submitting process. That process holds a lock on the folder while the run goes on (its forked
workers inherit it); should the whole run be killed, the next run removes every such folder whose lock
is free, since the kernel releases the locks of a dead process.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Optional

PREFIX = "amlasp-run-"
_LOCK = ".lock"
#: A folder whose lock file is younger than this is left alone by `sweep`: its run may not have locked it yet.
_YOUNG = 60.0


@contextmanager
def scratch_folder() -> Iterator[Path]:
    """A new folder under the system's temporary directory, locked while the block runs, then removed."""
    sweep()
    path = Path(tempfile.mkdtemp(prefix=PREFIX))
    fd = os.open(path / _LOCK, os.O_CREAT | os.O_RDWR, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)
        os.close(fd)


def sweep(root: Optional[str | Path] = None) -> int:
    """Remove the scratch folders (ours: same user) of runs that ended without removing theirs; how many."""
    removed = 0
    for d in Path(root or tempfile.gettempdir()).glob(PREFIX + "*"):
        try:
            if d.is_symlink() or not d.is_dir() or d.stat().st_uid != os.getuid():
                continue
            fd = os.open(d / _LOCK, os.O_RDWR | os.O_NOFOLLOW)  # no lock file yet: being made, left alone
        except OSError:
            continue
        try:
            if time.time() - os.fstat(fd).st_mtime < _YOUNG:
                continue
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # its run still goes on
            continue
        finally:
            os.close(fd)
        shutil.rmtree(d, ignore_errors=True)
        removed += 1
    return removed


__all__ = ["PREFIX", "scratch_folder", "sweep"]
