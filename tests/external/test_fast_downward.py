"""`plan_with_fast_downward`: Fast Downward's driver on the PDDL our writer makes (as `gen trajectories`
and `bench run` plan), its plans valid in the reference, and its own backstop time limit."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from amlasp.external import fast_downward
from amlasp.external.fast_downward import PlannerStatus, plan_with_fast_downward
from amlasp.pddl.parse import load_domain, load_problem
from amlasp.reasoning.engine import execute
from tests.support.ipc import reference, smallest


@pytest.mark.parametrize("domain", ["ferry", "grippers", "tpp"])
@pytest.mark.parametrize("config", ["greedy", "opt"])
def test_the_driver_finds_a_plan_valid_in_the_reference(domain, config):
    d = load_domain(reference(domain))
    p = load_problem(smallest(domain), d)
    ours = plan_with_fast_downward(d, p, None, config, 60)
    assert ours.status == PlannerStatus.PLAN and execute(d, p, list(ours.plan)).valid


def test_the_driver_has_a_backstop_time_limit_of_its_own(monkeypatch):
    """The driver runs in a session of its own: killed with its caller's group it would not end; its own
    time limit ends it."""
    seen = []

    class Stop(Exception):
        pass

    def popen(cmd, **kw):
        seen.append(cmd)
        raise Stop

    monkeypatch.setattr(subprocess, "Popen", popen)
    d = load_domain(reference("ferry"))
    with pytest.raises(Stop):
        plan_with_fast_downward(d, load_problem(smallest("ferry"), d), None, "greedy", 7.5)
    cmd = seen[0]
    assert cmd[cmd.index("--overall-time-limit") + 1] == f"{8 + fast_downward.ORPHAN_GRACE}s"


def test_an_optimal_plan_with_derived_predicates_uses_a_search_that_reads_axioms():
    """LM-cut refuses axioms (Fast Downward exits 34); `optimal_plan` takes blind A* for such a domain,
    and its plan is as short as clingo's shortest (8 steps, blocks with `above` derived)."""
    from amlasp.external.fast_downward import OPTIMAL_AXIOMS, optimal_config, optimal_plan
    from amlasp.reasoning.planning import plan

    root = Path(__file__).resolve().parent.parent / "data" / "derived"
    d = load_domain(root / "blocks-above.pddl")
    p = load_problem(root / "blocks-above-1.pddl", d)
    assert optimal_config(d) == OPTIMAL_AXIOMS
    r = optimal_plan(d, p, 60)
    assert r.status == PlannerStatus.PLAN and execute(d, p, list(r.plan)).valid
    assert len(r.plan) == len(plan(d, p).plans[0]) == 8


@pytest.mark.parametrize("config", ["greedy", "opt"])
def test_every_configuration_plans_with_derived_predicates(config):
    """`solve --planner-config opt` and `gen trajectories`' optimal steps run the `opt` configuration:
    on a domain with derived predicates it is blind A* (LM-cut would refuse the axioms), and greedy
    search reads them as they are."""
    root = Path(__file__).resolve().parent.parent / "data" / "derived"
    d = load_domain(root / "blocks-above.pddl")
    p = load_problem(root / "blocks-above-1.pddl", d)
    r = plan_with_fast_downward(d, p, None, config, 60)
    assert r.status == PlannerStatus.PLAN and execute(d, p, list(r.plan)).valid
    assert config == "greedy" or len(r.plan) == 8


def test_a_planner_run_without_its_driver_is_seen_to_end_at_once(monkeypatch):
    """With a time limit, `Running.wait` learns that the planner ended from a pidfd, not from `Popen.wait`'s
    polling (up to 50 ms late, a third of a small task's run); the translator and the search are chained by a
    shell (the search starts when the translator ends, whatever this process does), the translator without
    site (-S), whose start-up it does not need."""
    from amlasp.pddl.writer import problem_to_pddl, to_pddl
    from tests.support.examples import BLOCKSWORLD4
    timeouts = []
    real = subprocess.Popen.wait

    def wait(self, timeout=None):
        timeouts.append(timeout)
        return real(self, timeout)

    monkeypatch.setattr(subprocess.Popen, "wait", wait)
    d, p = BLOCKSWORLD4.load()
    task = fast_downward.PlannerTask(to_pddl(d), problem_to_pddl(p))
    running = fast_downward.start_driver(task, fast_downward.OPTIMAL, 60.0, direct=True)
    try:
        assert running.proc.args[:2] == ["/bin/sh", "-c"] and " -S -m fast_downward.translate " in running.proc.args[2]
        result = running.wait()
    finally:
        running.stop()
    assert result is not None and result.status == PlannerStatus.PLAN and len(result.plan) == BLOCKSWORLD4.optimal
    assert all(t is None for t in timeouts)


def _fake(folder: Path, name: str, body: str) -> str:
    path = folder / name
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)
    return str(path)


@pytest.mark.parametrize("translator, search, code", [
    ("exit 1", "exit 0", 30),  # the translator crashed: the driver's 30
    ("exit 31", "exit 0", 31),  # it rejected the input (the search never runs)
    ("exit 10", "exit 0", 10),  # it proved the task unsolvable
    ('[ "$1 $2 $3" = "-S -m fast_downward.translate" ] && [ "$6" = "--sas-file" ] && echo task > "$7"',
     '[ "$(cat)" = task ] && [ "$1" = --search ] && exit 12', 12),  # the search's own code, the SAS file its input
    (': > "$7"', "exit 1", 1),  # the search's 1 (a plan, out of memory) is no crash
])
def test_the_chain_of_translator_and_search_exits_as_the_driver(tmp_path, translator, search, code):
    python, downward = _fake(tmp_path, "python", translator), _fake(tmp_path, "downward", search)
    sas = str(tmp_path / "output.sas")
    done = subprocess.run(["/bin/sh", "-c", fast_downward._CHAIN, "sh", python, "d.pddl", "p.pddl", sas, downward,
                           "--search", "astar(lmcut())"], cwd=tmp_path)
    assert done.returncode == code
