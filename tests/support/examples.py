"""The registry: small example domains and problems, each with the answers known about it.

An answer is written as PDDL text, as the command line prints it. Each is checked where the
module that computes it is tested: applicable actions, successors and plan validity in
tests/reasoning/test_engine.py, optimal lengths and landmarks in tests/reasoning/test_reasoning.py, and
the examples are the inputs of the unit tests (tests/asp, tests/pddl) and of several others.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from amlasp.model import Domain, GroundAction, Problem
from amlasp.pddl.parse import parse_domain, parse_problem

from .ipc import reference
from .notation import actions
from .paths import EXAMPLES, IPC


@dataclass(frozen=True)
class Example:
    """A domain and a problem of it, and what is known about them."""

    name: str
    domain_text: str
    problem_text: str
    domain_file: str  # the file name the texts are parsed under (a real file when there is one)
    problem_file: str
    applicable: tuple[str, ...]  # the ground actions applicable in the initial state, sorted
    successors: dict[str, frozenset[str]] = field(default_factory=dict)  # action → the state it leads to from init
    plan: tuple[str, ...] | None = None  # a valid plan
    optimal: int | None = None  # the length of the shortest plans
    landmarks: tuple[str, ...] = ()  # facts every plan makes true, false initially
    not_landmarks: tuple[str, ...] = ()  # facts some plan avoids

    @classmethod
    def files(cls, name: str, domain: Path, problem: Path, **answers) -> "Example":
        return cls(name, domain.read_text(), problem.read_text(), str(domain), str(problem), **answers)

    @classmethod
    def texts(cls, name: str, domain: str, problem: str, **answers) -> "Example":
        return cls(name, domain, problem, f"{name}-domain.pddl", f"{name}-problem.pddl", **answers)

    def domain(self, text: str | None = None) -> Domain:
        """The domain; `text` is a variant of it (say, with a precondition dropped) under the same name."""
        return parse_domain(self.domain_text if text is None else text, self.domain_file)

    def problem(self, domain: Domain | None = None) -> Problem:
        return parse_problem(self.problem_text, domain or self.domain(), self.problem_file)

    def load(self) -> tuple[Domain, Problem]:
        d = self.domain()
        return d, self.problem(d)

    def plan_actions(self) -> list[GroundAction]:
        assert self.plan is not None, f"{self.name} has no known plan"
        return actions(" ".join(self.plan))


BW = EXAMPLES / "blocksworld"

# b3 on b1 on b2, b2 on the table; goal: b3 on b2 on b1
BLOCKSWORLD = Example.files(
    "blocksworld", BW / "domain.pddl", BW / "problem.pddl",
    applicable=("(unstack b3 b1)",),
    successors={"(unstack b3 b1)": frozenset({"(clear b1)", "(holding b3)", "(on b1 b2)", "(ontable b2)"})},
    plan=tuple(x for x in (BW / "plan.txt").read_text().splitlines() if x.startswith("(")),
    optimal=8,
    landmarks=("(holding b2)",),
)

# 4 blocks: b4 on b3 on b1, b1 and b2 on the table; goal: b3 on b2, b1 on b3
BLOCKSWORLD4 = Example.files(
    "blocksworld4", reference("blocksworld"), IPC / "problems" / "learning" / "blocksworld" / "1_blocksworld_prob.pddl",
    applicable=("(pick_up b2)", "(unstack b4 b3)"),
    optimal=6,
    landmarks=("(holding b4)",),
    not_landmarks=("(holding b2)",),
)

FLIP = Example.texts(
    "flip",
    """(define (domain t) (:predicates (p) (q))
      (:action flip :parameters () :precondition (p) :effect (and (not (p)) (p) (q))))""",
    "(define (problem x) (:domain t) (:init (p)) (:goal (q)))",
    applicable=("(flip)",),
    successors={"(flip)": frozenset({"(p)", "(q)"})},  # delete before add: (p) stays true
    plan=("(flip)",), optimal=1,
)

# conditional and universal effects, quantified, disjunctive and implied preconditions, constants, subtypes
ADL = Example.texts(
    "adl",
    """(define (domain adl) (:requirements :adl :typing)
      (:types room ball - object heavy - ball) (:constants hall - room)
      (:predicates (at ?b - ball ?r - room) (robot ?r - room) (lit ?r - room))
      (:action sweep :parameters (?to - room)
        :precondition (and (not (= ?to hall)) (exists (?b - heavy) (at ?b hall))
                           (or (lit ?to) (robot hall)) (forall (?b - ball) (imply (at ?b ?to) (lit ?to))))
        :effect (and (robot ?to) (not (robot hall))
                     (forall (?b - ball) (when (at ?b hall) (and (at ?b ?to) (not (at ?b hall))))))))""",
    """(define (problem p) (:domain adl) (:objects k - room b1 - heavy b2 - ball)
      (:init (robot hall) (at b1 hall) (at b2 hall)) (:goal (and (at b1 k) (not (robot hall)))))""",
    applicable=("(sweep k)",),
    successors={"(sweep k)": frozenset({"(robot k)", "(at b1 k)", "(at b2 k)"})},
    plan=("(sweep k)",), optimal=1,
    landmarks=("(robot k)",),
)

# constants, equality and negative preconditions
LAMP = Example.texts(
    "lamp",
    """(define (domain lamp) (:requirements :strips :typing :negative-preconditions :equality)
  (:types room) (:constants hall - room)
  (:predicates (lit ?r - room) (at ?r - room))
  (:action go :parameters (?from ?to - room) :precondition (and (at ?from) (not (= ?from ?to)))
     :effect (and (at ?to) (not (at ?from))))
  (:action switch :parameters (?r - room) :precondition (and (at ?r) (not (lit ?r)) (not (lit hall)))
     :effect (and (lit ?r))))""",
    "(define (problem p) (:domain lamp) (:objects k b - room) (:init (at hall)) (:goal (lit k)))",
    applicable=("(go hall b)", "(go hall k)", "(switch hall)"),
    plan=("(go hall k)", "(switch k)"), optimal=2,
    landmarks=("(at k)",), not_landmarks=("(at b)",),
)

# a predicate over a supertype, an action over a subtype
TYPED = Example.texts(
    "typed",
    """(define (domain typed) (:requirements :strips :typing)
  (:types box ball - object) (:predicates (in ?x - ball ?y - box) (free ?x - object))
  (:action take :parameters (?x - ball) :precondition (free ?x) :effect (not (free ?x))))""",
    "(define (problem p) (:domain typed) (:objects b1 - ball x1 - box) (:init (free b1)) (:goal (free b1)))",
    applicable=("(take b1)",),
    successors={"(take b1)": frozenset()},
    plan=(), optimal=0,  # the goal holds initially
)

# a dead end: after (crash) nothing is applicable
ROADS = Example.texts(
    "roads",
    """(define (domain roads) (:types place)
  (:predicates (at ?p - place) (road ?a ?b - place) (broken))
  (:action drive :parameters (?a ?b - place) :precondition (and (at ?a) (road ?a ?b) (not (broken)))
   :effect (and (at ?b) (not (at ?a))))
  (:action crash :parameters () :precondition (not (broken)) :effect (broken)))""",
    """(define (problem r) (:domain roads) (:objects a b c - place)
      (:init (at a) (road a b) (road b c)) (:goal (at c)))""",
    applicable=("(crash)", "(drive a b)"),
    plan=("(drive a b)", "(drive b c)"), optimal=2,
    landmarks=("(at b)",), not_landmarks=("(broken)",),
)

# the IPC ferry domain on one car
ONE_CAR = Example(
    "one_car", reference("ferry").read_text(), """(define (problem one_car) (:domain ferry)
  (:objects l0 l1 - location c0 - car)
  (:init (noteq l0 l1) (noteq l1 l0) (empty_ferry) (at c0 l0) (at_ferry l0))
  (:goal (and (at c0 l1))))""", str(reference("ferry")), "one_car.pddl",
    applicable=("(board c0 l0)", "(sail l0 l1)"),
    plan=("(board c0 l0)", "(sail l0 l1)", "(debark c0 l1)"), optimal=3,
    landmarks=("(on c0)", "(at_ferry l1)"),
)

REGISTRY = {e.name: e for e in (BLOCKSWORLD, BLOCKSWORLD4, FLIP, ADL, LAMP, TYPED, ROADS, ONE_CAR)}


@dataclass(frozen=True)
class Pair:
    """A learned model and its reference, with their known syntactic distance."""

    name: str
    learned: str
    reference: str
    edit_distance: int
    similarity: float


# LLM style: `_` instead of `-`, a missing :requirements entry, an empty precondition, comments
HIKING = Pair(
    "hiking",
    learned="""; generated
(define (domain hiking)
  (:requirements :strips :typing)
  (:types hiker location)
  (:predicates (at ?h - hiker ?l - location) (path_clear ?from - location ?to - location) ; edges
               (rained ?l - location) (HAS_ENERGY ?h - hiker))
  (:action walk
    :parameters (?h - hiker
                 ?from - location ?to - location)
    :precondition (and (at ?h ?from) (has_energy ?h) (path_clear ?from ?to))
    :effect (and (not (at ?h ?from)) (at ?h ?to)))
  (:action Rest
    :parameters (?h - hiker ?l - location)
    :precondition (and (at ?h ?l) (has_energy ?h))
    :effect (not (has_energy ?h)))
  (:action check_weather
    :parameters (?l - location)
    :precondition (and)
    :effect (rained ?l)))""",
    reference="""(define (domain hiking)
  (:requirements :strips :typing :negative-preconditions)
  (:types hiker location)
  (:predicates (at ?h - hiker ?l - location) (path-clear ?from - location ?to - location)
               (rained ?l - location) (has-energy ?h - hiker))
  (:action walk
    :parameters (?h - hiker ?from - location ?to - location)
    :precondition (and (at ?h ?from) (path-clear ?from ?to) (not (rained ?to)))
    :effect (and (not (at ?h ?from)) (at ?h ?to)))
  (:action rest
    :parameters (?h - hiker ?l - location)
    :effect (has-energy ?h))
  (:action check-weather
    :parameters (?l - location)
    :effect (not (rained ?l))))""",
    edit_distance=8,  # walk 2, rest 4, check-weather 2
    similarity=2 / 9,  # walk 1 - (2 + 0) / (4 + 2), the others 0: averaged over 3 actions
)
