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
import re
import time
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Sequence

from ..choices import Executor  # noqa: F401 (the option's Enum, re-exported here)
from ..errors import InputError
from ..files import clean
from ..limits import check_nesting
from ..metrics.solve import keep_plan, refuse_kept_over_inputs
from ..pddl.source import read_text
from ..workers import ProgressCallback
from .execute import Clock, Interrupted, execute, interruptible
from .records import check_record
from .suite import PAPER_DOMAINS, load_suite
from .timing import TimeSplit, run_split, unit_split
from .units import TASKS, Unit, record_key, run_unit, with_files

# --------------------------------------------------------------------------- results file

#: How a line of ours begins (`json.dumps` of a record or of the meta line). A last line without its
#: newline that begins so and does not parse was cut short by an interrupted run of ours, and is dropped;
#: any other text is not ours to drop.
_OURS = re.compile(r'\{"(learner|task)": ')


class ResultsFile:
    """JSON lines: a `meta` line with the settings, then one record per finished unit.

    A file that does not begin with the meta line is not a results file: it is refused and left as it
    is (`--results` naming a PDDL file or a note must not destroy it). A last line without its newline
    is kept (and completed) when it is a record; it is dropped only when it is a line of ours cut short."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._tail: Optional[bool] = None  # an unterminated last line: True keep it (completed), False drop it

    def read(self) -> tuple[dict | None, list[dict]]:
        self._tail = None
        if not self.path.exists():
            return None, []
        if not self.path.is_file():
            raise InputError("not a results file (not a regular file)", self.path)
        text = read_text(self.path, what="results file")  # a byte-order mark is dropped, UTF-8 checked
        body, newline, tail = text.rpartition("\n")
        lines = body.split("\n") if newline else []
        meta, recs = None, []
        for i, line in enumerate(lines + ([tail] if tail.strip() else []), 1):
            if not line.strip():
                continue
            check_nesting(line, self.path, i)
            rec = self._record(line, i, last=i > len(lines))
            if rec is None:  # a line of ours cut short: dropped by `repair`, its unit redone
                self._tail = False
                break
            if i > len(lines):
                self._tail = True
            if meta is None and rec["task"] != "meta":
                raise InputError("not a results file of amlasp bench run (its first line is not the meta line "
                                 "with the settings); choose another --results file", self.path, i)
            check_record(rec, self.path, i)
            if rec["task"] == "meta":
                meta = meta or rec
            else:
                recs.append(rec)
        return meta, recs

    def _record(self, line: str, i: int, last: bool) -> dict | None:
        """The record on line `i`; None for a last line of ours cut short; else an error."""
        try:
            rec = json.loads(line)
        except (ValueError, RecursionError):  # not JSON, a number of over 4,300 digits, AMLASP_MAX_DEPTH set high
            if last and _OURS.match(line):
                return None
            raise InputError("not a results file (invalid JSON line)", self.path, i) from None
        if not isinstance(rec, dict) or "task" not in rec:
            raise InputError("not a results file (expected JSON objects with a 'task')", self.path, i)
        return rec

    def repair(self) -> None:
        """After `read`: complete a last record without its newline, or drop a line of ours cut short,
        so that appends start on a line of their own. Nothing else is ever changed."""
        if self._tail is None:
            return
        with open(self.path, "r+b") as fh:
            if self._tail:
                fh.seek(0, os.SEEK_END)
                fh.write(b"\n")
            else:  # from where the last line starts, in bytes on disk (whatever the line endings)
                fh.truncate(fh.read().rfind(b"\n") + 1)
            fh.flush()
            os.fsync(fh.fileno())
        self._tail = None

    def append(self, rec: dict) -> None:
        """One whole line in one write to the end of the file (O_APPEND), on disk before the next unit."""
        data = (json.dumps(clean(rec), sort_keys=False) + "\n").encode()
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)


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
    unscored: int = 0  # records of this run without a figure: failed, an error, or solve's invalid_model
    time: TimeSplit = TimeSplit()  # where the run's worker time (workers x wall) went (`experiments.timing`)
    domain_time: dict = field(default_factory=dict)  # the units' split per (learner, domain)

    def to_frame(self):
        import pandas as pd
        return pd.DataFrame([{"learner": k[0], "domain": k[1], "seconds": v} for k, v in self.domain_seconds.items()],
                            columns=["learner", "domain", "seconds"])


def plan_units(learned: Sequence[str | Path], learners: Sequence[str] | None = None,
               domains: Sequence[str] | None = None, suite: str | Path | None = None, config: str = "greedy",
               timeout: float = 60.0, memory_mb: int | None = 4096, tasks: Sequence[str] = TASKS,
               keep_plans: bool = False, lenient_reference: bool = False) -> list[Unit]:
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
            common: dict[str, Any] = dict(
                learner=name, domain=dom, learned=str((Path(d) / f"{dom}.pddl").resolve()),
                reference=str(sd.reference.resolve()), config=config, timeout=timeout, memory_mb=memory_mb,
                lenient_reference=lenient_reference, quote_within=the_suite.quote_within)
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


def run(learned: Sequence[str | Path], results: str | Path, *, learners: Sequence[str] | None = None,
        domains: Sequence[str] | None = None, suite: str | Path | None = None, jobs: int = 1,
        executor: str = "process", scheduler: str | None = None, config: str = "greedy", timeout: float = 60.0,
        memory_mb: int | None = 4096, tasks: Sequence[str] = TASKS, keep_plans: str | Path | None = None,
        progress: ProgressCallback | None = None, lenient_reference: bool = False) -> RunSummary:
    """Run every unit not yet in `results`, appending each record as soon as it is done.

    Failed units (`failed: true` in their record) are not done: a rerun does them again.
    `keep_plans=DIR` writes each plan and planner log to `DIR/<learner>/<domain>/<problem>.plan|.log`.
    `progress("bench", done, total)` is called as units finish (those done before count as done).
    `lenient_reference`: each reference read as leniently as a learned model (a setting of the results file).
    """
    executor = Executor.parse(executor)
    if executor == Executor.DASK and not scheduler:
        raise InputError("--executor dask needs --scheduler ADDRESS (e.g. tcp://host:8786)")
    if jobs < 1:
        raise InputError("--jobs must be at least 1")
    t0 = time.monotonic()
    units = plan_units(learned, learners, domains, suite, config, timeout, memory_mb, tasks, keep_plans is not None,
                       lenient_reference)
    rf = ResultsFile(results)
    settings = {"config": config, "timeout": timeout, "memory_mb": memory_mb} | \
        ({"lenient_reference": True} if lenient_reference else {})
    meta, recs = rf.read()
    if meta is not None and meta.get("settings") != settings:
        raise InputError(f"results file was made with other settings {meta.get('settings')}, not {settings} "
                         "(use another results file)", rf.path)
    if keep_plans is not None:
        _refuse_kept(keep_plans, units, rf.path)
    rf.repair()
    if meta is None:
        rf.append(_meta(settings, suite))
    done = {record_key(r) for r in recs if not r.get("failed")}
    todo = [u for u in units if u.key not in done]
    tally = _Tally(str(rf.path), len(units), len(units) - len(todo), t0)
    if progress:
        progress("bench", tally.done_before, len(units))
    try:
        with interruptible(), closing(execute(todo, jobs, executor, scheduler, tally.clock)) as records:
            for rec in records:
                if keep_plans is not None and rec["task"] == "solve":
                    keep_plan(keep_plans, rec["problem"], rec.pop("plan_text", None), rec.pop("planner_log", ""),
                              (rec["learner"], rec["domain"]))
                rf.append(rec)
                tally.add(rec)
                if progress:
                    progress("bench", tally.done_before + tally.done_now, len(units))
    except Interrupted as e:
        raise RunInterrupted(tally.summary(), e.signum) from None
    return tally.summary()


@dataclass
class _Tally:
    """What a run has done so far (its summary, also when it is interrupted)."""

    results: str
    units: int
    done_before: int
    t0: float
    done_now: int = 0
    errors: int = 0
    unscored: int = 0
    failed: list = field(default_factory=list)
    per_domain: dict = field(default_factory=dict)
    clock: Clock = field(default_factory=Clock)
    split: dict = field(default_factory=dict)  # TimeSplit of the units per (learner, domain)

    def add(self, rec: dict) -> None:
        self.done_now += 1
        self.errors += "error" in rec
        self.unscored += "error" in rec or rec.get("status") == "invalid_model"
        if rec.get("failed"):
            self.failed.append(rec)
        k = (rec["learner"], rec["domain"])
        self.per_domain[k] = self.per_domain.get(k, 0.0) + rec.get("seconds", 0.0)
        self.split[k] = self.split.get(k, TimeSplit()) + unit_split(rec)

    def summary(self) -> RunSummary:
        wall = time.monotonic() - self.t0
        units = sum(self.split.values(), TimeSplit())
        workers = max(1, self.clock.workers)  # Dask: the time of the cluster's workers is not known here
        spent = run_split(units, wall, workers, self.clock.idle)
        return RunSummary(self.results, self.units, self.done_before, self.done_now, self.errors, wall,
                          dict(self.per_domain), tuple(self.failed), self.unscored, spent, dict(self.split))


class RunInterrupted(KeyboardInterrupt):
    """A run stopped by SIGINT or SIGTERM: what it saved (`summary`) and the signal (exit 128 + `signum`)."""

    def __init__(self, summary: RunSummary, signum: int):
        super().__init__(f"interrupted: {summary.done_now} unit(s) saved")
        self.summary = summary
        self.signum = signum


def _refuse_kept(keep_plans: str | Path, units: Sequence[Unit], results: Path) -> None:
    """Before any unit runs: every kept plan and log stays in `keep_plans` and is none of the inputs
    (a problem, a model, a test state, the results file)."""
    inputs: list[str | Path | None] = [results]
    for u in units:
        inputs += [u.learned, u.reference, u.problem, *u.states, u.state_problems]
    refuse_kept_over_inputs(keep_plans, [((u.learner, u.domain), u.problem) for u in units if u.problem], inputs)


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


__all__ = ["PAPER_DOMAINS", "TASKS", "Executor", "Unit", "run_unit", "ResultsFile", "RunInterrupted", "RunSummary",
           "plan_units", "with_files", "run"]
