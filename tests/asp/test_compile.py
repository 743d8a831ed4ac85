"""amlasp/asp/compile/: each action schema becomes one applicability rule (and one rule per effect);
what the rules derive, with encodings/semantics.lp, on tiny states of the registry's examples.

The answers are read from clingo, never from the rule text, so that the text may change; rules
are counted by their heads, as clingo parses them."""

from __future__ import annotations

from collections import Counter
from typing import Iterable

import clingo.ast
import pytest

from amlasp.asp.compile import compile_domain
from amlasp.asp.facts import domain_facts, problem_facts, state_facts
from amlasp.asp.run import encoding, solve_once
from amlasp.model import Atom, Domain, Problem
from tests.support.examples import ADL, BLOCKSWORLD, FLIP, LAMP, ONE_CAR, REGISTRY, TYPED
from tests.support.notation import atom


def rules(domain: Domain, **options) -> str:
    """The compiled rules of `domain` as model `m` (the one place that reads the compiler's output)."""
    return compile_domain(domain, "m", **options).text


def derive(domain: Domain, problem: Problem, states: Iterable[Iterable[Atom]], extra: str = "",
           **options) -> set[str]:
    """Every atom derived from the rules, semantics.lp and the states (numbered from 0)."""
    text, _ = state_facts(states, 0)
    program = [domain_facts(domain, "m"), rules(domain, **options), encoding("types"), encoding("semantics"),
               encoding("change"), problem_facts(problem, 0),
               text, extra]
    return {str(s) for s in solve_once(program, shown=False)}


def state(*texts: str) -> frozenset[Atom]:
    return frozenset(atom(t) for t in texts)


def pick(derived: set[str], prefix: str) -> set[str]:
    return {x for x in derived if x.startswith(prefix)}


def heads(text: str) -> Counter:
    """How many rules have a head of each predicate."""
    out: Counter = Counter()

    def visit(statement) -> None:
        if statement.ast_type == clingo.ast.ASTType.Rule and statement.head.ast_type == clingo.ast.ASTType.Literal:
            out[statement.head.atom.symbol.name] += 1
    clingo.ast.parse_string(text, visit)
    return out


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_one_applicability_rule_per_action_and_one_rule_per_effect(name):
    d = REGISTRY[name].domain()
    count = heads(rules(d))
    assert count["app"] == len(d.actions)
    assert count["add"] + count["del"] == sum(len(a.effects) for a in d.actions)
    assert count["add"] == sum(e.literal.positive for a in d.actions for e in a.effects)
    assert heads(rules(d, effects=False))["add"] == 0 and heads(rules(d, enumerate=False))["app"] == 0


def test_blocksworld_applicable_actions_and_effects():
    d, p = BLOCKSWORLD.load()
    holding = state("(holding b3)", "(ontable b1)", "(ontable b2)", "(clear b1)", "(clear b2)")
    got = derive(d, p, [p.init, holding])
    assert pick(got, "app(m,0,") == {"app(m,0,unstack(b3,b1))"}
    assert pick(got, "app(m,1,") == {"app(m,1,put_down(b3))", "app(m,1,stack(b3,b1))", "app(m,1,stack(b3,b2))"}
    assert pick(got, "add(m,0,") == {"add(m,0,unstack(b3,b1),holding(b3))", "add(m,0,unstack(b3,b1),clear(b1))"}
    assert pick(got, "del(m,0,") == {"del(m,0,unstack(b3,b1),clear(b3))", "del(m,0,unstack(b3,b1),handempty)",
                                     "del(m,0,unstack(b3,b1),on(b3,b1))"}
    assert pick(got, "added(m,1,stack(b3,b2),") == {"added(m,1,stack(b3,b2),on(b3,b2))",
                                                    "added(m,1,stack(b3,b2),clear(b3))",
                                                    "added(m,1,stack(b3,b2),handempty)"}
    assert pick(got, "deleted(m,1,stack(b3,b2),") == {"deleted(m,1,stack(b3,b2),holding(b3))",
                                                      "deleted(m,1,stack(b3,b2),clear(b2))"}


def test_state_atoms_that_share_a_variable_are_joined_in_a_rule_of_their_own():
    """`split_joins` (eval's rules): in a rule that also reads a problem's static atoms (here handempty,
    made static), unstack's on(X,Y) and clear(X) share X (and pick_up's clear(X) and ontable(X)), so
    they are joined in an `aux` rule of their own; stack's two atoms share nothing, and without a static
    atom nothing is split. The same actions are applicable in every state."""
    d, p = BLOCKSWORLD.load()
    static = frozenset({"handempty"})
    split = rules(d, split_joins=True, static=static)
    assert heads(split)["aux"] == 2 and heads(rules(d, split_joins=True))["aux"] == 0
    assert "aux(m," in next(x for x in split.splitlines() if x.startswith("app(m,S,unstack("))
    stacked = state("(on b1 b2)", "(on b2 b3)", "(ontable b3)", "(clear b1)")
    states = [frozenset(a for a in p.init if a.predicate != "handempty"), stacked]
    fixed = "fixed(0,handempty)."
    expected = {"app(m,0,unstack(b3,b1))", "app(m,1,unstack(b1,b2))"}
    assert pick(derive(d, p, states, fixed, split_joins=True, static=static), "app(") == expected
    assert pick(derive(d, p, states, fixed, static=static), "app(") == expected


def test_delete_before_add():
    d, p = FLIP.load()
    got = derive(d, p, [p.init])
    assert {"add(m,0,flip,p)", "del(m,0,flip,p)", "add(m,0,flip,q_)"} <= got  # q is a reserved word: q_
    assert pick(got, "added(") == {"added(m,0,flip,q_)"} and pick(got, "deleted(") == set()


def test_checked_actions_say_which_precondition_fails():
    d, p = BLOCKSWORLD.load()
    got = derive(d, p, [p.init], "query(m,0,stack(b3,b3)). query(m,0,unstack(b3,b1)). query(m,0,pick_up(b1)).",
                 check=True)
    assert pick(got, "unmet(") == {"unmet(m,0,stack(b3,b3),pos(holding(b3)))",
                                   "unmet(m,0,pick_up(b1),pos(clear(b1)))", "unmet(m,0,pick_up(b1),pos(ontable(b1)))"}
    assert "app(m,0,unstack(b3,b1))" in got and "app(m,0,stack(b3,b3))" not in got


def test_adl_conditions_quantifiers_and_constants():
    d, p = ADL.load()
    dark = state("(robot hall)", "(at b1 hall)", "(at b2 k)")
    lit = state("(lit k)", "(at b1 hall)")  # the robot is nowhere, but k is lit
    got = derive(d, p, [p.init, dark, lit], "query(m,1,sweep(k)). query(m,0,sweep(hall)). query(m,0,sweep(b1)).",
                 check=True)
    assert pick(got, "app(") == {"app(m,0,sweep(k))", "app(m,2,sweep(k))"}
    # (robot hall) is deleted in both, but changes only where it holds
    assert {"del(m,0,sweep(k),robot(hall))", "del(m,2,sweep(k),robot(hall))"} <= got
    assert pick(got, "deleted(m,2,") == {"deleted(m,2,sweep(k),at(b1,hall))"}
    assert pick(got, "added(m,0,") == {"added(m,0,sweep(k),robot(k))", "added(m,0,sweep(k),at(b1,k))",
                                       "added(m,0,sweep(k),at(b2,k))"}
    assert pick(got, "deleted(m,0,") == {"deleted(m,0,sweep(k),robot(hall))", "deleted(m,0,sweep(k),at(b1,hall))",
                                         "deleted(m,0,sweep(k),at(b2,hall))"}
    why = {x for x in pick(got, "unmet(") if "sweep(k)" in x}
    assert len(why) == 1 and why.pop().startswith("unmet(m,1,sweep(k),cond(")  # the forall fails: b2 in the dark
    hall = {x for x in pick(got, "unmet(m,0,sweep(hall),")}
    assert "unmet(m,0,sweep(hall),neq(hall,hall))" in hall and len(hall) == 2  # and hall is dark: a cond too
    assert pick(got, "unmet(m,0,sweep(b1),type(") == {"unmet(m,0,sweep(b1),type(b1,room))"}
    assert {"is_a(m,0,b1,heavy)", "is_a(m,0,b1,ball)", "is_a(m,0,b1,object)", "is_a(m,0,hall,room)"} <= got


def test_relaxed_rules_drop_negative_conditions():
    d, p = LAMP.load()
    lit = state("(at hall)", "(lit hall)")
    assert pick(derive(d, p, [lit]), "app(") == {"app(m,0,go(hall,k))", "app(m,0,go(hall,b))"}
    assert pick(derive(d, p, [lit], relaxed=True), "app(") == {"app(m,0,go(hall,k))", "app(m,0,go(hall,b))",
                                                                "app(m,0,switch(hall))"}


def test_negative_typing_derives_the_same_answers():
    d, p = TYPED.load()
    states = [p.init, state("(free b1)", "(free x1)"), state("(free x1)")]
    positive = pick(derive(d, p, states), "app(")
    assert positive == {"app(m,0,take(b1))", "app(m,1,take(b1))"}  # x1 is a box, not a ball
    assert pick(derive(d, p, states, typing="negative"), "app(") == positive


def test_static_predicates_are_read_once_per_problem():
    d, p = ONE_CAR.load()
    fluent = [frozenset(a for a in p.init if a.predicate != "noteq")]
    fixed = "fixed(0,noteq(l0,l1)). fixed(0,noteq(l1,l0))."
    expected = {"app(m,0,board(c0,l0))", "app(m,0,sail(l0,l1))"}
    assert pick(derive(d, p, fluent, fixed, static=frozenset({"noteq"})), "app(") == expected
    assert pick(derive(d, p, [p.init]), "app(") == expected
    # read from the problem, not the state: without the fixed facts, no sailing
    assert pick(derive(d, p, [p.init], static=frozenset({"noteq"})), "app(") == {"app(m,0,board(c0,l0))"}


def test_validation_rules_hold_only_the_actions_asked_for():
    """validate.lp's rules of a model (issue 33): an action's are compiled and given only for the plans
    that take it, part base and part why apart; the same actions give the same text in any order."""
    from amlasp.asp.compile import compile_validation
    from amlasp.asp.names import MODEL

    d = BLOCKSWORLD.domain()
    r = compile_validation(d, MODEL, d.static_predicates())
    base = r.base({"stack", "no-such-action"})
    assert "stack(V0,V1)" in base and "unstack(" not in base and "pick_up(" not in base
    assert "unmet(" not in base
    assert r.base(["unstack", "stack"]) == r.base(["stack", "unstack"]) and "unstack(V0,V1)" in r.base(["unstack"])
    why = r.why({"pick_up"})
    assert "unmet(" in why and "pick_up(V0)" in why and "stack(" not in why
    assert r.base(()) == r.base({"no-such-action"})  # the derived predicates' rules alone (none here)
