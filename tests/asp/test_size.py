"""amlasp/asp/size.py (issue 20): free parameters are counted, not enumerated, where the metric
allows (eval's learned-only actions, compiled by asp/compile/pair.py), and equal the enumerated
count and an exhaustive count; every other grounding beyond the limit is refused before clingo is
asked, naming the action, the estimate and the limit."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from amlasp.asp import size
from amlasp.errors import InputError
from amlasp.metrics.evaluate import evaluate
from amlasp.model import Atom
from amlasp.pddl.parse import load_domain, load_problem, parse_domain
from amlasp.pddl.states import load_states
from tests.support.cli import run
from tests.support.paths import IPC

REF = IPC / "domains" / "ferry.pddl"
TRAJ = IPC / "trajectories" / "learning" / "ferry"
PROBS = IPC / "problems" / "learning" / "ferry"
SAIL = "(?from - location ?to - location)"


def learned(tmp_path: Path, extra: str, effect: str = "") -> Path:
    """The reference ferry with `extra` parameters on `sail` (and `effect` added to its effects)."""
    text = REF.read_text().replace(SAIL, f"(?from - location ?to - location {extra})", 1)
    if effect:
        text = text.replace("(not (at_ferry ?from))", f"(not (at_ferry ?from)) {effect}", 1)
    f = tmp_path / "learned.pddl"
    f.write_text(text)
    return f


def exhaustive_fp(extra_types: list[str], files: tuple[Path, ...] = (TRAJ,)) -> int:
    """The learned-only sail's instances, by enumeration in Python: in each state, each (from, to)
    with (noteq from to) and (at_ferry from), times the objects of each extra parameter's type."""
    ref = load_domain(REF)
    total = 0
    for ss in load_states(list(files), ref, problems_dir=PROBS):
        objects = ss.problem.object_types(ref)
        per = 1
        for t in extra_types:
            per *= sum(1 for k in objects.values() if t in ref.ancestors(k))
        locs = [o for o, k in objects.items() if k == "location"]
        for st in ss.states:
            sail = sum(1 for a in locs for b in locs
                       if Atom("noteq", (a, b)) in st and Atom("at_ferry", (a,)) in st)
            total += sail * per
    return total


@pytest.mark.parametrize("extra,types", [
    ("?u0 - location ?u1 - location", ["location", "location"]),
    ("?u0 - car ?u1 - object", ["car", "object"]),
    ("?u0 ?u1 - location ?u2 - car", ["location", "location", "car"]),
], ids=["locations", "car-and-object", "three"])
def test_free_parameters_are_counted_exactly(tmp_path, extra, types):
    """Counted (free parameters left out, multiplied in Python), enumerated (--explain lists every
    instance, so nothing is counted) and exhaustive: one number. Effects on a free parameter do
    not matter for a learned-only action: its effects are never compared."""
    f = learned(tmp_path, extra, effect="(at_ferry ?u0)")
    small = [TRAJ / f"{i}_ferry_traj" for i in range(3)]  # 3 to 5 locations: --explain lists every instance
    assert size.free_parameters(load_domain(f).action("sail")) == tuple(re.findall(r"\?\w+", extra))
    counted = evaluate(f, REF, small, problems=PROBS).learned_only
    enumerated = evaluate(f, REF, small, problems=PROBS, explain=True).learned_only
    assert [x.fp for x in counted] == [x.fp for x in enumerated] == [exhaustive_fp(types, tuple(small))]


def test_thirty_free_parameters_are_counted_in_a_second(tmp_path):
    """The issue's runaway (30 parameters: 5.8 GB and still running): a number beyond clingo's
    32-bit integers, computed by Python."""
    f = learned(tmp_path, " ".join(f"?u{i} - location" for i in range(30)))
    (only,) = evaluate(f, REF, [TRAJ], problems=PROBS).learned_only
    assert only.fp == exhaustive_fp(["location"] * 30) > 2 ** 100


def test_a_grounding_beyond_the_limit_is_refused_before_clingo(tmp_path, monkeypatch):
    """--explain lists every instance: six free parameters (|L|^6 per state) are refused, with the
    action, the estimate and the limit's names; the limit is raised by the variable or the option."""
    f = learned(tmp_path, " ".join(f"?u{i} - location" for i in range(6)))
    big = TRAJ / "9_ferry_traj"  # 12 locations: 12^6 instances of sail per state
    with pytest.raises(InputError, match=r"eval: grounding would make about [0-9.e+]+ rule instances, .* action "
                                         r"'sail' \(its parameter\(s\) \?u0 \?u1 \?u2 \?u3 \?u4 \?u5 appear in no "
                                         r"precondition\); refused above the limit of 2e\+07.*AMLASP_MAX_GROUNDING"):
        evaluate(f, REF, [big], problems=PROBS, explain=True)
    r = run("eval", f, REF, "--states", big, "--problems", PROBS, "--explain")
    assert r.exit_code == 2 and "--max-grounding" in r.stderr and "Traceback" not in r.stderr
    monkeypatch.setenv("AMLASP_MAX_GROUNDING", "10")
    with pytest.raises(InputError, match="limit of 10"):
        evaluate(REF, REF, [TRAJ], problems=PROBS)
    r = run("--max-grounding", "1e9", "eval", REF, REF, "--states", TRAJ, "--problems", PROBS, "-f", "json")
    assert r.exit_code == 0, r.stderr


def test_the_estimate_follows_the_join():
    """The textbook estimate: (at_ferry ?from) binds ?from to one object, (noteq ?from ?to) then
    adds |noteq| / |L| objects for ?to: about |L| instances of sail per state, not |L|^2."""
    d = load_domain(REF)
    p = load_problem(PROBS / "9_ferry_prob.pddl", d)
    s = size.sizes(d, p)
    locs = s.of_type("location")
    assert size.instances(d, d.action("sail"), s, effects=False) == pytest.approx(locs - 1)
    free = parse_domain(REF.read_text().replace(SAIL, "(?from - location ?to - location ?u - location)", 1))
    sail = free.action("sail")
    assert size.instances(free, sail, s, effects=False) == pytest.approx((locs - 1) * locs)
    assert size.instances(free, sail, s, factored=size.free_parameters(sail), effects=False) == pytest.approx(locs - 1)


def test_eval_splits_a_batch_of_files_beyond_the_limit_and_gives_the_same_result(monkeypatch):
    """A batch whose program would pass the limit is evaluated a part at a time (whole files), if
    each part fits: the counts are sums over states, so the result is the same."""
    learned_model = IPC / "learned" / "nolam" / "ferry.pddl"
    whole = evaluate(learned_model, REF, [TRAJ], problems=PROBS)
    models = [load_domain(REF), load_domain(learned_model)]
    per_file = [sum(x for d in models for x in size.estimate(d, [(size.sizes(d, ss.problem), len(ss.states))]).values())
                for ss in load_states([TRAJ], models[0], problems_dir=PROBS)]
    monkeypatch.setenv("AMLASP_MAX_GROUNDING", str(max(per_file) * 1.01))
    assert sum(per_file) > max(per_file) * 1.01
    split = evaluate(learned_model, REF, [TRAJ], problems=PROBS)
    assert split.timings["batches"] > whole.timings["batches"] == 1
    assert split.to_frame().equals(whole.to_frame()) and split.learned_only == whole.learned_only


@pytest.mark.parametrize("command", [["applicable"], ["plan"], ["reach", "(at_ferry l3)"], ["landmarks"],
                                     ["diff", REF]], ids=lambda c: c[0])
def test_every_command_that_grounds_refuses_before_it_starts(tmp_path, command):
    """One estimator for every command (asp/size.py): a second, exit 2, one line."""
    f = learned(tmp_path, " ".join(f"?u{i} - location" for i in range(6)))
    name, *rest = command
    args = [name, f, *(rest if name == "diff" else []), PROBS / "9_ferry_prob.pddl", *(rest if name == "reach" else [])]
    r = run(*args)
    assert r.exit_code == 2, r.output
    assert "grounding would make about" in r.stderr and "'sail'" in r.stderr and len(r.stderr.splitlines()) == 1


def test_validation_is_estimated_by_its_steps(tmp_path):
    """A plan binds every parameter: the free ones cost nothing there."""
    f = learned(tmp_path, " ".join(f"?u{i} - location" for i in range(6)))
    (tmp_path / "p.plan").write_text("(sail l2 l1 l0 l0 l0 l0 l0 l0)\n")
    r = run("validate", f, PROBS / "0_ferry_prob.pddl", tmp_path / "p.plan")
    assert r.exit_code == 1 and "goal is not reached" in r.stdout, r.output
