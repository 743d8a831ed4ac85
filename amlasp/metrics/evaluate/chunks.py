"""eval's test states over many processes (`eval --jobs N`, `--executor dask`: amlasp/jobs.py): the state
files cut into chunks of whole files, in the order the serial run reads them; each chunk evaluated by a
worker as the serial run would (`driver._evaluate_chunk`), its counts kept per problem (by the problem's
file, as the serial run knows a problem) in a `Tally`; the tallies merged in chunk order
(`driver._merge`), so that the result is the serial run's, bit for bit: counts are integers, a state's
number is its chunk's offset plus its number in the chunk, and the warnings are said in the order of the
files (a problem's, said by each chunk that reads it, once).

For Dask, a chunk carries its files' bytes (`texts`: the state files and the problems they may name),
written by the worker under a temporary folder in the layout of their paths as given (relative paths
under `rel/`, absolute ones under `abs/`), and every path in what it returns is put back (`Mirror.fix`).
The folder is in the Dask worker's own (`local_directory`): a worker ended in the middle of a chunk
(interrupted, out of memory) cannot remove it, and Dask removes a dead worker's folder.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Optional, Sequence

from ...cluster import dask_worker
from ...model import Domain, GroundAction, Problem
from ...pddl.states import find_problem_for
from .costs import CostAgreement
from .result import Mistake

#: Bytes of state files per chunk at most (a JSON lines file of 10,000 floortile states is 1.3 MB); fewer
#: when that would leave a worker idle (at least `SPREAD` chunks per worker while there are files).
CHUNK_BYTES = 2 * 2**20
SPREAD = 4


@dataclass(frozen=True)
class EvalChunk:
    """Whole state files of one eval, and all a worker needs to evaluate them as the serial run would."""

    learned: Domain
    reference: Domain
    files: tuple[str, ...]  # state files, as the serial run's listing names them
    problems: tuple[Optional[str], ...]  # the problems' folders (`_Reading.dirs`)
    explain: bool
    check_trajectories: bool
    keep_going: bool
    batch_states: int
    fresh: bool = True  # a process of its own (the pool replaces it): clingo in it, not in a worker of its own
    texts: tuple[tuple[str, bytes], ...] = field(default=(), repr=False)  # Dask: (path as given, bytes)


@dataclass
class Tally:
    """What one chunk's evaluation counted, its problems by key (`problem.file or problem.name`) in the
    order it met them, its states numbered from 0; what the merge needs, never a state."""

    problems: list[tuple[str, Problem]] = field(default_factory=list)
    counts: Counter = field(default_factory=Counter)
    joint: Counter = field(default_factory=Counter)  # (slot, problem in `problems`) → instances
    free: Counter = field(default_factory=Counter)
    mistakes: list[Mistake] = field(default_factory=list)
    first: list[str] = field(default_factory=list)  # StepCheck's
    unknown: dict[str, tuple[int, GroundAction]] = field(default_factory=dict)
    off: dict[str, list[tuple[int, GroundAction]]] = field(default_factory=dict)
    states: Counter = field(default_factory=Counter)  # problem in `problems` → its test states
    total: int = 0
    batches: int = 0
    t_facts: float = 0.0
    timings: Counter = field(default_factory=Counter)
    costs: CostAgreement = field(default_factory=CostAgreement)
    ignored: Counter = field(default_factory=Counter)
    joint_changes: Counter = field(default_factory=Counter)
    erred: list[str] = field(default_factory=list)  # with keep_going: files not read, and why (`errors`)
    errors: list[tuple] = field(default_factory=list)  # `error_fields`
    error: Optional[tuple] = None  # the error that stopped the chunk (`error_fields`)
    files: int = 0
    seconds: float = 0.0  # reading
    warnings: list[tuple[type, str]] = field(default_factory=list)
    peak_mb: float = 0.0


def plan(files: Sequence[Path], workers: int, make: Any) -> list[EvalChunk]:
    """Consecutive files, about `CHUNK_BYTES` a chunk (fewer when there are few: `SPREAD` per worker),
    each chunk made by `make(paths)`."""
    sizes = [_size(f) for f in files]
    target = max(1, min(CHUNK_BYTES, sum(sizes) // max(1, SPREAD * workers)))
    chunks: list[EvalChunk] = []
    current: list[str] = []
    n = 0
    for f, s in zip(files, sizes):
        if current and n + s > target:
            chunks.append(make(tuple(current)))
            current, n = [], 0
        current.append(str(f))
        n += s
    if current:
        chunks.append(make(tuple(current)))
    return chunks


def _size(f: Path) -> int:
    try:
        return f.stat().st_size
    except OSError:
        return 0


def bundle(files: Sequence[str], dirs: Sequence[Optional[str]]) -> tuple[tuple[str, bytes], ...]:
    """The bytes of the state files and of every problem they may name: a trajectory's own (in each folder
    the serial run looks in), all `*.pddl` of the folders for a JSON or JSON lines file or a problem file."""
    paths: list[Path] = []
    for f in map(Path, files):
        paths.append(f)
        for d in dirs:
            pdir = Path(d) if d is not None else None
            if f.suffix in (".json", ".jsonl"):
                paths += sorted((pdir or f.parent).glob("*.pddl"))
            elif (p := find_problem_for(f, pdir)) is not None:
                paths.append(p)
    out: dict[str, bytes] = {}
    for p in paths:
        if str(p) not in out and p.is_file():
            try:
                out[str(p)] = p.read_bytes()
            except OSError:  # the worker reports it as the serial run would: a file it cannot read
                continue
    return tuple(out.items())


@dataclass(frozen=True)
class Mirror:
    """Where a worker's copy of a chunk's files is: `local(path)` the copy of a path as given, `fix(text)`
    the paths of the copies in a text put back."""

    root: str  # '' when the files are used in place
    rel: str = ""

    def local(self, path: Optional[str]) -> Optional[str]:
        if path is None or not self.root:
            return path
        return str(Path(self.root, "abs") / Path(path).relative_to(Path(path).anchor)) if Path(path).is_absolute() \
            else str(Path(self.rel) / path)

    def fix(self, text: str) -> str:
        if not self.root or not isinstance(text, str):
            return text
        return text.replace(self.rel + os.sep, "").replace(str(Path(self.root, "abs")), "")


@contextmanager
def mirror(chunk: EvalChunk) -> Iterator[Mirror]:
    """The chunk's files where this process reads them: in place, or (Dask) copies under a temporary
    folder, removed after. A relative path climbing out (`../x`) stays inside: `rel/` is nested as deep."""
    if not chunk.texts:
        yield Mirror("")
        return
    worker = dask_worker()
    root = tempfile.mkdtemp(prefix="amlasp-chunk-", dir=worker.local_directory if worker is not None else None)
    try:
        up = max((Path(p).parts.count("..") for p, _ in chunk.texts if not Path(p).is_absolute()), default=0)
        rel = os.path.join(root, "rel", *(["_"] * up))
        m = Mirror(root, rel)
        os.makedirs(rel, exist_ok=True)
        for path, data in chunk.texts:
            local = Path(m.local(path) or "")
            local.parent.mkdir(parents=True, exist_ok=True)
            local.write_bytes(data)
        for d in chunk.problems:  # a folder with no file sent is still a folder
            if d is not None:
                Path(m.local(d) or "").mkdir(parents=True, exist_ok=True)
        yield m
    finally:
        shutil.rmtree(root, ignore_errors=True)


def error_fields(e: Exception) -> tuple:
    """An InputError as fields that pickle (its class, message, place, kind): `InputError(*args)` would not
    rebuild it."""
    return (type(e), e.message, e.file, e.line, e.col, e.kind)  # type: ignore[attr-defined]


def rebuilt(fields: tuple, fix: Any = None) -> Exception:
    cls, message, file, line, col, kind = fields
    fix = fix or (lambda t: t)
    return cls(fix(message), fix(file) if file is not None else None, line, col, kind=kind)


__all__ = ["CHUNK_BYTES", "EvalChunk", "Mirror", "Tally", "bundle", "error_fields", "mirror", "plan", "rebuilt"]
