"""amlasp/pddl/jsonl.py: JSON lines state files, a state a line (in full or as changes), read a line at a
time; the same states as a JSON state file, every problem located at file:line:col."""

from __future__ import annotations

import json
import shutil

import pytest

from amlasp.errors import InputError
from amlasp.pddl.jsonl import CHUNK, iter_jsonl_states
from amlasp.pddl.parse import load_domain
from amlasp.pddl.states import load_states, state_inputs
from tests.support.paths import EXAMPLES

EX = EXAMPLES / "blocksworld"
S0 = ["(handempty)", "(on b1 b2)", "(ontable b2)", "(clear b1)", "(ontable b3)", "(clear b3)"]
S1 = ["(holding b1)", "(ontable b2)", "(clear b2)", "(ontable b3)", "(clear b3)"]


@pytest.fixture
def domain():
    return load_domain(EX / "domain.pddl")


@pytest.fixture
def folder(tmp_path):
    shutil.copy(EX / "problem.pddl", tmp_path / "p.pddl")
    return tmp_path


def write(folder, *lines: str) -> str:
    f = folder / "s.jsonl"
    f.write_text("".join(line + "\n" for line in lines))
    return str(f)


def test_full_states_and_changes_give_the_states_of_a_json_file(domain, folder):
    (folder / "s.json").write_text(json.dumps({"p.pddl": [S0, S1, S0]}))
    f = write(folder, json.dumps({"problem": "p.pddl", "state": S0}), "",
              json.dumps({"del": ["(handempty)", "(on b1 b2)", "(clear b1)"], "add": ["(holding b1)", "(clear b2)"]}),
              json.dumps({"state": S0}))
    got = load_states([f], domain)
    want = load_states([folder / "s.json"], domain)
    assert [ss.states for ss in got] == [ss.states for ss in want]
    assert got[0].problem.name == want[0].problem.name
    assert state_inputs([f]) == [folder / "s.jsonl", folder / "p.pddl"]


def test_a_long_file_comes_in_parts_numbered_from_its_start(domain, folder):
    first = json.dumps({"problem": "p.pddl", "state": S0})
    back, forth = json.dumps({"del": ["(holding b1)"], "add": ["(handempty)"]}), json.dumps({"add": ["(holding b1)"],
                                                                                              "del": ["(handempty)"]})
    f = write(folder, first, *[back if i % 2 else forth for i in range(2 * CHUNK + 10)])
    parts = list(iter_jsonl_states(f, domain))
    assert [len(p.states) for p in parts] == [CHUNK, CHUNK, 11]
    assert [p.first for p in parts] == [0, CHUNK, 2 * CHUNK]
    assert parts[1].states[0] != parts[1].states[1] and parts[2].states[-1] == parts[2].states[0]


@pytest.mark.parametrize("lines, where, message", [
    (['{"state": ["(handempty)"]}'], ":1:1:", "first line must name its problem"),
    (['{"problem": "p.pddl", "state": ["(handempty)"]}', '{"add": ["(clear b1)"], "oops": []}'], ":2:25:",
     "unknown key 'oops'"),
    (['{"problem": "p.pddl", "state": ["(handempty)"]}', '{"add": ["(clear b9)"]}'], ":2:", "b9"),
    (['{"problem": "p.pddl", "state": ["(handempty)"]}', '{"add": ["(flying b1)"]}'], ":2:", "flying"),
    (['{"problem": "p.pddl", "state": ["(handempty)"]}', '{"del": ["(clear b1)"]}'], ":2:10:",
     "not true in the state before"),
    (['{"problem": "p.pddl", "state": ["(handempty)"]}', '{"add": ["(handempty)"]}'], ":2:10:",
     "already true in the state before"),
    (['{"problem": "p.pddl", "state": ["(handempty)"]}', '{"add": ["(clear b1)"]'], ":2:", "invalid JSON"),
    (['{"problem": "nope.pddl", "state": []}'], ":1:13:", "problem file 'nope.pddl' not found"),
    (['{"problem": "../p.pddl", "state": []}'], ":1:13:", "not found"),
    (['{"problem": "p.pddl", "add": []}'], ":1:2:", "gives its state in full"),
    (['{"problem": "p.pddl", "state": [], "del": []}'], ":1:1:", "not both"),
    (['{"problem": "p.pddl", "state": [3]}'], ":1:33:", "expected a literal string"),
    (['[1, 2]'], ":1:1:", "expected a JSON object"),
    (["[" * 200], ":1:", "nesting"),
    ([], "s.jsonl:", "no state"),
])
def test_bad_lines_are_refused_where_they_are(domain, folder, lines, where, message):
    f = write(folder, *lines)
    with pytest.raises(InputError) as e:
        load_states([f], domain)
    assert where in str(e.value) and message in str(e.value), str(e.value)


def test_a_line_beyond_the_size_limit_binary_data_and_bad_utf8_are_refused(domain, folder, monkeypatch):
    f = write(folder, json.dumps({"problem": "p.pddl", "state": S0}), json.dumps({"state": S0 * 50}))
    monkeypatch.setenv("AMLASP_MAX_INPUT_MB", "0.001")
    with pytest.raises(InputError, match=r"s\.jsonl:2: a line longer than 0\.001 MB"):
        load_states([f], domain)
    monkeypatch.delenv("AMLASP_MAX_INPUT_MB")
    (folder / "s.jsonl").write_bytes(b'{"problem": "p.pddl", "state": []}\n{"st\x00ate": []}\n')
    with pytest.raises(InputError, match=r"s\.jsonl:2:5: binary data"):
        load_states([f], domain)
    (folder / "s.jsonl").write_bytes(b'{"problem": "p.pddl", "state": ["\xff"]}\n')
    with pytest.raises(InputError, match=r"s\.jsonl:1:34: not UTF-8"):
        load_states([f], domain)
