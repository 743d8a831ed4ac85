"""The registry of question tasks: one module per task owns its entry, and what lists the tasks (the
command line, the docs' table) is read from the registry, so that it cannot drift."""

from __future__ import annotations

import pkgutil

import pytest

from amlasp.questions import tasks
from amlasp.questions.catalog import entries, entry, task_table
from amlasp.questions.items import Form, Item
from amlasp.questions.registry import NAMES, Task, task_form_of_group
from tests.support.paths import ROOT


def test_every_task_module_is_named_and_every_name_has_its_module():
    modules = {m.name for m in pkgutil.iter_modules(tasks.__path__)}
    with_entry = {m for m in modules if hasattr(__import__(f"amlasp.questions.tasks.{m}", fromlist=["TASK"]), "TASK")}
    assert with_entry == set(NAMES)
    assert [e.task for e in entries()] == list(Task) and [str(t) for t in Task] == list(NAMES)


def test_groups_are_distinct_and_read_back():
    assert len({e.group for e in entries()}) == len(NAMES)
    for e in entries():
        for f in Form:
            assert task_form_of_group(f"{e.group}_{f}") == (e.task, f)
    assert task_form_of_group("no_such_group_gen") is None
    item = Item(1, Task.NEXTA, Form.MCQ, "", "", "A", "", "")
    assert item.group == "goal_closer_mcq"


def test_an_unknown_task_is_refused():
    with pytest.raises(ValueError):
        entry("fly")


def test_the_docs_table_is_the_registry_s():
    """docs/questions.md's table of tasks is `task_table()` (paste it there when a task changes)."""
    docs = (ROOT / "docs" / "questions.md").read_text()
    assert task_table() in docs, "docs/questions.md: replace the table of tasks with\n" + task_table()


def test_the_command_line_offers_the_registry_s_tasks():
    import typer.main

    from amlasp.cli.group import load_commands
    group = typer.main.get_command(load_commands(["questions"]))
    params = {p.name: p for p in group.commands["questions"].commands["generate"].params}
    assert params["tasks"].default == [",".join(NAMES)]  # a repeatable option: its one default value
