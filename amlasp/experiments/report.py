"""The paper's tables 3-6 from bench results files (`experiments.bench.run`).

Domains as rows and learners × metrics as columns, plus a mean row. Rules a reviewer can check:

- **n/a is one thing everywhere**: a value is n/a when the task could not be scored — the learned
  model is missing or cannot be used (compare/eval error; every problem `invalid_model`), or the
  unit failed — and an n/a cell is left out of the mean in every table alike (never counted as 0);
  the note of the domain says why (`Report.notes`).
- **means say over how many domains** (`Table.mean_domains`): the label reads `mean (19 domains)`,
  or, when columns differ, a `domains` row gives each column's count.
- **seeds**: results files given together whose learners share a name are seeds of that learner;
  a cell is the mean ± the sample standard deviation over the seeds, n/a unless every seed has a
  value; the mean row is the mean ± std over seeds of each seed's mean over those domains.

Drawing them (Markdown, LaTeX, rich, HTML, plots) is `render.bench`, `render.html`, `render.plots`.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Optional, Sequence

from ..choices import Aggregate  # noqa: F401 (the option's Enum, re-exported here)
from ..errors import InputError
from ..metrics.solve import ProblemStatus
from .bench import ResultsFile
from .suite import PAPER_DOMAINS
from .units import record_key

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
#: Shown when a solve record has an IPC quality score (domains with action costs: units.py asks it there).
QUALITY_TABLE = ("quality", "Problem solving: IPC quality score (best known cost / cost, 0 unsolved)", "solve",
                 (("quality", "Q", True),))
MEAN, DOMAINS_ROW = "mean", "domains"


def _metric(table: str, rec: dict, metric: str, aggregate: Aggregate) -> float | None:
    s = rec.get("summary") or {}
    if table == "syntactic":  # compare's averages were called "macro" before they were "avg"
        key = "avg" if aggregate == Aggregate.AVG else "cumulative"
        v = s.get(f"{metric}_{key}", s.get(f"{metric}_macro") if key == "avg" else None)
    else:
        v = (s.get(table) or {}).get(f"{metric}_{aggregate}")
    return None if v is None or (isinstance(v, float) and math.isnan(v)) else float(v)


@dataclass(frozen=True)
class Table:
    """Domains as rows, learners × metrics as columns.

    `seeds[(domain, learner, metric)]` holds one value per seed (None: n/a in that seed);
    `values` the cell means (absent: n/a), `std` their standard deviations (with 2+ seeds)."""

    name: str
    title: str
    metrics: tuple[tuple[str, str, bool], ...]
    learners: tuple[str, ...]
    domains: tuple[str, ...]
    seeds: dict = field(default_factory=dict)

    @cached_property  # computed once: every cell reads it
    def values(self) -> dict:
        return {k: statistics.fmean(v) for k, v in self.seeds.items() if v and None not in v}

    @cached_property
    def std(self) -> dict:
        return {k: statistics.stdev(v) for k, v in self.seeds.items() if len(v) > 1 and None not in v}

    def mean_domains(self, learner: str, metric: str) -> tuple[str, ...]:
        """The domains the mean of this column is over: those with a value."""
        return tuple(d for d in self.domains if (d, learner, metric) in self.values)

    def uniform_mean(self) -> Optional[int]:
        """The number of domains every column's mean is over, or None when columns differ."""
        counts = {len(self.mean_domains(l, m)) for l in self.learners for m, _, _ in self.metrics}
        return counts.pop() if len(counts) == 1 else None

    def row_labels(self) -> list[str]:
        return list(self.domains) + [MEAN] + ([DOMAINS_ROW] if self.uniform_mean() is None else [])

    def mean_label(self) -> str:
        n = self.uniform_mean()
        return f"mean ({n} domain{'s' * (n != 1)})" if n is not None else MEAN

    def cell(self, row: str, learner: str, metric: str) -> float | int | None:
        """A domain's value (mean over seeds), the mean row, or the `domains` row's count."""
        if row == DOMAINS_ROW:
            return len(self.mean_domains(learner, metric))
        if row != MEAN:
            return self.values.get((row, learner, metric))
        per_seed = self._seed_means(learner, metric)
        return statistics.fmean(per_seed) if per_seed else None

    def cell_std(self, row: str, learner: str, metric: str) -> float | None:
        if row == DOMAINS_ROW:
            return None
        if row != MEAN:
            return self.std.get((row, learner, metric))
        per_seed = self._seed_means(learner, metric)
        return statistics.stdev(per_seed) if len(per_seed) > 1 else None

    def _seed_means(self, learner: str, metric: str) -> list[float]:
        """Each seed's mean over the mean's domains."""
        ds = self.mean_domains(learner, metric)
        if not ds:
            return []
        n = len(self.seeds[(ds[0], learner, metric)])
        return [statistics.fmean(self.seeds[(d, learner, metric)][i] for d in ds) for i in range(n)]

    def best(self, row: str, metric: str, higher: bool) -> float | None:
        if row == DOMAINS_ROW:
            return None
        vals = [v for l in self.learners if (v := self.cell(row, l, metric)) is not None]
        return (max(vals) if higher else min(vals)) if vals else None


@dataclass(frozen=True)
class Report:
    tables: tuple[Table, ...]
    counts: dict  # (learner, domain) -> {status: n} for solve (summed over seeds)
    errors: tuple[dict, ...]
    notes: dict = field(default_factory=dict)  # (learner, domain) -> [why a value is n/a, timeouts, ...]
    meta: tuple[dict, ...] = ()  # the meta line of each results file, with its "file"
    seeds: dict = field(default_factory=dict)  # learner -> number of results files (seeds) it is in

    def table(self, name: str) -> Table:
        return next(t for t in self.tables if t.name == name)

    def to_frame(self):
        """Long form: one row per table, domain, learner and metric (value: the mean over seeds)."""
        import pandas as pd
        rows = [{"table": t.name, "domain": d, "learner": l, "metric": m, "value": t.values.get((d, l, m)),
                 "std": t.std.get((d, l, m)), "seeds": self.seeds.get(l, 1)}
                for t in self.tables for d in t.domains for l in t.learners for m, _, _ in t.metrics]
        return pd.DataFrame(rows, columns=["table", "domain", "learner", "metric", "value", "std", "seeds"])

    def to_dict(self) -> dict:
        """table → domain → learner → metric → value (None: n/a); the means and their domains; notes."""
        out: dict = {}
        for t in self.tables:
            out[t.name] = {d: {l: {m: t.values.get((d, l, m)) for m, _, _ in t.metrics} for l in t.learners}
                           for d in t.domains}
            out[t.name][MEAN] = {l: {m: {"value": t.cell(MEAN, l, m), "std": t.cell_std(MEAN, l, m),
                                         "domains": len(t.mean_domains(l, m))} for m, _, _ in t.metrics}
                                 for l in t.learners}
        return out | {"seeds": dict(self.seeds), "notes": [{"learner": l, "domain": d, "notes": n}
                                                           for (l, d), n in self.notes.items()],
                      "errors": list(self.errors)}


def report(results: str | Path | Sequence[str | Path], aggregate: str = "avg") -> Report:
    """The paper's tables from one results file, or several (seeds of the learners they share)."""
    aggregate = Aggregate.parse(aggregate)
    paths = [Path(results)] if isinstance(results, (str, Path)) else [Path(p) for p in results]
    runs = []
    metas = []
    for path in paths:
        if not path.is_file():
            raise InputError("no such results file", path)
        meta, recs = ResultsFile(path).read()
        if not recs:
            raise InputError("the results file has no records", path)
        latest = {record_key(r): r for r in recs}  # a unit redone after a failure: its last record
        runs.append(list(latest.values()))
        metas.append({"file": str(path)} | (meta or {}))
    learners = list(dict.fromkeys(r["learner"] for recs in runs for r in recs))
    seen = {r["domain"] for recs in runs for r in recs}
    domains = [d for d in PAPER_DOMAINS if d in seen] + sorted(seen - set(PAPER_DOMAINS))
    seed_runs = {l: [recs for recs in runs if any(r["learner"] == l for r in recs)] for l in learners}
    quality = any(r.get("quality") is not None for recs in runs for r in recs if r["task"] == "solve")
    tables = tuple(Table(name, title, metrics, tuple(learners), tuple(domains),
                         _seed_values(name, task, metrics, seed_runs, aggregate))
                   for name, title, task, metrics in TABLES + ((QUALITY_TABLE,) if quality else ()))
    counts = _solve_counts(runs)
    errors = tuple({k: r[k] for k in ("learner", "domain", "task", "error")} for recs in runs for r in recs
                   if "error" in r)
    seeds = {l: len(rs) for l, rs in seed_runs.items()}
    return Report(tables, counts, errors, _notes(runs, counts, seeds), tuple(metas), seeds)


def _seed_values(name: str, task: str, metrics, seed_runs: dict, aggregate: Aggregate) -> dict:
    """(domain, learner, metric) → one value per seed of the learner (None: n/a in that seed)."""
    out: dict = {}
    for learner, runs in seed_runs.items():
        for i, recs in enumerate(runs):
            mine = [r for r in recs if r["learner"] == learner and r["task"] == task]
            for domain, value in _run_values(name, task, metrics, mine, aggregate).items():
                for metric, v in value.items():
                    out.setdefault((domain[0], learner, metric), [None] * len(runs))[i] = v
    return out


def _run_values(name: str, task: str, metrics, recs: list[dict], aggregate: Aggregate) -> dict:
    """(domain,) → metric → value of one learner in one run."""
    out: dict = {}
    if task == "solve":
        by_domain: dict[str, list[dict]] = {}
        for r in recs:
            by_domain.setdefault(r["domain"], []).append(r)
        for d, rs in by_domain.items():
            statuses = [r.get("status") for r in rs]
            usable = not any(r.get("failed") for r in rs) and any(s != ProblemStatus.INVALID_MODEL for s in statuses)
            n = len(statuses)
            scores = [r["quality"] for r in rs if r.get("quality") is not None]
            out[(d,)] = {"solving_ratio": statuses.count("solved") / n if usable else None,
                         "false_plan_ratio": statuses.count("false_plan") / n if usable else None,
                         "quality": sum(scores) / len(scores) if usable and scores else None}
        return out
    for r in recs:
        out[(r["domain"],)] = {key: None if "error" in r else _metric(name, r, key, aggregate) for key, _, _ in metrics}
    return out


def _solve_counts(runs: list[list[dict]]) -> dict:
    counts: dict[tuple[str, str], dict[str, int]] = {}
    for recs in runs:
        for r in recs:
            if r["task"] == "solve":
                c = counts.setdefault((r["learner"], r["domain"]), {k.value: 0 for k in ProblemStatus})
                status = "failed" if r.get("failed") else r.get("status", "error")
                c[status] = c.get(status, 0) + 1
    return counts


def _notes(runs: list[list[dict]], counts: dict, seeds: dict[str, int]) -> dict:
    """(learner, domain) → what a reader of the tables must know: why a cell is n/a, planner limits hit."""
    notes: dict[tuple[str, str], list[str]] = {}
    for recs in runs:
        for r in recs:
            if "error" in r and r["task"] != "solve":
                kind = "failed" if r.get("failed") else "n/a"
                notes.setdefault((r["learner"], r["domain"]), []).append(f"{r['task']} {kind}: {r['error']}")
            elif r.get("failed"):
                notes.setdefault((r["learner"], r["domain"]), []).append(
                    f"solve failed on {r.get('problem')}: {r['error']}")
    for (learner, domain), c in counts.items():
        total = sum(c.values())
        runs_of = f" runs over {seeds[learner]} seeds" if seeds.get(learner, 1) > 1 else ""
        said = notes.setdefault((learner, domain), [])
        if c.get("invalid_model") == total:
            said.append(f"solve n/a: the planner cannot use the learned model (all {total} problem{runs_of or 's'} "
                        "invalid_model)")
        for status, what in (("timeout", "timed out"), ("memout", "ran out of memory"), ("error", "planner error"),
                             ("no_plan", "no plan (proved unsolvable with the learned model)")):
            if c.get(status):
                said.append(f"{c[status]} of {total} problem{runs_of or 's'}: {what}")
    return {k: list(dict.fromkeys(v)) for k, v in notes.items() if v}  # a note once, whatever the seeds


__all__ = ["TABLES", "QUALITY_TABLE", "MEAN", "DOMAINS_ROW", "Aggregate", "Table", "Report", "report"]
