"""Benchmark runs over the paper's suite: compare, eval and solve for every learner and domain.

`run` cuts the work into units (one `compare` and one `eval` per learner and domain, one
`solve` per problem), runs them in a process pool or on a Dask cluster, and appends one
JSON line per finished unit to the results file, so an interrupted run resumes where it
stopped. `experiments.report` reads that file into the paper's tables.

Suite layout (`--suite DIR`, default the repository's `benchmarks/`):
`ipc/domains/<d>.pddl` (references), `ipc/problems/solving/<d>/*.pddl` (problems to solve),
`states/<d>/*_traj` with `states/<d>/problems/` (test states, `amlasp gen trajectories`).
"""

from __future__ import annotations

import json
import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Optional, Sequence

from ..choices import Choice
from ..errors import InputError
from ..files import clean
from ..metrics.solve import ProgressCallback

#: The 20 IPC learning-track domains of the paper, in the order of its tables.
PAPER_DOMAINS: tuple[str, ...] = (
    "barman", "blocksworld", "childsnack", "depots", "elevators", "ferry", "floortile", "goldminer", "grippers",
    "matchingbw", "miconic", "nomystery", "npuzzle", "parking", "rovers", "satellite", "sokoban", "spanner", "tpp",
    "transport",
)
TASKS = ("compare", "eval", "solve")


class Executor(Choice):
    """`--executor`: where the units run."""

    PROCESS = "process"  # a local process pool (`--jobs`)
    DASK = "dask"  # a Dask cluster (`--scheduler`)

    @classmethod
    def option(cls) -> str:
        return "--executor"


def default_suite() -> Path:
    """The repository's `benchmarks/` (next to the package), else `./benchmarks`."""
    here = Path(__file__).resolve().parents[2] / "benchmarks"
    return here if (here / "ipc").is_dir() else Path("benchmarks")


@dataclass(frozen=True)
class Unit:
    """One piece of work; everything a worker needs is in it (paths must be valid on the workers)."""

    learner: str
    domain: str
    task: str  # compare | eval | solve
    learned: str  # path of the learned model
    reference: str
    problem: Optional[str] = None  # solve: one problem file
    states: Optional[str] = None  # eval: directory of trajectories (problems in states/problems)
    config: str = "greedy"
    timeout: float = 60.0
    memory_mb: Optional[int] = 4096

    @property
    def key(self) -> tuple:
        return (self.learner, self.domain, self.task, Path(self.problem).name if self.problem else None)


def record_key(rec: dict) -> tuple:
    return (rec["learner"], rec["domain"], rec["task"], rec.get("problem"))


def run_unit(unit: Unit) -> dict:
    """Do one unit; every outcome is a record (a bad learned model is a result, not a crash)."""
    start = time.monotonic()
    rec: dict[str, Any] = {"learner": unit.learner, "domain": unit.domain, "task": unit.task}
    if unit.problem:
        rec["problem"] = Path(unit.problem).name
    try:
        if unit.task == "solve":
            rec.update(_solve_unit(unit))
        elif not Path(unit.learned).is_file():
            rec["error"] = f"{unit.learned}: no learned model for this domain"
        elif unit.task == "compare":
            from ..metrics.compare import compare
            rec["summary"] = clean(compare(unit.learned, unit.reference).summary())
        elif unit.task == "eval":
            from ..metrics.evaluate import evaluate
            states = sorted(str(p) for p in Path(unit.states).glob("*_traj"))
            if not states:
                raise InputError("no test states (*_traj)", unit.states)
            ev = evaluate(unit.learned, unit.reference, states, problems=str(Path(unit.states) / "problems"))
            rec["summary"] = clean(ev.summary())
        else:
            raise ValueError(f"unknown task {unit.task}")
    except InputError as e:
        rec["error"] = str(e)
    except Exception as e:  # a bug of ours must not stop a long run; it is recorded and reported
        rec["error"] = f"internal error: {type(e).__name__}: {e}"
    rec["seconds"] = round(time.monotonic() - start, 3)
    return rec


def _solve_unit(unit: Unit) -> dict:
    from ..pddl.parse import load_domain, load_problem
    from ..metrics.solve import load_learned, solve_problem
    name = Path(unit.problem).name
    if not Path(unit.learned).is_file():
        model: Any = f"{unit.learned}: no learned model for this domain"
    else:
        model = load_learned(unit.learned)
    ref = load_domain(unit.reference)
    out = solve_problem(model, ref, load_problem(unit.problem, ref), name, unit.config, unit.timeout, unit.memory_mb)
    d = out.to_dict()
    d.pop("problem")
    d["planner_seconds"] = d.pop("seconds")
    return d


# --------------------------------------------------------------------------- results file

class ResultsFile:
    """JSON lines: a `meta` line with the settings, then one record per finished unit."""

    def __init__(self, path: str | Path):
        self.path = Path(path)

    def read(self) -> tuple[dict | None, list[dict]]:
        if not self.path.exists():
            return None, []
        meta, recs = None, []
        lines = self.path.read_text().splitlines()
        for i, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                if i == len(lines):  # a line cut short by an interrupted run: that unit is redone
                    break
                raise InputError("not a results file (invalid JSON line)", self.path, i) from None
            if not isinstance(rec, dict) or "task" not in rec:
                raise InputError("not a results file (expected JSON objects with a 'task')", self.path, i)
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
    results: str
    units: int
    done_before: int
    done_now: int
    errors: int
    seconds: float
    domain_seconds: dict = field(default_factory=dict)  # sum of unit times per (learner, domain)

    def to_frame(self):
        import pandas as pd
        return pd.DataFrame([{"learner": k[0], "domain": k[1], "seconds": v} for k, v in self.domain_seconds.items()])


def plan_units(learned: Sequence[str | Path], learners: Sequence[str] | None = None,
               domains: Sequence[str] | None = None, suite: str | Path | None = None, config: str = "greedy",
               timeout: float = 60.0, memory_mb: int | None = 4096, tasks: Sequence[str] = TASKS) -> list[Unit]:
    """All units of a run, domain by domain (compare and eval first: they are the long ones)."""
    suite = Path(suite) if suite else default_suite()
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
    domains = list(domains or PAPER_DOMAINS)
    from ..metrics.solve import problem_files
    units: list[Unit] = []
    for dom in domains:
        ref = suite / "ipc" / "domains" / f"{dom}.pddl"
        if not ref.is_file():
            raise InputError(f"no reference domain for '{dom}' in the suite", ref)
        problems = problem_files(suite / "ipc" / "problems" / "solving" / dom) if "solve" in tasks else []
        states = suite / "states" / dom
        if "eval" in tasks and not states.is_dir():
            raise InputError(f"no test states for '{dom}' (amlasp gen trajectories, see benchmarks/README.md)", states)
        for name, d in zip(names, learned):
            common = dict(learner=name, domain=dom, learned=str(Path(d) / f"{dom}.pddl"), reference=str(ref),
                          config=config, timeout=timeout, memory_mb=memory_mb)
            for t in ("compare", "eval"):
                if t in tasks:
                    units.append(Unit(task=t, states=str(states) if t == "eval" else None, **common))
            units += [Unit(task="solve", problem=str(p), **common) for p in problems]
    return units


def run(learned: Sequence[str | Path], results: str | Path, *, learners: Sequence[str] | None = None,
        domains: Sequence[str] | None = None, suite: str | Path | None = None, jobs: int = 1,
        executor: str = "process", scheduler: str | None = None, config: str = "greedy", timeout: float = 60.0,
        memory_mb: int | None = 4096, tasks: Sequence[str] = TASKS,
        progress: ProgressCallback | None = None) -> RunSummary:
    """Run every unit not yet in `results`, appending each record as soon as it is done.

    `progress("bench", done, total)` is called as units finish (those done before count as done).
    """
    executor = Executor.parse(executor)
    if executor == Executor.DASK and not scheduler:
        raise InputError("--executor dask needs --scheduler ADDRESS (e.g. tcp://host:8786)")
    if jobs < 1:
        raise InputError("--jobs must be at least 1")
    t0 = time.monotonic()
    units = plan_units(learned, learners, domains, suite, config, timeout, memory_mb, tasks)
    rf = ResultsFile(results)
    settings = {"config": config, "timeout": timeout, "memory_mb": memory_mb}
    meta, recs = rf.read()
    if meta is not None and meta.get("settings") != settings:
        raise InputError(f"results file was made with other settings {meta.get('settings')}, not {settings} "
                         "(use another results file)", rf.path)
    rf.repair()
    if meta is None:
        from .. import __version__
        rf.append({"task": "meta", "amlasp": __version__, "settings": settings})
    done = {record_key(r) for r in recs}
    todo = [u for u in units if u.key not in done]
    errors = 0
    per_domain: dict[tuple[str, str], float] = {}
    done_before = len(units) - len(todo)
    if progress:
        progress("bench", done_before, len(units))
    for n, rec in enumerate(_execute(todo, jobs, executor, scheduler), 1):
        rf.append(rec)
        errors += "error" in rec
        k = (rec["learner"], rec["domain"])
        per_domain[k] = per_domain.get(k, 0.0) + rec.get("seconds", 0.0)
        if progress:
            progress("bench", done_before + n, len(units))
    return RunSummary(str(rf.path), len(units), done_before, len(todo), errors, time.monotonic() - t0, per_domain)


def _execute(units: Sequence[Unit], jobs: int, executor: str, scheduler: str | None) -> Iterator[dict]:
    """Records in completion order."""
    if not units:
        return
    if executor == Executor.DASK:
        try:
            from dask.distributed import Client, as_completed as dask_completed
        except ImportError:
            raise InputError("--executor dask needs the optional extra: pip install 'amlasp[dask]'") from None
        with Client(scheduler) as client:
            futures = client.map(run_unit, list(units), pure=False)
            for fut in dask_completed(futures):
                yield fut.result()
        return
    if jobs <= 1:
        for u in units:
            yield run_unit(u)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(run_unit, u) for u in units]
        for fut in as_completed(futures):
            yield fut.result()


__all__ = ["PAPER_DOMAINS", "TASKS", "Executor", "Unit", "run_unit", "ResultsFile", "RunSummary", "plan_units", "run",
           "default_suite"]
