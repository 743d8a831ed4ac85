"""The shape of a results file's records (docs/bench.md), checked where the file is read.

A results file is an input like any other: it may be edited by hand, merged from several runs,
or written by another version. `bench run` (resuming) and `bench report` read learners, domains,
tasks and metric values from it; a record whose fields have the wrong type is refused at its
line here, so that no later `rec["learner"]` or `float("high")` ends in a traceback.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..errors import InputError

#: The tasks a record can be of: the `meta` line, and one per kind of unit.
RECORD_TASKS = ("meta", "compare", "eval", "solve")
#: The text fields of a unit's record: required, and optional.
_REQUIRED = ("learner", "domain")
_OPTIONAL_TEXT = ("problem", "status", "error", "detail", "error_class")
#: A unit's time split (`experiments.timing`): seconds, each optional (older records lack the last two).
_SECONDS = ("seconds", "planner_seconds", "validation_seconds")
#: A metric value in a summary (`precision_macro`, `recall_avg`, `f1_cumulative`): a number or null.
_METRIC = re.compile(r".*_(?:macro|avg|cumulative)(?:_.*)?$")
#: Tables of a summary that hold metric values of their own (eval: applicability, effects).
_OBJECTS = ("applicability", "effects")


def _number(v: Any) -> bool:
    return v is None or isinstance(v, (int, float)) and not isinstance(v, bool)


def check_record(rec: Any, path: str | Path, line: int) -> dict:
    """`rec` if it is a results record; else a located refusal that names the field."""
    def bad(message: str) -> InputError:
        return InputError(f"not a results record: {message}", path, line)

    if not isinstance(rec, dict) or not isinstance(rec.get("task"), str):
        raise bad("expected a JSON object with a 'task'")
    if rec["task"] not in RECORD_TASKS:
        raise bad(f"unknown task '{rec['task']}' (expected one of {', '.join(RECORD_TASKS)})")
    if rec["task"] == "meta":
        for key in ("settings", "versions"):
            if rec.get(key) is not None and not isinstance(rec[key], dict):
                raise bad(f"'{key}' must be an object")
        return rec
    for key in _REQUIRED:
        if not isinstance(rec.get(key), str) or not rec[key]:
            raise bad(f"'{key}' must be a non-empty string" if key in rec else f"no '{key}'")
    for key in _OPTIONAL_TEXT:
        if rec.get(key) is not None and not isinstance(rec[key], str):
            raise bad(f"'{key}' must be a string")
    if rec.get("failed") is not None and not isinstance(rec["failed"], bool):
        raise bad("'failed' must be true or false")
    for key in _SECONDS:
        if rec.get(key) is not None and not (_number(rec[key]) and 0 <= rec[key] < float("inf")):
            raise bad(f"'{key}' must be a number of seconds (at least 0)")
    _check_summary(rec.get("summary"), bad)
    return rec


def _check_summary(summary: Any, bad) -> None:
    if summary is None:
        return
    if not isinstance(summary, dict):
        raise bad("'summary' must be an object")
    tables = [("summary", summary)]
    for key in _OBJECTS:
        if key in summary:
            if summary[key] is not None and not isinstance(summary[key], dict):
                raise bad(f"'summary.{key}' must be an object")
            tables.append((f"summary.{key}", summary[key] or {}))
    for where, table in tables:
        for key, v in table.items():
            if _METRIC.fullmatch(key) and not _number(v):
                raise bad(f"'{where}.{key}' must be a number or null, not {type(v).__name__}")


__all__ = ["RECORD_TASKS", "check_record"]
