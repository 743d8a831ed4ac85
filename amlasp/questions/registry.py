"""The question tasks' names, in one place; everything else in one module per task (`catalog.entry`).

Each task is the module `tasks/<name>.py`, whose `TASK` (a `tasks.common.TaskEntry`) owns all of it:
the docs' wording, the generator of its questions, the re-derivation of its gold answer and the
grading of a free answer. Here are only names: `NAMES` orders the tasks (`--tasks`, reports, docs),
`GROUPS` names each one's ACPBench group. It imports nothing of the questions, so that the command line
lists the tasks without importing what computes them, and every module can name a task. Adding a task:
its module, and its names here.
"""

from __future__ import annotations

from ..enums import TextEnum

#: ACPBench's eight, then the three of Banerjee et al.: the order of `--tasks`, of reports, of the docs.
NAMES = ("app", "prog", "reach", "areach", "val", "just", "land", "nexta", "verify", "count", "value")

#: Each task's ACPBench group stem (an item's group is `<stem>_<form>`).
GROUPS = {"app": "applicable_actions", "prog": "progression", "reach": "reachable_atom",
          "areach": "reachable_action", "val": "validation", "just": "action_justification",
          "land": "landmarks", "nexta": "goal_closer", "verify": "fact_verification", "count": "counting",
          "value": "object_value"}


class Form(TextEnum):
    """A free answer in PDDL syntax, yes/no, or one of four choices."""

    GEN = "gen"
    BOOL = "bool"
    MCQ = "mcq"


#: A task by its name (`Task("app")`, `Task.APP`); what it means is its entry's.
Task = TextEnum("Task", [(n.upper(), n) for n in NAMES], module=__name__)


def task_form_of_group(group: str) -> tuple[Task, Form] | None:
    """ACPBench's `group` (e.g. `applicable_actions_gen`) → (task, form), None when unknown."""
    stem, _, form = group.rpartition("_")
    for name in NAMES:
        if GROUPS[name] == stem and form in {f.value for f in Form}:
            return Task(name), Form(form)
    return None


__all__ = ["GROUPS", "NAMES", "Form", "Task", "task_form_of_group"]
