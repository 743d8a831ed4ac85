"""Benchmark runs over the paper's suite: compare, eval and solve for every learner and domain.

`run` cuts the work into units (one `compare` and one `eval` per learner and domain, one
`solve` per problem), runs them in a process pool or on a Dask cluster, and appends one
JSON line per finished unit to the results file, so an interrupted run resumes where it
stopped. `report` reads that file into the paper's tables (domains as rows, learners as
columns, the best value of each row in bold) and plots.

Suite layout (`--suite DIR`, default the repository's `benchmarks/`):
`ipc/domains/<d>.pddl` (references), `ipc/problems/solving/<d>/*.pddl` (problems to solve),
`states/<d>/*_traj` with `states/<d>/problems/` (test states, `amlasp gen trajectories`).
"""

from __future__ import annotations

import json
import math
import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Optional, Sequence

from ..errors import InputError
from ..render import clean, fmt, latex_escape, rich_table, to_csv, to_json

#: The 20 IPC learning-track domains of the paper, in the order of its tables.
PAPER_DOMAINS: tuple[str, ...] = (
    "barman", "blocksworld", "childsnack", "depots", "elevators", "ferry", "floortile", "goldminer", "grippers",
    "matchingbw", "miconic", "nomystery", "npuzzle", "parking", "rovers", "satellite", "sokoban", "spanner", "tpp",
    "transport",
)
TASKS = ("compare", "eval", "solve")
EXECUTORS = ("process", "dask")


def default_suite() -> Path:
    """The repository's `benchmarks/` (next to the package), else `./benchmarks`."""
    here = Path(__file__).resolve().parent.parent / "benchmarks"
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
            rec["summary"] = clean(ev.to_dict()["summary"])
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
        memory_mb: int | None = 4096, tasks: Sequence[str] = TASKS, progress: bool = False) -> RunSummary:
    """Run every unit not yet in `results`, appending each record as soon as it is done."""
    if executor not in EXECUTORS:
        raise InputError(f"unknown --executor '{executor}' (choose from {', '.join(EXECUTORS)})")
    if executor == "dask" and not scheduler:
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
    from ..metrics.solve import progress_bar
    bar = progress_bar(progress)
    with bar:
        task = bar.add_task("bench", total=len(units), completed=len(units) - len(todo))
        for rec in _execute(todo, jobs, executor, scheduler):
            rf.append(rec)
            errors += "error" in rec
            k = (rec["learner"], rec["domain"])
            per_domain[k] = per_domain.get(k, 0.0) + rec.get("seconds", 0.0)
            bar.advance(task)
    return RunSummary(str(rf.path), len(units), len(units) - len(todo), len(todo), errors,
                      time.monotonic() - t0, per_domain)


def _execute(units: Sequence[Unit], jobs: int, executor: str, scheduler: str | None) -> Iterator[dict]:
    """Records in completion order."""
    if not units:
        return
    if executor == "dask":
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


# --------------------------------------------------------------------------- report

#: The paper's tables 3-6: (name, title, source task, [(metric key, label, higher is better)]).
TABLES = (
    ("syntactic", "Syntactic precision and recall", "compare", (("precision", "P", True), ("recall", "R", True))),
    ("applicability", "Predictive power: applicability precision and recall", "eval",
     (("precision", "P", True), ("recall", "R", True))),
    ("effects", "Predictive power: effect precision and recall", "eval",
     (("precision", "P", True), ("recall", "R", True))),
    ("solving", "Problem solving: solving ratio and false-plan ratio", "solve",
     (("solving_ratio", "solved", True), ("false_plan_ratio", "false", False))),
)
AGGREGATES = ("avg", "cumulative")


def _metric(table: str, rec: dict, metric: str, aggregate: str) -> float | None:
    s = rec.get("summary") or {}
    if table == "syntactic":
        v = s.get(f"{metric}_{'macro' if aggregate == 'avg' else 'cumulative'}")
    else:
        v = (s.get(table) or {}).get(f"{metric}_{aggregate}")
    return None if v is None or (isinstance(v, float) and math.isnan(v)) else float(v)


@dataclass(frozen=True)
class Table:
    """Domains as rows, learners × metrics as columns; `values[(domain, learner, metric)]` (None: n/a)."""

    name: str
    title: str
    metrics: tuple[tuple[str, str, bool], ...]
    learners: tuple[str, ...]
    domains: tuple[str, ...]
    values: dict

    def columns(self) -> list[str]:
        return ["domain"] + [f"{l} {lab}" for l in self.learners for _, lab, _ in self.metrics]

    def row_labels(self) -> list[str]:
        return list(self.domains) + ["mean"]

    def cell(self, row: str, learner: str, metric: str) -> float | None:
        if row != "mean":
            return self.values.get((row, learner, metric))
        vals = [self.values.get((d, learner, metric)) for d in self.domains]
        vals = [v for v in vals if v is not None]
        return sum(vals) / len(vals) if vals else None

    def best(self, row: str, metric: str, higher: bool) -> float | None:
        vals = [v for l in self.learners if (v := self.cell(row, l, metric)) is not None]
        return (max(vals) if higher else min(vals)) if vals else None

    def rows(self, mark: Callable[[str], str] | None = None) -> list[list]:
        """Plain rows (numbers; `mark` wraps the formatted best value of each row and metric)."""
        out = []
        for r in self.row_labels():
            row: list[Any] = [r]
            for l in self.learners:
                for key, _, higher in self.metrics:
                    v = self.cell(r, l, key)
                    if mark is None:
                        row.append(v)
                    else:
                        s = fmt(v)
                        best = self.best(r, key, higher)
                        row.append(mark(s) if v is not None and best is not None and
                                   abs(v - best) < 1e-9 and len(self.learners) > 1 else s)
            out.append(row)
        return out

    def csv(self) -> str:
        return to_csv(self.columns(), self.rows())

    def markdown(self) -> str:
        cols = self.columns()
        lines = [f"**{self.title}**", "", "| " + " | ".join(cols) + " |",
                 "|" + "|".join("---" if i == 0 else "---:" for i in range(len(cols))) + "|"]
        lines += ["| " + " | ".join(map(str, r)) + " |" for r in self.rows(lambda s: f"**{s}**")]
        return "\n".join(lines) + "\n"

    def latex(self) -> str:
        k = len(self.metrics)
        head1 = " & ".join(["Domain"] + [rf"\multicolumn{{{k}}}{{c}}{{{latex_escape(l)}}}" for l in self.learners])
        rules = " ".join(rf"\cmidrule(lr){{{2 + i * k}-{1 + (i + 1) * k}}}" for i in range(len(self.learners)))
        head2 = " & ".join([""] + [latex_escape(lab) for _ in self.learners for _, lab, _ in self.metrics])
        body = []
        for i, r in enumerate(self.rows(lambda s: r"\textbf{" + s + "}")):
            if i == len(self.domains):
                body.append(r"\midrule")
            body.append(" & ".join([latex_escape(str(r[0]))] + [str(c) for c in r[1:]]) + r" \\")
        return "\n".join([r"\begin{table}[t]", r"\centering", r"\begin{tabular}{l" + "r" * (k * len(self.learners))
                          + "}", r"\toprule", head1 + r" \\", rules, head2 + r" \\", r"\midrule", *body,
                          r"\bottomrule", r"\end{tabular}", r"\caption{" + latex_escape(self.title) + "}",
                          rf"\label{{tab:{self.name}}}", r"\end{table}"]) + "\n"

    def rich(self):
        return rich_table(self.title, self.columns(), [[r[0]] + r[1:] for r in self.rows(lambda s: f"[bold]{s}[/bold]")])


@dataclass(frozen=True)
class Report:
    tables: tuple[Table, ...]
    counts: dict  # (learner, domain) -> {category: n} for solve
    errors: tuple[dict, ...]

    def table(self, name: str) -> Table:
        return next(t for t in self.tables if t.name == name)

    def to_frame(self):
        import pandas as pd
        rows = [{"table": t.name, "domain": d, "learner": l, "metric": m, "value": t.values.get((d, l, m))}
                for t in self.tables for d in t.domains for l in t.learners for m, _, _ in t.metrics]
        return pd.DataFrame(rows, columns=["table", "domain", "learner", "metric", "value"])

    def markdown(self) -> str:
        return "\n".join(t.markdown() for t in self.tables)

    def latex(self) -> str:
        return "\n".join(t.latex() for t in self.tables)

    def csv(self) -> str:
        return to_csv(["table", "domain", "learner", "metric", "value"],
                      [list(r) for r in self.to_frame().itertuples(index=False)])

    def json(self) -> str:
        return to_json({t.name: {d: {l: {m: t.values.get((d, l, m)) for m, _, _ in t.metrics} for l in t.learners}
                                 for d in t.domains} for t in self.tables} | {"errors": list(self.errors)})

    def plots(self, out_dir: str | Path, formats: Sequence[str] = ("png", "svg")) -> list[Path]:
        """Per-domain precision/recall per learner (grouped bars), one figure per table."""
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            raise InputError("plots need matplotlib: pip install 'amlasp[plot]'") from None
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        written: list[Path] = []
        for t in self.tables:
            fig, axes = plt.subplots(len(t.metrics), 1, figsize=(max(6.0, 0.55 * len(t.domains) + 2), 2.6 * len(t.metrics)),
                                     sharex=True, squeeze=False)
            width = 0.8 / max(1, len(t.learners))
            for ax, (key, label, _) in zip(axes[:, 0], t.metrics):
                for i, l in enumerate(t.learners):
                    ys = [t.values.get((d, l, key)) for d in t.domains]
                    xs = [j + (i - (len(t.learners) - 1) / 2) * width for j in range(len(t.domains))]
                    ax.bar(xs, [y if y is not None else 0.0 for y in ys], width, label=l)
                ax.set_ylabel({"P": "precision", "R": "recall", "solved": "solving ratio",
                               "false": "false-plan ratio"}.get(label, key.replace("_", " ")))
                ax.set_ylim(0, 1.22)  # room for the legend above the bars
                ax.set_yticks([0, 0.25, 0.5, 0.75, 1.0])
                ax.grid(axis="y", alpha=0.3)
            axes[-1, 0].set_xticks(range(len(t.domains)))
            axes[-1, 0].set_xticklabels(t.domains, rotation=60, ha="right")
            axes[0, 0].set_title(t.title)
            axes[0, 0].legend(fontsize="small", ncol=min(6, len(t.learners)), loc="upper right")
            fig.tight_layout()
            for f in formats:
                path = out / f"{t.name}.{f}"
                fig.savefig(path)
                written.append(path)
            plt.close(fig)
        return written


def report(results: str | Path, aggregate: str = "avg") -> Report:
    """The paper's tables from a results file (the solving ratios over all problems recorded)."""
    if aggregate not in AGGREGATES:
        raise InputError(f"unknown --aggregate '{aggregate}' (choose from {', '.join(AGGREGATES)})")
    path = Path(results)
    if not path.is_file():
        raise InputError("no such results file", path)
    _, recs = ResultsFile(path).read()
    if not recs:
        raise InputError("the results file has no records", path)
    learners = list(dict.fromkeys(r["learner"] for r in recs))
    seen = set(r["domain"] for r in recs)
    domains = [d for d in PAPER_DOMAINS if d in seen] + sorted(seen - set(PAPER_DOMAINS))
    from ..metrics.solve import CATEGORIES
    counts: dict[tuple[str, str], dict[str, int]] = {}
    for r in recs:
        if r["task"] == "solve":
            c = counts.setdefault((r["learner"], r["domain"]), {k: 0 for k in CATEGORIES})
            c[r.get("status", "error")] = c.get(r.get("status", "error"), 0) + 1
    tables = []
    for name, title, task, metrics in TABLES:
        values: dict = {}
        for r in recs:
            if r["task"] != task:
                continue
            if task == "solve":
                c = counts[(r["learner"], r["domain"])]
                n = sum(c.values())
                values[(r["domain"], r["learner"], "solving_ratio")] = c["solved"] / n
                values[(r["domain"], r["learner"], "false_plan_ratio")] = c["false_plan"] / n
            elif "error" not in r:
                for key, _, _ in metrics:
                    values[(r["domain"], r["learner"], key)] = _metric(name, r, key, aggregate)
        tables.append(Table(name, title, metrics, tuple(learners), tuple(domains), values))
    errors = tuple({k: r[k] for k in ("learner", "domain", "task", "error")} for r in recs if "error" in r)
    return Report(tuple(tables), counts, errors)


__all__ = ["PAPER_DOMAINS", "TASKS", "Unit", "run_unit", "ResultsFile", "RunSummary", "plan_units", "run", "Table",
           "Report", "report", "default_suite"]
