"""Where a bench run's time goes: Fast Downward, validating plans, and ours (everything else).

Each unit's record carries its split: `seconds` (the unit, in its worker), of which `planner_seconds`
(the wall time of Fast Downward's processes: driver, translator, search) and `validation_seconds`
(checking the plan in the reference, with its cost); the rest of the unit is ours (parsing, compare,
eval, the planner's input and its plan, the unit's files). A run adds what happens outside its units,
ours as well: start-up, the worker processes, sending units and records, the results file. Workers
with nothing left to do while the last units go on are `idle`, counted apart. Records of older versions
(no `validation_seconds`) count their `planner_seconds` as they measured it.
"""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True)
class TimeSplit:
    """Seconds of worker time: in Fast Downward, validating plans, ours, and idle."""

    planner: float = 0.0
    validation: float = 0.0
    ours: float = 0.0
    idle: float = 0.0

    def __add__(self, other: TimeSplit) -> TimeSplit:
        return TimeSplit(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))

    @property
    def busy(self) -> float:
        """Worker time spent on something: all but idle."""
        return self.planner + self.validation + self.ours

    def share(self, part: str) -> float:
        """`part`'s share of the busy time (0 when there is none)."""
        return getattr(self, part) / self.busy if self.busy > 0 else 0.0

    def to_dict(self) -> dict:
        return {f.name: round(getattr(self, f.name), 3) for f in fields(self)}


def unit_split(rec: dict) -> TimeSplit:
    """The split of one unit's record (failed and lost units count as ours: no planner time is known)."""
    total = float(rec.get("seconds") or 0.0)
    planner = float(rec.get("planner_seconds") or 0.0)
    validation = float(rec.get("validation_seconds") or 0.0)
    return TimeSplit(planner, validation, max(0.0, total - planner - validation))


def run_split(units: TimeSplit, wall: float, workers: int, idle: float) -> TimeSplit:
    """The whole run's split of `workers` x `wall` seconds, from its units' summed split: their planner
    and validation time, idle workers, and ours (everything else, inside the units and outside them)."""
    return TimeSplit(units.planner, units.validation,
                     max(0.0, workers * wall - units.planner - units.validation - idle), idle)


__all__ = ["TimeSplit", "run_split", "unit_split"]
