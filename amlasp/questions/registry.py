"""The question tasks, in one place: their names here, everything else in one module per task.

Each task is the module `tasks/<name>.py`, whose `TASK` (a `tasks.common.TaskEntry`) owns all
of it: the ACPBench group, the docs' wording, the generator of its questions, the re-derivation of
its gold answer and the grading of a free answer. `NAMES` only orders them (`--tasks`, reports,
docs); it is light, so that the command line lists the tasks without importing what computes them.
Adding a task: its module, and its name here.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import import_module
from typing import TYPE_CHECKING

from ..enums import TextEnum

if TYPE_CHECKING:
    from .tasks.common import TaskEntry

#: ACPBench's eight, then the three of Banerjee et al.: the order of `--tasks`, of reports, of the docs.
NAMES = ("app", "prog", "reach", "areach", "val", "just", "land", "nexta", "verify", "count", "value")

class Form(TextEnum):
    """A free answer in PDDL syntax, yes/no, or one of four choices."""

    GEN = "gen"
    BOOL = "bool"
    MCQ = "mcq"


#: A task by its name (`Task("app")`, `Task.APP`); what it means is its entry's.
Task = TextEnum("Task", [(n.upper(), n) for n in NAMES], module=__name__)


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


def task_form_of_group(group: str) -> tuple[Task, Form] | None:
    """ACPBench's `group` (e.g. `applicable_actions_gen`) → (task, form), None when unknown."""
    stem, _, form = group.rpartition("_")
    for e in entries():
        if e.group == stem and form in {f.value for f in Form}:
            return e.task, Form(form)
    return None


def task_table() -> str:
    """The table of tasks in docs/questions.md, from the entries (a test checks that the docs hold it)."""
    rows = ["| task | ACPBench group | the question (gen form) | gen answer |", "| --- | --- | --- | --- |"]
    rows += [f"| `{e.task}` | `{e.group}` | {e.question} | {e.answer} |" for e in entries()]
    return "\n".join(rows)


__all__ = ["NAMES", "Form", "Task", "entry", "entries", "task_form_of_group", "task_table"]
