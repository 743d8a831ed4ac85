"""A line-aware s-expression reader for PDDL.

The `pddl` package loses positions and rejects some inputs real learners produce
(actions without `:precondition`, `- object` in typed lists). Reading the text into
s-expressions first lets us report `file:line` for every error and hand `pddl` a
normalised text whose tokens stay on their original lines.
"""

from __future__ import annotations

import re
from typing import Iterator, Union

from .errors import InputError


class Token(str):
    """A lower-cased symbol that remembers its line."""

    line: int

    def __new__(cls, text: str, line: int) -> "Token":
        tok = super().__new__(cls, text)
        tok.line = line
        return tok

    def __reduce__(self):  # model objects may hold tokens: keep them picklable for process pools
        return (Token, (str(self), self.line))


class List(list):
    """A parenthesised list that remembers the line of its opening parenthesis."""

    def __init__(self, items: list["SExpr"], line: int, end_line: int):
        super().__init__(items)
        self.line = line
        self.end_line = end_line

    def head(self) -> str | None:
        return self[0] if self and isinstance(self[0], Token) else None


SExpr = Union[Token, List]


_TOKEN = re.compile(r"\n|;[^\n]*|[()]|[^\s();]+")


def _tokens(text: str, file: str) -> Iterator[tuple[str, int]]:
    line = 1
    for m in _TOKEN.finditer(text):
        word = m.group()
        if word == "\n":
            line += 1
        elif word[0] == ";":
            continue
        else:
            if not word.isprintable():
                raise InputError("unreadable characters (is this a PDDL text file?)", file, line)
            yield word.lower(), line


def read(text: str, file: str = "<string>") -> List:
    """Read exactly one top-level s-expression (a PDDL `define`)."""
    if "\x00" in text:
        raise InputError("binary data, not a PDDL text file", file, 1)
    stack: list[tuple[list, int]] = []
    result: List | None = None
    for tok, line in _tokens(text, file):
        if result is not None:
            raise InputError(f"unexpected '{tok}' after the end of the definition", file, line)
        if tok == "(":
            stack.append(([], line))
        elif tok == ")":
            if not stack:
                raise InputError("unbalanced ')'", file, line)
            items, start = stack.pop()
            node = List(items, start, line)
            if stack:
                stack[-1][0].append(node)
            else:
                result = node
        else:
            if not stack:
                raise InputError(f"unexpected '{tok}' outside parentheses", file, line)
            stack[-1][0].append(Token(tok, line))
    if stack:
        raise InputError("missing ')': this '(' is never closed", file, stack[-1][1])
    if result is None:
        raise InputError("empty file: no PDDL definition found", file, 1)
    return result


def write(node: SExpr) -> str:
    """Serialise so that every token stays on its original line (for error positions)."""
    out: list[str] = []
    line = 1

    def emit(text: str, at: int) -> None:
        nonlocal line
        if at > line:
            out.append("\n" * (at - line))
            line = at
        out.append(text)

    def walk(n: SExpr, at: int) -> None:
        if isinstance(n, List):
            emit("(", max(n.line, at))
            for child in n:
                walk(child, line)
            emit(") ", max(n.end_line, line))
        else:
            emit(str(n) + " ", max(getattr(n, "line", at), at))

    walk(node, 1)
    return "".join(out)


def find(node: SExpr, head: str) -> List | None:
    """First sub-list (depth first) whose head is `head`: used to point at an error."""
    if isinstance(node, List):
        if node.head() == head:
            return node
        for child in node:
            hit = find(child, head)
            if hit is not None:
                return hit
    return None


def find_token(node: SExpr, word: str) -> Token | None:
    if isinstance(node, Token):
        return node if node == word else None
    for child in node:
        hit = find_token(child, word)
        if hit is not None:
            return hit
    return None
