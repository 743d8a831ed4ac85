"""`bench report` as a first-day user calls it: `-o` writes the format its extension names, figures are
an extra (a page without them when matplotlib is missing; `--plots` refused before anything is written)."""

from __future__ import annotations

import csv
import io
import json
import sys

import pytest

from tests.support import cli
from tests.support.paths import ROOT

RESULTS = ROOT / "tests" / "golden" / "inputs" / "bench-results.jsonl"


def _read(path) -> str:
    return path.read_text()


CHECKS = {
    "t.tex": lambda t: t.startswith("\\begin{table}") and "\\toprule" in t,
    "t.csv": lambda t: next(csv.reader(io.StringIO(t)))[:4] == ["table", "domain", "learner", "metric"],
    "t.md": lambda t: t.startswith("**") and "\n| domain |" in t,
    "t.markdown": lambda t: "\n| domain |" in t,
    "t.json": lambda t: "syntactic" in json.loads(t),
    "t.html": lambda t: t.startswith("<!DOCTYPE html>") and "<table>" in t,
}


@pytest.mark.parametrize("name", list(CHECKS))
def test_output_extension_names_the_format(name, tmp_path):
    r = cli.run("bench", "report", RESULTS, "-o", tmp_path / name)
    assert r.exit_code == 0, r.stderr
    text = (tmp_path / name).read_text()
    assert "┏" not in text and CHECKS[name](text), text[:200]


def test_an_unknown_extension_or_a_disagreeing_format_is_refused(tmp_path):
    r = cli.run("bench", "report", RESULTS, "-o", tmp_path / "t.txt")
    assert r.exit_code == 2 and "the extension '.txt' names no format" in r.stderr
    assert not (tmp_path / "t.txt").exists() and r.stdout == ""
    r = cli.run("bench", "report", RESULTS, "-o", tmp_path / "t.csv", "-f", "latex")
    assert r.exit_code == 2 and "--format latex but the extension of -o says csv" in r.stderr
    r = cli.run("bench", "report", RESULTS, "-o", tmp_path / "t.txt", "-f", "table")
    assert r.exit_code == 0 and "┏" in (tmp_path / "t.txt").read_text()  # asked for by name


@pytest.fixture()
def no_matplotlib(monkeypatch):
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # `import matplotlib` raises ImportError


def test_html_without_matplotlib_is_the_page_without_figures(no_matplotlib, tmp_path):
    page = tmp_path / "r.html"
    r = cli.run("bench", "report", RESULTS, "--html", page)
    assert r.exit_code == 0, r.stderr
    text = page.read_text()
    assert "<table>" in text and "<img" not in text and "No figures: plots need matplotlib" in text
    assert "amlasp: warning: the page has no figures: plots need matplotlib" in r.stderr


def test_plots_without_matplotlib_fail_before_anything_is_written(no_matplotlib, tmp_path):
    r = cli.run("bench", "report", RESULTS, "--plots", tmp_path / "figs")
    assert r.exit_code == 2 and "--plots: plots need matplotlib" in r.stderr
    assert r.stdout == "" and not (tmp_path / "figs").exists()
    from amlasp.errors import InputError
    from amlasp.experiments.report import report
    from amlasp.render.plots import plots
    with pytest.raises(InputError):
        plots(report([RESULTS]), tmp_path / "api")
    assert not (tmp_path / "api").exists()
