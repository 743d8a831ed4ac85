"""Text from inputs escaped for the format it goes into (render/escape.py), and through every writer:
a learner, domain or answer named to attack a spreadsheet, a Markdown table, a LaTeX file, an HTML
page, rich's markup, a terminal or matplotlib's mathtext prints as itself and never crashes."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest

from amlasp.render import escape
from amlasp.render.formats import to_csv, to_latex, to_markdown
from tests.support import cli
from tests.support.paths import ROOT

#: Names a hostile or careless input may carry: markup, formulas, HTML, TeX and mathtext, terminal escapes.
HOSTILE = ["[/bold]", "[link=http://evil.example]x[/link]", "=HYPERLINK(\"http://e\",\"x\")", "+1+cmd", "-2+3",
           "@SUM(A1)", "\tx", "a|b <script>alert(1)</script>", "sam$\\frac{$x", "\x1b]8;;http://e\x07hi\x1b[31m",
           "50% & #1_{x}^~\\"]


@pytest.mark.parametrize("text", ["=1+2", "+1+1", "-cmd", "@x", "\t=1", "-1+2", "-inf"])
def test_csv_formulas_are_neutralised(text):
    assert escape.csv_cell(text) == "'" + text


def test_csv_control_characters_are_shown_as_escapes():
    assert escape.csv_cell("\r=1") == "\\x0d=1" and escape.csv_cell("a\x1b[31m") == "a\\x1b[31m"
    assert escape.csv_cell("two\nlines\tand a tab") == "two\nlines\tand a tab"


@pytest.mark.parametrize("value", [-0.5, "-0.5", "+3", "1e-3", "-2E+5", 0, "plain", "", None, True])
def test_csv_numbers_and_plain_text_stay_as_they_are(value):
    assert escape.csv_cell(value) == value


def test_csv_keeps_real_numbers_numeric_for_a_reader():
    text = to_csv(["name", "value"], [["=cmd", -0.5], ["-0.5", 1.0]])
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[1] == ["'=cmd", "-0.5"] and rows[2] == ["-0.5", "1.0"]


def test_markdown_cells_cannot_break_the_table_or_carry_html():
    md = to_markdown(["learner", "v"], [["a|b <script>x</script> [l](http://e) `c`\nnext", 1]])
    row = md.splitlines()[2]
    assert re.sub(r"\\.", "", row).count("|") == 3  # the row's own three bars; the input's is escaped
    assert "<script>" not in md and "&lt;script&gt;" in md and "\\[l\\]" in md and "\\`c\\`" in md
    assert len(md.splitlines()) == 3  # the newline did not start a row


def test_latex_and_html_escape_every_special_character():
    tex = to_latex(["learner"], [["50% & #1_{x}^~\\ $y$"]])
    assert r"50\% \& \#1\_\{x\}\textasciicircum{}\textasciitilde{}\textbackslash{} \$y\$" in tex
    assert escape.html("<b a=\"1\">&'") == "&lt;b a=&quot;1&quot;&gt;&amp;&#x27;"


def test_control_characters_are_shown_never_sent():
    assert escape.control("\x1b]8;;http://e\x07hi\x1b[31m\u202e") == "\\x1b]8;;http://e\\x07hi\\x1b[31m\\u202e"
    assert escape.control("a\nb\tc", lines=True) == "a\nb\tc"
    assert escape.control("a\nb") == "a\\x0ab"


def test_markup_prints_tags_literally():
    from rich.console import Console
    from rich.text import Text
    for name in HOSTILE:
        text = Text.from_markup(escape.markup(name))
        # a final backslash is doubled, so that a closing tag of ours after it stays a tag
        assert text.plain.rstrip("\\") == escape.control(name, lines=True).rstrip("\\") and not text.spans
    assert escape.markup(escape.Markup("[bold]x[/bold]")) == "[bold]x[/bold]"
    c = Console(file=io.StringIO(), width=200, color_system="truecolor")
    c.print(escape.markup("[link=http://evil]x[/link]"))
    assert "\x1b]8;" not in c.file.getvalue()  # no terminal hyperlink


def test_plot_labels_are_literal_and_short():
    assert escape.plot("sam$\\frac{$x") == "sam\\$\\frac{\\$x"
    label = escape.plot("x" * 5000)
    assert len(label) == escape.PLOT_LABEL and label.endswith("…")


# --------------------------------------------------------------------------- through the commands

META = {"task": "meta", "amlasp": "0.1.0", "settings": {"config": "greedy", "timeout": 60, "memory_mb": 4096}}


def _results(path: Path, learners: list[str], domains: list[str]) -> Path:
    recs = [META]
    for i, l in enumerate(learners):
        for d in domains:
            p = 0.5 + 0.1 * (i % 4)
            recs.append({"learner": l, "domain": d, "task": "compare", "seconds": 0.1,
                         "summary": {"precision_macro": p, "recall_macro": 1.0, "precision_cumulative": p,
                                     "recall_cumulative": 1.0}})
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    return path


@pytest.fixture()
def hostile(tmp_path) -> Path:
    return _results(tmp_path / "results.jsonl", HOSTILE + ["L" * 5000],
                    ["blocksworld", "=cmd|' /C calc'!A0", "\x1b[2Jwipe"])


def test_bench_report_table_prints_hostile_learner_names_literally(hostile):
    r = cli.run("bench", "report", hostile)
    assert r.exit_code == 0, r.stderr
    assert "[/bold]" in r.stdout and "[link=http://evil.example]" in r.stdout
    assert "\x1b" not in r.stdout and "\\x1b" in r.stdout


def test_bench_report_csv_is_safe_in_a_spreadsheet(hostile):
    r = cli.run("bench", "report", hostile, "-f", "csv")
    assert r.exit_code == 0, r.stderr
    rows = list(csv.reader(io.StringIO(r.stdout)))
    cells = [c for row in rows[1:] for c in row]
    assert not [c for c in cells if c[:1] in ("=", "+", "@", "\t", "\r")
                or c.startswith("-") and not re.fullmatch(r"-[0-9.e+-]+", c)]
    assert "'=HYPERLINK(\"http://e\",\"x\")" in cells and "'-2+3" in cells
    assert any(c == "0.5" for c in cells)  # numbers stay numbers


def test_bench_report_markdown_latex_and_html_escape_names(hostile, tmp_path):
    md = cli.run("bench", "report", hostile, "-f", "markdown").stdout
    assert "<script>" not in md and all(line.endswith("|") for line in md.splitlines() if line.startswith("|"))
    tex = cli.run("bench", "report", hostile, "-f", "latex").stdout
    assert r"sam\$\textbackslash{}frac\{\$x" in tex and "\x1b" not in tex
    page = tmp_path / "r.html"
    r = cli.run("bench", "report", hostile, "--html", page)
    assert r.exit_code == 0, r.stderr
    text = page.read_text()
    assert "<script>" not in text and "&lt;script&gt;" in text and "\x1b" not in text


def test_bench_report_plots_with_mathtext_and_long_names(hostile, tmp_path):
    pytest.importorskip("matplotlib")
    r = cli.run("bench", "report", hostile, "--plots", tmp_path / "figs", "--plot-format", "svg")
    assert r.exit_code == 0, r.stderr
    svg = (tmp_path / "figs" / "syntactic.svg").read_text()
    assert "sam$\\frac{$x" in svg and "L" * 39 + "…" in svg and "L" * 41 not in svg


def test_questions_grade_prints_answers_literally(tmp_path):
    ex = ROOT / "examples" / "questions"
    answers = [json.loads(line) for line in (ex / "answers.jsonl").read_text().splitlines()]
    answers[0]["answer"] = "[/bold] [link=http://evil]x[/link] \x1b]8;;http://e\x07"
    answers[1]["answer"] = "=cmd|' /C calc'!A0"
    path = tmp_path / "answers.jsonl"
    path.write_text("".join(json.dumps(a) + "\n" for a in answers))
    r = cli.run("questions", "grade", ex / "items.jsonl", path)
    assert r.exit_code == 0, r.stderr
    assert "[/bold]" in r.stdout and "\x1b" not in r.stdout and "\x07" not in r.stdout
    r = cli.run("questions", "grade", ex / "items.jsonl", path, "-o", tmp_path / "g.csv")
    assert r.exit_code == 0, r.stderr
    wrong = list(csv.reader((tmp_path / "g.wrong.csv").open()))
    assert ["'=cmd|' /C calc'!A0"] == [w[3] for w in wrong if "calc" in w[3]]


def test_warnings_and_errors_show_control_characters_as_escapes(tmp_path):
    bad = tmp_path / "\x1b]0;owned\x07.pddl"
    r = cli.run("compare", bad, bad)
    assert r.exit_code == 2 and "\x1b" not in r.stderr and "\\x1b" in r.stderr


def test_hostile_names_in_the_html_page_stay_text_in_a_browser(tmp_path):
    """Chromium parses the page: a name `<script>` or `<img onerror=...>` is text in the DOM, not an element."""
    import shutil
    import subprocess
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.skip("no chromium")
    results = _results(tmp_path / "r.jsonl", HOSTILE, ["blocksworld", "<img src=x onerror=alert(1)>"])
    page = tmp_path / "r.html"
    assert cli.run("bench", "report", results, "--html", page).exit_code == 0
    dom = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", page.as_uri()],
                         capture_output=True, text=True, timeout=120).stdout
    assert "<table>" in dom
    assert not re.search(r"<script|<img[^>]*onerror", dom, re.I)
    assert "&lt;script&gt;" in dom and "&lt;img src=x onerror" in dom
