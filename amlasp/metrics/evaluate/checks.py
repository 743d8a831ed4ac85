"""Checks of the test states against their problems and the reference, said as warnings.

A trajectory is a record of a run: its first state should be its problem's initial state, and
each recorded action applicable where it was taken. One that is not is still evaluated (its
states are states), but the user is told, naming the file and the step (`evaluate` issues each
as an `InputWarning`; `amlasp --strict` refuses the input). Applicability is the reference's,
decided in eval's own program: each recorded step is a fact `recorded(S,R,N,A)` of the batch that
holds state S (R the state written for it, `asp.eval_states.group`), and `encodings/eval.lp` shows
`off_step(S)` when the reference does not allow A there, so that the check costs one join, not a
grounding of its own."""

from __future__ import annotations

from typing import Sequence

from ...asp.compile.slots import Slot
from ...asp.eval_states import Grouped, recorded_rows
from ...asp.names import asp_name
from ...model import GroundAction
from ...pddl.states import StateSet


class StepCheck:
    """The recorded steps of the trajectories, batch by batch (states numbered as `asp.eval_states.group` does);
    the warnings are said once all batches are done (`warnings`), in the order of the files."""

    def __init__(self, pair: Sequence[Slot]):
        self.by_key = {(asp_name(s.ref.name), s.ref.arity): s for s in pair if s.ref is not None}
        self.first: list[str] = []  # trajectories whose first state is not their problem's initial state
        self.unknown: dict[str, tuple[int, GroundAction]] = {}  # file → its first action the reference lacks
        self.off: dict[str, list[tuple[int, GroundAction]]] = {}  # file → steps the reference does not allow
        self.steps: dict[int, tuple[str, int, GroundAction]] = {}  # the batch's state → (file, step, action)

    def batch(self, sets: Sequence[StateSet], grouped: Grouped) -> list[str]:
        """Rows of `recorded(S,R,N,A)`: in state S (of the batch, R the distinct state standing for it) a
        trajectory took action A of slot N."""
        self.steps = {}
        rows = []  # (S, R, N, A) of each recorded step
        offset = 0
        for ss in sets:
            if any(a is not None for a in ss.actions) and ss.states and ss.states[0] != ss.problem.init:
                self.first.append(_first_state(ss))
            for k, a in enumerate(ss.actions):
                if a is None:
                    continue
                slot = self.by_key.get((asp_name(a.name), len(a.args)))
                if slot is None:
                    self.unknown.setdefault(ss.source, (k, a))
                    continue
                s = offset + k
                rows.append((s, grouped.alias[s], slot.index, a))
                self.steps[s] = (ss.source, k, a)
            offset += len(ss.states)
        return recorded_rows(rows)

    def off_steps(self, states: Sequence[int]) -> None:
        """The batch's states where eval.lp found the recorded step not applicable in the reference."""
        for s in sorted(states):
            source, k, a = self.steps[s]
            self.off.setdefault(source, []).append((k, a))

    def warnings(self) -> list[str]:
        """First states that are not initial states, actions the reference lacks, and steps it does
        not allow (the first of each file, and how many more)."""
        out = self.first + [f"{source}: step {k + 1}: {a} is not an action of the reference"
                            for source, (k, a) in self.unknown.items()]
        for source, where in self.off.items():
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
