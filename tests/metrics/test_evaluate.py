"""Predictive power (`amlasp.metrics.evaluate`, `amlasp eval`): hand-computed counts, model variants,
the CLI formats, and a differential test against unified-planning's simulator."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest

from amlasp.metrics.evaluate import applicability_counts, effect_counts, evaluate, summarise
from amlasp.model import Atom
from amlasp.pddl.parse import load_domain, load_problem, parse_domain
from amlasp.pddl.states import StateSet, read_trajectory
from tests.support import cli
from tests.support.examples import ADL, BLOCKSWORLD, LAMP, TYPED
from tests.support.paths import IPC

BW = BLOCKSWORLD.domain_text  # b3 on b1 on b2, b2 on the table


def atoms(*texts: str) -> frozenset[Atom]:
    return frozenset(Atom(t.split()[0], tuple(t.split()[1:])) for t in texts)


INIT = atoms("handempty", "on b1 b2", "ontable b2", "on b3 b1", "clear b3")
HOLDING = atoms("holding b3", "on b1 b2", "ontable b2", "clear b1")  # after (unstack b3 b1)


def run(learned, states=(INIT,), ref=None, **kw):
    ref = ref or BLOCKSWORLD.domain()
    return evaluate(learned, ref, [StateSet(BLOCKSWORLD.problem(ref), list(states), "s.json")], **kw)


def score(ev, name):
    return next(a for a in ev.actions if a.action == name)


# -- hand-computed values ----------------------------------------------------------------------

def test_identical_models_score_one_and_tn_is_counted_arithmetically():
    ev = run(BLOCKSWORLD.domain())
    u = score(ev, "unstack")
    # 3 blocks: 9 ground unstack actions, only (unstack b3 b1) applicable
    assert (u.applicability.tp, u.applicability.fp, u.applicability.fn, u.applicability.tn) == (1, 0, 0, 8)
    # it changes 5 atoms; the universe has 9 on + 3 ontable + 3 clear + 3 holding + handempty = 19
    assert (u.effects.tp, u.effects.fp, u.effects.fn, u.effects.tn) == (5, 0, 0, 14)
    assert u.applicability.precision == u.applicability.recall == u.effects.precision == u.effects.recall == 1.0
    # the other actions are applicable in no state under either model: n/a, out of the averages
    for name in ("pick_up", "put_down", "stack"):
        assert score(ev, name).applicability.precision is None and score(ev, name).effects.recall is None
    assert ev.applicability.actions == 1 and ev.applicability.precision_avg == 1.0
    js = ev.to_dict()
    assert js["summary"]["effects"]["precision_avg"] == 1.0
    assert next(a for a in js["actions"] if a["action"] == "stack")["applicability"]["precision"] is None


def test_dropped_precondition_gives_fps_exactly_where_expected():
    learned = BLOCKSWORLD.domain(BW.replace("(and (on ?x ?y) (clear ?x) (handempty))", "(and (on ?x ?y) (handempty))"))
    ev = run(learned, explain=True)
    u = score(ev, "unstack")
    # without (clear ?x), (unstack b1 b2) is allowed too: b1 is under b3
    assert (u.applicability.tp, u.applicability.fp, u.applicability.fn, u.applicability.tn) == (1, 1, 0, 7)
    assert u.applicability.precision == 0.5 and u.applicability.recall == 1.0
    assert [(m.state, m.kind, m.action) for m in ev.mistakes] == [(0, "app-fp", "(unstack b1 b2)")]
    assert u.effects.precision == 1.0 and u.effects.tp == 5  # only (unstack b3 b1) is jointly applicable


def test_dropped_effect_gives_fn_effects_exactly_where_expected():
    learned = BLOCKSWORLD.domain(BW.replace("(and (holding ?x)\n\t\t   (clear ?y)", "(and (holding ?x)\n\t\t  "))
    assert len(learned.action("unstack").effects) == 4
    ev = run(learned, states=[INIT, HOLDING], explain=True)
    u = score(ev, "unstack")
    assert (u.effects.tp, u.effects.fp, u.effects.fn, u.effects.tn) == (4, 0, 1, 14)
    assert u.effects.precision == 1.0 and u.effects.recall == 0.8
    assert [(m.state, m.kind, m.action, m.literal)
            for m in ev.mistakes] == [(0, "eff-fn", "(unstack b3 b1)", "(clear b1)")]
    # in HOLDING, stack and put_down are applicable in both and predicted exactly
    assert score(ev, "stack").effects.recall == 1.0 and score(ev, "put_down").joint == 1


def test_dropped_delete_of_a_false_atom_is_no_mistake_and_no_change_gives_one():
    # put_down in HOLDING adds 3 atoms and deletes (holding b3); an action whose effects change nothing
    # (here: a learned and reference no-op) scores P = R = 1
    noop = "(:action wait :parameters (?x - block) :precondition (clear ?x) :effect (and (clear ?x)))\n)"
    ref = BLOCKSWORLD.domain(BW.rstrip()[:-1] + noop)
    ev = run(ref, states=[INIT], ref=ref)
    w = score(ev, "wait")
    assert (w.effects.tp, w.effects.fp, w.effects.fn) == (0, 0, 0) and w.effects.precision == w.effects.recall == 1.0
    # predicting no change where there is one: P = 1, R = 0 (the paper's definition)
    learned = BLOCKSWORLD.domain(BW.replace("(and (holding ?x)\n\t\t   (clear ?y)\n\t\t   (not (clear ?x))"
                                            "\n\t\t   (not (handempty))\n\t\t   (not (on ?x ?y)))", "(and)"))
    u = score(run(learned), "unstack")
    assert (u.effects.tp, u.effects.fn) == (0, 5) and (u.effects.precision, u.effects.recall) == (1.0, 0.0)


def test_metric_conventions():
    assert applicability_counts(0, 0, 5, 3).precision == 1.0 and applicability_counts(0, 0, 5, 3).recall == 0.0
    assert applicability_counts(0, 2, 5, 0).recall == 1.0 and applicability_counts(0, 2, 5, 0).precision == 0.0
    assert applicability_counts(0, 0, 9, 0).precision is None
    assert effect_counts(0, 0, 9, 0, joint=0).recall is None and effect_counts(0, 0, 9, 0, joint=4).recall == 1.0
    s = summarise([applicability_counts(1, 1, 0, 0), applicability_counts(0, 0, 3, 0),
                   applicability_counts(3, 0, 0, 1)])
    assert s.actions == 2 and s.precision_avg == pytest.approx(0.75) and s.precision_cumulative == pytest.approx(0.8)
    assert s.recall_cumulative == pytest.approx(0.8)


# -- learned models that differ in form -----------------------------------------------------

VARIANT = """(define (domain bw-learned) (:requirements :strips :typing :negative-preconditions)
  (:types block)
  (:predicates (on ?a - block ?b - block) (clear ?a - block) (handempty) (holding ?a - block) (dirty ?a - block))
  (:action UNSTACK :parameters (?top - block ?below - block)
     :precondition (and (on ?top ?below) (clear ?top) (handempty) (not (dirty ?top)))
     :effect (and (holding ?top) (clear ?below) (not (clear ?top)) (not (handempty)) (not (on ?top ?below))
                  (dirty ?top)))
  (:action teleport :parameters (?a - block) :precondition (clear ?a) :effect (not (clear ?a))))"""


def test_learned_model_with_other_names_missing_and_extra_actions_and_predicates():
    learned = parse_domain(VARIANT, "learned.pddl")
    ev = run(learned, states=[INIT, HOLDING])
    u = score(ev, "unstack")
    # different parameter names and case: the same action; the negative precondition on the
    # learned-only predicate `dirty` holds (closed world: it is never true in a test state)
    assert (u.applicability.tp, u.applicability.fp, u.applicability.fn) == (1, 0, 0)
    # (dirty b3) is added: a change the reference does not predict (FP), outside its vocabulary (not a TN)
    assert (u.effects.tp, u.effects.fp, u.effects.fn, u.effects.tn) == (5, 1, 0, 14)
    # actions the learned model lacks: never allowed, P = 1, R = 0 where the reference allows them
    s = score(ev, "stack")
    assert not s.in_learned and (s.applicability.precision, s.applicability.recall) == (1.0, 0.0)
    assert s.effects.precision is None
    # learned-only actions are FPs reported on their own, not in the averages
    assert [(x.action, x.fp) for x in ev.learned_only] == [("teleport", 2)]  # clear b3 in INIT, clear b1 in HOLDING
    js = ev.to_dict()
    assert js["learned_only_actions"] == [{"action": "teleport", "arity": 1, "fp": 2}]
    assert js["summary"]["applicability"]["precision_cumulative_with_learned_only"] < 1.0
    # the learned model does not declare ontable: its literals are ignored, and counted
    assert ev.ignored_literals == 2 and ev.ignored_predicates == ("ontable",)
    assert ev.learned_only_predicates == ("dirty",)
    df = ev.to_frame()
    assert set(df["action"]) == {"pick_up", "put_down", "stack", "unstack", "teleport"}
    assert df.loc[df["action"] == "teleport", "learned_only"].item()


def test_constants_equality_and_negative_preconditions():
    ref, prob = LAMP.load()
    learned = LAMP.domain(LAMP.domain_text.replace(" (not (lit hall))", ""))
    states = [frozenset({Atom("at", ("hall",))}), frozenset({Atom("at", ("k",)), Atom("lit", ("hall",))})]
    ev = evaluate(learned, ref, [StateSet(prob, states, "s")], explain=True)
    go, sw = score(ev, "go"), score(ev, "switch")
    # objects k, b and the constant hall: go has 9 ground actions, 2 applicable per state
    assert (go.applicability.tp, go.applicability.fp, go.applicability.tn) == (4, 0, 14)
    assert (sw.applicability.tp, sw.applicability.fp) == (1, 1)
    assert [(m.state, m.kind, m.action) for m in ev.mistakes] == [(1, "app-fp", "(switch k)")]
    # universe: lit and at over 3 rooms = 6 atoms; go changes 2
    assert (go.effects.tp, go.effects.tn) == (8, 4 * 6 - 8)


def test_conditional_and_universal_effects_take_the_generic_route():
    ref, prob = ADL.load()
    learned = ADL.domain(ADL.domain_text.replace("(and (at ?b ?to) (not (at ?b hall)))", "(at ?b ?to)"))
    ev = evaluate(learned, ref, [StateSet(prob, [prob.init], "s")], explain=True)
    s = score(ev, "sweep")
    # (sweep k): robot moves (2 changes), both balls move (2 adds, 2 deletes); learned misses the deletes
    assert (s.effects.tp, s.effects.fp, s.effects.fn) == (4, 0, 2)
    assert sorted(m.literal for m in ev.mistakes) == ["(not (at b1 hall))", "(not (at b2 hall))"]
    same = evaluate(ref, ref, [StateSet(prob, [prob.init], "s")])
    assert score(same, "sweep").effects.recall == 1.0 and score(same, "sweep").effects.tp == 6


# -- files, batches, speed paths ------------------------------------------------------------------

def test_trajectories_from_files_and_batches_agree():
    d = "blocksworld"
    ref = load_domain(IPC / "domains" / f"{d}.pddl")
    learned = load_domain(IPC / "learned" / "nolam" / f"{d}.pddl")
    files = sorted((IPC / "trajectories" / "learning" / d).iterdir())[:3]
    seen = []
    one = evaluate(learned, ref, files, problems=IPC / "problems" / "learning" / d,
                   progress=lambda stage, done, total: seen.append((stage, done, total)))
    many = evaluate(learned, ref, files, problems=IPC / "problems" / "learning" / d, batch_states=7)
    assert one.actions == many.actions and many.timings["batches"] > 1
    assert one.states == sum(len(read_trajectory(f, ref, load_problem(
        IPC / "problems" / "learning" / d / f.name.replace("_traj", "_prob.pddl"), ref)).states) for f in files)
    assert ("read", 3, 3) in seen and seen[-1][0] == "solve"


def test_fast_trajectory_reader_agrees_and_falls_back_for_errors(tmp_path):
    ref = load_domain(IPC / "domains" / "depots.pddl")
    prob = load_problem(IPC / "problems" / "learning" / "depots" / "0_depots_prob.pddl", ref)
    f = IPC / "trajectories" / "learning" / "depots" / "0_depots_traj"
    text = f.read_text()
    commented = tmp_path / "c_traj"
    commented.write_text("; a comment forces the careful reader\n" + text)
    assert read_trajectory(f, ref, prob).states == read_trajectory(commented, ref, prob).states
    bad = tmp_path / "b_traj"
    bad.write_text(text.replace("(clear crate1)", "(clear crate9)", 1))
    from amlasp.errors import InputError
    with pytest.raises(InputError, match=r"b_traj:\d+:\d+: unknown object 'crate9'"):
        read_trajectory(bad, ref, prob)


# -- command line ---------------------------------------------------------------------------------

WIDE = {"COLUMNS": "200"}


def eval_cli(*args):
    return cli.run("eval", *args, env=WIDE)


def test_cli_json_csv_markdown_latex(tmp_path):
    d = "blocksworld"
    args = [IPC / "learned" / "nolam" / f"{d}.pddl", IPC / "domains" / f"{d}.pddl", "--states",
            IPC / "trajectories" / "learning" / d / "0_blocksworld_traj",
            "--problems", IPC / "problems" / "learning" / d]
    r = eval_cli(*args, "--format", "json")
    assert r.exit_code == 0, r.output
    js = json.loads(r.stdout)
    assert {"actions", "summary"} <= set(js) and js["summary"]["states"] > 0
    a = js["actions"][0]
    assert set(a["applicability"]) >= {"tp", "fp", "tn", "fn", "precision", "recall"}
    assert set(js["summary"]["effects"]) >= {"precision_avg", "recall_avg", "precision_cumulative", "recall_cumulative"}
    assert eval_cli(*args, "--format", "csv").stdout.startswith("action,")
    assert "| action |" in eval_cli(*args, "--format", "markdown").stdout
    assert r"\begin{tabular}" in eval_cli(*args, "--format", "latex").stdout
    table = eval_cli(*args, "--explain")
    assert table.exit_code == 0 and "unstack" in table.stdout and "mean over actions" in table.stdout


def test_cli_bad_input_is_one_line_exit_2(tmp_path):
    bad = tmp_path / "bad.pddl"
    # (an undeclared predicate is no longer bad input for eval: issue 10 reads it as the learned model's own;
    # nor a broken action: issue 31 leaves it out, never applicable; a header that does not read still is)
    bad.write_text("(define (domain x) (:predicates (p) (:action a :parameters () :effect (p)))")
    d = "blocksworld"
    r = eval_cli(bad, IPC / "domains" / f"{d}.pddl", "--states",
                 IPC / "trajectories" / "learning" / d / "0_blocksworld_traj",
                 "--problems", IPC / "problems" / "learning" / d)
    assert r.exit_code == 2 and "bad.pddl:1:" in r.stderr and "Traceback" not in r.output
    r = eval_cli(IPC / "domains" / f"{d}.pddl", IPC / "domains" / f"{d}.pddl", "--states", tmp_path / "missing")
    assert r.exit_code == 2 and "missing" in r.stderr


# -- differential test against unified-planning ----------------------------------------------------

up = pytest.importorskip("unified_planning")


def up_counts(ref_file: Path, learned_file: Path, problem_file: Path, states: list[frozenset[Atom]]) -> dict:
    """Both metric families computed with UP's simulator, ground action by ground action."""
    from unified_planning.io import PDDLReader
    from unified_planning.shortcuts import SequentialSimulator, get_environment
    get_environment().credits_stream = None
    P = {m: PDDLReader().parse_problem(str(f), str(problem_file)) for m, f in (("r", ref_file), ("l", learned_file))}
    sims = {m: SequentialSimulator(problem=p) for m, p in P.items()}
    ground = {m: [(f, args) for f in p.fluents for args in itertools.product(*(p.objects(x.type) for x in f.signature))]
              for m, p in P.items()}
    universe = {(f.name.lower(), tuple(o.name.lower() for o in args)) for f, args in ground["r"]}

    def up_state(m, st):
        key = {(a.predicate, a.args) for a in st}
        vals = {f(*args): P[m].environment.expression_manager.Bool(
            (f.name.lower(), tuple(o.name.lower() for o in args)) in key) for f, args in ground[m]}
        return sims[m].get_initial_state().make_child(vals)

    def changes(m, before, after):
        return {(f.name.lower(), tuple(o.name.lower() for o in args)) for f, args in ground[m]
                if before.get_value(f(*args)) != after.get_value(f(*args))}

    out = {}
    for ra in P["r"].actions:
        la = next((a for a in P["l"].actions if a.name.lower() == ra.name.lower()), None)
        c = dict.fromkeys(("atp", "afp", "afn", "atn", "etp", "efp", "efn", "etn"), 0)
        for st in states:
            s = {m: up_state(m, st) for m in P}
            for args in itertools.product(*(P["r"].objects(p.type) for p in ra.parameters)):
                names = [o.name for o in args]
                r_ok = sims["r"].is_applicable(s["r"], ra, args)
                largs = tuple(P["l"].object(n) for n in names)
                l_ok = la is not None and sims["l"].is_applicable(s["l"], la, largs)
                c["atp"] += r_ok and l_ok
                c["afp"] += l_ok and not r_ok
                c["afn"] += r_ok and not l_ok
                c["atn"] += not r_ok and not l_ok
                if r_ok and l_ok:
                    cr = changes("r", s["r"], sims["r"].apply(s["r"], ra, args))
                    cl = changes("l", s["l"], sims["l"].apply(s["l"], la, largs))
                    c["etp"] += len(cr & cl)
                    c["efp"] += len(cl - cr)
                    c["efn"] += len(cr - cl)
                    c["etn"] += len(universe - cr - cl)
        out[ra.name.lower()] = c
    return out


# ferry and transport (seed 1): a learned effect changes a predicate static in the reference (noteq, road)
@pytest.mark.parametrize("domain,index,seed", [("blocksworld", 0, 3), ("depots", 0, 5), ("grippers", 1, 2),
                                               ("miconic", 0, 7), ("ferry", 0, 1), ("transport", 0, 1)])
def test_counts_agree_with_unified_planning_simulator(domain, index, seed, tmp_path):
    from amlasp.experiments.perturb import perturb
    from amlasp.pddl.writer import to_pddl
    ref_file = IPC / "domains" / f"{domain}.pddl"
    ref = load_domain(ref_file)
    learned = perturb(ref, seed=seed, drop=2, add=2).domain
    learned_file = tmp_path / "learned.pddl"
    learned_file.write_text(to_pddl(learned))
    pfile = IPC / "problems" / "learning" / domain / f"{index}_{domain}_prob.pddl"
    prob = load_problem(pfile, ref)
    traj = read_trajectory(IPC / "trajectories" / "learning" / domain / f"{index}_{domain}_traj", ref, prob)
    states = random.Random(seed).sample(traj.states, min(4, len(traj.states)))
    ours = evaluate(load_domain(learned_file), ref, [StateSet(prob, states, "sample")])
    theirs = up_counts(ref_file, learned_file, pfile, states)
    for a in ours.actions:
        t = theirs[a.action]
        assert (a.applicability.tp, a.applicability.fp, a.applicability.fn, a.applicability.tn) == \
            (t["atp"], t["afp"], t["afn"], t["atn"]), a.action
        assert (a.effects.tp, a.effects.fp, a.effects.fn, a.effects.tn) == \
            (t["etp"], t["efp"], t["efn"], t["etn"]), a.action
    assert sum(t["afp"] + t["afn"] + t["efp"] + t["efn"] for t in theirs.values()) > 0  # the perturbation shows


def test_looser_learned_types_and_ill_typed_state_atoms():
    ref, prob = TYPED.load()
    loose = TYPED.domain(TYPED.domain_text.replace("(?x - ball)", "(?x - object)"))
    st = frozenset({Atom("free", ("b1",)), Atom("free", ("x1",))})
    t = score(evaluate(loose, ref, [StateSet(prob, [st], "s")]), "take")
    # the learned model also takes the box: an FP outside the reference's ground actions (TN unaffected)
    assert (t.applicability.tp, t.applicability.fp, t.applicability.tn, t.untyped_fp) == (1, 1, 0, 1)
    # (in x1 b1) is ill-typed: a true literal outside the universe (1 in + 2 free), still a literal of s
    bad = st | {Atom("in", ("x1", "b1"))}
    t = score(evaluate(ref, ref, [StateSet(prob, [bad], "s")]), "take")
    assert (t.effects.tp, t.effects.tn) == (1, 3)
