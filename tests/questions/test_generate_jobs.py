"""amlasp/questions/generate.py on many processes (`questions generate --jobs N`, `--executor dask`): a task
a chunk, the parts put together in task order: the items file, the balance, the skips and the reasons a
task stopped are the serial run's, byte for byte (the first yes/no answer still alternating from task to
task); on a Dask cluster whose workers share no file with this process too; and from the command line."""

from __future__ import annotations

import pytest

from amlasp.choices import Executor
from amlasp.jobs import Jobs
from amlasp.questions.generate import Generation, Options, generate, load_sources
from amlasp.questions.items import Task
from tests.support import cli
from tests.support.paths import IPC

D = "blocksworld"
PROBLEMS = sorted((IPC / "problems" / "learning" / D).glob("*_prob.pddl"))[:3]
TASKS = (Task.APP, Task.PROG, Task.REACH, Task.VAL, Task.LAND, Task.NEXTA, Task.COUNT)


def made(jobs: Jobs) -> Generation:
    sources = load_sources(IPC / "domains" / f"{D}.pddl", PROBLEMS)
    return generate(sources, Options(tasks=TASKS, per_task=3, seed=4, time_limit=60), jobs=jobs)


def same(a: Generation, b: Generation) -> None:
    assert a.jsonl() == b.jsonl()
    assert (a.balance(), a.skips(), a.asked, a.gave_up, a.near_goal, a.states) == \
        (b.balance(), b.skips(), b.asked, b.gave_up, b.near_goal, b.states)


@pytest.fixture(scope="module")
def serial() -> Generation:
    g = made(Jobs())
    assert len(g.items) == 3 * 3 * len(TASKS) and {i.task for i in g.items} == set(TASKS)
    return g


def test_parallel_equals_serial(serial):
    progress = []
    sources = load_sources(IPC / "domains" / f"{D}.pddl", PROBLEMS)
    g = generate(sources, Options(tasks=TASKS, per_task=3, seed=4, time_limit=60), jobs=Jobs(2),
                 progress=lambda *a: progress.append(a))
    same(g, serial)
    assert progress[-1] == ("items", len(serial.items), len(serial.items))


def test_dask_equals_serial(serial, dask_cluster):
    same(made(Jobs(executor=Executor.DASK, scheduler=dask_cluster)), serial)


def test_cli_jobs(tmp_path):
    args = ["questions", "generate", IPC / "domains" / f"{D}.pddl", *PROBLEMS[:2], "--tasks", "app,prog,count",
            "-n", "2", "--seed", "3"]
    one = cli.run(*args, "-o", tmp_path / "one.jsonl")
    two = cli.run(*args, "-o", tmp_path / "two.jsonl", "--jobs", "2")
    assert one.exit_code == two.exit_code == 0, two.output
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "two.jsonl").read_bytes()
    assert one.stdout.replace("one.jsonl", "") == two.stdout.replace("two.jsonl", "")


def test_the_costliest_tasks_are_handed_out_first():
    """Longest first: nexta (an optimal search per applicable action) before reach, land, and the simulated
    tasks last, val (a sequence simulated) before app; ties in the order asked. The parallel run above merges
    the parts of tasks handed out in this order back in the order asked."""
    from amlasp.questions.generate import handed_out
    order = [TASKS[k] for k in handed_out(Options(tasks=TASKS, per_task=3))]
    assert order == [Task.NEXTA, Task.LAND, Task.REACH, Task.VAL, Task.PROG, Task.APP, Task.COUNT]
    assert handed_out(Options(tasks=(Task.COUNT, Task.VERIFY), per_task=3)) == [0, 1]
