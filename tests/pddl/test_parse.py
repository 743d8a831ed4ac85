"""amlasp/pddl/parse.py: PDDL text → the normalised model (amlasp/model.py).

What the rest of amlasp relies on: lower-case names, types with their parents, constants,
preconditions as flat conjunctions, effects flattened to (forall variables, condition, literal);
what learned models get away with (warnings), and what they do not (errors with a line)."""

from __future__ import annotations

import pytest

from amlasp.errors import InputError, InputWarning, UnsupportedError
from amlasp.model import TRUE, And, Atom, Effect, Exists, Forall, Imply, Literal, Not, Or, Predicate
from amlasp.pddl.parse import load_domain, load_problem, parse_domain, parse_problem
from tests.support.examples import ADL, BLOCKSWORLD, LAMP


def test_types_constants_and_predicates():
    d = ADL.domain()
    assert d.name == "adl"
    assert d.types == (("room", "object"), ("ball", "object"), ("heavy", "ball"))
    assert d.constants == (("hall", "room"),)
    assert d.predicates == (Predicate("at", (("?b", "ball"), ("?r", "room"))), Predicate("robot", (("?r", "room"),)),
                            Predicate("lit", (("?r", "room"),)))
    assert d.ancestors("heavy") == ["heavy", "ball", "object"] and d.ancestors("room") == ["room", "object"]


def test_precondition_keeps_its_structure():
    sweep = ADL.domain().action("sweep")
    assert sweep.parameters == (("?to", "room"),) and sweep.line == 4  # the line of `(:action sweep`
    assert sweep.precondition == And((
        Not(Atom("=", ("?to", "hall"))),
        Exists((("?b", "heavy"),), Atom("at", ("?b", "hall"))),
        Or((Atom("lit", ("?to",)), Atom("robot", ("hall",)))),
        Forall((("?b", "ball"),), Imply(Atom("at", ("?b", "?to")), Atom("lit", ("?to",)))),
    ))
    assert sweep.precondition_literals() is None


def test_effects_are_flattened_to_one_literal_each():
    sweep = ADL.domain().action("sweep")
    ball, at_hall = (("?b", "ball"),), Atom("at", ("?b", "hall"))
    assert sweep.effects == (
        Effect(Literal(Atom("robot", ("?to",)), True)),
        Effect(Literal(Atom("robot", ("hall",)), False)),
        Effect(Literal(Atom("at", ("?b", "?to")), True), at_hall, ball),
        Effect(Literal(at_hall, False), at_hall, ball),
    )
    assert [e.unconditional for e in sweep.effects] == [True, True, False, False]


def test_a_strips_action_is_a_flat_conjunction_of_literals():
    d = BLOCKSWORLD.domain()
    assert [a.name for a in d.actions] == ["pick_up", "put_down", "stack", "unstack"]  # file order
    put_down = d.action("put_down")
    assert put_down.precondition == And((Atom("holding", ("?x",)),))  # a single atom is a conjunction too
    assert [str(l) for l in d.action("stack").precondition_literals()] == ["(holding ?x)", "(clear ?y)"]
    assert [str(e.literal) for e in put_down.effects] == ["(not (holding ?x))", "(clear ?x)", "(handempty)",
                                                          "(ontable ?x)"]
    assert d.file == BLOCKSWORLD.domain_file and d.warnings == ()


def test_nested_conjunctions_and_effects_are_flattened():
    d = parse_domain("""(define (domain Nest) (:requirements :strips :typing :negative-preconditions
      :conditional-effects) (:types disc table - platform)
      (:predicates (On ?d - disc ?p - object) (free ?p))
      (:action Place :parameters (?d - disc ?p - object)
        :precondition (and (free ?p) (and (not (on ?d ?p)) (and)))
        :effect (and (on ?d ?p) (not (free ?p))
                     (forall (?x - disc) (when (and (free ?x) (on ?x ?p)) (and (free ?p) (not (on ?x ?p))))))))""")
    assert d.types == (("disc", "platform"), ("table", "platform"), ("platform", "object"))  # parent made a root
    a = d.action("place")
    assert a.precondition == And((Atom("free", ("?p",)), Not(Atom("on", ("?d", "?p")))))
    cond, xs = And((Atom("free", ("?x",)), Atom("on", ("?x", "?p")))), (("?x", "disc"),)
    assert a.effects[2:] == (Effect(Literal(Atom("free", ("?p",)), True), cond, xs),
                             Effect(Literal(Atom("on", ("?x", "?p")), False), cond, xs))


def test_leniency_on_what_learners_write():
    d = parse_domain("""(define (domain Len)
      (:types object block)
      (:predicates (p ?x - object) (q))
      (:action a :parameters (?x - object) :precondition (p ?x))
      (:action b :effect (q))
      (:action c :parameters () :precondition () :effect ()))""", "len.pddl")
    assert d.warnings == ("no (:requirements ...): read as declaring every requirement amlasp supports",
                          "action a has no :effect (taken as empty)")
    assert d.types == (("block", "object"),)  # `object` declared as a type is the built-in root
    assert d.action("a").effects == () and d.action("b").parameters == () and d.action("b").precondition == TRUE
    assert d.action("c").precondition == TRUE and d.action("c").effects == ()


@pytest.mark.parametrize("text,line,col,message", [
    ("(define (domain d) (:predicates (p))\n (:action a :parameters ()\n :precondition (q) :effect (p)))",
     3, 17, "undefined predicate 'q'"),
    ("(define (domain d) (:predicates (p ?x))\n (:action a :parameters (?y)\n :precondition (p ?y ?y) :effect (p ?y)))",
     3, 17, r"predicate 'p' takes 1 argument\(s\), 2 given"),
    ("(define (domain d) (:predicates (p ?x))\n (:action a :parameters ()\n :precondition (p ?z) :effect (and)))",
     3, 19, r"undeclared variable '\?z'"),
    ("(define (domain d) (:requirements :typing) (:types block)\n (:predicates (p ?x - blok)))",
     2, 23, "undeclared type 'blok'"),
    ("(define (domain d) (:predicates (p-q)\n (p_q)) (:action a :parameters () :effect (p-q)))",
     2, 3, "predicate 'p_q' and predicate 'p-q' differ only in case or -/_"),
    ("(define (problem p) (:domain d) (:init) (:goal (and)))", 1, 9, "this is a problem file, expected a domain"),
])
def test_errors_name_the_line_and_column(text, line, col, message):
    with pytest.raises(InputError, match=message) as caught:
        parse_domain(text, "x.pddl")
    assert (caught.value.file, caught.value.line, caught.value.col) == ("x.pddl", line, col)


def test_unsupported_features_are_refused():
    with pytest.raises(UnsupportedError, match="numeric-fluents"):
        parse_domain("(define (domain d) (:requirements :numeric-fluents) (:functions (f))\n (:predicates (p)))")


def test_problem_objects_init_goal_and_constants():
    d, p = ADL.load()
    assert (p.name, p.domain_name) == ("p", "adl")
    assert p.objects == (("k", "room"), ("b1", "heavy"), ("b2", "ball"))
    assert p.init == {Atom("robot", ("hall",)), Atom("at", ("b1", "hall")), Atom("at", ("b2", "hall"))}
    assert p.goal == (Literal(Atom("at", ("b1", "k")), True), Literal(Atom("robot", ("hall",)), False))
    assert p.object_types(d) == {"hall": "room", "k": "room", "b1": "heavy", "b2": "ball"}


def test_problem_names_are_lower_case():
    d = LAMP.domain()
    p = parse_problem("(define (problem P1) (:domain LAMP) (:objects K - Room) (:init (AT Hall) (lit k))"
                      " (:goal (LIT K)))", d)
    assert p.name == "p1" and p.objects == (("k", "room"),)
    assert p.init == {Atom("at", ("hall",)), Atom("lit", ("k",))} and p.goal == (Literal(Atom("lit", ("k",))),)


def test_negative_literals_in_init_are_dropped_with_one_warning():
    """Closed world: `(not (lit k))` in :init says what is said already (IPC 2000's movie writes them;
    Fast Downward reads them). Issue 31."""
    d = LAMP.domain()
    text = ("(define (problem p) (:domain lamp) (:objects k - room)\n (:init (at hall)\n"
            "  (not (lit k)) (NOT (lit hall)))\n (:goal (lit k)))")
    with pytest.warns(InputWarning, match=r"p\.pddl:3:3: 2 negative literal\(s\) in :init dropped, the first "
                                          r"\(not \(lit k\)\)"):
        p = parse_problem(text, d, "p.pddl")
    assert p.init == {Atom("at", ("hall",))}


@pytest.mark.parametrize("init,col,message", [
    ("(lit k) (not (lit k))", 17, r"\(not \(lit k\)\) contradicts \(lit k\), given in :init too"),
    ("(not (lit x))", 19, "unknown object 'x'"),
    ("(not (lit k) (lit k))", 9, r"\(not \.\.\.\) takes one atom"),
])
def test_a_negative_literal_in_init_is_checked_and_may_not_contradict(init, col, message):
    d = LAMP.domain()
    with pytest.raises(InputError, match=message) as caught:
        parse_problem(f"(define (problem p) (:domain lamp) (:objects k - room)\n (:init {init})\n (:goal (lit k)))",
                      d, "p.pddl")
    assert (caught.value.line, caught.value.col) == (2, col)


def test_problem_errors_name_the_line():
    d = LAMP.domain()
    with pytest.raises(InputError, match="unknown object 'x'") as caught:
        parse_problem("(define (problem p) (:domain lamp) (:objects k - room)\n (:init (at x))\n (:goal (lit k)))",
                      d, "p.pddl")
    assert (caught.value.file, caught.value.line, caught.value.col) == ("p.pddl", 2, 13)


def test_load_from_files():
    d = load_domain(BLOCKSWORLD.domain_file)
    p = load_problem(BLOCKSWORLD.problem_file, d)
    assert d == BLOCKSWORLD.domain() and p == BLOCKSWORLD.problem(d)
    assert d.file == BLOCKSWORLD.domain_file and p.file == BLOCKSWORLD.problem_file
    assert len(p.init) == 5 and p.name == "bw_rand_3"


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_paused_while_a_file_is_read_and_left_as_it_was(enabled, monkeypatch):
    """`parse._collector_paused`: off while the tree is read and converted, then as the caller had it, after an
    error too."""
    import gc

    from amlasp.pddl import convert
    seen = []
    to_domain = convert.to_domain
    monkeypatch.setattr(convert, "to_domain", lambda *a, **k: seen.append(gc.isenabled()) or to_domain(*a, **k))
    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        parse_domain(BLOCKSWORLD.domain_text, "d.pddl")
        assert seen == [False] and gc.isenabled() is enabled
        with pytest.raises(InputError):
            parse_domain("(define (domain d) (:predicates (p)) (:action a :effect (q)))", "d.pddl")
        assert gc.isenabled() is enabled
    finally:
        gc.enable() if was else gc.disable()


def test_the_passes_filter_the_outline_of_the_tree_instead_of_walking_it(monkeypatch):
    """The passes that look for lists by head (typed lists, numeric and unsupported operators, cost effects,
    declared types) find them in the reader's outline: no walk of the whole tree or of an action's (four walks
    of a domain of thousands of actions were a third of its reading); a pass that changes the tree has the
    outline made again, so what they find is the same (tests/pddl/test_sexpr.py, the golden outputs)."""
    from amlasp.pddl import sexpr
    walked = []
    real = sexpr.headed

    def headed(root, heads, holding=None):
        walked.append(root.head())
        return real(root, heads, holding)
    monkeypatch.setattr(sexpr, "headed", headed)
    text = ("(define (domain d) (:requirements :typing :action-costs) (:types b) (:predicates (p ?x - b))"
            " (:functions (total-cost) - number)"
            " (:action a :parameters (?x - b) :precondition (and (p ?x) (not (= ?x ?x)))"
            " :effect (and (not (p ?x)) (increase (total-cost) 2))))")
    domain = parse_domain(text, "d.pddl")
    assert domain.actions[0].cost == 2
    assert "define" not in walked and ":action" not in walked, walked
