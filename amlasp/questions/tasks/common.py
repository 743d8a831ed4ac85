"""What every task builder shares: the situation asked about, a drafted question, the forms.

A task's `analyse(situation)` computes the full, proven answer for one state once; its
`gen()`, `boolean(yes)` and `mcq()` then draft one question of each form from it (None when the
state has no such question, e.g. no inapplicable action to ask about).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Callable, Protocol, Sequence

from ...model import Atom, Domain, GroundAction, Problem
from ..items import LABELS, Form, Task
from ..language import Phrasebook, enumerate_text
from ..universe import Universe
from ..walks import Walk


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
class TaskSpec:
    """A task: its forms, whether its context states the goal, its analysis of one situation, and
    (`sequel`) how many actions (min, max) the walk goes on past the state, for the task's sequence."""

    task: Task
    forms: frozenset[Form]
    needs_goal: bool
    analyse: Callable[[Situation], Analysis]
    sequel: tuple[int, int] | None = None


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


__all__ = ["Skip", "Source", "Situation", "Draft", "Analysis", "TaskSpec", "choice", "yes_no", "sample",
           "pddl_list", "sequence_text"]
