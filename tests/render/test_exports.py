"""Exports equal to the API (issue 10): CSV, Markdown, LaTeX and JSON from the same tidy tables as
`.to_frame()` and `.summary_frame()`, for compare, eval and solve.

CSV is read back with pandas and compared with the frames (values and dtypes); Markdown and
LaTeX must show the same columns; LaTeX compiles with pdflatex where TeX is installed."""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess

import pandas as pd
import pytest

import amlasp
from amlasp.metrics.aggregates import SUMMARY_COLUMNS
from amlasp.metrics.compare.result import FRAME_COLUMNS as COMPARE_COLUMNS
from amlasp.metrics.evaluate.result import FRAME_COLUMNS as EVAL_COLUMNS
from amlasp.metrics.solve import FRAME_COLUMNS as SOLVE_COLUMNS
from tests.support.cli import run
from tests.support.paths import EXAMPLES, IPC

BW = EXAMPLES / "blocksworld"
FERRY_L, FERRY_R = IPC / "learned" / "nolam" / "ferry.pddl", IPC / "domains" / "ferry.pddl"
FERRY_STATES, FERRY_PROBLEMS = IPC / "trajectories" / "learning" / "ferry", IPC / "problems" / "learning" / "ferry"
SNAKE = re.compile(r"^[a-z][a-z0-9_]*$")


@pytest.fixture(scope="module")
def results():
    """The three results of the API, and the command lines that give the same ones."""
    return {
        "compare": (amlasp.compare(FERRY_L, FERRY_R), ["compare", FERRY_L, FERRY_R]),
        "eval": (amlasp.evaluate(FERRY_L, FERRY_R, FERRY_STATES, problems=FERRY_PROBLEMS),
                 ["eval", FERRY_L, FERRY_R, "--states", FERRY_STATES, "--problems", FERRY_PROBLEMS]),
        "solve": (amlasp.solve(BW / "learned.pddl", BW / "domain.pddl", BW / "problem.pddl", timeout=60),
                  ["solve", BW / "learned.pddl", BW / "domain.pddl", "-p", BW / "problem.pddl", "--timeout", "60"]),
    }


def _same(csv_frame: pd.DataFrame, frame: pd.DataFrame, ignore: tuple[str, ...] = ()) -> None:
    """The CSV read back is the frame: columns, values, and numeric dtypes where the frame's are."""
    assert list(csv_frame.columns) == list(frame.columns)
    for c in frame.columns:
        if c in ignore:
            continue
        a, b = csv_frame[c], frame[c]
        if pd.api.types.is_numeric_dtype(b) and not pd.api.types.is_bool_dtype(b):
            assert pd.api.types.is_numeric_dtype(a), c
            assert ((a - b).abs() < 1e-12).where(b.notna(), a.isna()).all(), c
        else:
            assert [None if pd.isna(x) else x for x in a] == [None if pd.isna(x) else x for x in b], c


@pytest.mark.parametrize("kind", ["compare", "eval", "solve"])
def test_csv_is_the_frame_and_the_summary_a_table_of_its_own(kind, results, tmp_path):
    result, args = results[kind]
    out = tmp_path / "x.csv"
    r = run(*args, "-o", out)  # no --format: the extension says csv
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.csv", "x.summary.csv"]
    table, summary = pd.read_csv(out), pd.read_csv(tmp_path / "x.summary.csv")
    assert all(SNAKE.match(c) for c in [*table.columns, *summary.columns])  # ASCII snake_case, no U+2212
    ignore = ("seconds",) if kind == "solve" else ()  # each solve call times itself
    _same(table, result.to_frame(), ignore)
    _same(summary, result.summary_frame())
    # the per-action table has no summary rows: every numeric column reads as numbers
    frame = result.to_frame()
    for c in frame.columns:
        if pd.api.types.is_numeric_dtype(frame[c]):
            assert pd.api.types.is_numeric_dtype(table[c]), c
    # to stdout, --summary picks the summary table
    r = run(*args, "-f", "csv", "--summary")
    _same(pd.read_csv(io.StringIO(r.stdout)), result.summary_frame())


def test_frames_have_the_documented_columns(results):
    assert list(results["compare"][0].to_frame().columns) == list(COMPARE_COLUMNS)
    assert list(results["eval"][0].to_frame().columns) == list(EVAL_COLUMNS)
    assert list(results["solve"][0].to_frame().columns) == list(SOLVE_COLUMNS)
    assert list(results["compare"][0].summary_frame().columns) == list(SUMMARY_COLUMNS)
    assert list(results["eval"][0].summary_frame().columns) == list(SUMMARY_COLUMNS)  # one vocabulary
    assert list(results["solve"][0].summary_frame().columns) == ["status", "problems", "ratio"]


def test_json_holds_the_frame_values(results):
    """JSON keeps its documented (nested) shape; its values are the frame's."""
    cmp, _ = results["compare"]
    js = json.loads(run("compare", FERRY_L, FERRY_R, "-f", "json").stdout)
    for row, a in zip(cmp.to_frame().to_dict("records"), js["actions"]):
        for cat in ("pre_pos", "pre_neg", "eff_pos", "eff_neg"):
            assert (row[f"{cat}_precision"], row[f"{cat}_recall"]) == (a[cat]["precision"], a[cat]["recall"])
        assert (row["similarity"], row["equivalent"], row["edits"]) == (a["similarity"], a["equivalent"],
                                                                         len(a["edits"]))
    summary = cmp.summary_frame().set_index("metric")
    assert summary.loc["precision", "mean_over_actions"] == js["summary"]["precision_macro"]
    assert summary.loc["recall", "cumulative"] == js["summary"]["recall_cumulative"]
    ev, args = results["eval"]
    js = json.loads(run(*args, "-f", "json").stdout)
    for row, a in zip(ev.to_frame().to_dict("records"), js["actions"]):
        assert [row[f"app_{k}"] for k in ("tp", "fp", "tn", "fn")] == [a["applicability"][k] for k in
                                                                          ("tp", "fp", "tn", "fn")]
    summary = ev.summary_frame().set_index("metric")
    assert summary.loc["eff_recall", "mean_over_actions"] == js["summary"]["effects"]["recall_avg"]


@pytest.mark.parametrize("kind", ["compare", "eval", "solve"])
def test_markdown_and_latex_show_the_same_columns(kind, results):
    result, args = results[kind]
    n = len(result.to_frame().columns)
    if kind == "compare" and all(a.learned == a.action for a in result.actions):
        n -= 1  # for people the `learned` column is left out when it repeats `action` on every row
    md = run(*args, "-f", "markdown").stdout
    header = md.splitlines()[0]
    assert header.count("|") == n + 1
    assert "−" not in md and all(ord(ch) < 128 for ch in header)
    tex = run(*args, "-f", "latex").stdout
    specs = re.findall(r"\\begin\{tabular\}\{([lr]+)\}", tex)
    assert [len(s) for s in specs] == [n, len(result.summary_frame().columns)]
    assert r"\toprule" in tex and r"\midrule" in tex and r"\bottomrule" in tex and "−" not in tex


def test_latex_compiles_with_pdflatex(results, tmp_path):
    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex is not installed (apt-get install texlive-latex-base texlive-latex-recommended)")
    body = "\n".join(run(*args, "-f", "latex").stdout for _, args in results.values())
    doc = tmp_path / "t.tex"
    doc.write_text("\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage{booktabs}\n"
                   "\\usepackage[landscape,margin=1cm]{geometry}\n\\begin{document}\n" + body + "\\end{document}\n")
    p = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", doc.name], cwd=tmp_path,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stdout[-3000:]
    assert (tmp_path / "t.pdf").stat().st_size > 0


@pytest.mark.parametrize("suffix,check", [(".json", lambda t: json.loads(t)["actions"]),
                                          (".md", lambda t: t.startswith("| action |")),
                                          (".tex", lambda t: t.startswith("\\begin{table}")),
                                          (".csv", lambda t: t.startswith("action,learned,"))])
def test_output_extension_names_the_format(suffix, check, tmp_path):
    out = tmp_path / f"results{suffix}"
    r = run("compare", BW / "learned.pddl", BW / "domain.pddl", "-o", out)
    assert r.exit_code == 0, r.output
    assert check(out.read_text())


def test_format_and_extension_that_disagree_are_refused(tmp_path):
    r = run("compare", BW / "learned.pddl", BW / "domain.pddl", "-f", "json", "-o", tmp_path / "x.csv")
    assert r.exit_code == 2 and "extension" in r.stderr
    assert list(tmp_path.iterdir()) == []


def test_api_names_and_path_arguments(tmp_path):
    assert {"compare", "evaluate", "solve"} <= set(amlasp.__all__)
    # a directory as a str (with its trailing slash), a Path, a list of str: the same states
    as_str = amlasp.evaluate(str(FERRY_L), str(FERRY_R), f"{FERRY_STATES}/", problems=str(FERRY_PROBLEMS))
    as_path = amlasp.evaluate(FERRY_L, FERRY_R, FERRY_STATES, problems=FERRY_PROBLEMS)
    as_list = amlasp.evaluate(FERRY_L, FERRY_R, [str(p) for p in sorted(FERRY_STATES.iterdir())],
                              problems=[str(tmp_path), str(FERRY_PROBLEMS)])
    assert as_str.actions == as_path.actions == as_list.actions and as_str.states == as_path.states > 0
    # Evaluation.summary() like the other results
    assert as_str.summary()["applicability"]["actions"] == as_str.summary_frame().loc[0, "actions"]
    assert amlasp.solve(str(BW / "learned.pddl"), str(BW / "domain.pddl"), [str(BW / "problem.pddl")],
                        timeout=60).summary()["problems"] == 1
