"""amlasp/pddl/numeric.py: numeric fluents read for compare, refused by every other reader.

`parse_domain(numeric_fluents=True)` (what compare does) reads `:functions`, numeric conditions
anywhere a condition may be, and numeric effects anywhere an effect may be, into the model's
`Comparison`, `NumericEffect` and `Domain.functions`; each error points at its token. Without it,
the first numeric construct is refused at its position, saying what is supported."""

from __future__ import annotations

import re

import pytest

from amlasp.errors import InputError, UnsupportedError
from amlasp.logic import free_vars, nnf, text
from amlasp.model import (
    And,
    Arith,
    Atom,
    Comparison,
    Fluent,
    Not,
    Num,
    NumericEffect,
    Or,
    Predicate,
)
from amlasp.pddl.check import NUMERIC_SUPPORT
from amlasp.pddl.parse import load_domain, parse_domain
from tests.support.paths import DATA

NUMERIC = DATA / "numeric"
WILD = DATA / "wild"


def domain(body: str, functions: str = "(fuel ?t - truck) (cap)", **kw):
    """A one-type domain with `functions` and actions `body`, read as compare reads it."""
    return parse_domain(f"(define (domain d) (:requirements :typing :numeric-fluents) (:types truck place)\n"
                        f"(:predicates (at ?t - truck ?p - place))\n(:functions {functions})\n{body})",
                        "d.pddl", numeric_fluents=True, **kw)


def test_functions_conditions_and_effects_are_read():
    d = load_domain(NUMERIC / "domain.pddl", numeric_fluents=True)
    assert d.functions == (Predicate("fuel", (("?t", "truck"),)),
                           Predicate("distance", (("?from", "place"), ("?to", "place"))), Predicate("driven"))
    assert [p.name for p in d.predicates] == ["at", "road"]  # no placeholder is left
    drive = d.action("drive")
    twice = Arith("*", (Num("2"), Fluent("distance", ("?from", "?to"))))
    assert drive.precondition == And((Atom("at", ("?t", "?from")), Atom("road", ("?from", "?to")),
                                      Comparison(">=", Fluent("fuel", ("?t",)), twice)))
    assert drive.numeric_effects == (NumericEffect("decrease", Fluent("fuel", ("?t",)), twice),
                                     NumericEffect("increase", Fluent("driven"), Num("1")))
    assert [str(e.literal) for e in drive.effects] == ["(not (at ?t ?from))", "(at ?t ?to)"]
    refuel = d.action("refuel")
    assert refuel.precondition == And((Atom("at", ("?t", "?p")), Comparison("<", Fluent("fuel", ("?t",)), Num("10"))))
    assign, scale = refuel.numeric_effects
    assert assign == NumericEffect("assign", Fluent("fuel", ("?t",)), Num("20"))
    low = Comparison("<=", Fluent("fuel", ("?u",)), Num("1.5"))  # 1.50 read as 1.5
    assert scale == NumericEffect("scale-up", Fluent("fuel", ("?u",)), Num("2"), And((Atom("at", ("?u", "?p")), low)),
                                  (("?u", "truck"),))


def test_numbers_are_canonical_and_arithmetic_nests():
    d = domain("(:action a :parameters (?t - truck) :precondition (and (= (fuel ?t) 2.0) (> (- (fuel ?t)) -0.0))"
               " :effect (increase (fuel ?t) (/ (+ (cap) 1 0.250) (cap))))")
    a = d.action("a")
    assert a.precondition == And((Comparison("=", Fluent("fuel", ("?t",)), Num("2")),
                                  Comparison(">", Arith("-", (Fluent("fuel", ("?t",)),)), Num("0"))))
    assert str(a.numeric_effects[0]) == "(increase (fuel ?t) (/ (+ (cap) 1 0.25) (cap)))"


def test_comparisons_inside_formulas_are_leaves():
    """Inside or/not/exists, a comparison is a leaf of the formula, like an atom; logic's walks read it."""
    d = domain("(:action a :parameters (?p - place) :precondition (or (not (< (cap) 3)) "
               "(exists (?t - truck) (and (at ?t ?p) (> (fuel ?t) (cap))))) :effect (and))")
    pre = d.action("a").precondition
    assert isinstance(pre, Or) and pre.args[0] == Not(Comparison("<", Fluent("cap"), Num("3")))
    assert text(pre) == "(or (not (< (cap) 3)) (exists (?t - truck) (and (at ?t ?p) (> (fuel ?t) (cap)))))"
    assert free_vars(pre) == ["?p"]
    assert nnf(pre, negate=True).args[0] == Comparison("<", Fluent("cap"), Num("3"))


def test_equality_of_objects_stays_equality():
    d = domain("(:action a :parameters (?t ?u - truck) :precondition (and (= ?t ?u) (= (fuel ?t) (fuel ?u)))"
               " :effect (and))")
    assert d.action("a").precondition == And((Atom("=", ("?t", "?u")),
                                              Comparison("=", Fluent("fuel", ("?t",)), Fluent("fuel", ("?u",)))))


@pytest.mark.parametrize("body, functions, line, col, message", [
    ("(:action a :parameters (?t - truck) :precondition (< (fule ?t) 1) :effect (and))", None, 4, 55,
     "undefined function 'fule' \\(did you mean fuel\\?\\)"),
    ("(:action a :parameters (?t - truck) :precondition (< (fuel) 1) :effect (and))", None, 4, 55,
     "function 'fuel' takes 1 argument"),
    ("(:action a :parameters (?t - truck) :precondition (< (fuel ?x) 1) :effect (and))", None, 4, 60,
     "undeclared variable '\\?x'"),
    ("(:action a :parameters (?t - truck) :precondition (increase (fuel ?t) 1) :effect (and))", None, 4, 51,
     "'increase' is an effect, not a condition"),
    ("(:action a :parameters (?t - truck) :effect (< (fuel ?t) 1))", None, 4, 45,
     "'<' is a condition, not an effect"),
    ("(:action a :parameters (?t - truck) :effect (increase 3 1))", None, 4, 55,
     "expected a function term like \\(fuel \\?t\\)"),
    ("(:action a :parameters (?t - truck) :effect (increase (fuel ?t) many))", None, 4, 65,
     "expected a number or a numeric expression"),
    ("", "(fuel ?t - tuck)", 3, 24, "undeclared type 'tuck'"),
    ("", "(fuel ?t - truck) (fuel ?u - truck)", 3, 32, "function 'fuel' declared twice"),
    ("", "(at ?t - truck)", 3, 14, "function 'at' has the name of a predicate"),
])
def test_errors_point_at_their_token(body, functions, line, col, message):
    with pytest.raises(InputError, match=message) as e:
        domain(body, functions if functions is not None else "(fuel ?t - truck) (cap)")
    assert (e.value.line, e.value.col) == (line, col), str(e.value)


def test_object_fluents_are_refused_by_name():
    with pytest.raises(UnsupportedError, match="object fluents") as e:
        domain("", "(holder ?t - truck) - place")
    assert (e.value.line, e.value.col) == (3, 35)


@pytest.mark.parametrize("name, line, col, what", [
    ("domain.pddl", 3, 55, "requirement :numeric-fluents"),
    ("no-requirement.pddl", 6, 3, "numeric fluents \\(:functions\\)"),
])
def test_other_readers_refuse_the_first_numeric_construct(name, line, col, what):
    with pytest.raises(UnsupportedError, match=f"unsupported feature: {what}; ") as e:
        load_domain(NUMERIC / name)
    assert (e.value.line, e.value.col) == (line, col)
    assert NUMERIC_SUPPORT in str(e.value)


def test_a_numeric_condition_without_declarations_is_refused_where_it_is():
    text_ = ("(define (domain d) (:predicates (p))\n(:action a :parameters () :precondition (and (p)\n"
             "  (= (level) 2)) :effect (p)))")
    with pytest.raises(UnsupportedError, match=r"numeric comparisons \(=\); numeric fluents are read by compare"
                       ) as e:
        parse_domain(text_, "d.pddl")
    assert (e.value.line, e.value.col) == (3, 3)


COSTS = """(define (domain roads) (:requirements :typing :action-costs :numeric-fluents) (:types place)
(:predicates (at ?p - place))
(:functions (total-cost) - number (length ?a ?b - place) - number {extra})
(:action go :parameters (?a ?b - place) :precondition (at ?a)
 :effect (and (not (at ?a)) (at ?b) (increase (total-cost) (length ?a ?b)){effect}))
(:action wait :parameters () :effect (increase (total-cost) 1)))"""


def test_action_costs_are_read_apart_from_other_numeric_fluents():
    """The cost pattern (total-cost increased by a number or a static function) is action costs, read by
    every command (`pddl.costs`); any other numeric construct is a numeric fluent, refused where it is,
    and a cost effect without its `(:functions (total-cost) ...)` is `ACTION_COSTS`."""
    from amlasp.pddl import sexpr
    from amlasp.pddl.check import ACTION_COSTS, cost_pattern
    text = COSTS.format(extra="", effect="")
    costs, effects = cost_pattern(sexpr.read(text))
    assert costs == {"total-cost", "length"} and [str(e[2]) for e in effects] == ["['length', '?a', '?b']", "1"]
    d = parse_domain(text, "d.pddl")  # the :numeric-fluents of a cost domain is not refused
    assert d.action_costs and {a.name: str(a.cost) for a in d.actions} == {"go": "(length ?a ?b)", "wait": "1"}
    changed = COSTS.format(extra="", effect=" (increase (length ?a ?b) 1)")  # length is no longer static
    with pytest.raises(UnsupportedError, match="requirement :numeric-fluents; numeric fluents are read") as e:
        parse_domain(changed, "d.pddl")
    assert (e.value.line, e.value.col) == (1, 61)
    without = changed.replace(" :numeric-fluents", "")
    with pytest.raises(UnsupportedError, match="numeric fluents \\(:functions\\)"):
        parse_domain(without, "d.pddl")
    undeclared = text.replace("(:functions (total-cost) - number (length ?a ?b - place) - number )", "")
    undeclared = undeclared.replace("(increase (total-cost) (length ?a ?b))", "").replace(" :numeric-fluents", "")
    with pytest.raises(UnsupportedError, match=re.escape(ACTION_COSTS)):
        parse_domain(undeclared, "d.pddl")
    assert load_domain(WILD / "ai-planning-pddl" / "barman-sequential-optimal.pddl", numeric_fluents=True)
    assert load_domain(WILD / "ai-planning-pddl" / "barman-sequential-optimal.pddl").action_costs


