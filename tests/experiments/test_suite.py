"""Where bench finds its suite, and runs that leave the repository: the installed suite, a user's
TOML manifest (the example of docs/bench.md), units that carry their files to Dask workers started
in another directory, failed units, and --keep-plans."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from amlasp.errors import InputError
from amlasp.experiments.bench import ResultsFile, plan_units, run
from amlasp.experiments.suite import installed_suite, load_suite
from tests.support import cli
from tests.support.paths import IPC, ROOT


def manifest_example() -> str:
    """The TOML example of docs/bench.md, as a user would copy it."""
    doc = (ROOT / "docs" / "bench.md").read_text()
    return re.search(r"```toml\n(# my-suite.toml.*?)```", doc, re.S).group(1)


@pytest.fixture(scope="module")
def own_suite(tmp_path_factory) -> Path:
    """The files the docs' manifest names, made from the IPC data; a learner with both models."""
    root = tmp_path_factory.mktemp("own")
    (root / "ferry" / "problems").mkdir(parents=True)
    (root / "ferry" / "states" / "problems").mkdir(parents=True)
    shutil.copy(IPC / "domains" / "ferry.pddl", root / "ferry" / "domain.pddl")
    shutil.copy(IPC / "problems" / "solving" / "ferry" / "0_ferry_prob.pddl", root / "ferry" / "problems")
    shutil.copy(IPC / "trajectories" / "learning" / "ferry" / "0_ferry_traj", root / "ferry" / "states")
    shutil.copy(IPC / "problems" / "learning" / "ferry" / "0_ferry_prob.pddl", root / "ferry" / "states" / "problems")
    (root / "blocksworld").mkdir()
    shutil.copy(IPC / "domains" / "blocksworld.pddl", root / "blocksworld" / "domain.pddl")
    for k in (1, 2):
        shutil.copy(IPC / "problems" / "solving" / "blocksworld" / f"{k - 1}_blocksworld_prob.pddl",
                    root / "blocksworld" / f"p{k}.pddl")
    (root / "blocksworld" / "states.json").write_text(json.dumps(
        {"p1.pddl": [["(on b2 b1)", "(ontable b1)", "(clear b2)", "(handempty)"]]}))
    (root / "my-suite.toml").write_text(manifest_example())
    learned = root / "learned" / "sam"
    learned.mkdir(parents=True)
    for d in ("ferry", "blocksworld"):
        shutil.copy(IPC / "learned" / "nolam" / f"{d}.pddl", learned)
    return root


def test_the_installed_suite_is_found_from_any_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    suite = load_suite()
    assert suite.root == installed_suite() and suite.installed
    ferry = suite.domain("ferry", ("compare", "eval", "solve"))
    assert ferry.reference.is_file() and len(ferry.problems) == 10 and ferry.states
    with pytest.raises(InputError, match=r"no reference domain for 'gripper' in the installed IPC suite .*--suite"):
        suite.domain("gripper", ("compare",))


def test_manifest_of_the_docs_runs_from_the_command_line(own_suite, tmp_path):
    results = tmp_path / "r.jsonl"
    res = cli.run("bench", "run", "--suite", own_suite / "my-suite.toml", "--learned", own_suite / "learned" / "sam",
                  "--results", results, "--timeout", "30")
    assert res.exit_code == 0, res.output
    meta, recs = ResultsFile(results).read()
    assert meta["suite"] == f"the manifest {own_suite / 'my-suite.toml'}"
    assert sorted((r["domain"], r["task"], r.get("problem")) for r in recs) == sorted([
        ("ferry", "compare", None), ("ferry", "eval", None), ("ferry", "solve", "0_ferry_prob.pddl"),
        ("blocksworld", "compare", None), ("blocksworld", "eval", None), ("blocksworld", "solve", "p1.pddl"),
        ("blocksworld", "solve", "p2.pddl")])
    assert not [r for r in recs if "error" in r]
    bw = next(r for r in recs if r["domain"] == "blocksworld" and r["task"] == "eval")
    assert bw["summary"]["states"] == 1  # the one JSON state


def test_manifest_errors_are_one_line_with_the_file(own_suite, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[domains.ferry]\nreference = "x.pddl"\nproblem = "p"\n')
    with pytest.raises(InputError, match=r"bad.toml: \[domains.ferry\]: unknown key 'problem'"):
        load_suite(bad)
    bad.write_text('[domains.ferry]\nreference = "x.pddl\n')
    with pytest.raises(InputError, match=r"bad.toml:2: not a TOML suite manifest"):
        load_suite(bad)
    bad.write_text('[domains.ferry]\nreference = "nowhere.pddl"\n')
    res = cli.run("bench", "run", "--suite", bad, "--learned", own_suite / "learned" / "sam", "--task", "compare",
                  "--results", tmp_path / "r.jsonl")
    assert res.exit_code == 2 and "no reference domain for 'ferry' in the manifest" in res.stderr
    res = cli.run("bench", "run", "--suite", own_suite / "my-suite.toml", "--learned", own_suite / "learned" / "sam",
                  "--domain", "hanoi", "--results", tmp_path / "r.jsonl")
    assert res.exit_code == 2 and "no domain 'hanoi' in this manifest (it has ferry, blocksworld)" in res.stderr


def test_units_carry_their_files_and_absolute_paths(own_suite, monkeypatch):
    monkeypatch.chdir(own_suite)
    units = plan_units(["learned/sam"], suite="my-suite.toml", tasks=("eval",))
    assert all(Path(u.learned).is_absolute() and Path(u.reference).is_absolute() for u in units)
    from amlasp.experiments.bench import with_files
    sent = dict(with_files(units[0]).files)
    assert str(own_suite / "ferry" / "states" / "problems" / "0_ferry_prob.pddl") in sent  # the trajectory's problem
    model = own_suite / "learned" / "sam" / "ferry.pddl"
    assert sent[str(model)] == model.read_bytes()


def test_failed_units_exit_non_zero_say_how_many_and_are_redone(own_suite, tmp_path):
    suite = tmp_path / "suite"
    shutil.copytree(own_suite, suite, ignore=shutil.ignore_patterns("learned"))
    (suite / "ferry" / "states" / "0_ferry_traj").write_text("(:trajectory (:state (at c0 nowhere)))")
    results = tmp_path / "r.jsonl"
    args = ("bench", "run", "--suite", suite / "my-suite.toml", "--learned", own_suite / "learned" / "sam",
            "--task", "compare", "--task", "eval", "--results", results)
    res = cli.run(*args)
    assert res.exit_code == 2, res.output
    assert "1 of 4 unit(s) failed (first: sam/ferry eval:" in res.stderr and "rerun the same command" in res.stderr
    _, recs = ResultsFile(results).read()
    assert [r["task"] for r in recs if r.get("failed")] == ["eval"]
    (suite / "ferry" / "states" / "0_ferry_traj").write_bytes(
        (IPC / "trajectories" / "learning" / "ferry" / "0_ferry_traj").read_bytes())
    res = cli.run(*args)  # the failed unit again, and only it
    assert res.exit_code == 0 and "1 unit(s) run, 3 already" in res.stderr, res.output


def test_a_missing_learned_model_is_a_result_not_a_failure(own_suite, tmp_path):
    learned = tmp_path / "partial"
    learned.mkdir()
    shutil.copy(own_suite / "learned" / "sam" / "ferry.pddl", learned)
    s = run([learned], tmp_path / "r.jsonl", suite=own_suite / "my-suite.toml", tasks=("compare", "solve"), timeout=30)
    assert not s.failed and s.errors == 1  # blocksworld compare: n/a; its problems: invalid_model
    _, recs = ResultsFile(tmp_path / "r.jsonl").read()
    assert {r["status"] for r in recs if r["domain"] == "blocksworld" and r["task"] == "solve"} == {"invalid_model"}


def test_keep_plans_writes_plans_and_logs(own_suite, tmp_path):
    keep = tmp_path / "plans"
    s = run([own_suite / "learned" / "sam"], tmp_path / "r.jsonl", suite=own_suite / "my-suite.toml",
            tasks=("solve",), timeout=30, keep_plans=keep)
    assert not s.failed
    plan = (keep / "sam" / "ferry" / "0_ferry_prob.plan").read_text()
    assert plan.startswith("(") and plan.endswith("(unit cost)\n")
    assert "search" in (keep / "sam" / "ferry" / "0_ferry_prob.log").read_text().lower()
    assert sorted(p.name for p in (keep / "sam" / "blocksworld").iterdir()) == ["p1.log", "p1.plan", "p2.log",
                                                                                "p2.plan"]
    _, recs = ResultsFile(tmp_path / "r.jsonl").read()
    assert not [r for r in recs if "plan_text" in r or "planner_log" in r]  # not in the results file
    # the plan is valid in the reference: amlasp validate says so
    res = cli.run("validate", own_suite / "ferry" / "domain.pddl",
                  own_suite / "ferry" / "problems" / "0_ferry_prob.pddl", keep / "sam" / "ferry" / "0_ferry_prob.plan")
    assert res.exit_code == 0, res.output


def test_solve_keep_plans(own_suite, tmp_path):
    keep = tmp_path / "plans"
    res = cli.run("solve", own_suite / "learned" / "sam" / "blocksworld.pddl",
                  own_suite / "blocksworld" / "domain.pddl", "--problems", own_suite / "blocksworld" / "p1.pddl",
                  "--keep-plans", keep, "-f", "json")
    assert res.exit_code == 0, res.output
    assert sorted(p.name for p in keep.iterdir()) == ["p1.log", "p1.plan"]
    steps = [ln for ln in (keep / "p1.plan").read_text().splitlines() if not ln.startswith(";")]
    assert len(steps) == json.loads(res.stdout)["problems"][0]["plan_length"]


def _keep_suite(own_suite, tmp_path, domain: str = "ferry", problem: str = "ferry/problems/0_ferry_prob.pddl"):
    """A manifest with one domain (name and problem path chosen), next to a copy of the own suite's files."""
    suite = tmp_path / "suite"
    shutil.copytree(own_suite, suite, ignore=shutil.ignore_patterns("*.toml"))
    (suite / "m.toml").write_text(f'[domains."{domain}"]\nreference = "ferry/domain.pddl"\nproblems = "{problem}"\n')
    return suite


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("learner,domain", [("../victim", "ferry"), ("sam", "../../escaped"), ("..", "ferry")])
def test_keep_plans_refuses_names_that_lead_out_of_dir(own_suite, tmp_path, learner, domain):
    suite = _keep_suite(own_suite, tmp_path, domain)
    before = _files(tmp_path)
    res = cli.run("bench", "run", "--suite", suite / "m.toml", "--learned", own_suite / "learned" / "sam",
                  "--learner", learner, "--domain", domain, "--task", "solve", "--results", tmp_path / "r.jsonl",
                  "--keep-plans", tmp_path / "keep" / "plans")
    assert res.exit_code == 2 and "cannot be a file or folder name" in res.stderr, res.output
    assert _files(tmp_path) == before  # nothing written, nothing deleted, anywhere (no results file either)


def test_keep_plans_follows_no_link_out_of_dir(own_suite, tmp_path):
    suite = _keep_suite(own_suite, tmp_path)
    (tmp_path / "keep").mkdir()
    (tmp_path / "victim").mkdir()
    os.symlink(tmp_path / "victim", tmp_path / "keep" / "sam")
    res = cli.run("bench", "run", "--suite", suite / "m.toml", "--learned", own_suite / "learned" / "sam",
                  "--task", "solve", "--results", tmp_path / "r.jsonl", "--keep-plans", tmp_path / "keep")
    assert res.exit_code == 2 and "refusing to write outside" in res.stderr, res.output
    assert not list((tmp_path / "victim").iterdir())


@pytest.mark.parametrize("name", ["0_ferry_prob.log", "0_ferry_prob.plan"])
def test_keep_plans_never_writes_onto_an_input(own_suite, tmp_path, name):
    suite = _keep_suite(own_suite, tmp_path, problem=f"keep/sam/ferry/{name}")
    problem = suite / "keep" / "sam" / "ferry" / name
    problem.parent.mkdir(parents=True)
    shutil.copy(own_suite / "ferry" / "problems" / "0_ferry_prob.pddl", problem)
    before = problem.read_bytes()
    res = cli.run("bench", "run", "--suite", suite / "m.toml", "--learned", own_suite / "learned" / "sam",
                  "--task", "solve", "--results", tmp_path / "r.jsonl", "--keep-plans", suite / "keep")
    assert res.exit_code == 2 and "refusing to overwrite an input file (--keep-plans)" in res.stderr, res.output
    res = cli.run("solve", own_suite / "learned" / "sam" / "ferry.pddl", own_suite / "ferry" / "domain.pddl",
                  "--problems", problem, "--keep-plans", problem.parent)
    assert res.exit_code == 2 and "refusing to overwrite an input file (--keep-plans)" in res.stderr, res.output
    assert problem.read_bytes() == before


def test_a_manifest_may_name_files_anywhere(own_suite, tmp_path):
    """A researcher's manifest names their own files where they are (`/data/ipc/...`, `../x`): read."""
    elsewhere = tmp_path / "data"
    shutil.copytree(own_suite / "ferry", elsewhere / "ferry")
    suite = _keep_suite(own_suite, tmp_path)
    for ref in ("../data/ferry/domain.pddl", str(elsewhere / "ferry" / "domain.pddl")):
        (suite / "m.toml").write_text(f'[domains.ferry]\nreference = "{ref}"\n'
                                      f'problems = "{elsewhere / "ferry" / "problems"}"\n')
        results = tmp_path / f"r{len(ref)}.jsonl"
        res = cli.run("bench", "run", "--suite", suite / "m.toml", "--learned", own_suite / "learned" / "sam",
                      "--task", "compare", "--task", "solve", "--results", results)
        assert res.exit_code == 0, res.output
        recs = [r for r in map(json.loads, results.read_text().splitlines()) if r["task"] != "meta"]
        assert {r["task"] for r in recs} == {"compare", "solve"} and not any("error" in r for r in recs), recs


def test_no_file_a_manifest_names_from_elsewhere_is_echoed(own_suite, tmp_path):
    """An error in a file named from outside the manifest's folder is told by its place and class, not by
    what the file holds (a manifest is untrusted: it could name any file of the user's)."""
    secret = tmp_path / "secret.pddl"
    secret.write_text("(define (domain SECRET-LINE-1) (:predicates (p)) (:action a :parameters () :effect (q)))\n")
    suite = _keep_suite(own_suite, tmp_path)
    for bad in ("../secret.pddl", str(secret)):
        (suite / "m.toml").write_text(f'[domains.ferry]\nreference = "{bad}"\n')
        results = tmp_path / f"r{len(bad)}.jsonl"
        res = cli.run("bench", "run", "--suite", suite / "m.toml", "--learned", own_suite / "learned" / "sam",
                      "--task", "compare", "--results", results)
        assert res.exit_code != 0 and "SECRET" not in res.output and "SECRET" not in results.read_text()
        rec = json.loads(results.read_text().splitlines()[-1])
        assert rec["error"] == (f"{secret}:1:85: undeclared-predicate (not quoted: a file outside the "
                                "manifest's folder)"), rec
    (suite / "ferry" / "broken.pddl").write_text(secret.read_text())  # inside its folder: told in full
    (suite / "m.toml").write_text('[domains.ferry]\nreference = "ferry/broken.pddl"\n')
    results = tmp_path / "inside.jsonl"
    cli.run("bench", "run", "--suite", suite / "m.toml", "--learned", own_suite / "learned" / "sam",
            "--task", "compare", "--results", results)
    assert "undefined predicate 'q'" in json.loads(results.read_text().splitlines()[-1])["error"]


# --------------------------------------------------------------------------- a real Dask cluster

def test_dask_workers_started_elsewhere_need_no_shared_paths(own_suite, dask_cluster, monkeypatch):
    monkeypatch.chdir(own_suite)  # relative paths here; the workers' directory has none of these files
    res = cli.run("bench", "run", "--suite", "my-suite.toml", "--learned", "learned/sam", "--results", "d.jsonl",
                  "--executor", "dask", "--scheduler", dask_cluster, "--timeout", "30")
    assert res.exit_code == 0, res.output
    _, recs = ResultsFile(own_suite / "d.jsonl").read()
    assert len(recs) == 7 and not [r for r in recs if "error" in r], recs
    ev = next(r for r in recs if r["domain"] == "ferry" and r["task"] == "eval")
    assert ev["summary"]["states"] > 1
    solved = [r["status"] for r in recs if r["task"] == "solve"]
    assert solved == ["solved"] * 3


def test_dask_unit_errors_name_the_original_files(own_suite, dask_cluster, tmp_path):
    suite = tmp_path / "suite"
    shutil.copytree(own_suite, suite, ignore=shutil.ignore_patterns("learned", "*.jsonl"))
    (suite / "blocksworld" / "p2.pddl").write_text("(define (problem p2) (:domain blocksworld) (:objects b1) "
                                                   "(:init (on b1 nothing)) (:goal (and)))")
    s = run([own_suite / "learned" / "sam"], tmp_path / "r.jsonl", suite=suite / "my-suite.toml", tasks=("solve",),
            executor="dask", scheduler=dask_cluster, timeout=30)
    assert len(s.failed) == 1
    assert s.failed[0]["error"].startswith(f"{suite / 'blocksworld' / 'p2.pddl'}:1:72: ")  # not the worker's copy
    assert "unknown object 'nothing'" in s.failed[0]["error"]


def test_a_swapped_pair_is_warned_of_and_the_titles_say_which_is_which():
    from tests.support import cli
    from tests.support.paths import IPC
    ref, learned = IPC / "domains" / "ferry.pddl", IPC / "learned" / "nolam" / "ferry.pddl"
    r = cli.run("compare", ref, learned, env={"COLUMNS": "200"})
    assert r.exit_code == 0
    assert f"amlasp: warning: {ref} is the IPC suite's reference domain of ferry, given as the learned model: " \
           "are the two swapped?" in r.stderr
    title = " ".join(r.stdout.split("┏")[0].split())  # the title, however it is wrapped
    assert title == f"learned {ref} vs reference {learned}"
    r = cli.run("compare", learned, ref)
    assert "swapped" not in r.stderr
    assert " ".join(r.stdout.split("┏")[0].split()) == f"learned {learned} vs reference {ref}"
    assert "swapped" not in cli.run("compare", ref, ref).stderr  # a reference against itself is no mistake
    r = cli.run("--strict", "compare", ref, learned)
    assert r.exit_code == 2 and "swapped" in r.stderr
