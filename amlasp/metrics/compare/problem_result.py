"""The result of comparing two problems of one domain: pure data, no clingo (render/problems.py shows it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...enums import TextEnum, Verdict

if TYPE_CHECKING:
    import pandas as pd


class GoalNotion(TextEnum):
    """How goals are compared: as written (up to renaming), or by what they imply on the reachable space."""

    SYNTACTIC = "syntactic"
    SEMANTIC = "semantic"


#: The columns of `ProblemComparison.to_frame()`: one row per edit of each notion computed.
EDIT_COLUMNS = ("notion", "change", "part", "fact", "implied")
#: The columns of the summary (`summary_frame()`) and of `compare_many`'s rows for problems.
SUMMARY_FIELDS = ("equivalent", "equivalent_notion", "edit_distance", "optimal", "semantic_edit_distance",
                  "semantic_optimal", "solvable", "plan_length")


@dataclass(frozen=True)
class ProblemEdit:
    """One edit: add or remove an object, an initial fact or a goal literal (`fact` as PDDL text).
    `implied`: a goal literal the other goal implies (the semantic notion does not count it)."""

    change: str  # add | remove
    part: str  # object | init | goal
    fact: str
    implied: bool = False

    def __str__(self) -> str:
        note = " (implied by the other goal: not counted semantically)" if self.implied else ""
        return f"{self.change} {self.part} {self.fact}{note}"


@dataclass(frozen=True)
class NotionResult:
    """The best renaming of objects under one notion, its edits and whether the distance is proven."""

    notion: GoalNotion
    edit_distance: int
    optimal: bool
    bound: int | None
    mapping: tuple[tuple[str, str], ...]  # generated object → reference object
    edits: tuple[ProblemEdit, ...]  # under the semantic notion, implied goal edits are listed, not counted

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"edit_distance": self.edit_distance, "optimal": self.optimal,
                               "mapping": [list(m) for m in self.mapping], "edits": [str(e) for e in self.edits]}
        if not self.optimal:
            out["edit_distance_lower_bound"] = self.bound
        return out


@dataclass(frozen=True)
class Solvability:
    """Whether the generated problem has a plan: yes with a validated witness, no with a proof, or unknown."""

    answer: Verdict
    plan: tuple[str, ...] | None
    reason: str


@dataclass(frozen=True)
class ProblemComparison:
    """Two problems of one domain compared up to a renaming of objects."""

    generated: str
    reference: str
    domain: str
    syntactic: NotionResult
    semantic: NotionResult | None  # None when the goals' closures could not be proven
    semantic_reason: str  # how the closures were obtained, or why the semantic notion is not available
    solvable: Solvability
    explored: tuple[int, int] = (0, 0)  # reachable states explored for the generated and the reference problem
    seconds: float = 0.0

    @property
    def notion(self) -> GoalNotion:
        """The notion of the `equivalent` verdict: semantic when it is available."""
        return GoalNotion.SEMANTIC if self.semantic is not None else GoalNotion.SYNTACTIC

    @property
    def equivalent(self) -> bool:
        """The same task up to a renaming of objects, under `notion` (proven: distance 0 is always optimal)."""
        best = self.semantic if self.semantic is not None else self.syntactic
        return best.edit_distance == 0

    @property
    def edit_distance(self) -> int:
        return self.syntactic.edit_distance

    def summary(self) -> dict[str, Any]:
        sem = self.semantic
        return {"equivalent": self.equivalent, "equivalent_notion": str(self.notion),
                "edit_distance": self.syntactic.edit_distance, "optimal": self.syntactic.optimal,
                "semantic_edit_distance": None if sem is None else sem.edit_distance,
                "semantic_optimal": None if sem is None else sem.optimal,
                "solvable": str(self.solvable.answer),
                "plan_length": None if self.solvable.plan is None else len(self.solvable.plan)}

    def to_dict(self) -> dict[str, Any]:
        return {"generated": self.generated, "reference": self.reference, "domain": self.domain,
                "equivalent": self.equivalent, "equivalent_notion": str(self.notion),
                "verdicts": {"syntactic": self.syntactic.edit_distance == 0,
                             "semantic": None if self.semantic is None else self.semantic.edit_distance == 0},
                "semantic_reason": self.semantic_reason,
                "mapping": [list(m) for m in (self.semantic or self.syntactic).mapping],
                "edit_distance": self.syntactic.edit_distance, "edits": [str(e) for e in self.syntactic.edits],
                "syntactic": self.syntactic.to_dict(),
                "semantic": None if self.semantic is None else self.semantic.to_dict(),
                "solvable": {"answer": str(self.solvable.answer), "plan": list(self.solvable.plan or []) or None,
                             "reason": self.solvable.reason},
                "explored_states": {"generated": self.explored[0], "reference": self.explored[1]},
                "summary": self.summary(), "seconds": round(self.seconds, 3)}

    def records(self) -> list[dict[str, Any]]:
        """One record per edit of each notion computed (`EDIT_COLUMNS`)."""
        return [{"notion": str(n.notion), "change": e.change, "part": e.part, "fact": e.fact, "implied": e.implied}
                for n in (self.syntactic, self.semantic) if n is not None for e in n.edits]

    def summary_records(self) -> list[dict[str, Any]]:
        return [{"metric": k, "value": v} for k, v in self.summary().items()]

    def to_frame(self) -> pd.DataFrame:
        import pandas as pd
        return pd.DataFrame(self.records(), columns=list(EDIT_COLUMNS))

    def summary_frame(self) -> pd.DataFrame:
        import pandas as pd
        return pd.DataFrame(self.summary_records(), columns=["metric", "value"])


__all__ = ["GoalNotion", "ProblemEdit", "NotionResult", "Solvability", "ProblemComparison", "EDIT_COLUMNS",
           "SUMMARY_FIELDS"]
