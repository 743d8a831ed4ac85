"""Delete before add is stated once, in encodings/change.lp (`added/4`, `deleted/4`); frame.lp's
successor, eval.lp's generic `ch/5` and the change rules that asp/compile/changes.py writes for
unconditional effects are specialised forms of it (their comments say why they cannot include it).
Each is checked here against change.lp, on every combination of an atom being true, added and
deleted."""

from __future__ import annotations

from itertools import product

from amlasp.asp.compile.pair import PairCompiler
from amlasp.asp.compile.slots import slots
from amlasp.asp.run import encoding, solve_once
from amlasp.asp.schema import ADD, ADDED, CH, DEL, DELETED, EVAL_ADD, EVAL_DEL, FIXED, HOLDS, KF, OF, STATE, TRANSITION
from amlasp.metrics.evaluate import evaluate
from amlasp.model import Atom
from amlasp.pddl.parse import parse_domain, parse_problem
from amlasp.pddl.states import StateSet

#: (true, added, deleted) of atom f<i>, every combination once.
CASES = list(product((False, True), repeat=3))


def _atoms(shown, pred, field="atom") -> set[str]:
    return {str(getattr(row, field)) for row in pred.select(shown)}


def _change_lp(true: set[str]) -> tuple[set[str], set[str]]:
    """change.lp's added and deleted atoms of action a in state s, where `true` holds."""
    facts = [HOLDS.fact("s", f) for f in sorted(true)]
    for i, (_, add, delete) in enumerate(CASES):
        facts += [ADD.fact("m", "s", "a", f"f{i}")] if add else []
        facts += [DEL.fact("m", "s", "a", f"f{i}")] if delete else []
    shown = solve_once([encoding("change"), "\n".join(facts)], shown=False)
    return _atoms(shown, ADDED), _atoms(shown, DELETED)


def test_frame_successor_is_change_lp_applied():
    true = {f"f{i}" for i, (t, _, _) in enumerate(CASES) if t}
    added, deleted = _change_lp(true)
    facts = [HOLDS.fact("s", f) for f in sorted(true)] + [TRANSITION.fact("t", "m", "s", "a", "s2")]
    for i, (_, add, delete) in enumerate(CASES):
        facts += [ADD.fact("m", "s", "a", f"f{i}")] if add else []
        facts += [DEL.fact("m", "s", "a", f"f{i}")] if delete else []
    shown = solve_once([encoding("frame"), "\n".join(facts)], shown=False)
    after = {str(r.atom) for r in HOLDS.select(shown) if str(r.state) == "s2"}
    assert after == (true - deleted) | added
    assert "f3" in after and "f7" in after  # added and deleted: true afterwards, whether true before or not


def test_eval_generic_changes_are_change_lp_in_the_state_and_in_the_static_atoms():
    """An atom true in the state (`kf`) or in the problem's static atoms (`fixed`): eval.lp's
    generic ch/5 is change.lp's added u deleted either way."""
    for where in ("state", "fixed"):
        true = {f"f{i}" for i, (t, _, _) in enumerate(CASES) if t}
        added, deleted = _change_lp(true)
        facts = [STATE.fact(0, 0), OF.fact(0, 0)]
        facts += [(KF.fact(0, f) if where == "state" else FIXED.fact(0, f)) for f in sorted(true)]
        for i, (_, add, delete) in enumerate(CASES):
            facts += [EVAL_ADD.fact("l", "s(0,0)", 0, "a", f"f{i}")] if add else []
            facts += [EVAL_DEL.fact("l", "s(0,0)", 0, "a", f"f{i}")] if delete else []
        shown = solve_once([encoding("eval"), "\n".join(facts)], shown=False)
        assert _atoms(shown, CH) == added | deleted, where


DOMAIN = """(define (domain dba)
  (:requirements :strips :typing :conditional-effects)
  (:types thing)
  (:predicates (at ?x - thing) (on ?x - thing ?y - thing) (mark))
  (:action move :parameters (?a - thing ?b - thing) :precondition (at ?a)
    :effect (and (not (at ?a)) (at ?b) (not (mark)) (mark) (not (on ?a ?b)) (on ?a ?a))))"""

PROBLEM = """(define (problem p) (:domain dba) (:objects x y - thing)
  (:init (at x) (on x y) (on x x)) (:goal (at y)))"""


def test_compiled_change_rules_are_eval_lps():
    """The compiled change rules of unconditional effects (`move ?a ?b` with a = b deletes and adds
    `at` and `on`; `mark` is deleted and added always) give the changes of the same effects under a
    condition that always holds, which take eval.lp's generic route: every change agrees (TP only),
    counted and made atoms alike."""
    ref = parse_domain(DOMAIN, "dba.pddl")
    generic = parse_domain(DOMAIN.replace(":effect (and", ":effect (when (at ?a) (and") + ")", "dba-when.pddl")
    assert all(not e.unconditional for e in generic.actions[0].effects)
    compiled = PairCompiler(ref, ref, slots(ref, ref), frozenset(), explain=True).compile({"thing"}).text
    assert "ch(b,s(P,S),0,move(V0,V1),at(V0)) :- " in compiled and "V0!=V1" in compiled  # the compiled route
    problem = parse_problem(PROBLEM, ref, "p.pddl")
    states = [problem.init, problem.init | {Atom("mark", ())}]
    for learned, reference in ((generic, ref), (ref, generic)):
        for explain in (False, True):
            e = evaluate(learned, reference, [StateSet(problem, states, "s")], explain=explain).actions[0].effects
            assert (e.fp, e.fn) == (0, 0) and e.tp > 0, (learned.name, explain, e)
