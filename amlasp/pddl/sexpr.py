"""A line-aware s-expression reader for PDDL.

The `pddl` package loses positions and rejects some inputs real learners produce
(actions without `:precondition`, `- object` in typed lists). Reading the text into
s-expressions first lets us report `file:line` for every error and hand `pddl` a
normalised text whose tokens stay on their original lines.
"""

from __future__ import annotations

import re
from typing import Iterator, Union

from ..errors import InputError


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
        _missing_paren(stack, file)
    if result is None:
        raise InputError("empty file: no PDDL definition found", file, 1)
    return result


# Where PDDL keywords may stand: a keyword found elsewhere means the list around it was not closed.
_KEYWORD_PARENTS = {":parameters": {":action"}, ":precondition": {":action"}, ":effect": {":action"}}
_SECTION_PARENTS = {s: {"define"} for s in (
    ":requirements", ":types", ":constants", ":predicates", ":functions", ":durative-action", ":derived",
    ":domain", ":objects", ":init", ":goal", ":metric", ":constraints")}
_SECTION_PARENTS[":action"] = {"define", ":trajectory"}
_SECTION_PARENTS[":state"] = {":trajectory"}


def _missing_paren(stack: list[tuple[list, int]], file: str) -> None:
    """Unclosed lists at the end: point at the one a misplaced keyword shows was left open.

    A missing `)` in the middle of a file is only noticed at its end, where the innermost
    open list is usually the whole `(define ...`. The first keyword standing where PDDL does
    not allow it (`:effect` inside an `(and ...)`, `(:goal` inside `(:init ...)`) tells which
    list should have been closed before it."""
    node: SExpr | None = None
    for items, start in reversed(stack):  # close the open lists, innermost first
        if node is not None:
            items = items + [node]
        node = List(items, start, start)
    hit = _misplaced(node, None)
    if hit is not None:
        container, word, at = hit
        raise InputError(f"missing ')': this '(' is not closed before '{word}' on line {at}", file, container.line)
    raise InputError("missing ')': this '(' is never closed", file, stack[-1][1])


def _misplaced(node: "List", parent: str | None) -> tuple["List", str, int] | None:
    for child in node:
        if isinstance(child, Token):
            allowed = _KEYWORD_PARENTS.get(child)
            if allowed is not None and node.head() not in allowed:
                return node, str(child), child.line
        else:
            allowed = _SECTION_PARENTS.get(child.head())
            if allowed is not None and node.head() not in allowed:
                return node, f"({child.head()}", child.line
            hit = _misplaced(child, node.head())
            if hit is not None:
                return hit
    return None


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


def relocate(node: SExpr, line: int) -> None:
    """Put every token of `node` on `line`: a snippet read alone (a JSON literal, a plan line) is
    reported at the line of the file it came from."""
    if isinstance(node, List):
        node.line = node.end_line = line
        for c in node:
            relocate(c, line)
    else:
        node.line = line


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
