"""Fast Downward on a task we build (a state as the initial state, a compiled variant of the domain).

`plan_with_fast_downward` gives unified-planning the model as written; UP refuses a task in which an
action has the name of a predicate ("Name down already defined!": ACPBench's floor-tile has both an
action and a predicate `down`). Here such actions are renamed for the planner (`down` → `down-action`)
and the plan's action names mapped back, so that every task of a domain can be planned for.

`Translated` is for many searches of one task from different states (nexta's successors): Fast
Downward's translator runs once (a few tenths of a second), and each search is its search component
alone on the translated task with another initial state (milliseconds to start). A state reachable
from the translated one is always expressible in the translated variables (the translator keeps
every fact reachable from its initial state, and its mutex groups hold in every reachable state);
one that is not is refused (`NotEncodable`), never guessed.
"""

from __future__ import annotations

import os
import re
import selectors
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

from ..external.fast_downward import (
    OPTIMAL,
    PlannerResult,
    PlannerStatus,
    downward_root,
    optimal_config,
    plan_with_fast_downward,
)
from ..external.planner_task import planner_task
from ..goal_rules import with_goal_rules
from ..model import Atom, Domain, GroundAction, Problem


def plan(domain: Domain, problem: Problem, config: str = "greedy", time_limit: float = 60.0) -> PlannerResult:
    """`plan_with_fast_downward(domain, problem)` with action names that clash made distinct."""
    taken = {p.name for p in domain.predicates} | {t for t, _ in domain.types} | {"object"}
    renamed: dict[str, str] = {}
    names = {a.name for a in domain.actions}
    for a in domain.actions:
        if a.name in taken:
            new = f"{a.name}-action"
            while new in taken or new in names:
                new += "-"
            renamed[new] = a.name
    if renamed:
        back = {old: new for new, old in renamed.items()}
        domain = replace(domain, actions=tuple(replace(a, name=back.get(a.name, a.name)) for a in domain.actions))
    r = plan_with_fast_downward(domain, problem, reference=domain, config=config, timeout=time_limit)
    if renamed and r.plan is not None:
        r = replace(r, plan=tuple(GroundAction(renamed.get(a.name, a.name), a.args) for a in r.plan))
    return r


class NotEncodable(Exception):
    """A state that the translated task's variables cannot express (not reachable from its initial state)."""


@dataclass(frozen=True)
class Search(PlannerResult):
    """A search's outcome; `at_least`: a lower bound on the optimal cost proven before a time limit
    (the last f-layer A* finished), when the search stopped short."""

    at_least: int | None = None


# the search component's exit codes (https://www.fast-downward.org/latest/documentation/exit-codes/)
_FOUND, _UNSOLVABLE, _WITHIN_BOUND = {0}, {11}, {13}
_F_LAYER = re.compile(r"\bf = (\d+)")  # A*'s progress line as it starts an f-layer


class Translated:
    """One task translated by Fast Downward once, searched from any state reachable from its initial state."""

    def __init__(self, domain: Domain, problem: Problem, time_limit: float = 60.0):
        self.domain, self.problem = domain, problem
        self.actions = {a.name.lower(): a.name for a in domain.actions}
        self.objects = {o.lower(): o for o in problem.object_types(domain)}
        self._dir = tempfile.TemporaryDirectory(prefix="amlasp-fd-")
        work = Path(self._dir.name)
        task = planner_task(domain, problem)
        (work / "domain.pddl").write_text(task.domain)
        (work / "problem.pddl").write_text(task.problem)
        start = time.monotonic()
        code, log, _ = _run([sys.executable, "-m", "fast_downward.translate", str(work / "domain.pddl"),
                             str(work / "problem.pddl"), "--sas-file", str(work / "task.sas")], work, time_limit,
                            env={**os.environ, "PYTHONPATH": str(_bin())})
        self.seconds = time.monotonic() - start
        self.error = "" if code == 0 else (f"time limit of {time_limit:g} s reached in the translator"
                                           if code is None else f"the translator failed ({code}): {log[-300:]}")
        self.lines = (work / "task.sas").read_text().splitlines() if code == 0 else []
        self._parse()

    def _parse(self) -> None:
        """The variables' values (`Atom p(a, b)`, `NegatedAtom ...`, `<none of those>`) and where the
        initial state is written."""
        self.values: list[list[tuple[bool, Atom] | None]] = []
        lines, k = self.lines, 0
        while k < len(lines):
            if lines[k] == "begin_variable":
                n = int(lines[k + 3])
                self.values.append([_value(x) for x in lines[k + 4:k + 4 + n]])
                k += 4 + n
            elif lines[k] == "begin_state":
                self.state_at = k + 1
                break
            else:
                k += 1

    def encode(self, state: frozenset[Atom]) -> list[int]:
        """Each variable's value in `state` (lower-cased atoms, as the translator writes them)."""
        held = {Atom(f.predicate.lower(), tuple(a.lower() for a in f.args)) for f in state}
        out = []
        for k, values in enumerate(self.values):
            true = [i for i, v in enumerate(values) if v is not None and v[0] and v[1] in held]
            if len(true) > 1:
                raise NotEncodable(f"variable {k} has {len(true)} true facts")
            if not true:
                true = [i for i, v in enumerate(values) if v is None or not v[0]]
                if len(true) != 1:
                    raise NotEncodable(f"variable {k} has no value for the state")
            out.append(true[0])
        return out

    def search(self, state: frozenset[Atom] | None = None, bound: int | None = None, time_limit: float = 60.0,
               config: str | None = None) -> Search:
        """Search from `state` (default: the problem's initial state); with `bound`, only plans
        costing less than it (A*: an optimal plan, or a proof that none is that cheap). `config`:
        an A* configuration, `optimal_config` by default."""
        config = optimal_config(with_goal_rules(self.domain, [self.problem])) if config is None else config
        if self.error:
            return Search(PlannerStatus.ERROR, detail=self.error)
        work = Path(self._dir.name)
        lines = list(self.lines)
        if state is not None:
            lines[self.state_at:self.state_at + len(self.values)] = map(str, self.encode(state))
        sas = work / "search.sas"
        sas.write_text("\n".join(lines) + "\n")
        if bound is not None:
            config = config[:-1] + f", bound={bound})"
        plan_file = work / "plan"
        plan_file.unlink(missing_ok=True)
        start = time.monotonic()
        with open(sas) as given:
            code, log, stopped = _run([str(_bin() / "downward"), "--search", config, "--internal-plan-file",
                                       str(plan_file)], work, time_limit, given,
                                      stop=None if bound is None else _layer_at_least(bound))
        seconds = time.monotonic() - start
        layers = _F_LAYER.findall(log)  # with a bound, nodes as costly as it are pruned: an f-layer N then
        at_least = int(layers[-1]) if layers else None  # proves no plan costs less than min(N, bound)
        if at_least is not None and bound is not None:
            at_least = min(at_least, bound)
        if stopped or code in _WITHIN_BOUND:
            return Search(PlannerStatus.NO_PLAN, None, seconds, f"no plan costs less than {bound}", code,
                          at_least=bound)
        if code in _FOUND and plan_file.exists():
            return Search(PlannerStatus.PLAN, self._read_plan(plan_file.read_text()), seconds, "", code)
        if code in _UNSOLVABLE:
            return Search(PlannerStatus.NO_PLAN, None, seconds, "search space exhausted", code)
        if code is None:
            return Search(PlannerStatus.TIMEOUT, None, seconds, f"time limit of {time_limit:g} s reached", None,
                          at_least=at_least)
        return Search(PlannerStatus.ERROR, None, seconds, f"Fast Downward's search exited with {code}: "
                      f"{' | '.join(log.strip().splitlines()[-2:])[-300:]}", code, at_least=at_least)

    def _read_plan(self, text: str) -> tuple[GroundAction, ...]:
        out = []
        for line in text.splitlines():
            words = line.strip().strip("()").split()
            if words and not line.startswith(";"):
                out.append(GroundAction(self.actions[words[0]], tuple(self.objects[o] for o in words[1:])))
        return tuple(out)

    def close(self) -> None:
        self._dir.cleanup()

    def __enter__(self) -> Translated:
        return self

    def __exit__(self, *_) -> None:
        self.close()


def _value(text: str) -> tuple[bool, Atom] | None:
    """`Atom at(c0, l1)` → (True, at(c0 l1)); `NegatedAtom ...` → (False, ...); `<none of those>` → None."""
    m = re.fullmatch(r"(Atom|NegatedAtom) ([^(]+)\((.*)\)", text.strip())
    if m is None:
        return None
    args = tuple(a.strip() for a in m.group(3).split(",") if a.strip())
    return m.group(1) == "Atom", Atom(m.group(2), args)


def _layer_at_least(bound: int) -> Callable[[str], bool]:
    """A* (admissible heuristic) starting an f-layer of `bound` or more: no plan costs less than `bound`
    (Fast Downward's `bound` prunes by g alone, and would go on through every node cheaper than it)."""
    def reached(line: str) -> bool:
        m = _F_LAYER.search(line)
        return m is not None and int(m.group(1)) >= bound
    return reached


def _bin() -> Path:
    return downward_root() / "builds" / "release" / "bin"


def _run(cmd: list[str], cwd: Path, time_limit: float, stdin=None, env=None,
         stop: Callable[[str], bool] | None = None) -> tuple[int | None, str, bool]:
    """A child process in its own group, killed (the whole group) at the time limit or at the first
    line of its output for which `stop` holds: (exit code, None when killed; its output; stopped)."""
    p = subprocess.Popen(cmd, cwd=cwd, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         start_new_session=True, env=env)
    assert p.stdout is not None
    deadline, lines, stopped = time.monotonic() + time_limit, [], False
    with selectors.DefaultSelector() as sel:
        sel.register(p.stdout, selectors.EVENT_READ)
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not sel.select(timeout=left):
                break
            line = p.stdout.readline()
            if not line:
                break
            lines.append(line)
            if stop is not None and stop(line):
                stopped = True
                break
    if p.poll() is None and (stopped or time.monotonic() >= deadline):
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        return None, "".join(lines), stopped
    lines.append(p.stdout.read())
    return p.wait(), "".join(lines), False


__all__ = ["plan", "Translated", "Search", "NotEncodable", "downward_root", "OPTIMAL"]
