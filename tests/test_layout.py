"""The package stays readable: no module over 450 lines, no function over 60 lines unless a comment
on the line above its `def` says why, and every test module sits beside the tests of the package
it tests (tests/ mirrors amlasp/)."""

from __future__ import annotations

import ast
from pathlib import Path

import amlasp

PACKAGE = Path(amlasp.__file__).parent
TESTS = Path(__file__).parent
MODULE_LINES, FUNCTION_LINES = 450, 60


def test_no_module_over_450_lines():
    long = [f"{p.relative_to(PACKAGE)}: {n} lines" for p in sorted(PACKAGE.rglob("*.py"))
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MODULE_LINES]
    assert not long, long


def test_no_function_over_60_lines_without_a_reason():
    long = []
    for p in sorted(PACKAGE.rglob("*.py")):
        lines = p.read_text(encoding="utf-8").splitlines()
        for node in ast.walk(ast.parse("\n".join(lines))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                size = node.end_lineno - node.lineno + 1
                first = min([node.lineno] + [d.lineno for d in node.decorator_list])
                if size > FUNCTION_LINES and not lines[first - 2].strip().startswith("#"):
                    long.append(f"{p.relative_to(PACKAGE)}:{node.lineno}: {node.name}, {size} lines")
    assert not long, long


def test_tests_mirror_the_package():
    """A test module in a folder of tests/ tests the package of that name; at the top level only the
    tests of top-level modules (and of the package as a whole) stand."""
    folders = {p.name for p in TESTS.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    helpers = {"support", "golden", "fuzz", "data"}
    assert folders - helpers <= {p.name for p in PACKAGE.iterdir() if p.is_dir()}, folders - helpers
    top = {p.stem.removeprefix("test_") for p in TESTS.glob("test_*.py")}
    modules = {p.stem for p in PACKAGE.glob("*.py")} | {"packaging", "layout", "imports"}
    assert top <= modules, top - modules
