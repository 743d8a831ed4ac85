"""What executing a plan found (`Execution`), and why a step was not applicable (`Unmet`): the result
shape of `engine`'s runs, in a module of its own so that the modules that read it (validations, goals,
the questions) need not import the engine that makes it."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..enums import TextEnum
from ..errors import InputError
from ..model import Atom, GoalCondition, GroundAction, Literal, Number


class UnmetKind(TextEnum):
    """What failed: a positive or negative precondition literal, an (in)equality, a parameter's
    type, a precondition that is not a conjunction of literals, or an action the model lacks."""

    POS = "pos"
    NEG = "neg"
    EQ = "eq"
    NEQ = "neq"
    TYPE = "type"
    COND = "cond"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Unmet:
    """Why an action is not applicable: a failed precondition conjunct, or a wrong type."""

    kind: UnmetKind
    text: str
    atom: Atom | None = None  # the literal's atom, for `pos` and `neg`

    def __str__(self) -> str:
        return self.text


@dataclass
class Execution:
    """Executing a plan: the states reached, where it stopped, and the goal's fate."""

    plan: list[GroundAction]
    states: list[frozenset[Atom]]
    failed_step: int | None = None  # 0-based index of the first inapplicable action
    unmet: list[Unmet] = field(default_factory=list)
    goal_unmet: list[Literal] = field(default_factory=list)
    executable: bool = False
    valid: bool = False
    cost: Number | None = None  # of an executable plan (costs.plan_cost: VAL's value)
    cost_undefined: str = ""  # the cost function application without a value that left `cost` None
    goal_instances: dict[GoalCondition, list[Literal]] = field(default_factory=dict)  # see goals.explain
    # A plan read only up to a line that cannot be read: `plan` is the steps before it (executed), and
    # this the located error of that line (its step is len(plan) + 1). None: the whole plan was read.
    read_error: InputError | None = None
    repairs: tuple = ()  # what `--lenient` reading repaired in the plan's text (pddl.lenient.Repair)
    # The goal conjuncts false where the executed prefix ends (`executable_prefix`): for a plan that fails
    # at a step, in the state before it (what LLM-planning papers report; not asked with `reasons=False`,
    # then empty); else `goal_unmet`.
    prefix_goal_unmet: list[Literal] = field(default_factory=list)
    goal_size: int | None = None  # the problem's goal conjuncts (distinct), for `goal_share`; None: not asked

    @property
    def executable_prefix(self) -> int:
        """The steps executed before the first failing one, or all of them (of a plan read in part: the
        steps read)."""
        return len(self.plan) if self.failed_step is None else self.failed_step

    @property
    def goal_share(self) -> float | None:
        """The share of the goal's conjuncts true where the executed prefix ends (1.0 for an empty goal; None
        for a failed run of `execute_many(reasons=False)`, which does not ask)."""
        if self.goal_size is None:
            return None
        if not self.goal_size:
            return 1.0
        return (self.goal_size - len(self.prefix_goal_unmet)) / self.goal_size

    @property
    def status(self) -> str:
        """`valid`, `invalid` (a step fails, or the goal is missed), or `unreadable` (a line could not
        be read, and every step before it ran): one verdict shape in every mode."""
        if self.failed_step is not None:
            return "invalid"  # an earlier failure is the failure, as VAL reports it
        if self.read_error is not None:
            return "unreadable"
        return "valid" if self.valid else "invalid"


__all__ = ["Execution", "Unmet", "UnmetKind"]
