"""Benchmark runs over a suite: compare, eval and solve for every learner and domain.

`run` cuts the work into units (one `compare` and one `eval` per learner and domain, one
`solve` per problem; `experiments.units`), runs them in a process pool or on a Dask cluster,
and appends one JSON line per finished unit to the results file, so an interrupted run
resumes where it stopped. `experiments.report` reads that file into the paper's tables.

The suite is the installed IPC suite by default, or `--suite DIR|manifest.toml`
(`experiments.suite`). Units carry their input files, so workers need no shared file system.
"""

from __future__ import annotations

import json
import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Optional, Sequence

from ..choices import Executor  # noqa: F401 (the option's Enum, re-exported here)
from ..errors import InputError
from ..files import clean
from ..limits import check_nesting
from ..metrics.solve import keep_plan
from ..pddl.source import read_text
from ..workers import ProgressCallback
from .records import check_record
from .suite import PAPER_DOMAINS, load_suite
from .units import TASKS, Unit, bundle, record_key, run_unit

# --------------------------------------------------------------------------- results file

class ResultsFile:
    """JSON lines: a `meta` line with the settings, then one record per finished unit."""

    def __init__(self, path: str | Path):
        self.path = Path(path)

    def read(self) -> tuple[dict | None, list[dict]]:
        if not self.path.exists():
            return None, []
        meta, recs = None, []
        lines = read_text(self.path, what="results file").splitlines()  # a byte-order mark is dropped
        for i, line in enumerate(lines, 1):
            if not line.strip():
                continue
            check_nesting(line, self.path, i)
            try:
                rec = json.loads(line)
            except ValueError:  # not JSON, or a number of more than 4,300 digits
                if i == len(lines):  # a line cut short by an interrupted run: that unit is redone
                    break
                raise InputError("not a results file (invalid JSON line)", self.path, i) from None
            check_record(rec, self.path, i)
            if rec["task"] == "meta":
                meta = rec
            else:
                recs.append(rec)
        return meta, recs

    def repair(self) -> None:
        """Drop a last line cut short by an interrupted run, so that appends start on a new line."""
        if not self.path.exists():
            return
        data = self.path.read_bytes()
        if data and not data.endswith(b"\n"):
            with open(self.path, "r+b") as fh:
                fh.truncate(data.rfind(b"\n") + 1)

    def append(self, rec: dict) -> None:
        with open(self.path, "a") as fh:
            fh.write(json.dumps(clean(rec), sort_keys=False) + "\n")
            fh.flush()
            os.fsync(fh.fileno())


# --------------------------------------------------------------------------- run

@dataclass(frozen=True)
class RunSummary:
    """What a run did: units in all, done before (resumed), done now, with an error, failed."""

    results: str
    units: int
    done_before: int
    done_now: int
    errors: int  # records with an error: a learned model missing or unreadable (n/a), or a failure
    seconds: float
    domain_seconds: dict = field(default_factory=dict)  # sum of unit times per (learner, domain)
    failed: tuple[dict, ...] = ()  # the failed units' records (a rerun does them again)

    def to_frame(self):
        import pandas as pd
        return pd.DataFrame([{"learner": k[0], "domain": k[1], "seconds": v} for k, v in self.domain_seconds.items()],
                            columns=["learner", "domain", "seconds"])


def plan_units(learned: Sequence[str | Path], learners: Sequence[str] | None = None,
               domains: Sequence[str] | None = None, suite: str | Path | None = None, config: str = "greedy",
               timeout: float = 60.0, memory_mb: int | None = 4096, tasks: Sequence[str] = TASKS,
               keep_plans: bool = False) -> list[Unit]:
    """All units of a run, domain by domain (compare and eval first: they are the long ones).

    Paths in units are absolute; their files' bytes are attached when the units are sent (`with_files`)."""
    if isinstance(learned, (str, Path)):
        learned = [learned]
    if not learned:
        raise InputError("give at least one --learned DIR")
    if learners and len(learners) != len(learned):
        raise InputError(f"{len(learners)} --learner name(s) for {len(learned)} --learned director(y/ies)")
    names = list(learners) if learners else [Path(d).resolve().name for d in learned]
    if len(set(names)) != len(names):
        raise InputError("two learners with the same name (use --learner NAME for each --learned DIR)")
    for d in learned:
        if not Path(d).is_dir():
            raise InputError("not a directory of learned models <domain>.pddl", d)
    for t in tasks:
        if t not in TASKS:
            raise InputError(f"unknown task '{t}' (choose from {', '.join(TASKS)})")
    the_suite = load_suite(suite)
    units: list[Unit] = []
    for dom in list(domains or the_suite.default_domains):
        sd = the_suite.domain(dom, tasks)
        names_seen = [p.name for p in sd.problems]
        if len(set(names_seen)) < len(names_seen):
            raise InputError(f"two problems of '{dom}' share a file name (results are keyed by it)", sd.problems[0])
        for name, d in zip(names, learned):
            common = dict(learner=name, domain=dom, learned=str((Path(d) / f"{dom}.pddl").resolve()),
                          reference=str(sd.reference.resolve()), config=config, timeout=timeout, memory_mb=memory_mb)
            if "compare" in tasks:
                units.append(Unit(task="compare", **common))
            if "eval" in tasks:
                units.append(Unit(task="eval", states=tuple(str(s.resolve()) for s in sd.states),
                                  state_problems=str(sd.state_problems.resolve()) if sd.state_problems else None,
                                  **common))
            if "solve" in tasks:
                units += [Unit(task="solve", problem=str(p.resolve()), keep_plans=keep_plans, **common)
                          for p in sd.problems]
    return units


def with_files(unit: Unit) -> Unit:
    """The unit with the bytes of every file it reads (for eval, the trajectories' problems too)."""
    from dataclasses import replace
    paths: list[Path] = [Path(unit.learned), Path(unit.reference)]
    if unit.problem:
        paths.append(Path(unit.problem))
    if unit.states:
        from ..pddl.states import find_problem_for
        pdir = Path(unit.state_problems) if unit.state_problems else None
        for s in map(Path, unit.states):
            paths.append(s)
            if s.suffix == ".json":  # its problems are named inside: all of the candidate directories
                paths += sorted((pdir or s.parent).glob("*.pddl"))
            elif (p := find_problem_for(s, pdir)) is not None:
                paths.append(p)
    return replace(unit, files=bundle(paths))


def run(learned: Sequence[str | Path], results: str | Path, *, learners: Sequence[str] | None = None,
        domains: Sequence[str] | None = None, suite: str | Path | None = None, jobs: int = 1,
        executor: str = "process", scheduler: str | None = None, config: str = "greedy", timeout: float = 60.0,
        memory_mb: int | None = 4096, tasks: Sequence[str] = TASKS, keep_plans: str | Path | None = None,
        progress: ProgressCallback | None = None) -> RunSummary:
    """Run every unit not yet in `results`, appending each record as soon as it is done.

    Failed units (`failed: true` in their record) are not done: a rerun does them again.
    `keep_plans=DIR` writes each plan and planner log to `DIR/<learner>/<domain>/<problem>.plan|.log`.
    `progress("bench", done, total)` is called as units finish (those done before count as done).
    """
    executor = Executor.parse(executor)
    if executor == Executor.DASK and not scheduler:
        raise InputError("--executor dask needs --scheduler ADDRESS (e.g. tcp://host:8786)")
    if jobs < 1:
        raise InputError("--jobs must be at least 1")
    t0 = time.monotonic()
    units = plan_units(learned, learners, domains, suite, config, timeout, memory_mb, tasks, keep_plans is not None)
    rf = ResultsFile(results)
    settings = {"config": config, "timeout": timeout, "memory_mb": memory_mb}
    meta, recs = rf.read()
    if meta is not None and meta.get("settings") != settings:
        raise InputError(f"results file was made with other settings {meta.get('settings')}, not {settings} "
                         "(use another results file)", rf.path)
    rf.repair()
    if meta is None:
        rf.append(_meta(settings, suite))
    done = {record_key(r) for r in recs if not r.get("failed")}
    todo = [u for u in units if u.key not in done]
    errors = 0
    failed: list[dict] = []
    per_domain: dict[tuple[str, str], float] = {}
    done_before = len(units) - len(todo)
    if progress:
        progress("bench", done_before, len(units))
    for n, rec in enumerate(_execute(todo, jobs, executor, scheduler), 1):
        if keep_plans is not None and rec["task"] == "solve":
            keep_plan(Path(keep_plans) / rec["learner"] / rec["domain"], rec["problem"], rec.pop("plan_text", None),
                      rec.pop("planner_log", ""))
        rf.append(rec)
        errors += "error" in rec
        if rec.get("failed"):
            failed.append(rec)
        k = (rec["learner"], rec["domain"])
        per_domain[k] = per_domain.get(k, 0.0) + rec.get("seconds", 0.0)
        if progress:
            progress("bench", done_before + n, len(units))
    return RunSummary(str(rf.path), len(units), done_before, len(todo), errors, time.monotonic() - t0, per_domain,
                      tuple(failed))


def _meta(settings: dict, suite: str | Path | None) -> dict:
    """The results file's first line: the settings (a rerun must match them), the suite and the versions."""
    import platform
    from importlib.metadata import PackageNotFoundError, version

    from .. import __version__
    versions = {"python": platform.python_version()}
    for dist in ("clingo", "unified-planning", "up-fast-downward", "pddl"):
        try:
            versions[dist] = version(dist)
        except PackageNotFoundError:
            pass
    return {"task": "meta", "amlasp": __version__, "settings": settings, "suite": load_suite(suite).describe(),
            "versions": versions}


def _execute(units: Sequence[Unit], jobs: int, executor: str, scheduler: str | None) -> Iterator[dict]:
    """Records in completion order; a unit whose worker was lost becomes a failed record."""
    if not units:
        return
    if executor == Executor.DASK:
        yield from _execute_dask(units, scheduler)
        return
    if jobs <= 1:
        for u in units:
            yield run_unit(with_files(u))
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(run_unit, with_files(u)): u for u in units}
        for fut in as_completed(futures):
            yield _result(fut, futures[fut])


def _execute_dask(units: Sequence[Unit], scheduler: Optional[str]) -> Iterator[dict]:
    try:
        from dask.distributed import Client
        from dask.distributed import as_completed as dask_completed
    except ImportError:
        raise InputError("--executor dask needs the optional extra: pip install 'amlasp[dask]'") from None
    try:
        client = Client(scheduler, timeout="30s")
    except OSError as e:
        raise InputError(f"cannot reach the Dask scheduler {scheduler}: {e}") from None
    with client:
        futures = client.map(run_unit, [with_files(u) for u in units], pure=False)
        by_key = {f.key: u for f, u in zip(futures, units)}
        for fut in dask_completed(futures):
            yield _result(fut, by_key[fut.key])


def _result(fut, unit: Unit) -> dict:
    """The record of a finished future, or a failed record if its worker raised or was lost."""
    try:
        return fut.result()
    except Exception as e:
        rec = {"learner": unit.learner, "domain": unit.domain, "task": unit.task}
        if unit.problem:
            rec["problem"] = Path(unit.problem).name
        return rec | {"error": f"worker failed: {type(e).__name__}: {e}", "failed": True}


__all__ = ["PAPER_DOMAINS", "TASKS", "Executor", "Unit", "run_unit", "ResultsFile", "RunSummary", "plan_units",
           "with_files", "run"]
