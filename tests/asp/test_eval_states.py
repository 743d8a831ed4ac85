"""amlasp/asp/eval_states.py: a batch's states, written as rows of keyframes and differences and given
to the grounder as terms (`run.Program.given`), are read back by encodings/eval.lp itself as the
states they were: each test state's `holds(s(P,S),F)` and `fixed(P,F)` atoms are its atoms, names
made clingo terms (case, `-`, a digit first, the encodings' own words), equal states once with their
weight; a state with no dynamic atoms and an empty batch are programs too."""

from __future__ import annotations

from collections import Counter, defaultdict

from amlasp.asp.eval_states import Rows, StateFacts, group, recorded_rows, state_rows
from amlasp.asp.facts import ground
from amlasp.asp.names import asp_name
from amlasp.asp.run import encoding, solve_once
from amlasp.asp.schema import GONE, KF, PLUS, RECORDED
from amlasp.model import Atom, GroundAction, Problem, either_type
from amlasp.pddl.states import StateSet

EITHER = either_type(("Place", "robot"))
PROBLEM = Problem("p", "d", (("Tile-1", "Place"), ("tile_2", "Place"), ("1st", "robot"), ("not", EITHER)),
                  frozenset(), ())
UP = Atom("up", ("Tile-1", "tile_2"))  # static: in every state, given once as fixed/2


def state(*atoms: Atom) -> frozenset[Atom]:
    return frozenset({UP, *atoms})


AT1, AT2 = Atom("Robot-At", ("1st", "Tile-1")), Atom("Robot-At", ("1st", "tile_2"))
PAINTED, EMPTY, V = Atom("painted", ("Tile-1",)), Atom("handempty", ()), Atom("v", ("not",))
CLEAR = (Atom("clear", ("Tile-1",)), Atom("clear", ("tile_2",)), Atom("Clear", ("not",)))
STATES = [state(AT1, EMPTY, V, *CLEAR), state(AT2, EMPTY, V, *CLEAR), state(AT2, V, PAINTED, *CLEAR),
          state(AT1, EMPTY, V, *CLEAR), state(), state(AT2, PAINTED, EMPTY, V), state(AT2, EMPTY, V, *CLEAR)]


def eval_reads(rows: Rows) -> dict[str, list[tuple[str, ...]]]:
    """The atoms eval.lp derives from the rows (all of them, not only its shown ones), as argument texts
    by predicate."""
    out: dict[str, list[tuple[str, ...]]] = defaultdict(list)
    for sym in solve_once([encoding("eval")], shown=False, given=rows):
        out[sym.name].append(tuple(map(str, sym.arguments)))
    return out


def test_states_given_as_rows_are_the_states_eval_lp_reads():
    sets = [StateSet(PROBLEM, STATES, "f.json")]
    grouped = group(sets, frozenset({"up"}), lambda p: 0)
    facts, rows = StateFacts(), state_rows()
    extra = {s: 3 for s in grouped.contexts[0].states[:1]}
    for ctx in grouped.contexts:
        facts.context(ctx, PROBLEM, rows)
        facts.states(ctx, grouped, extra if ctx.index == 0 else {}, rows)
    assert rows[KF] and rows[GONE] and rows[PLUS]  # keyframes and both kinds of difference are written
    got = eval_reads(rows)
    holds: dict[int, set[str]] = defaultdict(set)
    for s, f in got["holds"]:
        holds[int(s.split(",")[1].rstrip(")"))].add(f)
    fixed: dict[str, set[str]] = defaultdict(set)
    for p, f in got["fixed"]:
        fixed[p].add(f)
    problem_of = {int(s): p for s, p in got["state"]}
    for i, st in enumerate(STATES):
        r = grouped.alias[i]
        assert holds[r] | fixed[problem_of[r]] == {ground(a) for a in st}, i
    assert {ground(a) for a in STATES[4]} == {"up(tile_1,tile_2)"}  # nothing dynamic
    assert not holds[4] and 4 in problem_of
    weights = {int(s.split(",")[1].rstrip(")")): int(w) for s, w in got["weight"]}
    assert weights == dict(Counter(grouped.alias)) and weights[0] == 2  # STATES[3] is STATES[0]
    assert got["extra"] == [(str(r), "3") for r in extra]
    assert sorted(got["object"]) == sorted(("0", asp_name(o), asp_name(t)) for o, t in PROBLEM.objects)
    assert ("not_", "tile_1") not in holds and "v_(not_)" in holds[0] and "robot_at(n_1st,tile_1)" in holds[0]
    assert sorted(got["type_member"]) == [("either(place,robot)", "place"), ("either(place,robot)", "robot")]


def test_recorded_rows_and_an_empty_batch():
    rows = state_rows()
    steps = [(3, 1, 0, GroundAction("Move-To", ("1st", "not"))), (4, 4, 2, GroundAction("noop"))]
    rows[RECORDED] = recorded_rows(steps)
    got = eval_reads(rows)
    assert sorted(got["recorded"]) == [("3", "1", "0", "move_to(n_1st,not_)"), ("4", "4", "2", "noop")]
    assert not eval_reads(state_rows()).get("holds")  # no states: no facts, no rules given, a program still

