"""A JSON reader that remembers where every value is, for state files.

Python's `json` module gives no positions (a bad literal could only be searched for in the
text, and found in the wrong place when it occurs twice), silently keeps the last of two equal
keys (dropping the first list of states), and recurses (deep nesting is a RecursionError).
This reader is iterative, refuses duplicate keys and nesting beyond `limits.MAX_DEPTH`, and
returns `Value`s with the line and column of each; strings are decoded by `json` itself.
"""

from __future__ import annotations

import bisect
import json.decoder
import re
from dataclasses import dataclass, field
from typing import Any

from ..errors import InputError
from ..limits import MAX_DEPTH

_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
_WORDS = {"true": True, "false": False, "null": None}
_SPACE = re.compile(r"[ \t\n\r]*")


@dataclass
class Value:
    """A JSON value at `line`, `col`. `items`: an array's values or an object's (key, value) pairs;
    `value`: a scalar (a number as its text); `raw`: a string's text between its quotes, as written
    (escapes undecoded)."""

    kind: str  # "object", "array", "string", "number", "literal"
    line: int
    col: int
    value: Any = None
    items: list = field(default_factory=list)
    raw: str = ""

    def inner(self, offset: int) -> tuple[int, int]:
        """Line and column of character `offset` of a string's decoded text (exact without escapes)."""
        if "\\" in self.raw:
            return self.line, self.col
        return self.line, self.col + 1 + offset


class _Text:
    def __init__(self, text: str, file: str):
        self.text, self.file = text, file
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def where(self, i: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.starts, i)
        return line, i - self.starts[line - 1] + 1

    def error(self, message: str, i: int) -> InputError:
        return InputError(f"invalid JSON: {message}", self.file, *self.where(i))

    def space(self, i: int) -> int:
        m = _SPACE.match(self.text, i)
        return m.end() if m else i  # _SPACE matches the empty string


# One state machine (~65 lines): its states share the stacks, which functions would pass back and forth.
def parse(text: str, file: str) -> Value:
    """The JSON value of `text` (exactly one), with positions; errors as `file:line:col: invalid JSON: ...`."""
    t = _Text(text, file)
    depth = int(MAX_DEPTH.value())
    stack: list[Value] = []
    keys: list[Value | None] = []  # the pending key of each open object
    seen: list[set[str]] = []  # the keys of each open object so far
    i = t.space(0)
    state = "value"
    while True:
        if state == "key":
            if i >= len(text) or text[i] != '"':
                raise t.error("expected a key in double quotes", i)
            key, i = _string(t, i)
            if key.value in seen[-1]:
                raise InputError(f"duplicate key '{key.value}' (a JSON object maps each key once: the first "
                                 f"value would be lost)", file, key.line, key.col)
            i = t.space(i)
            if i >= len(text) or text[i] != ":":
                raise t.error("expected ':' after the key", i)
            keys[-1] = key
            seen[-1].add(key.value)
            i = t.space(i + 1)
            state = "value"
            continue
        if state == "value":
            if i >= len(text):
                raise t.error("unexpected end of the file, expected a value", i)
            c = text[i]
            if c in "{[":
                if len(stack) >= depth:
                    raise InputError(f"nesting deeper than {depth:g} levels ({MAX_DEPTH.hint()})", file, *t.where(i))
                stack.append(Value("object" if c == "{" else "array", *t.where(i)))
                keys.append(None)
                seen.append(set())
                i = t.space(i + 1)
                if i < len(text) and text[i] == ("}" if c == "{" else "]"):
                    value, i = stack.pop(), i + 1
                    keys.pop()
                    seen.pop()
                else:
                    state = "key" if c == "{" else "value"
                    continue
            else:
                value, i = _scalar(t, i)
        else:  # after a value inside a container: ',' or its closing bracket
            i = t.space(i)
            top = stack[-1]
            close = "}" if top.kind == "object" else "]"
            if i < len(text) and text[i] == ",":
                i = t.space(i + 1)
                state = "key" if top.kind == "object" else "value"
                continue
            if i >= len(text) or text[i] != close:
                raise t.error(f"expected ',' or '{close}'", i)
            value, i = stack.pop(), i + 1
            keys.pop()
            seen.pop()
        # a complete value: into its container, or the end of the document
        if not stack:
            i = t.space(i)
            if i < len(text):
                raise t.error("unexpected text after the JSON value", i)
            return value
        top = stack[-1]
        top.items.append((keys[-1], value) if top.kind == "object" else value)
        state = "after"


def _string(t: _Text, i: int) -> tuple[Value, int]:
    try:
        s, end = json.decoder.scanstring(t.text, i + 1)  # type: ignore[attr-defined]  # public, untyped
    except json.JSONDecodeError as e:
        raise t.error(e.msg.lower(), e.pos) from None
    return Value("string", *t.where(i), value=s, raw=t.text[i + 1:end - 1]), end


def _scalar(t: _Text, i: int) -> tuple[Value, int]:
    c = t.text[i]
    if c == '"':
        return _string(t, i)
    m = _NUMBER.match(t.text, i)
    if m:
        return Value("number", *t.where(i), value=m.group()), m.end()  # kept as text: no use, no size limit
    for word, v in _WORDS.items():
        if t.text.startswith(word, i):
            return Value("literal", *t.where(i), value=v), i + len(word)
    raise t.error("expected a value (a string, number, list, object, true, false or null)", i)


__all__ = ["Value", "parse"]
