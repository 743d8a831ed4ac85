"""amlasp/metrics/evaluate on many processes (`eval --jobs N`, `--executor dask`: driver._parallel, chunks.py):
on a mixed set — several problems, trajectories, a JSON and JSON lines state file, a trajectory whose first
state is not its problem's initial state and a step the reference does not allow, a file that does not read,
a learned model with a broken action — the result, its JSON text, the mispredictions' numbers, the warnings
(in order) and the unreadable rows are the serial run's; on a Dask cluster whose workers share no file with
this process too; and a worker killed mid-chunk costs only a retry of its chunk."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import warnings
from pathlib import Path

import pytest

from amlasp.choices import Executor, Format
from amlasp.errors import InputError
from amlasp.experiments.perturb import perturb
from amlasp.jobs import Jobs
from amlasp.metrics.evaluate import chunks, evaluate
from amlasp.pddl.parse import load_domain, load_problem
from amlasp.pddl.writer import to_pddl
from amlasp.render.evaluate import text
from tests.support.paths import IPC

D = "blocksworld"
TRAJ, PROBS = IPC / "trajectories" / "learning" / D, IPC / "problems" / "learning" / D


def _atoms(state) -> list[str]:
    return sorted(f"({a.predicate} {' '.join(a.args)})".replace(" )", ")") for a in state)


@pytest.fixture
def mixed(tmp_path: Path, monkeypatch) -> Path:
    """The mixed set under `tmp_path` (the working folder: relative paths, as a user types them)."""
    monkeypatch.chdir(tmp_path)
    ref = load_domain(IPC / "domains" / f"{D}.pddl")
    learned = to_pddl(perturb(ref, seed=5, drop=2, add=2).domain)
    at = learned.index("(:action stack")  # broken: an undeclared variable in one action, left out by recovery
    learned = learned[:at] + learned[at:].replace(":precondition (and", ":precondition (and (holding ?nowhere)", 1)
    Path("learned.pddl").write_text(learned)
    shutil.copy(IPC / "domains" / f"{D}.pddl", "ref.pddl")
    shutil.copytree(PROBS, "probs")
    states = Path("states")
    states.mkdir()
    for k in range(4):
        shutil.copy(TRAJ / f"{k}_{D}_traj", states / f"{k}_{D}_traj")
    # a trajectory starting elsewhere, with its second and third steps swapped (one not applicable)
    lines = (TRAJ / f"4_{D}_traj").read_text().splitlines()
    acts = [i for i, x in enumerate(lines) if x.startswith("(:action")]
    lines[acts[1]], lines[acts[2]] = lines[acts[2]], lines[acts[1]]
    first = next(i for i, x in enumerate(lines) if x.startswith("(:state"))
    lines[first] = lines[first].replace("(handempty)", "(handempty) (clear b1)", 1)
    (states / f"4_{D}_traj").write_text("\n".join(lines) + "\n")
    (states / "5_garbage_traj").write_text("(:trajectory (:state (on b1\n")  # does not read
    rng = random.Random(3)
    data, walk = {}, []
    for k in (5, 6):
        p = load_problem(PROBS / f"{k}_{D}_prob.pddl", ref)
        data[p.file and Path(p.file).name] = [_atoms(p.init)] * 3
        for i in range(40):  # a JSON lines walk: in full, then changes of random towers
            blocks = sorted({x for a in p.init for x in a.args})
            rng.shuffle(blocks)
            st = {f"(ontable {blocks[0]})", "(handempty)", f"(clear {blocks[-1]})"} | {
                f"(on {u} {b})" for b, u in zip(blocks, blocks[1:])}
            walk.append(json.dumps({"problem": f"{k}_{D}_prob.pddl", "state": sorted(st)}) if i % 5 == 0 else
                        json.dumps({"state": sorted(st)}))
    (states / "6_states.json").write_text(json.dumps(data))
    (states / "7_walks.jsonl").write_text("\n".join(walk) + "\n")
    return tmp_path


def run(jobs: Jobs, **kw):
    """The evaluation of the mixed set (every misprediction listed, unreadable files as rows), and the
    warnings it said, in order."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ev = evaluate("learned.pddl", "ref.pddl", ["states"], problems="probs", explain=True, keep_going=True,
                      jobs=jobs, **kw)
    return ev, [str(w.message) for w in caught]


def same(a, b) -> None:
    (ea, wa), (eb, wb) = a, b
    assert ea == eb
    assert text(ea, Format.JSON) == text(eb, Format.JSON)
    assert ea.mistakes == eb.mistakes and ea.unreadable == eb.unreadable
    assert wa == wb


def test_the_mixed_set_is_what_it_should_be(mixed):
    ev, said = run(Jobs())
    assert ev.problems >= 3 and ev.states > 100 and ev.mistakes and len(ev.unreadable) == 1
    assert ev.broken and any("first state is not the initial state" in w for w in said)
    assert any("not applicable in the reference" in w for w in said)


def test_parallel_equals_serial(mixed, monkeypatch):
    serial = run(Jobs(), batch_states=50)
    monkeypatch.setattr(chunks, "CHUNK_BYTES", 1)  # a chunk a file: 8 chunks over 2 workers
    same(run(Jobs(2), batch_states=50), serial)
    same(run(Jobs(3)), serial)


def test_a_file_that_stops_the_run_stops_it_as_serially(mixed, monkeypatch):
    monkeypatch.setattr(chunks, "CHUNK_BYTES", 1)
    errors = []
    for jobs in (Jobs(), Jobs(2)):
        with pytest.raises(InputError) as e, warnings.catch_warnings(record=True):
            evaluate("learned.pddl", "ref.pddl", ["states"], problems="probs", jobs=jobs)
        errors.append(str(e.value))
    assert errors[0] == errors[1] and "5_garbage_traj" in errors[0]


def test_dask_equals_serial_with_no_shared_file(mixed, dask_cluster, monkeypatch):
    serial = run(Jobs())
    monkeypatch.setattr(chunks, "CHUNK_BYTES", 1)
    same(run(Jobs(executor=Executor.DASK, scheduler=dask_cluster)), serial)


def test_a_worker_killed_mid_chunk_costs_a_retry_only(mixed, monkeypatch):
    """The first worker to start a chunk kills itself in it (once: a file marks that it did)."""
    serial = run(Jobs())
    monkeypatch.setattr(chunks, "CHUNK_BYTES", 1)
    from amlasp.metrics.evaluate import driver
    real = driver._evaluate_chunk
    mark = Path("killed-once").resolve()

    def dying(chunk, report):
        if "7_walks.jsonl" in chunk.files[0] and not mark.exists():
            mark.write_text(str(os.getpid()))
            report(1)  # mid-chunk: it has started
            os.kill(os.getpid(), signal.SIGKILL)
        return real(chunk, report)

    monkeypatch.setattr(driver, "_evaluate_chunk", dying)
    same(run(Jobs(2)), serial)
    assert mark.exists()


def test_cli_jobs_says_what_the_serial_run_says(mixed):
    from tests.support import cli
    args = ["eval", "learned.pddl", "ref.pddl", "--states", "states", "--problems", "probs", "-f", "json", "--explain"]
    one, two = cli.run(*args), cli.run(*args, "--jobs", "2")
    assert one.exit_code == two.exit_code == 2  # a file did not read: the others scored, exit 2 after the results
    assert one.stdout == two.stdout and one.stderr == two.stderr and "5_garbage_traj" in one.stderr
