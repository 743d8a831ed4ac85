"""Options that take one of a few names (`--format`, `--executor`, `--aggregate`, `--plot-format`).

The Enums of `--format`, `--planner-config`, `--executor` and `--aggregate` live here, not in the
modules that use them, so that --help lists their names without importing those modules (rich,
clingo, the parser: tests/cli/test_startup.py).

Each is an Enum of its names; `parse` is the one place a value is checked, so that every
command rejects a bad value with the same message: `unknown --format 'x' (choose from ...)`.
"""

from __future__ import annotations

from enum import Enum
from typing import Sequence, TypeVar

from .errors import InputError

C = TypeVar("C", bound="Choice")


class Choice(str, Enum):
    """A name an option takes; a `str`, so that it compares equal to (and prints as) its value."""

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)

    @classmethod
    def option(cls) -> str:
        """The command-line option that takes these names (for messages)."""
        raise NotImplementedError

    @classmethod
    def parse(cls: type[C], value: str, allowed: Sequence[C] | None = None) -> C:
        """The member named `value`, if `allowed` (default: all) has it; else the one error message."""
        allowed = tuple(cls) if allowed is None else tuple(allowed)
        for member in allowed:
            if member.value == value:
                return member
        raise InputError(f"unknown {cls.option()} '{value}' (choose from {', '.join(m.value for m in allowed)})")


class Format(Choice):
    """`--format`: how a command writes its result (`render.formats` writes each)."""

    TABLE = "table"  # rich, for a terminal
    JSON = "json"
    CSV = "csv"
    MARKDOWN = "markdown"
    LATEX = "latex"

    @classmethod
    def option(cls) -> str:
        return "--format"


#: What each kind of command accepts, in the order its error message lists them.
ANSWER_FORMATS = (Format.TABLE, Format.JSON)  # one question answered (applicable, plan, ...), gen's summary
RESULT_FORMATS = tuple(Format)  # the metrics: compare, eval, solve
REPORT_FORMATS = (Format.TABLE, Format.CSV, Format.MARKDOWN, Format.LATEX, Format.JSON)  # bench report


class PlannerConfig(Choice):
    """`--planner-config`: the search Fast Downward runs (`external.fast_downward.CONFIGS`)."""

    GREEDY = "greedy"  # the paper's: lazy greedy best-first, FF + CEA heuristics, preferred operators
    OPT = "opt"  # A* with LM-cut: optimal plans

    @classmethod
    def option(cls) -> str:
        return "--planner-config"


class Executor(Choice):
    """`--executor`: where the units run."""

    PROCESS = "process"  # a local process pool (`--jobs`)
    DASK = "dask"  # a Dask cluster (`--scheduler`)

    @classmethod
    def option(cls) -> str:
        return "--executor"


class Aggregate(Choice):
    """`--aggregate`: how the per-action figures of a domain become one."""

    AVG = "avg"  # averaged over the actions
    CUMULATIVE = "cumulative"  # from the counts summed over the actions

    @classmethod
    def option(cls) -> str:
        return "--aggregate"


class Scoring(Choice):
    """`--scoring`: how `questions grade` scores answers (docs/questions.md)."""

    EXACT = "exact"  # by meaning: sets compared, any optimal next action, witnesses validated
    ACPBENCH = "acpbench"  # ACPBench's own evaluator, reimplemented (questions/acpbench.py)

    @classmethod
    def option(cls) -> str:
        return "--scoring"

class Prover(Choice):
    """`--prover`: who proves a plan the shortest (`reasoning.planning`), or with action costs the cheapest
    (`reasoning.cheapest`); docs/plan.md."""

    AUTO = "auto"  # Fast Downward where it is installed and can give the answer asked, else clingo
    ASP = "asp"  # clingo: incremental horizons (with costs: its optimisation up to the horizon bound)
    FD = "fd"  # Fast Downward's A* with LM-cut

    @classmethod
    def option(cls) -> str:
        return "--prover"

    @classmethod
    def parse(cls, value: str, allowed=None) -> Prover:  # type: ignore[override]
        """As `Choice.parse`; `clingo` and `fast-downward`, the names before issue 33, are `asp` and `fd`."""
        return super().parse(_PROVER_NAMES.get(value, value), allowed)


#: The older names of the provers (the names `optimality` still shows: docs/plan.md).
_PROVER_NAMES = {"clingo": "asp", "fast-downward": "fd"}
