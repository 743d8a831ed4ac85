"""Questions as data: the forms, and one item in ACPBench's JSON fields plus ours.

An item is what a reasoner is asked (`context`, `question`, `choices`) and the proven answer
(`answer`), with the PDDL it is about, so that anyone can check it (`evidence`: the witness plan,
the proof, the optimal length). The JSON field order is fixed, so that a file is byte-identical
from run to run.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..limits import check_nesting
from .registry import GROUPS, Form, Task  # noqa: F401 (Form re-exported: items have a form)

LABELS = ("A", "B", "C", "D")


def item_id(*parts: Any) -> int:
    """A stable signed 64-bit id (ACPBench's ids are such integers) from what makes an item unique."""
    digest = hashlib.sha256("\x1f".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


@dataclass
class Item:
    """One question with its proven answer. `answer` is ACPBench's shape for the task and form
    (a list, a dict, an index, "yes"/"no", or a choice label)."""

    id: int
    task: Task
    form: Form
    context: str
    question: str
    answer: Any
    domain_text: str
    problem_text: str
    depth: int = 0
    seed: int = 0
    walk: list[str] = field(default_factory=list)
    evidence: dict = field(default_factory=dict)
    choices: list[str] | None = None  # mcq: the four texts, labelled A-D
    query: str | None = None  # mcq: the question without its choices (ACPBench's field)
    problem: str = ""  # the problem file the item came from

    @property
    def group(self) -> str:
        return f"{GROUPS[self.task.value]}_{self.form}"

    def to_dict(self) -> dict:
        """ACPBench's fields first, in its order, then ours."""
        out: dict[str, Any] = {"id": self.id, "group": self.group, "context": self.context,
                               "question": self.question}
        if self.choices is not None:
            out["choices"] = {"text": list(self.choices), "label": list(LABELS[:len(self.choices)])}
            out["query"] = self.query
        out["answer"] = self.answer
        out["PDDL_domain"] = self.domain_text
        out["PDDL_problem"] = self.problem_text
        out.update({"task": str(self.task), "form": str(self.form), "depth": self.depth, "seed": self.seed,
                    "walk": list(self.walk), "problem": self.problem, "evidence": self.evidence})
        return out


def _record(line: str, path: str | Path, n: int) -> tuple[Any, int, int]:
    """The JSON value of line `n` of a JSON-lines file, its line and column."""
    check_nesting(line, path, n)
    try:
        return json.loads(line), n, len(line) - len(line.lstrip()) + 1
    except json.JSONDecodeError as e:
        raise InputError(f"not JSON: {e.msg}", path, n, e.colno) from None
    except ValueError as e:  # a number of more than 4,300 digits
        raise InputError(f"not JSON: {e}", path, n) from None


def read_records(path: str | Path, errors: list[InputError] | None = None) -> list[tuple[Any, int, int]]:
    """The JSON values of a JSON-lines file, or of a file holding one JSON list (ACPBench's), each with
    its line and column: the one reader of item and answer files, so that a bad record is named by
    its place (`file:line:col`). Given `errors` (a partial run), a JSON line that cannot be read is
    appended there and skipped rather than raised (a JSON list that cannot be read is refused whole)."""
    from ..pddl.source import read_text
    text = read_text(path)
    body = text.lstrip()
    if not body.startswith("["):
        out = []
        for n, line in enumerate(text.split("\n"), 1):
            if line.strip():
                try:
                    out.append(_record(line, path, n))
                except InputError as e:
                    if errors is None:
                        raise
                    errors.append(e)
        return out
    check_nesting(text, path, extra=1)  # the list that holds the records is one level more
    try:
        values = json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"not JSON: {e.msg}", path, e.lineno, e.colno) from None
    except ValueError as e:
        raise InputError(f"not JSON: {e}", path) from None
    if not isinstance(values, list):
        raise InputError("expected JSON lines or one JSON list", path, 1, 1)
    # valid JSON: find where each element starts (raw_decode from one to the next)
    decoder, pos, line, seen = json.JSONDecoder(), len(text) - len(body) + 1, 1, 0
    out = []
    for value in values:
        while text[pos] in " \t\n\r,":
            pos += 1
        line += text.count("\n", seen, pos)
        seen = pos
        out.append((value, line, pos - text.rfind("\n", 0, pos)))
        pos = decoder.raw_decode(text, pos)[1]
    return out


__all__ = ["Task", "Form", "LABELS", "Item", "item_id", "read_records"]
