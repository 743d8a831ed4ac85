"""amlasp/asp/facts.py: the fact schema of docs/facts.md, on the registry's examples.

Facts are compared as the atoms clingo reads from the text, so that the layout of the text
(lines, order, comments) is free to change."""

from __future__ import annotations

from amlasp.asp.facts import (
    domain_facts,
    externals,
    fixed_facts,
    goal_facts,
    plan_facts,
    problem_facts,
    run_tree,
    start_facts,
    state_facts,
    state_text,
    symbol_facts,
)
from amlasp.asp.run import solve_once
from amlasp.asp.schema import FORBID
from amlasp.model import Atom, Literal
from tests.support.examples import ADL, BLOCKSWORLD, LAMP
from tests.support.notation import actions


def atoms_of(text: str) -> set[str]:
    """The facts of a text, as clingo reads them."""
    return {str(s) for s in solve_once([text], shown=False)}


def schema(m: str, action: str, params: list[str], pre: list[str], eff: list[str]) -> set[str]:
    out = {f"action({m},{action},{len(params)})"}
    out |= {f"param({m},{action},{i},{t})" for i, t in enumerate(params, 1)}
    out |= {f"pre({m},{action},{x})" for x in pre} | {f"eff({m},{action},{x})" for x in eff}
    return out


def test_blocksworld_domain_facts_are_the_documented_schema():
    m = "m"
    expected = {f"model({m})", f'domain_name({m},"blocksworld")', f"type({m},block)", f"subtype({m},block,object)"}
    for p, arity in (("on", 2), ("ontable", 1), ("clear", 1), ("handempty", 0), ("holding", 1)):
        expected.add(f"predicate({m},{p},{arity})")
        expected |= {f"pred_param({m},{p},{i},block)" for i in range(1, arity + 1)}
    expected |= schema(m, "pick_up", ["block"], ["pos,clear(v(1))", "pos,ontable(v(1))", "pos,handempty"],
                       ["neg,ontable(v(1))", "neg,clear(v(1))", "neg,handempty", "pos,holding(v(1))"])
    expected |= schema(m, "put_down", ["block"], ["pos,holding(v(1))"],
                       ["neg,holding(v(1))", "pos,clear(v(1))", "pos,handempty", "pos,ontable(v(1))"])
    expected |= schema(m, "stack", ["block", "block"], ["pos,holding(v(1))", "pos,clear(v(2))"],
                       ["neg,holding(v(1))", "neg,clear(v(2))", "pos,clear(v(1))", "pos,handempty",
                        "pos,on(v(1),v(2))"])
    expected |= schema(m, "unstack", ["block", "block"], ["pos,on(v(1),v(2))", "pos,clear(v(1))", "pos,handempty"],
                       ["pos,holding(v(1))", "pos,clear(v(2))", "neg,clear(v(1))", "neg,handempty",
                        "neg,on(v(1),v(2))"])
    assert atoms_of(domain_facts(BLOCKSWORLD.domain(), m)) == expected


def test_the_tag_names_the_model():
    facts = atoms_of(domain_facts(BLOCKSWORLD.domain(), "learned"))
    assert "model(learned)" in facts and "action(learned,stack,2)" in facts
    assert not any(f.startswith("model(m)") for f in facts)


def test_constants_and_equality_in_lifted_literals():
    facts = atoms_of(domain_facts(LAMP.domain(), "ref"))
    assert {"constant(ref,hall,room)", "pre(ref,go,neg,eq(v(1),v(2)))", "pre(ref,switch,neg,lit(c(hall)))",
            "pre(ref,switch,neg,lit(v(1)))", "eff(ref,go,neg,at(v(1)))"} <= facts


def test_conditional_universal_effects_and_complex_preconditions():
    facts = atoms_of(domain_facts(ADL.domain(), "m"))
    assert {"type(m,heavy)", "subtype(m,heavy,ball)", "subtype(m,ball,object)", "constant(m,hall,room)"} <= facts
    # the precondition is no conjunction of literals: flagged, and only its top-level literal listed
    assert "complex_pre(m,sweep)" in facts
    assert {f for f in facts if f.startswith("pre(")} == {"pre(m,sweep,neg,eq(v(1),c(hall)))"}
    assert {f for f in facts if f.startswith("eff(")} == {"eff(m,sweep,pos,robot(v(1)))",
                                                         "eff(m,sweep,neg,robot(c(hall)))"}
    # effects 2 and 3: (forall (?b - ball) (when (at ?b hall) ...)), ?b numbered after the parameter
    assert {f for f in facts if f.startswith(("ceff(", "ecnd(", "eff_var("))} == {
        "eff_var(m,sweep,2,2,ball)", "ceff(m,sweep,2,pos,at(v(2),v(1)))", "ecnd(m,sweep,2,pos,at(v(2),c(hall)))",
        "eff_var(m,sweep,3,2,ball)", "ceff(m,sweep,3,neg,at(v(2),c(hall)))", "ecnd(m,sweep,3,pos,at(v(2),c(hall)))",
    }


def test_problem_facts():
    d, p = BLOCKSWORLD.load()
    assert atoms_of(problem_facts(p, 0)) == {
        "problem(0)", 'problem_name(0,"bw_rand_3")', "object(0,b1,block)", "object(0,b2,block)",
        "object(0,b3,block)", "init(0,handempty)", "init(0,on(b1,b2))", "init(0,ontable(b2))",
        "init(0,on(b3,b1))", "init(0,clear(b3))", "goal(0,pos,on(b2,b1))", "goal(0,pos,on(b3,b2))",
    }
    bare = atoms_of(problem_facts(p, 7, init=False, goal=False))
    assert bare == {"problem(7)", 'problem_name(7,"bw_rand_3")', "object(7,b1,block)", "object(7,b2,block)",
                    "object(7,b3,block)"}
    _, adl = ADL.load()
    assert "goal(0,neg,robot(hall))" in atoms_of(problem_facts(adl, 0))


def test_state_facts_number_states_from_first():
    _, p = BLOCKSWORLD.load()
    holding = {Atom("holding", ("b3",)), Atom("on", ("b1", "b2"))}
    text, next_id = state_facts([p.init, holding, set()], 0, first=4)
    assert next_id == 7
    facts = atoms_of(text)
    assert {f for f in facts if f.startswith("state(")} == {"state(4,0)", "state(5,0)", "state(6,0)"}
    assert {f for f in facts if f.startswith("holds(5,")} == {"holds(5,holding(b3))", "holds(5,on(b1,b2))"}
    assert len([f for f in facts if f.startswith("holds(4,")]) == len(p.init) == 5
    assert not any(f.startswith("holds(6,") for f in facts)  # the empty state: nothing holds


def test_plan_goal_and_runs_facts():
    plan = BLOCKSWORLD.plan_actions()
    facts = atoms_of(plan_facts(plan))
    assert "plan_length(8)" in facts and "occurs(0,unstack(b3,b1))" in facts and "occurs(7,stack(b3,b2))" in facts
    assert len([f for f in facts if f.startswith("occurs(")]) == 8
    goal = (Literal(Atom("on", ("b1", "b2")), True), Literal(Atom("handempty"), False))
    assert atoms_of(goal_facts(goal, 2)) == {"goal(2,pos,on(b1,b2))", "goal(2,neg,handempty)"}
    two = actions("(unstack b3 b1) (put_down b3)")
    tree = run_tree([(3, 1, two), (3, 1, two[:1] + actions("(stack b3 b1)")), (3, 0, []), (3, 1, two[:1])],
                    lambda pid, a: a.name == "stack")
    assert atoms_of(tree.text()) == {"root(0,3,1)", "edge(0,unstack(b3,b1),1)", "edge(1,put_down(b3),2)",
                              "run(0,3,2,2)", "edge(1,stack(b3,b1),3)", "unknown(1,stack(b3,b1))", "run(1,3,3,2)",
                              "root(4,3,0)", "run(2,3,4,0)", "run(3,3,1,1)"}
    assert tree.paths == [[0, 1, 2], [0, 1, 3], [4], [0, 1]]


def test_writers_of_states_and_externals():
    """The writers several modules share: a start state split into fixed/2 and init/2,
    a state asked about, static atoms, externals, and an answer's atoms given back."""
    state = [Atom("on", ("b1", "b2")), Atom("block", ("b1",)), Atom("=", ("b1", "b1")), Atom("handempty")]
    static = frozenset({"block"})
    assert atoms_of(start_facts(state, static, 2)) == {"init(2,on(b1,b2))", "fixed(2,block(b1))", "init(2,handempty)"}
    assert atoms_of(state_text(4, 1, ["a", "on(b1,b2)"])) == {"state(4,1)", "holds(4,a)", "holds(4,on(b1,b2))"}
    assert atoms_of(fixed_facts(state[1:2], 3)) == {"fixed(3,block(b1))"}
    assert externals(FORBID, [("a",), ("on(b1,b2)",)]) == "#external forbid(a).#external forbid(on(b1,b2))."
    assert symbol_facts(solve_once(["p(1). q(a,b)."], shown=False)) in ("p(1).q(a,b).", "q(a,b).p(1).")
