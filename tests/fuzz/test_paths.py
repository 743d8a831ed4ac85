"""The fuzz corpus on results files, kept-plans paths, manifests and JSON state keys: seeded
damage and hostile names, each checked against the promise (docs/bench.md, docs/input.md) —
a results file is changed only where amlasp wrote a torn line, a kept file is never outside its
folder, and a path named in a file never reaches (or quotes) a file outside the folder."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from amlasp.errors import InputError
from amlasp.experiments.bench import ResultsFile
from amlasp.experiments.suite import load_suite
from amlasp.files import real
from amlasp.metrics.solve import keep_plan, kept_files
from amlasp.pddl.states import state_inputs
from tests.support.paths import IPC, ROOT

from .paths import is_record_line, name, relative_path, results_text

BASE = (ROOT / "tests" / "golden" / "inputs" / "bench-results.jsonl").read_text()
CASES = 300


def _check_results_file(path: Path, text: str) -> str:
    """Read and repair one damaged results file; the outcome class."""
    path.write_text(text)
    rf = ResultsFile(path)
    try:
        meta, recs = rf.read()
    except InputError:
        assert path.read_text() == text  # refused: left exactly as it was
        return "refused"
    rf.repair()
    after = path.read_text()
    lines = text.split("\n")
    whole, tail = lines[:-1], lines[-1]
    assert all(ln in after.split("\n") for ln in whole if is_record_line(ln))  # no record of a line is lost
    if after == text or after == text + "\n":
        kept = "kept" if after == text else "completed"
    else:  # the only other change: a torn line of ours dropped
        assert after == text[: len(text) - len(tail)] and tail.startswith(('{"learner": ', '{"task": ')), (text, after)
        kept = "torn dropped"
    assert ResultsFile(path).read() == (meta, recs)  # the repair changed no record
    return kept


def test_results_files_are_changed_only_where_ours_was_torn(tmp_path):
    rng = random.Random(20)
    seen: dict[str, int] = {}
    for _ in range(CASES):
        outcome = _check_results_file(tmp_path / "r.jsonl", results_text(BASE, rng))
        seen[outcome] = seen.get(outcome, 0) + 1
    assert set(seen) == {"refused", "kept", "completed", "torn dropped"}, seen  # every branch was met


def test_kept_plans_never_leave_their_folder(tmp_path):
    root, victim = tmp_path / "keep", tmp_path / "victim"
    root.mkdir()
    victim.mkdir()
    os.symlink(victim, root / "link")
    rng = random.Random(21)
    written = refused = 0
    for _ in range(CASES):
        learner, domain, problem = name(rng), name(rng), name(rng) + ".pddl"
        try:
            files = kept_files(root, problem, (learner, domain))
            keep_plan(root, problem, "(a)\n" if rng.random() < 0.5 else None, "log\n", (learner, domain))
        except InputError:
            refused += 1
            continue
        written += 1
        assert all(real(root) in f.parents for f in files) and files[1].read_text() == "log\n"
    assert not list(victim.iterdir()) and written > 20 and refused > 20, (written, refused)
    assert {p.name for p in tmp_path.iterdir()} == {"keep", "victim"}


def test_manifest_paths_are_what_they_name_and_json_paths_stay_in_their_folder(tmp_path):
    """A manifest may name a researcher's files anywhere (docs/bench.md), and no message quotes a file's
    text; a JSON state file's problem names stay inside its folder."""
    folder = tmp_path / "suite"
    (folder / "sub").mkdir(parents=True)
    (tmp_path / "secret.pddl").write_text("SECRET-LINE\n")
    for d in (folder, folder / "sub"):
        (d / "p.pddl").write_bytes((IPC / "domains" / "ferry.pddl").read_bytes())
    rng = random.Random(22)
    for _ in range(CASES):
        path = relative_path(rng)
        (folder / "m.toml").write_text(f"[domains.ferry]\nreference = {json.dumps(path)}\n")
        try:
            ref = load_suite(folder / "m.toml").domain("ferry", ()).reference
        except InputError as e:
            assert "SECRET" not in str(e)
        else:
            assert ref == (folder / path).resolve(), path
        (folder / "s.json").write_text(json.dumps({path: [["(at-ferry l0)"]]}))
        found = state_inputs([folder / "s.json"])
        assert all(os.path.normpath(p).startswith(str(folder) + os.sep) for p in found), (path, found)


@pytest.mark.parametrize("seed", [1, 2])
def test_names_and_results_with_other_seeds(tmp_path, seed):
    rng = random.Random(seed)
    for _ in range(CASES // 3):
        _check_results_file(tmp_path / "r.jsonl", results_text(BASE, rng))
