"""One unit of a benchmark run, and how a worker does it.

A unit carries its input files' bytes (`Unit.files`), not only their paths: a Dask worker
started in another directory, or on another machine, needs no shared file system. The worker
writes them under a temporary directory that mirrors their absolute paths (so that a
trajectory still finds its problem next to it or in its problems directory) and reports every
path back as the original one.

Every outcome is a record. A learned model that is missing or cannot be read is a *result*
(`error`, n/a in the tables; solve: `invalid_model`); anything else that goes wrong — a suite
file that cannot be read, a bug, a lost worker — makes the unit *failed* (`failed: true`): the
run says how many failed and exits non-zero, and a rerun does them again.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterator, Optional

from ..errors import InputError, TimeLimitReached, error_class
from ..files import clean

TASKS = ("compare", "eval", "solve")


@dataclass(frozen=True)
class Unit:
    """One piece of work: compare or eval of one learned model, or solve of one problem."""

    learner: str
    domain: str
    task: str  # compare | eval | solve
    learned: str  # path of the learned model (where the run was planned)
    reference: str
    problem: Optional[str] = None  # solve: one problem file
    states: tuple[str, ...] = ()  # eval: state files
    state_problems: Optional[str] = None  # eval: directory of the trajectories' problems
    config: str = "greedy"
    timeout: float = 60.0
    memory_mb: Optional[int] = 4096
    keep_plans: bool = False  # solve: send the plan and the planner's log back
    files: tuple[tuple[str, bytes], ...] = field(default=(), repr=False)  # (absolute path, content) of the inputs
    lenient_reference: bool = False  # the reference read as leniently as a learned model (`load_lenient`)
    quote_within: Optional[str] = None  # a manifest's folder: an input error elsewhere is told without its text

    @property
    def key(self) -> tuple:
        return (self.learner, self.domain, self.task, Path(self.problem).name if self.problem else None)


def record_key(rec: dict) -> tuple:
    return (rec["learner"], rec["domain"], rec["task"], rec.get("problem"))


def bundle(paths: list[Path | str]) -> tuple[tuple[str, bytes], ...]:
    """The bytes of every existing file among `paths` (a missing learned model is left out: a result)."""
    out: dict[str, bytes] = {}
    for p in map(Path, paths):
        if p.is_file():
            out.setdefault(str(p.resolve()), p.read_bytes())
    return tuple(out.items())


def with_files(unit: Unit) -> Unit:
    """The unit with the bytes of every file it reads (for eval, the trajectories' problems too)."""
    from dataclasses import replace
    paths: list[Path | str] = [Path(unit.learned), Path(unit.reference)]
    if unit.problem:
        paths.append(Path(unit.problem))
    if unit.states:
        from ..pddl.states import find_problem_for
        pdir = Path(unit.state_problems) if unit.state_problems else None
        for s in map(Path, unit.states):
            paths.append(s)
            if s.suffix in (".json", ".jsonl"):  # its problems are named inside: all of the candidate directories
                paths += sorted((pdir or s.parent).glob("*.pddl"))
            elif (p := find_problem_for(s, pdir)) is not None:
                paths.append(p)
    return replace(unit, files=bundle(paths))


#: Files this process has written into its mirror (`_local` with a scratch folder): local path -> SHA-256 of
#: the content (Python's `hash` of the bytes is 64 bits: a collision would keep a changed file's old content).
_WRITTEN: dict[str, bytes] = {}


@contextmanager
def _local(unit: Unit, scratch: Optional[Path] = None) -> Iterator[Callable[[str | None], Optional[str]]]:
    """`where(path)`: the local copy of an input path (absolute, as `plan_units` writes them), or None when
    it was not sent (a missing file). Without `files` (a unit made by hand), paths are used as they are.

    With `scratch` (the run's folder, `experiments.scratch`, removed by the process that owns the run),
    the copies go to a mirror of this process's own that its later units reuse: a file already there with
    the same content is not written again, and its parsed model is reused (`_parsed`). Every file in the
    mirror is a copy of the file at its original path, so a directory there holds a part of the original
    one. Without it (Dask), to a temporary directory of the unit's, removed after it."""
    if not unit.files:
        yield lambda p: p if p is None or Path(p).exists() else None
        return
    tmp = scratch / f"worker-{os.getpid()}" if scratch is not None else Path(tempfile.mkdtemp(prefix="amlasp-unit-"))
    try:
        sent = {}
        for path, data in unit.files:
            local = tmp / Path(path).relative_to(Path(path).anchor)
            sent[path] = str(local)
            digest = hashlib.sha256(data).digest()
            if scratch is not None and _WRITTEN.get(str(local)) == digest:
                continue
            local.parent.mkdir(parents=True, exist_ok=True)
            local.write_bytes(data)
            _WRITTEN[str(local)] = digest

        def where(p: str | None) -> Optional[str]:
            if p is None:
                return None
            local = tmp / Path(p).relative_to(Path(p).anchor)
            return sent.get(str(p)) or (str(local) if local.is_dir() else None)  # a directory of sent files

        yield where
    finally:
        if scratch is None:
            shutil.rmtree(tmp, ignore_errors=True)


@lru_cache(maxsize=8)
def _parsed_at(path: str, mtime_ns: int, size: int, learned: bool, lenient: bool = False) -> Any:
    from ..metrics.solve import load_learned
    from ..pddl.parse import load_domain, load_lenient
    return load_learned(path) if learned else load_lenient(path) if lenient else load_domain(path)


def _parsed(path: str, learned: bool = False, lenient: bool = False) -> Any:
    """The domain at `path` (a learned model: or why it cannot be used, `load_learned`; `lenient`: a reference
    read leniently), parsed once per content: a worker's solve units of one domain share their learned model
    and reference (models are immutable)."""
    st = os.stat(path)
    return _parsed_at(path, st.st_mtime_ns, st.st_size, learned, lenient)


def _unlocalised(value: Any, prefix: str) -> Any:
    """`value` with the temporary directory's prefix removed from every string: original paths again."""
    if isinstance(value, str):
        return value.replace(prefix, "") if prefix else value
    if isinstance(value, dict):
        return {k: _unlocalised(v, prefix) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_unlocalised(v, prefix) for v in value]
    return value


def run_unit(unit: Unit, scratch: Optional[Path] = None) -> dict:
    """Do one unit; every outcome is a record (a bad learned model is a result, not a crash).
    Its files are written under `scratch` when given (`_local`)."""
    start = time.monotonic()
    rec: dict[str, Any] = {"learner": unit.learner, "domain": unit.domain, "task": unit.task}
    if unit.problem:
        rec["problem"] = Path(unit.problem).name
    prefix = ""
    try:
        with _local(unit, scratch) as where:
            learned = where(unit.learned)
            prefix = _tmp_root(where, unit)
            try:
                rec.update(_do(unit, where, learned))
            except (InputError, TimeLimitReached) as e:  # the latter: a compare past its time limit
                rec["error"] = _told(e, unit, prefix)
                file = getattr(e, "file", None)
                if learned is None or file is None or Path(file) != Path(learned):
                    rec["failed"] = True  # not about the learned model: the suite or the setting is wrong
                    if isinstance(e, InputError):  # an input of the unit could not be read: its row is an error
                        rec.update(status="error", error_class=error_class(e))
    except Exception as e:  # a bug of ours must not stop a long run; it is recorded and reported
        rec["error"] = f"internal error: {type(e).__name__}: {e}"
        rec["failed"] = True
    rec["seconds"] = round(time.monotonic() - start, 3)
    return clean(_unlocalised(rec, prefix))


def _told(e: Exception, unit: Unit, prefix: str) -> str:
    """The error as the record tells it: in full, unless it is in a file a manifest named from outside its
    folder (`Unit.quote_within`), whose content a message must not quote: then its place and class."""
    file = getattr(e, "file", None)
    if not isinstance(e, InputError) or unit.quote_within is None or file is None:
        return str(e)
    original = Path(file[len(prefix):] if prefix and file.startswith(prefix) else file)
    if original == Path(unit.learned) or original.is_relative_to(unit.quote_within):
        return str(e)
    return f"{e.location()}{error_class(e)} (not quoted: a file outside the manifest's folder)"


def _tmp_root(where: Callable[[str | None], Optional[str]], unit: Unit) -> str:
    """The temporary directory the inputs were written under ('' when they were used in place)."""
    if not unit.files:
        return ""
    path, _ = unit.files[0]
    local = where(path)
    if local is None:
        return ""
    return local[: len(local) - len(str(Path(path).relative_to(Path(path).anchor)))].rstrip("/\\")


def _do(unit: Unit, where: Callable[[str | None], Optional[str]], learned: Optional[str]) -> dict:
    reference = where(unit.reference)
    if reference is None:
        raise InputError("reference domain not sent with the unit", unit.reference)
    if unit.task == "solve":
        return _solve(unit, where, learned, reference)
    if learned is None:
        return {"error": f"{unit.learned}: no learned model for this domain"}
    if unit.task == "compare":
        from ..metrics.compare import compare
        return {"summary": compare(learned, reference, lenient_reference=unit.lenient_reference).summary()}
    if unit.task == "eval":
        from ..metrics.evaluate import evaluate
        states = [s for s in map(where, unit.states) if s is not None]
        if not states:
            raise InputError("no test states", unit.state_problems or unit.reference)
        ev = evaluate(learned, reference, states, problems=where(unit.state_problems),
                      lenient_reference=unit.lenient_reference)
        return {"summary": ev.summary()}
    raise ValueError(f"unknown task {unit.task}")


def _solve(unit: Unit, where, learned: Optional[str], reference: str) -> dict:
    from ..costs import uses_costs
    from ..metrics.solve import solve_problem
    from ..pddl.parse import load_problem
    problem = where(unit.problem)
    if problem is None:
        raise InputError("no such problem file", unit.problem)
    model: Any = _parsed(learned, learned=True) if learned else f"{unit.learned}: no learned model for this domain"
    ref = _parsed(reference, lenient=unit.lenient_reference)
    task = load_problem(problem, ref)
    # with action costs, the IPC quality score against the reference planner's plan (one more planner run)
    out = solve_problem(model, ref, task, Path(problem).name, unit.config, unit.timeout, unit.memory_mb,
                        quality=uses_costs(ref, task))
    d = out.to_dict()
    d.pop("problem")
    d.pop("seconds")  # the planner call's, with our work around Fast Downward: the record's split is finer
    d["planner_seconds"] = round(out.planner_seconds, 3)
    d["validation_seconds"] = round(out.validation_seconds, 3)
    broken = [b for b in getattr(model, "broken", ()) if b.kind in ("action", "derived")]
    if broken:  # the learned model planned with the actions it has
        d["broken_actions"] = len(broken)
    if unit.keep_plans:
        d["plan_text"] = out.plan_text()
        d["planner_log"] = out.log
    return d


__all__ = ["TASKS", "Unit", "bundle", "record_key", "run_unit", "with_files"]
