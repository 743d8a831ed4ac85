"""The tasks' entries (`tasks.common.TaskEntry`), each found in its module when first asked for: the
questions' modules that run a task (generate, gold, grade) reach it here; `registry` only names them."""

from __future__ import annotations

from functools import lru_cache
from importlib import import_module
from typing import TYPE_CHECKING

from .registry import Task

if TYPE_CHECKING:
    from .tasks.common import TaskEntry


@lru_cache(maxsize=None)
def entry(task: Task | str) -> TaskEntry:
    """The task's entry, from its module (imported on first use)."""
    name = Task(task).value
    found = import_module(f"{__package__}.tasks.{name}").TASK
    if found.task is not Task(name):
        raise RuntimeError(f"internal error: tasks/{name}.py holds the entry of {found.task}")
    return found


def entries() -> list[TaskEntry]:
    """Every task's entry, in the order of `NAMES`."""
    return [entry(t) for t in Task]


def task_table() -> str:
    """The table of tasks in docs/questions.md, from the entries (a test checks that the docs hold it)."""
    rows = ["| task | ACPBench group | the question (gen form) | gen answer |", "| --- | --- | --- | --- |"]
    rows += [f"| `{e.task}` | `{e.group}` | {e.question} | {e.answer} |" for e in entries()]
    return "\n".join(rows)


__all__ = ["entry", "entries", "task_table"]
