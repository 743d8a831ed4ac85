"""bench run / report on a two-domain suite: records, resume, tables, plots, Dask."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil

import pytest

from amlasp.errors import InputError
from amlasp.experiments.bench import PAPER_DOMAINS, ResultsFile, run
from amlasp.experiments.report import report
from amlasp.model import And
from amlasp.pddl.parse import load_domain
from amlasp.pddl.writer import to_pddl
from amlasp.render.bench import report_text
from amlasp.render.formats import Format
from tests.support import cli
from tests.support.paths import IPC, ROOT

DOMAINS = ("blocksworld", "ferry")


@pytest.fixture(scope="module")
def suite(tmp_path_factory):
    """A small suite: 2 domains, 2 problems each, one test trajectory each; two learners."""
    root = tmp_path_factory.mktemp("suite")
    for d in DOMAINS:
        (root / "ipc" / "domains").mkdir(parents=True, exist_ok=True)
        shutil.copy(IPC / "domains" / f"{d}.pddl", root / "ipc" / "domains")
        probs = root / "ipc" / "problems" / "solving" / d
        probs.mkdir(parents=True)
        for k in (0, 1):
            shutil.copy(IPC / "problems" / "solving" / d / f"{k}_{d}_prob.pddl", probs)
        states = root / "states" / d / "problems"
        states.mkdir(parents=True)
        shutil.copy(IPC / "trajectories" / "learning" / d / f"0_{d}_traj", root / "states" / d)
        shutil.copy(IPC / "problems" / "learning" / d / f"0_{d}_prob.pddl", states)
    perfect = root / "learners" / "perfect"
    broken = root / "learners" / "broken"
    perfect.mkdir(parents=True)
    broken.mkdir(parents=True)
    for d in DOMAINS:
        shutil.copy(IPC / "domains" / f"{d}.pddl", perfect)
    ferry = load_domain(IPC / "domains" / "ferry.pddl")  # board without (empty_ferry); no blocksworld model
    acts = tuple(dataclasses.replace(a, precondition=And(a.precondition.args[:2])) if a.name == "board" else a
                 for a in ferry.actions)
    (broken / "ferry.pddl").write_text(to_pddl(dataclasses.replace(ferry, actions=acts)))
    return root


def test_suite_lists_the_papers_20_domains_and_ships_their_states():
    assert len(PAPER_DOMAINS) == 20 and len(set(PAPER_DOMAINS)) == 20
    for d in PAPER_DOMAINS:
        assert (IPC / "domains" / f"{d}.pddl").is_file()
        assert len(list((IPC / "problems" / "solving" / d).glob("*.pddl"))) == 10
        trajs = list((ROOT / "benchmarks" / "states" / d).glob("*_traj"))
        assert trajs and all((ROOT / "benchmarks" / "states" / d / "problems" /
                              t.name.replace("_traj", "_prob.pddl")).is_file() for t in trajs)


def test_run_records_every_unit_resumes_and_reports(suite, tmp_path):
    results = tmp_path / "r.jsonl"
    learned = [suite / "learners" / "perfect", suite / "learners" / "broken"]
    s = run(learned, results, suite=suite, domains=DOMAINS, jobs=2, timeout=30)
    assert (s.units, s.done_now, s.done_before) == (16, 16, 0)  # 2 learners x 2 domains x (compare, eval, 2 solve)
    meta, recs = ResultsFile(results).read()
    assert meta["settings"]["timeout"] == 30 and len(recs) == 16
    missing = [r for r in recs if r["learner"] == "broken" and r["domain"] == "blocksworld"]
    assert {r["task"] for r in missing if "no learned model" in r.get("error", "")} == {"compare", "eval"}
    assert all(r["status"] == "invalid_model" for r in missing if r["task"] == "solve")
    # each solve record carries its time split, and the run splits its 2 workers x wall seconds
    solved = [r for r in recs if r.get("status") == "solved"]
    assert solved and all(0 < r["planner_seconds"] and 0 < r["validation_seconds"]
                          and r["planner_seconds"] + r["validation_seconds"] <= r["seconds"] for r in solved)
    assert s.time.planner == pytest.approx(sum(r.get("planner_seconds", 0) for r in recs))
    assert s.time.validation == pytest.approx(sum(r.get("validation_seconds", 0) for r in recs))
    assert s.time.busy + s.time.idle == pytest.approx(2 * s.seconds, rel=0.01) and s.time.ours > 0
    assert set(s.domain_time) == {(learner, d) for learner in ("perfect", "broken") for d in DOMAINS}

    rep = report(results)
    for t in rep.tables:  # the perfect learner: 1.0 everywhere (false-plan ratio 0)
        for d in DOMAINS:
            for key, _, higher in t.metrics:
                assert t.values[(d, "perfect", key)] == (1.0 if higher else 0.0), (t.name, d, key)
    solving = rep.table("solving")
    assert solving.values[("ferry", "broken", "false_plan_ratio")] == 1.0
    # no blocksworld model: n/a in every table alike (solving too: not 0), and left out of every mean
    for t in rep.tables:
        assert all((("blocksworld", "broken", m) not in t.values) for m, _, _ in t.metrics), t.name
        assert t.mean_domains("broken", t.metrics[0][0]) == ("ferry",) and t.uniform_mean() is None
    assert "no learned model" in " ".join(rep.notes[("broken", "blocksworld")])
    assert rep.table("syntactic").values[("ferry", "broken", "recall")] < 1.0
    md = report_text(rep, Format.MARKDOWN)
    assert "| ferry | **1.000** | **0.000** | 0.000 | 1.000 |" in md  # best of the row in bold (false: lowest)
    assert "| blocksworld | **1.000** | **0.000** | n/a | n/a |" in md
    assert "| domains in the mean | 2 | 2 | 1 | 1 |" in md  # columns differ: each says over how many
    latex = report_text(rep, Format.LATEX)
    assert r"\multicolumn{2}{c}{perfect}" in latex and r"\textbf{1.000}" in latex and "n/a" in latex
    assert rep.to_frame().shape == (4 * 2 * 2 * 2, 7)

    # interrupted run: the last two records lost, a third cut in the middle of its line
    lines = results.read_text().splitlines(keepends=True)
    results.write_text("".join(lines[:-3]) + lines[-3][:20])
    seen = []
    again = run(learned, results, suite=suite, domains=DOMAINS, jobs=1, timeout=30,
                progress=lambda stage, done, total: seen.append((stage, done, total)))
    assert (again.done_before, again.done_now) == (13, 3)
    assert seen == [("bench", 13, 16), ("bench", 14, 16), ("bench", 15, 16), ("bench", 16, 16)]
    _, recs2 = ResultsFile(results).read()
    assert sorted(json.dumps(r, sort_keys=True) for r in recs2 if True) and len(recs2) == 16
    assert {(r["learner"], r["domain"], r["task"], r.get("problem")) for r in recs2} == \
        {(r["learner"], r["domain"], r["task"], r.get("problem")) for r in recs}
    with pytest.raises(InputError, match="other settings"):
        run(learned, results, suite=suite, domains=DOMAINS, timeout=5)


def test_report_cli_formats_and_plots(suite, tmp_path):
    results = tmp_path / "r.jsonl"
    res = cli.run("bench", "run", "--learned", suite / "learners" / "perfect", "--learner", "ref",
                  "--suite", suite, "--domain", "ferry", "--results", results, "--task", "compare", "--task", "solve")
    assert res.exit_code == 0, res.output
    res = cli.run("bench", "report", results, "--format", "csv", "--plots", tmp_path / "plots")
    assert res.exit_code == 0, res.output
    assert "syntactic,ferry,ref,precision,1.0" in res.stdout and "solving,ferry,ref,solving_ratio,1.0" in res.stdout
    png = (tmp_path / "plots" / "syntactic.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "plots" / "solving.svg").read_text().lstrip().startswith("<?xml")
    res = cli.run("bench", "report", results, "--format", "json")
    assert json.loads(res.stdout)["solving"]["ferry"]["ref"]["solving_ratio"] == 1.0
    res = cli.run("bench", "report", tmp_path / "nope.jsonl")
    assert res.exit_code == 2 and "no such results file" in res.output


def test_dask_executor_on_a_local_cluster(suite, tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        s = run([suite / "learners" / "perfect"], tmp_path / "d.jsonl", suite=suite, domains=["ferry"],
                executor="dask", scheduler=cluster.scheduler_address, timeout=30)
    assert s.done_now == 4
    _, recs = ResultsFile(tmp_path / "d.jsonl").read()
    assert sorted(r.get("status", r["task"]) for r in recs) == ["compare", "eval", "solved", "solved"]
    assert all("error" not in r for r in recs)


# --------------------------------------------------------------------------- the results file is ours alone

def _compare_ferry(suite, results, *more) -> object:
    return cli.run("bench", "run", "--learned", suite / "learners" / "perfect", "--suite", suite, "--domain", "ferry",
                   "--task", "compare", "--results", results, *more)


def test_a_valid_last_record_without_newline_is_kept_counted_and_completed(suite, tmp_path):
    results = tmp_path / "r.jsonl"
    assert _compare_ferry(suite, results).exit_code == 0
    whole = results.read_bytes()
    results.write_bytes(whole.rstrip(b"\n"))  # e.g. written by hand or by another tool
    res = _compare_ferry(suite, results)
    assert res.exit_code == 0 and "0 unit(s) run, 1 already" in res.stderr, res.output
    assert results.read_bytes() == whole  # the record kept, its newline added


def test_only_a_torn_line_of_ours_is_dropped(suite, tmp_path):
    results = tmp_path / "r.jsonl"
    assert _compare_ferry(suite, results).exit_code == 0
    whole = results.read_bytes()
    results.write_bytes(whole + b'{"learner": "perfect", "domain": "fer')  # cut short by an interrupted run
    res = _compare_ferry(suite, results)
    assert res.exit_code == 0 and "0 unit(s) run, 1 already" in res.stderr, res.output
    assert results.read_bytes() == whole
    results.write_bytes(whole + b"a note someone appended")  # not ours: refused, left as it is
    res = _compare_ferry(suite, results)
    assert res.exit_code == 2 and "not a results file" in res.stderr, res.output
    assert results.read_bytes() == whole + b"a note someone appended"


@pytest.mark.parametrize("text", ["(define (problem p) (:domain d) (:objects a) (:init) (:goal (and)))",
                                  "remember: rerun ferry\nwith the new planner\n", '{"task": "compare"}\n'],
                         ids=["one-line PDDL", "a note", "a record without meta"])
def test_a_file_that_is_not_a_results_file_is_refused_and_left_alone(suite, tmp_path, text):
    results = tmp_path / "notes.txt"
    results.write_text(text)
    res = _compare_ferry(suite, results)
    assert res.exit_code == 2 and "not a results file" in res.stderr, res.output
    assert results.read_text() == text


def test_a_run_in_which_no_unit_gives_a_figure_exits_1(suite, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    res = cli.run("bench", "run", "--learned", empty, "--suite", suite, "--domain", "ferry", "--task", "compare",
                  "--task", "eval", "--results", tmp_path / "r.jsonl")
    assert res.exit_code == 1, res.output
    assert "none of the 2 unit(s) gave a figure" in res.stderr


def test_report_never_writes_over_the_results_file(suite, tmp_path):
    pytest.importorskip("matplotlib")
    figs = tmp_path / "figs"
    figs.mkdir()
    results = figs / "syntactic.png"  # a results file where a figure would go
    assert _compare_ferry(suite, results).exit_code == 0
    before = results.read_bytes()
    res = cli.run("bench", "report", results, "--plots", figs, "--plot-format", "png")
    assert res.exit_code == 2 and "refusing to overwrite the results file" in res.stderr, res.output
    os.symlink(results, tmp_path / "link.md")
    for option in ("-o", "--html"):
        res = cli.run("bench", "report", results, option, tmp_path / "link.md")
        assert res.exit_code == 2 and "refusing to overwrite the results file" in res.stderr, res.output
    assert results.read_bytes() == before
