"""`compare_many()`: many candidate files (generated domains, or problems) against one reference, one
row each; a candidate that cannot be read is a row too, with the class of its error.

Each candidate is compared by `compare` (domains) or `compare_problems` (problems, with `domain`);
the candidates run in a process pool with `jobs > 1`, in order, and report `progress`.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from ...errors import KINDS, InputError, TimeLimitReached, UnsupportedError
from ...pddl.inputs import input_files
from ...workers import ProgressCallback, run_pool

if TYPE_CHECKING:
    import pandas as pd

#: Figures of a domain candidate's row (from `CompareResult.summary()`).
DOMAIN_FIGURES = ("edit_distance", "optimal", "f1_macro", "similarity", "action_accuracy", "predicate_f1",
                  "parameter_f1", "precondition_f1", "effect_f1")
#: Figures of a problem candidate's row (from `ProblemComparison.summary()`).
PROBLEM_FIGURES = ("equivalent", "equivalent_notion", "edit_distance", "optimal", "semantic_edit_distance",
                   "solvable", "plan_length")
#: The classes of a candidate that fails (docs/llm.md, "Parse failures").
ERROR_CLASSES = ("syntax", "undefined_symbol", "type_or_arity", "duplicate", "unsupported_feature", "file",
                 "limit", "other")

_KEYWORDS = (
    ("undefined_symbol", ("undefined ", "undeclared ", "unknown ", "not in the domain")),
    ("type_or_arity", (" takes ", " has type ", "given to no name", "type hierarchy", "has no parent")),
    ("duplicate", ("declared twice", "given twice", "duplicate", "one symbol", "meet as one")),
    ("file", ("cannot read", "no such file", "not utf-8", "binary data", "empty file", "is a directory")),
    ("limit", ("nesting", "too large", "too many", "limit")),
)


def error_class(e: Exception) -> str:
    """The class of a candidate's error: what kind of mistake the generator made."""
    if isinstance(e, UnsupportedError):
        return "unsupported_feature"
    if isinstance(e, TimeLimitReached):
        return "limit"
    if not isinstance(e, InputError):
        return "other"
    message = e.message.lower()
    for name, words in _KEYWORDS:
        if any(w in message for w in words):
            return name
    return "syntax"  # the rest of the reader's refusals: a token or a structure that PDDL does not allow


@dataclass(frozen=True)
class ManyResult:
    """One row per candidate (`to_frame()`), and a summary: figures averaged over the candidates
    that were read, and how many failed, per error class."""

    kind: str  # domains | problems
    reference: str
    rows: tuple[dict[str, Any], ...]
    seconds: float = 0.0
    figures: tuple[str, ...] = field(default=DOMAIN_FIGURES)

    @property
    def broken(self) -> bool:
        """Some candidate was read with broken actions left out (`parse_domain(recover=True)`)."""
        return any(r.get("broken_actions") for r in self.rows)

    @property
    def columns(self) -> tuple[str, ...]:
        """The row's columns; `broken_actions` and `broken` (their classes) when some candidate has any."""
        return ("candidate", "status", "error_class", "error", *self.figures,
                *(("broken_actions", "broken") if self.broken else ()), "seconds")

    def records(self) -> list[dict[str, Any]]:
        return [{c: r.get(c, 0 if c == "broken_actions" and r["status"] == "ok" else None) for c in self.columns}
                for r in self.rows]

    @property
    def erred(self) -> tuple[str, ...]:
        """The located messages of the candidates that could not be read (an input error, not a time limit)."""
        return tuple(r["error"] for r in self.rows if r.get(_UNREADABLE))

    def summary(self) -> dict[str, Any]:
        ok = [r for r in self.rows if r["status"] == "ok"]
        out: dict[str, Any] = {"candidates": len(self.rows), "read": len(ok)}
        for c in ERROR_CLASSES:
            out[f"failed_{c}"] = sum(r.get("error_class") == c for r in self.rows)
        if self.broken:  # the actions left out of the candidates that were read, per class of their errors
            out["broken_actions"] = sum(r.get("broken_actions") or 0 for r in self.rows)
            for c in KINDS:
                n = sum(r.get("broken_classes", {}).get(c, 0) for r in self.rows)
                if n:
                    out[f"broken_{c}"] = n
        for f in self.figures:
            vals = [r[f] for r in ok if isinstance(r.get(f), (int, float)) and not isinstance(r.get(f), str)]
            vals = [float(v) for v in vals if not (isinstance(v, float) and math.isnan(v))]
            if vals:
                out[f"mean_{f}"] = sum(vals) / len(vals)
        out["candidates_per_second"] = len(self.rows) / self.seconds if self.seconds > 0 else None
        return out

    def summary_records(self) -> list[dict[str, Any]]:
        return [{"metric": k, "value": v} for k, v in self.summary().items()]

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "reference": self.reference, "candidates": self.records(),
                "summary": self.summary(), "seconds": round(self.seconds, 3)}

    def to_frame(self) -> pd.DataFrame:
        import pandas as pd
        return pd.DataFrame(self.records(), columns=list(self.columns))

    def summary_frame(self) -> pd.DataFrame:
        import pandas as pd
        return pd.DataFrame(self.summary_records(), columns=["metric", "value"])


#: The key (not a column) that marks the row of a candidate that could not be read (`ManyResult.erred`).
_UNREADABLE = "_unreadable"


@dataclass(frozen=True)
class _Task:
    """One candidate's work, picklable for the process pool."""

    candidate: Path
    reference: Path
    domain: Path | None
    options: tuple[tuple[str, Any], ...]
    keep_going: bool = True  # False (--strict): a candidate that cannot be read stops the run


def _one(task: _Task) -> dict[str, Any]:
    """A candidate's row: its figures, or its error and the error's class."""
    t0 = time.perf_counter()
    row: dict[str, Any] = {"candidate": str(task.candidate), "status": "ok", "error_class": None, "error": None}
    try:
        if task.domain is None:
            from ...pddl.parse import load_domain
            from .driver import compare
            # a predicate used but never declared breaks the actions that use it (undeclared-predicate); a broken
            # action is left out (scored as missing), a file that cannot be read at all is a failure
            learned = load_domain(task.candidate, recover=True)
            s = compare(learned, task.reference, **dict(task.options)).summary()
            row.update({f: s.get(f) for f in DOMAIN_FIGURES})
            broken = [b for b in learned.broken if b.kind in ("action", "derived")]
            if broken:
                row["broken_actions"] = len(broken)
                row["broken_classes"] = {c: sum(b.error == c for b in broken) for c in dict.fromkeys(
                    b.error for b in broken)}
                row["broken"] = " ".join(f"{b.name or '?'}:{b.error}" for b in broken)
        else:
            from .problems import compare_problems
            s = compare_problems(task.candidate, task.reference, task.domain, **dict(task.options)).summary()
            row.update({f: s.get(f) for f in PROBLEM_FIGURES})
    except (InputError, TimeLimitReached) as e:
        if isinstance(e, InputError) and not task.keep_going:
            raise
        row.update({"status": "error", "error_class": error_class(e), "error": str(e),
                    _UNREADABLE: isinstance(e, InputError)})
    row["seconds"] = time.perf_counter() - t0
    return row


def compare_many(candidates: str | Path | Iterable[str | Path], reference: str | Path, *,
                 domain: str | Path | None = None, jobs: int = 1, progress: ProgressCallback | None = None,
                 **options: Any) -> pd.DataFrame:
    """`compare_candidates(...).to_frame()`: one row per candidate (the Python API's one frame)."""
    return compare_candidates(candidates, reference, domain=domain, jobs=jobs, progress=progress,
                              **options).to_frame()


def compare_candidates(candidates: str | Path | Iterable[str | Path], reference: str | Path, *,
                       domain: str | Path | None = None, jobs: int = 1, progress: ProgressCallback | None = None,
                       keep_going: bool = True, **options: Any) -> ManyResult:
    """Every candidate file (a folder's *.pddl, in natural order, or a list) against `reference`:
    domains, or problems of `domain` when it is given. `options` go to `compare` (time_limit,
    as_written, rename, align) or to `compare_problems` (goals, max_states, time_limit).
    The reference (and domain) must be readable: a bad one is the caller's error, not a row.
    `keep_going=False` (`amlasp --strict`): the first candidate that cannot be read raises its error."""
    from ...pddl.parse import load_domain, load_problem
    files = input_files([candidates] if isinstance(candidates, (str, Path)) else list(candidates), "*.pddl")
    if not files:
        raise InputError(f"no candidate files (*.pddl) in {candidates}")
    ref = Path(reference)
    if domain is None:
        load_domain(ref)
    else:
        load_problem(ref, load_domain(domain))
    t0 = time.perf_counter()
    work: Sequence[_Task] = [_Task(f, ref, Path(domain) if domain else None, tuple(sorted(options.items())),
                                   keep_going) for f in files]
    rows = tuple(run_pool(_one, work, jobs, progress, "candidates"))
    return ManyResult("domains" if domain is None else "problems", str(ref), rows, time.perf_counter() - t0,
                      DOMAIN_FIGURES if domain is None else PROBLEM_FIGURES)


__all__ = ["compare_many", "compare_candidates", "ManyResult", "error_class", "ERROR_CLASSES", "DOMAIN_FIGURES",
           "PROBLEM_FIGURES"]
