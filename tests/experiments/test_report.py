"""bench report as a reviewer reads it: n/a alike in every table, means over stated domains, seeds as
mean ± std, figures (n/a hatched, a colour per learner, a mean bar, heatmaps, PDF/SVG/PNG, paper
size), and the self-contained HTML page opened in headless Chromium.

The results files are written here by hand (the record format of docs/bench.md), so that every
figure is known: no planner runs."""

from __future__ import annotations

import json
import math
import re
import shutil
import statistics
import subprocess
from pathlib import Path

import pytest

from amlasp.experiments.report import report
from amlasp.render.bench import report_text
from amlasp.render.formats import Format
from tests.support import cli

META = {"task": "meta", "amlasp": "0.1.0", "settings": {"config": "greedy", "timeout": 60, "memory_mb": 4096},
        "suite": "the installed IPC suite /x/amlasp/suite", "versions": {"python": "3.11.7", "clingo": "5.8.3"}}


def compare(learner, domain, p, r):
    return {"learner": learner, "domain": domain, "task": "compare", "seconds": 0.1,
            "summary": {"precision_macro": p, "recall_macro": r, "precision_cumulative": p, "recall_cumulative": r}}


def evaluate(learner, domain, ap, ar, ep, er):
    return {"learner": learner, "domain": domain, "task": "eval", "seconds": 0.1, "summary": {
        "states": 10, "applicability": {"precision_avg": ap, "recall_avg": ar, "precision_cumulative": ap,
                                        "recall_cumulative": ar},
        "effects": {"precision_avg": ep, "recall_avg": er, "precision_cumulative": ep, "recall_cumulative": er}}}


def solve(learner, domain, k, status):
    return {"learner": learner, "domain": domain, "task": "solve", "problem": f"{k}_{domain}_prob.pddl",
            "status": status, "seconds": 0.1}


def write(path: Path, recs: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in [META] + recs))
    return path


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> list[Path]:
    """Learner `sam` in two seeds, `rosame` in one; ferry's rosame model cannot be read; a time-out; a failed unit."""
    d = tmp_path_factory.mktemp("results")
    seed = []
    for i, (p, ar) in enumerate(((0.5, 0.8), (0.7, 0.6))):
        seed.append(write(d / f"sam{i}.jsonl", [
            compare("sam", "blocksworld", p, 1.0), compare("sam", "ferry", 0.9, 1.0),
            evaluate("sam", "blocksworld", 1.0, ar, 1.0, 1.0), evaluate("sam", "ferry", 1.0, 1.0, 1.0, 1.0),
            solve("sam", "blocksworld", 0, "solved"), solve("sam", "blocksworld", 1, "solved" if i else "timeout"),
            solve("sam", "ferry", 0, "solved"), solve("sam", "ferry", 1, "false_plan")]))
    bad = "/x/rosame/ferry.pddl:3: undefined predicate 'xist'"
    other = write(d / "rosame.jsonl", [
        compare("rosame", "blocksworld", 0.4, 0.9), {"learner": "rosame", "domain": "ferry", "task": "compare",
                                                     "error": bad},
        evaluate("rosame", "blocksworld", 0.9, 0.9, 0.8, 0.7), {"learner": "rosame", "domain": "ferry", "task": "eval",
                                                               "error": bad},
        solve("rosame", "blocksworld", 0, "no_plan"),
        {"learner": "rosame", "domain": "blocksworld", "task": "solve", "problem": "1_blocksworld_prob.pddl",
         "error": "internal error: KeyError: 'x'", "failed": True},
        solve("rosame", "ferry", 0, "invalid_model"), solve("rosame", "ferry", 1, "invalid_model")])
    return seed + [other]


def test_na_is_the_same_in_every_table_and_means_say_over_how_many_domains(files):
    rep = report(files)
    for t in rep.tables:  # rosame/ferry: unreadable model; n/a everywhere, solving included (not 0)
        assert all(("ferry", "rosame", m) not in t.values for m, _, _ in t.metrics), t.name
    solving = rep.table("solving")  # rosame/blocksworld: a failed unit; n/a, not a ratio over 1 problem
    assert ("blocksworld", "rosame", "solving_ratio") not in solving.values
    for t in rep.tables:
        if t.name != "solving":
            assert t.mean_domains("rosame", t.metrics[0][0]) == ("blocksworld",)
            assert t.cell("mean", "rosame", t.metrics[0][0]) == t.values[("blocksworld", "rosame", t.metrics[0][0])]
    md = report_text(rep, Format.MARKDOWN)
    assert "| domains in the mean | 2 | 2 | 1 | 1 |" in md
    assert "| domains in the mean | 2 | 2 | 0 | 0 |" in md  # solving: rosame has no scored domain
    notes = rep.notes
    assert [n for n in notes[("rosame", "ferry")] if n.startswith("compare n/a: /x/rosame/ferry.pddl:3")] != []
    assert any("planner cannot use the learned model" in n for n in notes[("rosame", "ferry")])
    assert any("solve failed on 1_blocksworld_prob.pddl" in n for n in notes[("rosame", "blocksworld")])
    assert "1 of 4 problem runs over 2 seeds: timed out" in notes[("sam", "blocksworld")]  # over both seeds


def test_a_note_is_said_once_whatever_the_seeds(files):
    notes = report(files + [files[2]]).notes[("rosame", "ferry")]  # rosame twice: two seeds, the same errors
    assert len([n for n in notes if n.startswith("compare n/a")]) == 1
    assert "solve n/a: the planner cannot use the learned model (all 4 problem runs over 2 seeds invalid_model)" \
        in notes


def test_seeds_give_mean_and_standard_deviation(files):
    rep = report(files)
    syn = rep.table("syntactic")
    assert rep.seeds == {"sam": 2, "rosame": 1}
    assert math.isclose(syn.values[("blocksworld", "sam", "precision")], 0.6)
    assert math.isclose(syn.std[("blocksworld", "sam", "precision")], statistics.stdev([0.5, 0.7]))
    assert ("blocksworld", "rosame", "precision") not in syn.std  # one seed: no ±
    # the mean row: each seed's mean over the domains, then mean ± std over seeds
    per_seed = [statistics.fmean([0.5, 0.9]), statistics.fmean([0.7, 0.9])]
    assert math.isclose(syn.cell("mean", "sam", "precision"), statistics.fmean(per_seed))
    assert math.isclose(syn.cell_std("mean", "sam", "precision"), statistics.stdev(per_seed))
    solving = rep.table("solving")
    assert solving.seeds[("blocksworld", "sam", "solving_ratio")] == [0.5, 1.0]
    md = report_text(rep, Format.MARKDOWN)
    assert "| blocksworld | **0.600 ± 0.141** | **1.000 ± 0.000** | 0.400 | 0.900 |" in md
    latex = report_text(rep, Format.LATEX)
    assert r"\textbf{0.600 $\pm$ 0.141}" in latex
    frame = rep.to_frame()
    row = frame[(frame.table == "syntactic") & (frame.domain == "blocksworld") & (frame.learner == "sam")
                & (frame.metric == "precision")].iloc[0]
    assert (row.value, round(row["std"], 3), row.seeds) == (0.6, 0.141, 2)


def test_figures_mark_na_colour_learners_show_the_mean_and_fit_a_two_column_page(files):
    from matplotlib.colors import to_hex

    from amlasp.render.plots import PALETTE, figures
    rep = report(files)
    seen = set()
    for stem, fig in figures(rep):
        seen.add(stem)
        assert fig.get_size_inches()[0] == 7.0  # a two-column page's text width
        t = rep.table(stem.removesuffix("_heatmap"))
        na = sum(t.cell(r, l, m) is None
                 for r in list(t.domains) + ["mean"] for l in t.learners for m, _, _ in t.metrics)
        hatched = [p for ax in fig.axes for p in ax.patches if p.get_hatch() == "////"]
        assert len(hatched) == na, stem  # every n/a drawn as a hatched box: never a bar of height 0
        texts = [x.get_text() for ax in fig.axes for x in ax.get_xticklabels()]
        assert any(x.startswith("mean") for x in texts), stem
        if not stem.endswith("_heatmap"):
            filled = [p for ax in fig.axes for p in ax.patches if p.get_hatch() is None and p.get_height() > 0]
            colours = {to_hex(p.get_facecolor()) for p in filled}
            scored = {PALETTE[i].lower() for i, l in enumerate(t.learners)
                      if any(t.cell(d, l, m) is not None for d in t.domains for m, _, _ in t.metrics)}
            assert colours == scored and scored  # one colour per learner (rosame scores no solving domain)
            assert min(x.get_fontsize() for ax in fig.axes for x in ax.get_xticklabels()) >= 6.5
        else:
            assert len([ax for ax in fig.axes if ax.images]) == len(t.metrics)  # one heatmap per metric
    assert seen == {f"{t}{s}" for t in ("syntactic", "applicability", "effects", "solving") for s in ("", "_heatmap")}


def test_report_files_are_vector_pdf_svg_png_and_byte_identical(files, tmp_path):
    for out in ("a", "b"):
        res = cli.run("bench", "report", *files, "--plots", tmp_path / out, "--html", tmp_path / f"{out}.html",
                      "-f", "csv", "-o", tmp_path / f"{out}.csv")
        assert res.exit_code == 0, res.output
    names = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert len(names) == 4 * 2 * 3 and "solving_heatmap.pdf" in names
    for name in names:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name
    assert (tmp_path / "a.html").read_bytes() == (tmp_path / "b.html").read_bytes()
    assert (tmp_path / "a" / "syntactic.pdf").read_bytes().startswith(b"%PDF")
    svg = (tmp_path / "a" / "syntactic.svg").read_text()
    assert "<path" in svg and "<image" not in svg  # vector, no embedded bitmap
    assert (tmp_path / "a" / "syntactic.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    import pandas as pd
    frame = pd.read_csv(tmp_path / "a.csv")
    assert list(frame.columns) == ["table", "domain", "learner", "metric", "value", "std", "seeds"]


def test_html_report_is_one_self_contained_page(files, tmp_path):
    page = tmp_path / "report.html"
    res = cli.run("bench", "report", *files, "--html", page, "-f", "table", "-o", tmp_path / "tables.txt")
    assert res.exit_code == 0, res.output
    text = page.read_text()
    assert "<script" not in text and "<link" not in text
    assert not re.findall(r"""(?:src|href)="(?!data:|#)""", text)  # nothing to fetch
    assert text.count('src="data:image/svg+xml;base64,') == 8  # the 8 figures, inline
    for needed in ("Syntactic precision and recall", "0.600 ± 0.141", "domains in the mean",
                   "1 of 4 problem runs over 2 seeds: timed out",
                   "undefined predicate", "solve failed on 1_blocksworld_prob.pddl",
                   "60 s", "4096 MB", "clingo 5.8.3", "the installed IPC suite", "sam (2 seeds)"):
        assert needed in text, needed


def test_html_report_renders_in_headless_chromium(files, tmp_path):
    """The page as a browser draws it: tables and figures on screen (look at report.png when it fails)."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if chromium is None:
        pytest.skip("no Chromium (Debian: apt-get install chromium)")
    page, shot = tmp_path / "report.html", tmp_path / "report.png"
    assert cli.run("bench", "report", *files, "--html", page, "-f", "table", "-o", tmp_path / "t.txt").exit_code == 0
    base = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            f"--user-data-dir={tmp_path / 'profile'}"]
    dom = subprocess.run(base + ["--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120).stdout
    assert dom.count("<table>") == 5 and dom.count("<img") == 8  # 4 tables + settings, 8 figures
    subprocess.run(base + [f"--screenshot={shot}", "--window-size=1280,3000", page.as_uri()], capture_output=True,
                   timeout=120)
    import matplotlib.image
    import numpy as np
    pixels = (matplotlib.image.imread(shot)[..., :3] * 255).round().astype(int)
    colours = {tuple(c) for c in pixels.reshape(-1, 3)[::7]}
    assert (pixels < 250).any(axis=2).mean() > 0.05  # not a blank page
    blue = np.array([0x00, 0x72, 0xB2])  # the first learner's bars, drawn by the browser from the inline SVG
    assert (np.abs(pixels - blue).sum(axis=2) < 30).sum() > 500
    yellow = np.array([0xFD, 0xE7, 0x25])  # viridis at 1.0: the heatmaps
    assert (np.abs(pixels - yellow).sum(axis=2) < 30).sum() > 500
    assert len(colours) > 200


def test_the_quality_table_shows_the_ipc_scores_of_cost_domains(tmp_path, files):
    """Solve records with an IPC quality score (domains with action costs) add a table of its mean
    per domain; records without one (every other domain) add none."""
    assert "quality" not in [t.name for t in report(files[0]).tables]
    recs = [dict(solve("sam", "transport", k, status), quality=q)
            for k, (status, q) in enumerate((("solved", 1.0), ("solved", 0.5), ("no_plan", 0.0)))]
    r = report(write(tmp_path / "costs.jsonl", recs))
    table = next(t for t in r.tables if t.name == "quality")
    assert table.seeds[("transport", "sam", "quality")] == [pytest.approx(0.5)]
    assert table.values[("transport", "sam", "quality")] == pytest.approx(0.5)
