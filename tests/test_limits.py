"""Nested data has the depth limit PDDL has (limits.check_nesting): 100,000 `[` in any JSON or TOML a
command reads — answers, items, `validate --batch` files, results files, templates, suite manifests —
end in exit 2 and one located line, never a RecursionError (exit 4)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from amlasp.errors import InputError
from amlasp.limits import check_nesting
from tests.support import cli
from tests.support.paths import EXAMPLES

DEEP = "[" * 100_000
BW = EXAMPLES / "blocksworld"
QX = EXAMPLES / "questions"
ONE_LINE = re.compile(r"^amlasp: error: [^\n]+:(\d+):(\d+): nesting deeper than 100 levels [^\n]*\n$")


def test_depth_is_counted_outside_strings_and_located():
    check_nesting('{"a": "' + "[" * 1000 + '"}', "f")  # brackets in a string do not nest
    check_nesting("[" * 100 + "]" * 100, "f")
    with pytest.raises(InputError, match=r"^f:7:102: nesting deeper than 100 levels"):
        check_nesting(" " + DEEP, "f", line=7)
    with pytest.raises(InputError, match=r"^f:2:105: nesting deeper than 100 levels"):
        check_nesting("[\n    " + "[" * 200, "f", extra=1)


def test_toml_strings_comments_and_tables_are_not_nesting():
    check_nesting('a = "[[[["\nb = \'[[[[\'\nc = """\n[[[[\n"""\n# [[[[[[[\n' + "[t]\n" * 500, "m", toml=True)
    with pytest.raises(InputError, match=r"^m:2:"):
        check_nesting("x = 1\ny = " + DEEP, "m", toml=True)


def test_the_limit_is_a_setting(monkeypatch):
    monkeypatch.setenv("AMLASP_MAX_DEPTH", "300")
    check_nesting("[" * 250, "f")


def _inputs(tmp: Path) -> dict[str, list]:
    """One call per reader of nested data, each given 100,000 `[` (or a TOML value nested as deep)."""
    deep_line = tmp / "deep.jsonl"
    deep_line.write_text('{"id": 1, "answer": ' + DEEP + "\n")
    deep_list = tmp / "deep.json"
    deep_list.write_text(DEEP)
    batch = tmp / "batch.jsonl"
    batch.write_text('{"plan": ' + DEEP + "\n")
    results = tmp / "results.jsonl"
    results.write_text('{"task": "meta"}\n{"task": "compare", "summary": ' + DEEP + "}\n{\"task\": \"meta\"}\n")
    templates = tmp / "t.toml"
    templates.write_text('domain = "blocksworld"\nx = ' + DEEP + "\n")
    manifest = tmp / "m.toml"
    manifest.write_text("[domains.a]\nreference = " + DEEP + "\n")
    learned = tmp / "learned"
    learned.mkdir()
    return {
        "answers": ["questions", "grade", QX / "items.jsonl", deep_line],
        "answers (one list)": ["questions", "grade", QX / "items.jsonl", deep_list],
        "items": ["questions", "grade", deep_line, QX / "answers.jsonl"],
        "batch": ["validate", BW / "domain.pddl", BW / "problem.pddl", "--batch", batch],
        "results": ["bench", "report", results],
        "templates": ["questions", "generate", BW / "domain.pddl", BW / "problem.pddl", "--templates", templates],
        "manifest": ["bench", "run", "--learned", learned, "--suite", manifest, "--results", tmp / "r.jsonl"],
    }


@pytest.mark.parametrize("reader", ["answers", "answers (one list)", "items", "batch", "results", "templates",
                                    "manifest"])
def test_deep_nesting_in_every_reader_is_bad_input(reader, tmp_path):
    args = _inputs(tmp_path)[reader]
    r = cli.run_module(*args, timeout=120)
    assert r.returncode == 2, r.stderr[-500:]
    assert ONE_LINE.match(r.stderr), r.stderr[-500:]
