"""One item's grade (`Graded`): below the grader, so that a task's entry (`tasks.common.TaskEntry`),
whose `grade` makes one, can name it without importing the grader."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .registry import Form, Task


@dataclass
class Graded:
    id: Any
    task: Task
    form: Form
    answered: bool
    correct: bool
    reason: str = ""
    answer: str = ""
    precision: float | None = None
    recall: float | None = None
    ambiguous: bool = False  # an answer naming several choices, or both yes and no: neither right nor wrong


__all__ = ["Graded"]
