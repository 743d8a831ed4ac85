"""The paper's tables 3-6 from a bench results file (`experiments.bench.run`).

Domains as rows and learners × metrics as columns, plus a mean row; the solving ratios are
over all problems recorded. Drawing them (Markdown, LaTeX, rich, plots) is `render.bench`
and `render.plots`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from ..choices import Choice
from ..errors import InputError
from ..metrics.solve import ProblemStatus
from .bench import PAPER_DOMAINS, ResultsFile

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


class Aggregate(Choice):
    """`--aggregate`: how the per-action figures of a domain become one."""

    AVG = "avg"  # averaged over the actions
    CUMULATIVE = "cumulative"  # from the counts summed over the actions

    @classmethod
    def option(cls) -> str:
        return "--aggregate"


def _metric(table: str, rec: dict, metric: str, aggregate: Aggregate) -> float | None:
    s = rec.get("summary") or {}
    if table == "syntactic":
        v = s.get(f"{metric}_{'macro' if aggregate == Aggregate.AVG else 'cumulative'}")
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

    def to_dict(self) -> dict:
        """table → domain → learner → metric → value (None: n/a), and the units that failed."""
        return {t.name: {d: {l: {m: t.values.get((d, l, m)) for m, _, _ in t.metrics} for l in t.learners}
                         for d in t.domains} for t in self.tables} | {"errors": list(self.errors)}


def report(results: str | Path, aggregate: str = "avg") -> Report:
    """The paper's tables from a results file (the solving ratios over all problems recorded)."""
    aggregate = Aggregate.parse(aggregate)
    path = Path(results)
    if not path.is_file():
        raise InputError("no such results file", path)
    _, recs = ResultsFile(path).read()
    if not recs:
        raise InputError("the results file has no records", path)
    learners = list(dict.fromkeys(r["learner"] for r in recs))
    seen = set(r["domain"] for r in recs)
    domains = [d for d in PAPER_DOMAINS if d in seen] + sorted(seen - set(PAPER_DOMAINS))
    counts: dict[tuple[str, str], dict[str, int]] = {}
    for r in recs:
        if r["task"] == "solve":
            c = counts.setdefault((r["learner"], r["domain"]), {k.value: 0 for k in ProblemStatus})
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


__all__ = ["TABLES", "Aggregate", "Table", "Report", "report"]
