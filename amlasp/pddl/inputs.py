"""The input files a command reads, from the paths it is given: the one listing of them.

States, trajectories and problems are given as files or as directories of them; every command
expands them here, so that they all read the same files in the same order: a file as given, a
directory as its files (hidden ones left out: `.DS_Store` is no trajectory) in natural order,
`2_x` before `10_x`, as a person numbers them. A missing path is refused with one located
message, before any work starts.
"""

from __future__ import annotations

import re
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Iterable

from ..errors import InputError

_DIGITS = re.compile(r"(\d+)")


def natural_key(path: Path) -> tuple:
    """`2_x` before `10_x`: runs of digits compare as numbers (the name itself breaks ties: `01`, `1`)."""
    return tuple(int(t) if i % 2 else t for i, t in enumerate(_DIGITS.split(path.name))), path.name


def listing(directory: Path, pattern: str = "*") -> list[Path]:
    """The non-hidden files of `directory` whose name matches `pattern`, in natural order."""
    try:
        found = [x for x in directory.iterdir()
                 if x.is_file() and not x.name.startswith(".") and fnmatchcase(x.name, pattern)]
    except OSError as e:
        raise InputError(f"cannot read the directory: {e.strerror or type(e).__name__}", directory) from None
    return sorted(found, key=natural_key)


def input_files(paths: Iterable[str | Path], pattern: str = "*", where: str = "") -> list[Path]:
    """Files as given, directories as their files matching `pattern` (`listing`); a missing path is
    refused (`where`: said after its message, e.g. which manifest named it)."""
    files: list[Path] = []
    for p in map(Path, paths):
        try:
            is_dir, exists = p.is_dir(), p.exists()
        except OSError as e:  # a name too long for the system, a loop of links
            raise InputError(f"cannot read: {e.strerror or type(e).__name__}{where}", p) from None
        if is_dir:
            files.extend(listing(p, pattern))
        elif exists:
            files.append(p)
        else:
            raise InputError(f"no such file or directory{where}", p)
    return files


def problem_files(problems: str | Path | Iterable[str | Path]) -> list[Path]:
    """A directory (its `*.pddl`, in natural order), one file, or a list of files: the problems of
    solve, trajectory generation and the suite."""
    items = [problems] if isinstance(problems, (str, Path)) else list(problems)
    out = input_files(items, "*.pddl")
    if not out:
        raise InputError("no problem files (*.pddl) found", items[0] if items else None)
    return out


__all__ = ["input_files", "listing", "natural_key", "problem_files"]
