"""What every task shares: its entry in the registry, the situation asked about, a drafted question.

A task's `analyse(situation)` computes the full, proven answer for one state once; its
`gen()`, `boolean(yes)` and `mcq()` then draft one question of each form from it (None when the
state has no such question, e.g. no inapplicable action to ask about).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any, Callable, Protocol, Sequence

from ...model import Atom, Domain, GroundAction, Problem
from ..items import LABELS
from ..language import Phrasebook, enumerate_text
from ..registry import GROUPS, Form, Task
from ..universe import Universe
from ..walks import Walk

if TYPE_CHECKING:
    from ..answers import Reader
    from ..case import Case
    from ..graded import Graded

ALL = frozenset(Form)


class Skip(Exception):
    """This state has no proven question for the task; the reason is counted in the report."""


@dataclass
class Source:
    """One problem file, with what every question about it needs."""

    domain: Domain
    problem: Problem
    domain_text: str
    problem_file: str
    book: Phrasebook
    time_limit: float = 10.0  # per planner call
    explore_states: int = 2000

    @cached_property
    def universe(self) -> Universe:
        return Universe(self.domain, self.problem)

    @cached_property
    def static(self) -> frozenset[str]:
        return self.domain.static_predicates()


@dataclass
class Situation:
    """A state reached by a walk from the problem's initial state, and the generator of its questions;
    `sequel`, for the tasks that ask about a sequence of actions from the state (val), the walk on."""

    source: Source
    walk: Walk
    rng: random.Random
    sequel: Walk | None = None

    @property
    def state(self) -> frozenset[Atom]:
        return self.walk.end

    @cached_property
    def current(self) -> Problem:
        """The problem with the state as its initial state (what PDDL_problem says for ACPBench's tasks)."""
        return replace(self.source.problem, init=self.state)

    @property
    def applicable(self) -> list[GroundAction]:
        return list(self.walk.applicable[-1])

    @property
    def book(self) -> Phrasebook:
        return self.source.book

    @property
    def domain(self) -> Domain:
        return self.source.domain


@dataclass
class Draft:
    """One question and its proven answer; `choices` only for multiple choice."""

    question: str
    answer: Any
    evidence: dict = field(default_factory=dict)
    choices: list[str] | None = None
    query: str | None = None


class Analysis(Protocol):
    def gen(self) -> Draft | None: ...
    def boolean(self, yes: bool) -> Draft | None: ...
    def mcq(self) -> Draft | None: ...


@dataclass(frozen=True)
class TaskEntry:
    """One task, all of it: its entry (`catalog.entry`), in the task's own module.

    Wording: `group` (ACPBench's group stem, `registry.GROUPS`), `question` and `answer` (the docs' table: the gen
    question and its answer's shape). Generation: `analyse`, `forms`, `needs_goal` (the context
    states the goal), `after_sequence` (the context describes the initial state and the question the
    walk: Banerjee et al.), `sequel` (how many actions (min, max) the walk goes on past the state).
    Gold: `names` (what the question names, into `Case.named`), `derive` (the gen answer re-derived,
    raising `gold.Undecided`), `check` (in place of comparing `derive` with a complete gold answer),
    `compare` (in place of comparing a list as a set, anything else as text). Grading: `grade` (a
    free answer), `because` (why a yes/no answer is what it is, before the evidence's proof),
    `witness` (whether a witness plan's end state shows a yes, and what it shows: reach and areach).
    `cost`: about how many CPU seconds an item takes (the order in which `generate --jobs N` hands out tasks).
    `near_goal`: states along a plan, near its end, once random walks gave only undecided ones (nexta).
    `goal_literals`: the task's question needs the goal's facts (land's trivial landmarks are "a goal"), which a
    goal condition (`forall`, `or`, ...: `model.GoalCondition`) does not list: generation refuses the task then."""

    task: Task
    question: str
    answer: str
    analyse: Callable[[Situation], Analysis]
    derive: Callable[[Case, float], tuple[Any, dict]]
    grade: Callable[[Graded, dict, Case, Any, Reader, float], Graded]
    forms: frozenset[Form] = ALL
    needs_goal: bool = False
    after_sequence: bool = False
    sequel: tuple[int, int] | None = None
    names: Callable[[Case], dict] | None = None
    check: Callable[[Case, float], list[str]] | None = None
    compare: Callable[[Any, Any], list[str]] | None = None
    because: Callable[[Case | None, dict], str] | None = None
    witness: Callable[[Case, frozenset[Atom], str], tuple[bool, str]] | None = None
    near_goal: bool = False  # when random walks give only undecided states, ask about states along a plan
    goal_literals: bool = False  # the task needs the goal as literals (its goal facts): refused for a goal condition
    # CPU seconds an item takes, about (rovers 4: benchmarks/README.md): `generate --jobs N` hands out the costliest
    # tasks first, so that the last ones to finish are short; never part of what is generated
    cost: float = 0.01

    @property
    def group(self) -> str:
        return GROUPS[self.task.value]


def choice(rng: random.Random, query: str, right: str, wrong: Sequence[str], evidence: dict) -> Draft | None:
    """Four choices, exactly one right, in a random order; None without three distinct wrong ones."""
    wrong = [w for w in dict.fromkeys(wrong) if w != right]
    if len(wrong) < 3:
        return None
    options = [right] + rng.sample(wrong, 3)
    rng.shuffle(options)
    label = LABELS[options.index(right)]
    listed = " ".join(f"{l}. {o}." for l, o in zip(LABELS, options))
    return Draft(f"{query} {listed}", label, evidence, options, query)


def yes_no(answer: bool) -> str:
    return "yes" if answer else "no"


def sample(rng: random.Random, items: Sequence, k: int) -> list:
    """Up to `k` items, drawn without replacement, in the order drawn."""
    items = list(items)
    return rng.sample(items, min(k, len(items)))


def pddl_list(xs) -> list[str]:
    return sorted(str(x) for x in xs)


def sequence_text(book: Phrasebook, actions: Sequence[GroundAction]) -> str:
    return enumerate_text([f"({i}) {book.action(a)}" for i, a in enumerate(actions, 1)])


__all__ = ["Skip", "Source", "Situation", "Draft", "Analysis", "TaskEntry", "ALL", "choice", "yes_no", "sample",
           "pddl_list", "sequence_text"]
