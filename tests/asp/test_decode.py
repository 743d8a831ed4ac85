"""The one decoder of clingo answers (amlasp/asp/decode.py) and the status Enums' text."""

import json

import clingo

from amlasp.asp.decode import Decoder, arguments
from amlasp.asp.schema import APP, EFFECT_DIFF, REF_APP, shown
from amlasp.model import Atom, GroundAction
from amlasp.reasoning.diff import ActionDiff, Counterexample, DiffKind, DiffResult, action_totals
from amlasp.reasoning.planning import ReachAnswer


def test_arguments_of_shown_atoms():
    assert arguments("app(m,3,stack(b1,b2))") == ["m", "3", "stack(b1,b2)"]
    assert arguments("effect_diff(3,board(c1,l0),adds_only_ref,at(c1,l0))") == \
        ["3", "board(c1,l0)", "adds_only_ref", "at(c1,l0)"]
    assert arguments("ref_app(0,noop)") == ["0", "noop"]
    assert arguments("holds((0,1),handempty)") == ["(0,1)", "handempty"]
    assert arguments("app(m,3,stack(b1,b2))", 3) == ["m", "3", "stack(b1,b2)"]


def test_shown_texts_by_declaration_and_field():
    rows = shown(["ref_app(0,noop)", "holds(0,a)", "effect_diff(3,board(c1,l0),adds_only_ref,at(c1,l0))",
                  "ref_app(1,stack(b1,b2))"], REF_APP, EFFECT_DIFF, APP)
    assert [(r.state, r.action) for r in rows[REF_APP]] == [("0", "noop"), ("1", "stack(b1,b2)")]
    assert [(r.kind, r.atom) for r in rows[EFFECT_DIFF]] == [("adds_only_ref", "at(c1,l0)")]
    assert rows[APP] == []


def test_symbol_and_text_decode_alike():
    dec = Decoder()
    dec.add("pick-up", "on", "B1", "b-2")
    for text in ("pick_up(b1,b_2)", "on(b1,b_2)", "pick_up"):
        sym = clingo.parse_term(text)
        assert dec.call(sym) == dec.parse(text)
        assert dec.atom(sym) == dec.atom(text) and dec.action(sym) == dec.action(text)
    assert dec.action("pick_up(b1,b_2)") == GroundAction("pick-up", ("B1", "b-2"))
    assert dec.atom("on(b1,b_2)") == Atom("on", ("B1", "b-2"))


def test_status_enums_print_as_their_text():
    yes = ReachAnswer.YES
    assert yes == "yes" and str(yes) == "yes" and f"{yes}" == "yes" and f"{yes:>4}" == " yes"
    assert json.dumps({"answer": yes, yes: 1}) == '{"answer": "yes", "yes": 1}'
    assert {"yes": 0, "no": 1}[yes] == 0


def test_action_totals_over_problems():
    def result(name, pairs, steps):
        cx = Counterexample([GroundAction("a")] * steps, frozenset(), GroundAction(name), DiffKind.ONLY_REF)
        return ActionDiff(name, pairs, cx)

    r1 = DiffResult("p1", 5, 2, False, actions={"b": result("b", 2, 3), "a": result("a", 1, 1)})
    r2 = DiffResult("p2", 5, 2, False, actions={"b": result("b", 4, 1)})
    assert [(t.action, t.problems, t.pairs, t.shortest) for t in action_totals([r1, r2])] == \
        [("a", 1, 1, 1), ("b", 2, 6, 1)]


def test_argument_texts_split_the_text_of_all_atoms_made_at_once():
    """`argument_texts` reads every atom's text from one tuple's text: the same arguments as
    `arguments(str(sym), count)` atom by atom, for one atom, several, a last argument that is a term
    of constants or a constant, and an action named like the shown predicate."""
    import clingo

    from amlasp.asp.decode import argument_texts, arguments

    texts = ["app(m,0,pick_up(b3))", "app(m,12,stack(b1,b2))", "app(m,3,noop)", "app(m,4,app(m,x))", "app(m,5,app)"]
    symbols = [clingo.parse_term(t) for t in texts]
    for k in range(len(symbols) + 1):
        assert argument_texts(symbols[:k], "app", 3) == [arguments(t, 3) for t in texts[:k]]
