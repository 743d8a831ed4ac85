"""amlasp/pddl/jsonpos.py: the JSON reader of state files, against Python's `json` and with positions."""

from __future__ import annotations

import json
import random

import pytest

from amlasp.errors import InputError
from amlasp.pddl.jsonpos import Value, parse


def plain(v: Value):
    """The Python value of a `Value`, as `json.loads` would give it (numbers compared as numbers)."""
    if v.kind == "object":
        return {k.value: plain(x) for k, x in v.items}
    if v.kind == "array":
        return [plain(x) for x in v.items]
    if v.kind == "number":
        return json.loads(v.value)
    return v.value


def test_agrees_with_the_json_module_on_random_documents():
    rng = random.Random(3)

    def doc(depth: int):
        r = rng.random()
        if depth > 3 or r < 0.3:
            return rng.choice(["(on a b)", "é\\\"\n", 0, -1.5e3, 12, True, False, None, ""])
        if r < 0.65:
            return [doc(depth + 1) for _ in range(rng.randrange(4))]
        return {f"k{i}": doc(depth + 1) for i in range(rng.randrange(4))}
    for _ in range(300):
        d = doc(0)
        for text in (json.dumps(d), json.dumps(d, indent=rng.choice([1, 4]))):
            assert plain(parse(text, "f.json")) == json.loads(text)


def test_every_value_knows_its_line_and_column():
    v = parse('{\n  "p.pddl": [\n    ["(on a b)",  "(clear a)"]\n  ]\n}', "s.json")
    key, states = v.items[0]
    assert (key.line, key.col) == (2, 3) and (states.line, states.col) == (2, 13)
    lits = states.items[0].items
    assert [(x.line, x.col) for x in lits] == [(3, 6), (3, 19)]
    assert lits[1].inner(1) == (3, 21)  # the `c` of `(clear a)`


@pytest.mark.parametrize("text,line,col,message", [
    ('{"a": 1,\n "a": 2}', 2, 2, "duplicate key 'a'"),
    ("[1,]", 1, 4, "invalid JSON: expected a value"),
    ("[1 2]", 1, 4, "invalid JSON: expected ',' or ']'"),
    ('{"a" 1}', 1, 6, "invalid JSON: expected ':' after the key"),
    ("{1: 2}", 1, 2, "invalid JSON: expected a key in double quotes"),
    ('"x', 1, 1, "invalid JSON: unterminated string"),
    ("[] []", 1, 4, "invalid JSON: unexpected text after the JSON value"),
    ("", 1, 1, "invalid JSON: unexpected end of the file"),
    ("[" * 101 + "]" * 101, 1, 101, "nesting deeper than 100 levels"),
    ("[" * 100000, 1, 101, "nesting deeper than 100 levels"),
])
def test_errors_name_the_line_and_column(text, line, col, message):
    with pytest.raises(InputError) as caught:
        parse(text, "s.json")
    e = caught.value
    assert (e.file, e.line, e.col) == ("s.json", line, col) and e.message.startswith(message), str(e)


def test_a_number_of_any_length_is_read():
    """Kept as its text: Python's int() refuses more than 4,300 digits."""
    assert parse("[" + "9" * 5000 + "]", "s.json").items[0].value == "9" * 5000
