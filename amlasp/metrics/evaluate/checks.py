"""Checks of the test states against their problems and the reference, said as warnings.

A trajectory is a record of a run: its first state should be its problem's initial state, and
each recorded action applicable where it was taken. One that is not is still evaluated (its
states are states), but the user is told, naming the file and the step (`evaluate` issues each
as an `InputWarning`; `amlasp --strict` refuses the input). Applicability is the reference's,
decided in eval's own program: each recorded step is a fact `recorded(S,N,A)` of the batch that
holds state S, and `encodings/eval.lp` shows `off_step(S)` when the reference does not allow A
there, so that the check costs one join, not a grounding of its own."""

from __future__ import annotations

from typing import Sequence

from ...asp.names import asp_name, atom_text, term
from ...model import GroundAction
from ...pddl.states import StateSet
from .rules import Slot
from .states import Context


class StepCheck:
    """The recorded steps of the trajectories among `sets` (states numbered as `states.group` does)."""

    def __init__(self, sets: Sequence[StateSet], pair: Sequence[Slot]):
        by_key = {(asp_name(s.ref.name), s.ref.arity): s for s in pair if s.ref is not None}
        self.facts: dict[int, str] = {}  # state → recorded(S,N,A).
        self.steps: dict[int, tuple[str, int, GroundAction]] = {}  # state → (file, step, action)
        self.warnings: list[str] = []
        unknown: dict[str, tuple[int, GroundAction]] = {}
        offset = 0
        for ss in sets:
            if any(a is not None for a in ss.actions) and ss.states and ss.states[0] != ss.problem.init:
                self.warnings.append(_first_state(ss))
            for k, a in enumerate(ss.actions):
                if a is None:
                    continue
                slot = by_key.get((asp_name(a.name), len(a.args)))
                if slot is None:
                    unknown.setdefault(ss.source, (k, a))
                    continue
                s = offset + k
                self.facts[s] = f"recorded({s},{slot.index},{atom_text(slot.ref.name, [term(x) for x in a.args])})."
                self.steps[s] = (ss.source, k, a)
            offset += len(ss.states)
        self.warnings += [f"{source}: step {k + 1}: {a} is not an action of the reference"
                          for source, (k, a) in unknown.items()]

    def batch(self, contexts: Sequence[Context]) -> str:
        """The facts of the steps taken in the states of a batch."""
        return "\n".join(self.facts[s] for c in contexts for s in c.states if s in self.facts)

    def off_steps(self, states: Sequence[int]) -> list[str]:
        """The warnings for the steps eval.lp found not applicable: the first of each file, and how many more."""
        by_file: dict[str, list[tuple[int, GroundAction]]] = {}
        for s in sorted(states):
            source, k, a = self.steps[s]
            by_file.setdefault(source, []).append((k, a))
        out = []
        for source, where in by_file.items():
            k, a = where[0]
            more = f" (and {len(where) - 1} later step(s) of this file)" if len(where) > 1 else ""
            out.append(f"{source}: step {k + 1}: {a} is not applicable in the reference in the state before it{more}")
        return out


def _first_state(ss: StateSet) -> str:
    only_s = sorted(map(str, ss.states[0] - ss.problem.init))
    only_i = sorted(map(str, ss.problem.init - ss.states[0]))
    return (f"{ss.source}: the first state is not the initial state of {ss.problem.file or ss.problem.name} "
            f"({len(only_s)} atom(s) only in the state{', e.g. ' + only_s[0] if only_s else ''}; "
            f"{len(only_i)} only in :init{', e.g. ' + only_i[0] if only_i else ''})")


__all__ = ["StepCheck"]
