"""amlasp/pddl/repair.py: the repairs whose intent is clear (issue 31), each with its warning (its text
and its place) and an error under `amlasp --strict`.

A dash glued to the end of a name in a typed list (`?l1- location`) is repaired in every domain and
problem; a type or a constant a learned model uses but never declares only where a command reads a
learned model (`undeclared_predicates=True`), and only where its use fixes its meaning."""

from __future__ import annotations

import warnings

import pytest

from amlasp.errors import InputError, InputWarning
from amlasp.pddl.parse import parse_domain, parse_problem
from tests.support.cli import run

GLUED = """(define (domain d)
 (:requirements :strips :typing :universal-preconditions)
 (:types truck- vehicle location a-b - object vehicle)
 (:constants depot- location)
 (:predicates (at ?v- vehicle ?l- location) (road ?a ?b- location))
 (:action drive :parameters (?v- truck ?from- location ?to - location)
  :precondition (and (at ?v ?from) (road ?from ?to) (forall (?x- location) (road ?x depot)))
  :effect (and (not (at ?v ?from)) (at ?v ?to))))
"""

GLUED_PROBLEM = """(define (problem p) (:domain d)
 (:objects t1- truck a b- location)
 (:init (at t1 a) (road a b) (road a depot) (road b depot) (road depot depot))
 (:goal (at t1 b)))
"""


def test_a_dash_glued_to_the_end_of_a_name_is_a_typed_list_dash_in_every_list():
    d = parse_domain(GLUED, "d.pddl")
    assert dict(d.types) == {"truck": "vehicle", "location": "object", "a-b": "object", "vehicle": "object"}
    assert d.constants == (("depot", "location"),)
    assert [p.parameters for p in d.predicates] == [(("?v", "vehicle"), ("?l", "location")),
                                                    (("?a", "location"), ("?b", "location"))]
    assert d.actions[0].parameters == (("?v", "truck"), ("?from", "location"), ("?to", "location"))
    assert d.actions[0].precondition.args[2].variables == (("?x", "location"),)
    assert d.warnings == (
        "'truck-' is read as 'truck - vehicle': a dash glued to the end of a name (line 3, column 10)",
        "'depot-' is read as 'depot - location': a dash glued to the end of a name (line 4, column 14)",
        "'?v-' is read as '?v - vehicle': a dash glued to the end of a name (line 5, column 19)",
        "'?l-' is read as '?l - location': a dash glued to the end of a name (line 5, column 31)",
        "'?b-' is read as '?b - location': a dash glued to the end of a name (line 5, column 54)",
        "'?v-' is read as '?v - truck': a dash glued to the end of a name (line 6, column 30)",
        "'?from-' is read as '?from - location': a dash glued to the end of a name (line 6, column 40)",
        "'?x-' is read as '?x - location': a dash glued to the end of a name (line 7, column 62)")


def test_a_glued_dash_in_a_problem_is_a_located_warning():
    d = parse_domain(GLUED, "d.pddl")
    with pytest.warns(InputWarning) as said:
        p = parse_problem(GLUED_PROBLEM, d, "p.pddl")
    assert dict(p.objects) == {"t1": "truck", "a": "location", "b": "location"}
    assert [str(w.message) for w in said] == [
        "p.pddl:2:12: 't1-' is read as 't1 - truck': a dash glued to the end of a name",
        "p.pddl:2:24: 'b-' is read as 'b - location': a dash glued to the end of a name"]


def test_a_name_with_a_dash_inside_or_a_trailing_dash_without_a_type_is_left_alone():
    """`a-b - block` is a name; `b-` at the end of a list, or before a `-`, has no type to be glued to."""
    d = parse_domain("(define (domain d) (:requirements :typing) (:types a-b - object c-)"
                     " (:predicates (p ?x - a-b ?y-)))")
    assert dict(d.types) == {"a-b": "object", "c-": "object"} and d.warnings == ()
    assert d.predicates[0].parameters == (("?x", "a-b"), ("?y-", "object"))
    with pytest.raises(InputError, match=r"^<domain>:1:33: expected a type name after '-'"):
        parse_domain("(define (domain d) (:types a- - (b)))")


def test_a_glued_dash_is_read_by_the_commands_and_refused_under_strict(tmp_path):
    (tmp_path / "d.pddl").write_text(GLUED)
    (tmp_path / "p.pddl").write_text(GLUED_PROBLEM)
    (tmp_path / "plan.txt").write_text("(drive t1 a b)\n")
    files = [tmp_path / "d.pddl", tmp_path / "p.pddl", tmp_path / "plan.txt"]
    r = run("validate", *files)
    assert r.exit_code == 0 and r.stdout.startswith("valid")
    assert (f"amlasp: warning: {files[0]}: '?v-' is read as '?v - vehicle': a dash glued to the end of a name "
            "(line 5, column 19)") in r.stderr.splitlines()
    r = run("--strict", "validate", *files)
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr == (f"amlasp: error: {files[0]}: 'truck-' is read as 'truck - vehicle': a dash glued to the end "
                        "of a name (line 3, column 10) (an error under --strict)\n")


# ----------------------------------------------------------------------------- what a learned model forgot

LEARNED = """(define (domain d)
 (:requirements :strips :typing)
 (:types truck - vehicle vehicle location)
 (:predicates (at ?v - vehicle ?l - location) (road ?a ?b - location) (parked ?c - car) (in ?t - truck ?x))
 (:action drive :parameters (?v - truck ?from ?to - (either location car))
  :precondition (and (at ?v ?from) (road ?from ?to) (road ?to depot) (at ?v home) (in garage home))
  :effect (and (not (at ?v ?from)) (at ?v ?to) (forall (?p - person) (in ?v ?p)))))
"""


def test_a_learned_model_s_undeclared_types_are_subtypes_of_object():
    d = parse_domain(LEARNED, "l.pddl", undeclared_predicates=True)
    assert dict(d.types)["car"] == "object" and dict(d.types)["person"] == "object"
    assert d.predicates[2].parameters == (("?c", "car"),)
    said = [w for w in d.warnings if w.startswith("type ")]
    assert said == ["type 'car' is used (line 4, column 84) but never declared (read as a subtype of object)",
                    "type 'person' is used (line 7, column 62) but never declared (read as a subtype of object)"]


def test_an_undeclared_type_is_refused_in_a_reference_or_where_it_is_likely_a_typo():
    with pytest.raises(InputError, match=r"^l.pddl:4:84: undeclared type 'car'$"):
        parse_domain(LEARNED, "l.pddl")
    typo = LEARNED.replace("(parked ?c - car)", "(parked ?c - locaton)")
    with pytest.raises(InputError, match=r"^l.pddl:4:84: undeclared type 'locaton'$"):
        parse_domain(typo, "l.pddl", undeclared_predicates=True)


def test_a_learned_model_s_undeclared_constant_has_the_type_its_uses_fix():
    """`depot` is a location by `road`; `home` a location by `at`, and `in` (untyped: object) agrees; `garage` an
    argument of `in`'s `- truck` parameter only: a truck."""
    d = parse_domain(LEARNED, "l.pddl", undeclared_predicates=True)
    assert d.constants == (("depot", "location"), ("home", "location"), ("garage", "truck"))
    assert [w for w in d.warnings if w.startswith("constant ")] == [
        "constant 'depot' is used (line 6, column 63) but never declared in :constants (read as a constant of "
        "type 'location')",
        "constant 'home' is used (line 6, column 77) but never declared in :constants (read as a constant of "
        "type 'location')",
        "constant 'garage' is used (line 6, column 87) but never declared in :constants (read as a constant of "
        "type 'truck')"]


def test_an_undeclared_constant_is_refused_in_a_reference_or_where_its_uses_disagree():
    typed = LEARNED.replace(" car", " location").replace("person", "location")
    with pytest.raises(InputError, match=r"^l.pddl:6:63: unknown constant 'depot' \(not in the domain's :constants\)$"):
        parse_domain(typed, "l.pddl")
    disagree = LEARNED.replace("(at ?v home)", "(at ?v home) (at home ?to)")
    with pytest.raises(InputError, match=r"^l.pddl:6:77: unknown constant 'home' \(not in the domain's :constants\), "
                                         r"and its uses disagree on its type: 'location' as an argument of 'at', "
                                         r"'vehicle' as an argument of 'at', 'object' as an argument of 'in'$"):
        parse_domain(disagree, "l.pddl", undeclared_predicates=True)


def test_a_learned_model_s_repairs_are_said_by_compare_and_refused_under_strict(tmp_path):
    learned, ref = tmp_path / "l.pddl", tmp_path / "r.pddl"
    learned.write_text(LEARNED)
    ref.write_text(LEARNED.replace("(:types", "(:constants depot home - location garage - truck)\n (:types car person")
                   .replace("(either location car)", "location"))
    r = run("compare", learned, ref, "-f", "json")
    assert r.exit_code == 0, r.stderr
    assert (f"amlasp: warning: {learned}: constant 'home' is used (line 6, column 77) but never declared in "
            ":constants (read as a constant of type 'location')") in r.stderr.splitlines()
    r = run("--strict", "compare", learned, ref, "-f", "json")
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr == (f"amlasp: error: {learned}: type 'car' is used (line 4, column 84) but never declared "
                        "(read as a subtype of object) (an error under --strict)\n")


def test_names_that_end_in_a_dash_before_other_names_are_read_as_written():
    """IPC 2004's promela problems name their queues `forks-0-`, `forks-1-` (`forks-0- forks-1- - queue`): a
    name that ends in a dash is split only before a type the file or the domain declares (or, in a
    variable's list, before any name), so these stay names, with no warning."""
    domain = parse_domain("""(define (domain q) (:requirements :typing) (:types queue proc)
     (:constants c-0- c-1- - queue) (:predicates (empty ?q - queue))
     (:action a :parameters (?q - queue) :precondition (empty ?q) :effect (not (empty ?q))))""", "d.pddl")
    assert domain.constants == (("c-0-", "queue"), ("c-1-", "queue")) and domain.warnings == ()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        problem = parse_problem("""(define (problem p) (:domain q)
         (:objects forks-0- forks-1- - queue) (:init (empty forks-0-)) (:goal (empty forks-1-)))""",
                                domain, "p.pddl")
    assert problem.objects == (("forks-0-", "queue"), ("forks-1-", "queue"))


def test_an_undeclared_constant_s_type_follows_every_parent_of_a_type_with_two():
    """`amphibian` is a `car` and a `boat` (declared twice, a DAG): a constant used where a `car` and where a
    `boat` is wanted is fixed as the `amphibian` its uses agree on, through either parent."""
    d = parse_domain("""(define (domain d) (:requirements :typing)
     (:types car boat - object amphibian - car amphibian - boat)
     (:predicates (parked ?c - car) (moored ?b - boat) (dry ?a - amphibian))
     (:action a :parameters () :precondition (and (parked duck) (moored duck) (dry duck))
      :effect (not (dry duck))))""", "l.pddl", undeclared_predicates=True)
    assert d.constants == (("duck", "amphibian"),)
