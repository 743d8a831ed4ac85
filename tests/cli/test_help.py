"""--help at 80 columns: examples broken between arguments (never mid-command), paragraphs reflowed."""

from __future__ import annotations

import inspect

import pytest

from amlasp.cli import EXAMPLE_WIDTH, examples
from tests.support import cli


def _commands(group=cli.app, prefix=()):
    for c in group.registered_commands:
        yield (*prefix, c.name or c.callback.__name__.replace("_", "-"))
    for g in group.registered_groups:
        yield from _commands(g.typer_instance, (*prefix, g.name))


COMMANDS = [()] + list(_commands())


def test_examples_are_continued_lines_that_give_back_the_command():
    command = "amlasp bench run --learned benchmarks/ipc/learned/nolam --domain ferry,miconic --task " \
              "compare,eval -j 2 --results syntax.jsonl"
    lines = [p for p in examples(command).split("\n\n")[2:]]
    assert all(len(x) <= EXAMPLE_WIDTH for x in lines) and len(lines) == 2
    assert " ".join(x.removesuffix(" \\") for x in lines) == command


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c) or "amlasp")
def test_help_at_80_columns_wraps_no_example(command):
    r = cli.run(*command, "--help", env={"COLUMNS": "80", "TERMINAL_WIDTH": "80"})
    assert r.exit_code == 0
    lines = [x.rstrip() for x in r.stdout.splitlines()]
    assert max(map(len, lines)) <= 80
    if " Examples:" not in lines:
        assert "Examples" not in r.stdout
        return
    tail = [x.strip() for x in lines[lines.index(" Examples:") + 1:]]
    blocks = [b.split("\n") for b in "\n".join(tail).strip().split("\n\n")]
    for block in blocks:  # each example: lines ending in a continuation, the first its command's start
        assert block[0].startswith("amlasp "), block
        assert all(x.endswith(" \\") for x in block[:-1]) and not block[-1].endswith("\\"), block


def test_a_paragraph_of_help_has_no_hard_line_break():
    r = cli.run("compare", "--help", env={"COLUMNS": "80", "TERMINAL_WIDTH": "80"})
    lines = r.stdout.splitlines()
    start = next(i for i, x in enumerate(lines) if x.startswith(" Precision and recall"))
    end = next(i for i in range(start, len(lines)) if not lines[i].strip())
    paragraph = lines[start:end]
    assert len(paragraph) >= 2 and all(len(x.rstrip()) > 70 for x in paragraph[:-1])  # filled, not cut at "and"
    doc = inspect.cleandoc(cli.app.registered_commands[0].callback.__doc__)
    assert "\n" in doc.split("\n\n")[1]  # the source keeps its line lengths
