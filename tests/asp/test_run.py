"""amlasp/asp/run.py: the one owner of clingo, on tiny programs whose answers are known."""

from __future__ import annotations

import time

import pytest

from amlasp.asp.run import NoAnswer, Program, optimise, solve_once

CHOICE = "{a; b; c}. #show a/0. #show b/0. #show c/0."  # 8 answer sets
# 13 pigeons, 12 holes: unsatisfiable, and far too hard for clasp to prove so in a second
PIGEONS = "p(1..13). h(1..12). 1 { in(P,H) : h(H) } 1 :- p(P). :- in(P,H), in(Q,H), P < Q. #show in/2."


def names(symbols) -> set[str]:
    return {str(s) for s in symbols}


def test_solve_once_shown_and_all_atoms():
    program = ["a. b :- a. c :- b, not d.", "#show c/0."]
    assert names(solve_once(program)) == {"c"}
    assert names(solve_once(program, shown=False)) == {"a", "b", "c"}


def test_solve_once_parts_are_one_program_and_timings_are_counted():
    from collections import Counter
    timings: Counter = Counter()
    got = solve_once(["edge(1,2). edge(2,3).", "path(X,Y) :- edge(X,Y). path(X,Z) :- path(X,Y), edge(Y,Z).",
                      "#show path/2."], timings=timings)
    assert names(got) == {"path(1,2)", "path(2,3)", "path(1,3)"}
    assert set(timings) >= {"parse", "ground", "solve"} and all(t >= 0 for t in timings.values())


def test_unsatisfiable_program_is_no_answer():
    with pytest.raises(NoAnswer):
        solve_once(["a. :- a."])


def test_program_externals_between_solves():
    p = Program(["#external e. #external f. a :- e. b :- a, not f. #show a/0. #show b/0."]).ground()
    assert names(p.first()) == set()  # externals are false until assigned
    p.assign("e", True)
    assert names(p.first()) == {"a", "b"}
    p.assign("f", True)
    assert names(p.first()) == {"a"}
    p.assign("e", None)  # released: false for good
    assert names(p.first()) == set()
    assert names(p.first(shown=False)) == {"f"}  # all atoms: f is still true


def test_program_grounds_parts_step_by_step():
    p = Program(["start(0)."])
    p.add("x(t). y(t) :- x(t), start(0).", "step", ["t"])
    p.ground(("base", ()), ("step", (1,)))
    assert p.count(("x", 1)) == 1
    p.ground(("step", (2,)), ("step", (3,)))
    assert p.count(("x", 1)) == 3 and p.count(("y", 1)) == 3 and p.count(("z", 1)) == 0
    assert names(p.first(shown=False)) == {"start(0)", "x(1)", "x(2)", "x(3)", "y(1)", "y(2)", "y(3)"}


def test_models_all_some_and_exhausted():
    p = Program([CHOICE]).ground()
    every = [frozenset(names(m)) for m in p.models(0)]
    assert len(every) == len(set(every)) == 8 and p.exhausted
    assert set(every) == {frozenset(s) for s in ([], ["a"], ["b"], ["c"], ["a", "b"], ["a", "c"], ["b", "c"],
                                                 ["a", "b", "c"])}
    some = list(p.models(3))
    assert len(some) == 3 and not p.exhausted


def test_models_stop_at_the_deadline_without_exhausting():
    p = Program([PIGEONS]).ground()
    t = time.monotonic()
    got = list(p.models(1, deadline=t + 0.3))
    assert got == [] and not p.exhausted
    assert time.monotonic() - t < 10


def test_models_of_an_unsatisfiable_program_exhaust_with_none():
    p = Program(["a. :- a."]).ground()
    assert list(p.models(0)) == [] and p.exhausted


def test_optimise_proves_the_optimum():
    best = optimise("{x(1..3)}. :- not x(1), not x(2). :- not x(3). w(1,2). w(2,3). w(3,1)."
                    "#minimize {W,X : x(X), w(X,W)}. #show x/1.", time_limit=10)
    assert names(best.symbols) == {"x(1)", "x(3)"}
    assert best.cost == 3 and best.optimal and best.bound == 3 and best.seconds >= 0


def test_optimise_of_an_unsatisfiable_program_is_no_answer():
    with pytest.raises(NoAnswer):
        optimise("a. :- a. #minimize {1 : a}.", time_limit=5)


def test_reused_text_is_parsed_as_text_once_then_replayed_from_kept_statements(monkeypatch):
    """A `Reused` text gives the same program whether it is parsed (first call), parsed into kept
    statements (second) or replayed from them (third on), in its named part too; a plain text is
    never kept, and the kept parses are bounded."""
    from amlasp.asp import run
    from amlasp.asp.text import Reused

    kept = run._Parses()
    monkeypatch.setattr(run, "_PARSES", kept)
    rules = Reused("path(X,Y) :- edge(X,Y). path(X,Z) :- path(X,Y), edge(Y,Z). #show path/2.")
    layer = Reused("z(t) :- path(1,t).")
    answers = []
    for _ in range(3):
        p = Program(["edge(1,2). edge(2,3).", rules])
        p.add(layer, "layer", ["t"])
        p.ground(("base", ()), ("layer", (3,)))
        answers.append((names(p.first()), p.count(("z", 1))))
    assert answers == [({"path(1,2)", "path(2,3)", "path(1,3)"}, 1)] * 3
    assert len(kept._seen) == 2 and all(v is not None for v in kept._seen.values())
    for i in range(kept.SIZE + 5):
        kept.get(f"a({i}).", "base", ())
    assert len(kept._seen) == kept.SIZE
    long = "a." * (kept.LONGEST // 2 + 1)
    assert kept.get(long, "base", ()) is None and kept.get(long, "base", ()) is None
    assert all(key[0] != long for key in kept._seen)


def _parsed(text: str) -> list:
    from clingo import ast

    out: list = []
    ast.parse_string(text, out.append)
    return out


def test_kept_statements_leave_out_comments(monkeypatch):
    """Comments are statements of clingo's AST: kept, they would be replayed into every Control."""
    from clingo import ast

    from amlasp.asp import run
    from amlasp.asp.text import Reused

    kept = run._Parses()
    monkeypatch.setattr(run, "_PARSES", kept)
    text = Reused("% a comment\na. %* a block *% b :- a.\n#show b/0.")
    assert kept.get(text, "base", ()) is None
    statements = kept.get(text, "base", ())
    kinds = [s.ast_type for s in statements]
    assert ast.ASTType.Comment not in kinds and kinds.count(ast.ASTType.Rule) == 2
    assert ast.ASTType.Comment in [s.ast_type for s in _parsed(text)]  # there are comments to leave out
    assert names(Program([text]).ground().answer()) == {"b"}


def test_given_facts_equal_the_same_facts_as_text():
    """`Program.given`: rows of one or several terms (nested ones too), or their terms from
    `rows_of`, are the facts `name(row)`, in a program with other parts and grounded in steps; no
    rows add nothing; a name given again has more rows, and the terms given first are not changed."""
    from amlasp.asp.run import rows_of

    rules = ("path(X,Y) :- edge(X,_,Y). path(X,Z) :- path(X,Y), edge(Y,_,Z). far(N) :- path(0,N), start(N). "
             "#show path/2. #show far/1. #show start/1.")
    as_text = names(solve_once(["edge(0,a(b,\"c\"),1). edge(1,(x,y),2). start(2). start(i(0)).", rules]))
    first = rows_of(3, ['0,a(b,"c"),1'])
    p = Program([rules])
    p.given(("edge", 3), first).given(("start", 1), ["2"]).given(("none", 2), [])
    p.given(("edge", 3), ["1,(x,y),2"]).given(("start", 1), rows_of(1, ["i(0)"]))
    p.add("late(N) :- far(N).", "late").ground().ground(("late", ()))
    assert names(p.answer()) == as_text == {"path(0,1)", "path(1,2)", "path(0,2)", "far(2)", "start(2)",
                                            "start(i(0))"}
    assert p.count(("late", 1)) == 1 and p.count(("none", 2)) == 0 and [str(t) for t in first] == ['(0,a(b,"c"),1)']


def test_given_by_declaration():
    """`Program.given` and `Program.count` of a declaration take its name and arity from it."""
    from amlasp.asp.schema import EDGE, ROOT

    p = Program(["#show edge/3."]).given(EDGE, [EDGE.row(0, "a", 1), EDGE.row(1, "b(c)", 2)]).given(ROOT, [])
    assert names(p.ground().answer()) == {"edge(0,a,1)", "edge(1,b(c),2)"}
    assert p.count(EDGE) == 2 and p.count(ROOT) == 0


def test_a_process_with_kept_statements_exits_quietly():
    """Kept statements are let go before clingo is torn down: a test process that compared models
    used to end with clingo's `ast.__del__` printing an AttributeError per kept statement (28 here).
    (A plain script did not show it; pytest's teardown order does.)"""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "tests/render/test_exports.py::test_frames_have_the_documented_columns"],
                          capture_output=True, text=True, timeout=300, cwd=root)
    assert done.returncode == 0, done.stdout[-2000:]
    assert "clingo_ast_release" not in done.stdout + done.stderr
