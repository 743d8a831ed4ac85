"""amlasp/pddl/states.py: JSON state files read with the C JSON parser agree with the trajectory
reader on the same states, whatever the spelling of the literals; what that path does not take
is read by the careful reader (errors at line and column: tests/cli/test_hostile_input.py)."""

from __future__ import annotations

import json

from amlasp.model import Atom
from amlasp.pddl import jsonpos
from amlasp.pddl.parse import load_domain, load_problem
from amlasp.pddl.states import load_states, read_json_states, read_trajectory
from tests.support.paths import IPC

D = "blocksworld"


def test_json_states_equal_the_trajectory_they_were_written_from(tmp_path, monkeypatch):
    ref = load_domain(IPC / "domains" / f"{D}.pddl")
    pfile = IPC / "problems" / "learning" / D / f"0_{D}_prob.pddl"
    traj = read_trajectory(IPC / "trajectories" / "learning" / D / f"0_{D}_traj", ref, load_problem(pfile, ref))
    spellings = ["({} {})", "( {}  {} )", " ({} {})", "({}\t{})"]
    data = {pfile.name: [[spellings[i % 4].format(a.predicate.upper() if i % 3 == 0 else a.predicate,
                                                   " ".join(a.args)).replace(" )", ")").replace("  )", " )")
                          for i, a in enumerate(sorted(st, key=str))] for st in traj.states]}
    f = tmp_path / "s.json"
    f.write_text(json.dumps(data))
    with monkeypatch.context() as m:  # the fast path: the careful reader is not called
        m.setattr(jsonpos, "parse", lambda *a: (_ for _ in ()).throw(AssertionError("careful reader")))
        (ss,) = read_json_states(f, ref, pfile.parent)
    assert ss.states == traj.states and ss.ignored == 0
    # a literal of a predicate the domain lacks: an error, or ignored and counted when asked
    data[pfile.name][0].append("(glued b1)")
    f.write_text(json.dumps(data))
    (ss,) = read_json_states(f, ref, pfile.parent, ignore_unknown_predicates=True)
    assert ss.states == traj.states and ss.ignored == 1


def test_the_problems_of_many_files_are_read_once(tmp_path):
    ref = load_domain(IPC / "domains" / f"{D}.pddl")
    pdir = IPC / "problems" / "learning" / D
    init = load_problem(pdir / f"0_{D}_prob.pddl", ref).init
    for i in range(3):
        (tmp_path / f"{i}.json").write_text(json.dumps({f"0_{D}_prob.pddl": [[f"({a.predicate} {' '.join(a.args)})"
                                                                             for a in init]]}))
    cache: dict = {}
    sets = load_states([tmp_path], ref, pdir, problems=cache)
    assert len(sets) == 3 and len(cache) == 1 and all(ss.problem is sets[0].problem for ss in sets)
    assert all(ss.states == [init] for ss in sets)
    assert Atom("handempty", ()) in init


def test_the_files_a_json_states_file_names_are_listed_without_the_careful_reader(tmp_path, monkeypatch):
    """`eval -o` lists every input before writing (`state_inputs`): the problems a JSON states file
    names are its keys, read with the C parser (issue 20: the careful reader took 15-48 s, 1.6 GB)."""
    from amlasp.pddl.states import state_inputs
    (tmp_path / "p.pddl").write_text("")
    f = tmp_path / "s.json"
    f.write_text(json.dumps({"p.pddl": [["(a)"]], "missing.pddl": []}))
    bad = tmp_path / "bad.json"
    bad.write_text('{"p.pddl": [')
    monkeypatch.setattr(jsonpos, "parse", lambda *a: (_ for _ in ()).throw(AssertionError("careful reader")))
    assert state_inputs([f, bad]) == [f, bad, tmp_path / "p.pddl"]
