"""amlasp/pddl/states.py and jsonl.py: a JSON state file of any wrong shape is refused at the wrong value
(`file:line:col`, exit 2), never an internal error, never read as something else (issue 31: entries that
were objects rather than lists ended in exit 4, and `{}` where a list belongs was read as an empty list).

Every position a JSON state file has (the top level, a problem's value, a state, a literal; in a JSON lines
file, a line, its problem, its state, its changes, a literal) is given every JSON type: a value that
belongs there is read, any other is refused at a line and column inside it."""

from __future__ import annotations

import shutil

import pytest

from amlasp.errors import InputError
from amlasp.pddl.jsonl import iter_jsonl_states
from amlasp.pddl.parse import load_domain
from amlasp.pddl.states import load_states
from tests.support.cli import run
from tests.support.paths import EXAMPLES

BW = EXAMPLES / "blocksworld"
LIT = '"(handempty)"'

#: Every JSON type, empty and not, and values of the right type with the wrong content.
VALUES = ('{}', '{"x": 1}', '{"(handempty)": []}', '{"p.pddl": []}', '[]', '[1]', '[[]]', '[["(handempty)"]]', '[{}]',
          '[null]', LIT, '"p.pddl"', '""', '0', '-1.5e3', 'true', 'false', 'null')

#: (file suffix, text with @ where the value goes, the values that belong there).
POSITIONS = {
    "json top": (".json", "@", {'{}', '{"p.pddl": []}'}),
    "json problem": (".json", '{"p.pddl": @}', {'[]', '[[]]', '[["(handempty)"]]'}),
    "json state": (".json", '{"p.pddl": [[' + LIT + '], @]}', {'[]'}),
    "json literal": (".json", '{"p.pddl": [[' + LIT + ', @]]}', {LIT}),
    "jsonl line": (".jsonl", "@", set()),
    "jsonl second line": (".jsonl", '{"problem": "p.pddl", "state": []}\n@', set()),
    "jsonl problem": (".jsonl", '{"problem": @, "state": []}', {'"p.pddl"'}),
    "jsonl state": (".jsonl", '{"problem": "p.pddl", "state": @}', {'[]'}),
    "jsonl add": (".jsonl", '{"problem": "p.pddl", "state": []}\n{"add": @}', {'[]'}),
    "jsonl literal": (".jsonl", '{"problem": "p.pddl", "state": [@]}', {LIT}),
}


@pytest.fixture(scope="module")
def domain():
    return load_domain(BW / "domain.pddl")


def _cases():
    return [pytest.param(pos, value, id=f"{pos}: {value}") for pos in POSITIONS for value in VALUES]


def _read(path, domain):
    if path.suffix == ".jsonl":
        return list(iter_jsonl_states(path, domain))
    return load_states([path], domain)


@pytest.mark.parametrize("position,value", _cases())
def test_every_json_type_at_every_position_is_read_or_refused_inside_it(tmp_path, domain, position, value):
    suffix, template, belongs = POSITIONS[position]
    shutil.copy(BW / "problem.pddl", tmp_path / "p.pddl")
    f = tmp_path / f"s{suffix}"
    f.write_text(template.replace("@", value) + "\n")
    at = template.index("@")
    line, start = template.count("\n", 0, at) + 1, at - (template.rfind("\n", 0, at) + 1) + 1
    if value in belongs:
        _read(f, domain)
        return
    with pytest.raises(InputError) as e:
        _read(f, domain)
    assert (e.value.file, e.value.line) == (str(f), line), str(e.value)
    assert start <= e.value.col < start + len(value), str(e.value)


def test_a_wrong_shape_is_exit_2_with_its_place_on_the_command_line(tmp_path):
    """The finding: `{"p.pddl": {"(handempty)": []}}` (states given as an object) was exit 4."""
    shutil.copy(BW / "problem.pddl", tmp_path / "p.pddl")
    f = tmp_path / "s.json"
    f.write_text('{"p.pddl": {"(handempty)": []}}\n')
    r = run("applicable", BW / "domain.pddl", tmp_path / "p.pddl", "--states", f, "-f", "json")
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr == (f"amlasp: error: {f}:1:12: 'p.pddl' must map to a list of states (lists of literals)\n")
