"""Checks of the test states against their problems and the reference, said as warnings.

A trajectory is a record of a run: its first state should be its problem's initial state, and
each recorded action applicable where it was taken. One that is not is still evaluated (its
states are states), but the user is told, naming the file and the step (`evaluate` issues each
as an `InputWarning`; `amlasp --strict` refuses the input)."""

from __future__ import annotations

from typing import Sequence

from ...model import Domain, GroundAction
from ...pddl.states import StateSet
from ...reasoning.engine import applicable_steps


def trajectory_warnings(ref: Domain, sets: Sequence[StateSet]) -> list[str]:
    """What a trajectory says that its problem or the reference contradicts: its first state is not
    the problem's initial state, or a recorded action is not applicable (in the reference) in the
    state before it; the first such step of each file (one grounding for all the steps)."""
    out = []
    trajectories = [ss for ss in sets if any(a is not None for a in ss.actions)]
    for ss in trajectories:
        if ss.states and ss.states[0] != ss.problem.init:
            only_s = sorted(map(str, ss.states[0] - ss.problem.init))
            only_i = sorted(map(str, ss.problem.init - ss.states[0]))
            out.append(f"{ss.source}: the first state is not the initial state of {ss.problem.file or ss.problem.name} "
                       f"({len(only_s)} atom(s) only in the state{', e.g. ' + only_s[0] if only_s else ''}; "
                       f"{len(only_i)} only in :init{', e.g. ' + only_i[0] if only_i else ''})")
    steps = [(ss, i, a) for ss in trajectories for i, a in enumerate(ss.actions) if a is not None]
    ok = applicable_steps(ref, [(ss.problem, ss.states[i], a) for ss, i, a in steps])
    bad: dict[str, list[tuple[int, GroundAction]]] = {}
    for (ss, i, a), fine in zip(steps, ok):
        if not fine:
            bad.setdefault(ss.source, []).append((i, a))
    for source, where in bad.items():
        i, a = where[0]
        more = f" (and {len(where) - 1} later step(s) of this file)" if len(where) > 1 else ""
        out.append(f"{source}: step {i + 1}: {a} is not applicable in the reference in the state before it{more}")
    return out


__all__ = ["trajectory_warnings"]
