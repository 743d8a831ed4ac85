"""The real inputs the fuzzer starts from: per IPC domain, one task of every kind the CLI reads.

A task is the reference domain, its NOLAM-learned model, the smallest learning problem that
has a training trajectory, that trajectory (its first states, to keep runs short), a plan
made of the trajectory's actions (executable: the trajectory is an execution), a JSON state
file of the same states, one literal of the initial state and the first action.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from tests.support.paths import IPC

from . import sexp

#: The domains of the quick slice: small, quick to ground, typed and untyped, with constants.
QUICK = ("blocksworld", "ferry", "miconic", "grippers", "depots")
#: Every IPC domain with training trajectories (visitall's problems are empty files in the data set).
ALL = ("barman", "blocksworld", "childsnack", "depots", "elevators", "ferry", "floortile", "goldminer", "grippers",
       "matchingbw", "miconic", "nomystery", "npuzzle", "parking", "rovers", "satellite", "sokoban", "spanner",
       "tpp", "transport")

STATES = 3  # states kept of a trajectory
DEV_ZERO = "\0/dev/zero"  # a role's text that stands for the path /dev/zero


@dataclass(frozen=True)
class Task:
    """The texts of one task; `roles` name them as files (`literal` and `action` are command-line arguments)."""

    name: str
    domain: str
    learned: str
    problem: str
    problem_file: str  # its name: trajectories and JSON files find it by name
    trajectory: str
    plan: str
    states: str  # a JSON state file
    literal: str
    action: str

    def with_text(self, role: str, text: str) -> "Task":
        return replace(self, **{role: text})


ROLES = ("domain", "problem", "plan", "trajectory", "states", "literal", "action")


@lru_cache(maxsize=None)
def task(domain: str) -> Task:
    problems = IPC / "problems" / "learning" / domain
    trajs = IPC / "trajectories" / "learning" / domain
    k = min((int(p.name.split("_")[0]) for p in trajs.iterdir()
             if (problems / f"{p.name.split('_')[0]}_{domain}_prob.pddl").stat().st_size > 0),
            key=lambda i: (problems / f"{i}_{domain}_prob.pddl").stat().st_size)
    pfile = f"{k}_{domain}_prob.pddl"
    traj_text = (trajs / f"{k}_{domain}_traj").read_text()
    root = sexp.read(traj_text)
    items = root.children[1:1 + 2 * STATES - 1]
    trajectory = "(:trajectory\n" + "\n".join(traj_text[c.start:c.end] for c in items) + "\n)\n"
    states = [[traj_text[a.start:a.end] for a in c.children[1:]] for c in items if c.head == ":state"]
    actions = [traj_text[c.children[1].start:c.children[1].end] for c in items if c.head == ":action"]
    plan = f"; the first actions of {k}_{domain}_traj\n" + "\n".join(actions) + "\n"
    reference = (IPC / "domains" / f"{domain}.pddl").read_text()
    return Task(domain, reference, _learned(domain, reference), (problems / pfile).read_text(), pfile,
                trajectory, plan, json.dumps({pfile: states}, indent=1) + "\n", states[0][0], actions[0])


def _learned(domain: str, reference: str) -> str:
    """The NOLAM model, or the reference where NOLAM's cannot be read (childsnack's uses an undeclared
    predicate): a broken learned model would be refused before the input a fault is put in."""
    from amlasp.errors import InputError
    from amlasp.pddl.parse import parse_domain
    text = (IPC / "learned" / "nolam" / f"{domain}.pddl").read_text()
    try:
        parse_domain(text, "learned.pddl")
    except InputError:
        return reference
    return text


def write(t: Task, where: Path) -> dict[str, str]:
    """The task's files in `where`; the arguments each role is given as (paths, or the text itself)."""
    (where / "problems").mkdir(parents=True, exist_ok=True)
    files = {"domain": where / "domain.pddl", "learned": where / "learned.pddl",
             "problem": where / "problems" / t.problem_file,
             "trajectory": where / t.problem_file.replace("_prob.pddl", "_traj"),
             "plan": where / "plan.txt", "states": where / "states.json"}
    args = {}
    for role, path in files.items():
        text = getattr(t, role)
        if text == DEV_ZERO:
            args[role] = "/dev/zero"
            continue
        path.write_bytes(text.encode("utf-8", errors="surrogatepass"))
        args[role] = str(path)
    args.update(literal=t.literal, action=t.action, problems=str(where / "problems"))
    return args
