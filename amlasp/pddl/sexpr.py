"""A position-aware s-expression reader for PDDL.

Every later pass (checks, repairs, conversion) works on this tree, whose tokens keep their
positions, so that every error is reported at `file:line:col`.

Every walk here is iterative and the reader refuses nesting deeper than `limits.MAX_DEPTH`,
so no input reaches Python's recursion limit. A `?` inside a word starts a new token
(`clean?x` is `clean ?x`), as in the `pddl` package's grammar.
"""

from __future__ import annotations

import re
from typing import Iterator, Sequence, Union

from ..errors import InputError
from ..limits import MAX_DEPTH
from .source import normalise


class Token(str):
    """A lower-cased symbol that remembers its line and column (1-based; 0 for a token a repair added)."""

    line: int
    col: int

    def __new__(cls, text: str, line: int, col: int = 0) -> "Token":
        tok = super().__new__(cls, text)
        tok.line = line
        tok.col = col
        return tok

    def __reduce__(self):  # model objects may hold tokens: keep them picklable for process pools
        return (Token, (str(self), self.line, self.col))


class List(list):
    """A parenthesised list that remembers where its opening and closing parentheses are."""

    def __init__(self, items: Sequence["SExpr"], line: int, end_line: int, col: int = 0, end_col: int = 0):
        super().__init__(items)
        self.line = line
        self.end_line = end_line
        self.col = col
        self.end_col = end_col

    def head(self) -> str | None:
        return self[0] if self and isinstance(self[0], Token) else None


SExpr = Union[Token, List]


# `-boat` (a type glued to its dash, as unified-planning's test domains write `?b -boat`) is `-` `boat`:
# no name or number begins with a dash and a letter.
_TOKEN = re.compile(r"\n|;[^\n]*|[()]|\?[^\s();?]*|-(?=[A-Za-z])|[^\s();?]+")


def _tokens(text: str, file: str, line: int, col: int) -> Iterator[tuple[str, int, int]]:
    """(word, line, column) of every token; `line`, `col`: where the text starts in its file."""
    start = -(col - 1)  # offset of the current line's first character
    for m in _TOKEN.finditer(text):
        word = m.group()
        if word == "\n":
            line += 1
            start = m.end()
        elif word[0] == ";":
            continue
        else:
            if not word.isprintable():
                bad = next(i for i, ch in enumerate(word) if not ch.isprintable())
                raise InputError("unreadable characters (is this a PDDL text file?)", file, line,
                                 m.start() + bad - start + 1)
            yield word.lower(), line, m.start() - start + 1


def read(text: str, file: str = "<string>", line: int = 1, col: int = 1) -> List:
    """Read exactly one top-level s-expression (a PDDL `define`).

    `line`, `col`: where `text` starts in `file` (a plan line or a JSON literal read alone)."""
    return _read(text, file, line, col, [])


def read_outlined(text: str, file: str = "<string>") -> tuple[List, "Outline"]:
    """`read`, with the tree's `Outline`: the fast reader makes the lists in file order, so that their list
    costs it an append each; the tree of the checked reader (a text with control or non-ASCII characters) is
    walked for it."""
    lists: list[List] = []
    tree = _read(text, file, 1, 1, lists)
    return tree, Outline(tree, lists) if lists else Outline.of(tree)


def _read(text: str, file: str, line: int, col: int, lists: list[List]) -> List:
    text = normalise(text)
    if "\x00" in text:
        raise InputError("binary data, not a PDDL text file", file, line, col)
    depth = int(MAX_DEPTH.value())
    if text.isascii() and _CONTROL.search(text) is None:  # the common case, read a line at a time
        fast = _read_plain(text, line, col, depth, lists)
        if fast is not None:
            return fast
        lists.clear()
    return _read_checked(text, file, line, col, depth)


# An ASCII control character that is no separator (`\s`): only a text without one takes `_read_plain`.
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1b\x7f]")
# `_TOKEN` in lower-cased text.
_PLAIN_TOKEN = re.compile(r"\n|;[^\n]*|[()]|\?[^\s();?]*|-(?=[a-z])|[^\s();?]+")


def _read_plain(text: str, line: int, col: int, depth: int, lists: list[List] | None = None) -> List | None:
    """`_read_checked`'s tree of an ASCII text without control characters (so every word is printable and
    lower-casing keeps every column); None where `_read_checked` raises an error, so that it reports it.
    Half the time of the token generator on a domain of thousands of actions, most of it the per-token work
    of the generator and of `Token`'s constructor, written inline here; one scan of the text (a newline is a
    token that counts the lines) took 0.85-0.9 of the time of a scan per line.
    `lists`: each list is appended to it when its `(` is read, so in file order (`Outline`)."""
    stack: list[List] = []
    top: List | None = None
    result: List | None = None
    new, new_list = str.__new__, list.__new__  # a List filled in place, its end set when it closes
    made = (lists if lists is not None else []).append
    offset = col  # a token's column is its index in the text + offset: `col` on line 1, after it 1 - the line's start
    ln = line
    for m in _PLAIN_TOKEN.finditer(text.lower()):
        word = m.group()
        if word == "(":
            if len(stack) >= depth or result is not None:
                return None
            top = new_list(List)
            top.line = ln
            top.col = m.start() + offset
            stack.append(top)
            made(top)
        elif word == ")":
            if not stack:
                return None
            node = stack.pop()
            node.end_line = ln
            node.end_col = m.start() + offset
            if stack:
                top = stack[-1]
                top.append(node)
            else:
                top = None
                result = node
        elif word == "\n":
            ln += 1
            offset = 1 - m.end()
        elif word[0] == ";":
            continue
        elif top is None:
            return None
        else:
            tok = new(Token, word)
            tok.line = ln
            tok.col = m.start() + offset
            top.append(tok)
    return None if stack else result


def _read_checked(text: str, file: str, line: int, col: int, depth: int) -> List:
    """`read` a token at a time, with every check and its error."""
    stack: list[tuple[list, int, int]] = []
    result: List | None = None
    for tok, ln, cl in _tokens(text, file, line, col):
        if result is not None:
            raise InputError(f"unexpected '{tok}' after the end of the definition", file, ln, cl,
                             kind="unbalanced")
        if tok == "(":
            if len(stack) >= depth:
                raise InputError(f"nesting deeper than {depth:g} levels ({MAX_DEPTH.hint()})", file, ln, cl)
            stack.append(([], ln, cl))
        elif tok == ")":
            if not stack:
                raise InputError("unbalanced ')': no '(' to close", file, ln, cl, kind="unbalanced")
            items, start, scol = stack.pop()
            node = List(items, start, ln, scol, cl)
            if stack:
                stack[-1][0].append(node)
            else:
                result = node
        else:
            if not stack:
                raise InputError(f"unexpected '{tok}' outside parentheses", file, ln, cl)
            stack[-1][0].append(Token(tok, ln, cl))
    if stack:
        _missing_paren(stack, file)
    if result is None:
        raise InputError("empty file: no PDDL definition found", file, line, col)
    return result


def read_sections(text: str, file: str = "<string>") -> tuple[List, list[tuple[List, InputError]]]:
    """A `define` whose parentheses do not balance, read again a section at a time: the text is cut
    before each `(:action`, `(:derived` or other section keyword (`(:predicates`, ...), wherever it
    stands, and each piece is read alone. A piece that does not close where the next begins (an action
    left unclosed before the next), or goes on after it closed (a `)` too many inside it), is returned
    with its error (class `unbalanced`) beside the tree of the others, so that one broken action
    costs that action only. Raises an `InputError` when the `define` and its header do not read so
    (the caller then reports the strict reader's error)."""
    text = normalise(text)
    depth = int(MAX_DEPTH.value())
    toks = [Token(w, ln, cl) for w, ln, cl in _tokens(text, file, 1, 1)]
    cuts = [i for i in range(len(toks) - 1) if toks[i] == "(" and "define" in _SECTION_PARENTS.get(toks[i + 1], ())]
    if not cuts:
        raise InputError("no section to read", file, 1, 1)
    header, open_, _ = _lists(toks[:cuts[0]], depth, file)
    if header or len(open_) != 1 or not open_[0][0] or open_[0][0][0] != "define":
        raise InputError("the define's header does not read", file, 1, 1)
    define = open_[0]
    broken: list[tuple[List, InputError]] = []
    for k, start in enumerate(cuts):
        last = k == len(cuts) - 1
        piece = toks[start:cuts[k + 1] if not last else len(toks)]
        done, stack, after = _lists(piece, depth, file, first_only=True)
        if not done:  # never closed: up to the next section, or to the end (the define's ')' taken as its own)
            node = List(stack[0][0], stack[0][1], piece[-1].line, stack[0][2], piece[-1].col)
            nxt = toks[cuts[k + 1]] if not last else None
            message = "missing ')': this '(' is never closed" if nxt is None else \
                f"missing ')': this '(' is not closed before '({toks[cuts[k + 1] + 1]}' on line {nxt.line}"
            broken.append((node, InputError(message, file, piece[0].line, piece[0].col, kind="unbalanced")))
            if last:
                return List(define[0], define[1], piece[-1].line, define[2], piece[-1].col), broken
            continue
        node = done[0]
        rest = piece[after:]
        if not last and not rest:
            define[0].append(node)
            continue
        if last and not rest and _closes_define(piece):  # the define's ')', on its own line left of this '('
            broken.append((node, InputError(f"missing ')': this '(' is not closed before the end of the define on "
                                            f"line {node.end_line}", file, node.line, node.col, kind="unbalanced")))
            return List(define[0], define[1], node.end_line, define[2], node.end_col), broken
        if last and (not rest or rest[-1] != ")"):
            raise InputError("missing ')': the define is never closed", file, define[1], define[2])
        if last and all(t == ")" for t in rest):
            if len(rest) > 1:
                raise InputError("unbalanced ')' after the end of the define", file, rest[1].line, rest[1].col)
            define[0].append(node)
        else:
            broken.append((node, InputError(f"unexpected '{rest[0]}' after the ')' that closes this "
                                            f"'({node.head()}' on line {node.end_line}: a ')' too many before it?",
                                            file, rest[0].line, rest[0].col, kind="unbalanced")))
        if last:
            return List(define[0], define[1], rest[-1].line, define[2], rest[-1].col), broken
    raise AssertionError("unreachable: the last piece returns")


def _closes_define(piece: list[Token]) -> bool:
    """The last ')' of the last section is the define's, not the section's: the first token of its line, and
    left of the section's '(' (the section was left open; else the define is, and the file is refused)."""
    end = piece[-1]
    return len(piece) > 1 and piece[-2].line < end.line and end.col < piece[0].col


def _lists(toks: list[Token], depth: int, file: str,
           first_only: bool = False) -> tuple[list[List], list[tuple[list, int, int]], int]:
    """The lists a run of tokens closes (with `first_only`, the first one only), the lists it leaves open
    (items, line, col; outermost first), and the index of the token after the last one read."""
    stack: list[tuple[list, int, int]] = []
    done: list[List] = []
    for i, tok in enumerate(toks):
        if tok == "(":
            if len(stack) >= depth:
                raise InputError(f"nesting deeper than {depth:g} levels ({MAX_DEPTH.hint()})", file, tok.line, tok.col)
            stack.append(([], tok.line, tok.col))
        elif tok == ")":
            if not stack:
                raise InputError("unbalanced ')': no '(' to close", file, tok.line, tok.col, kind="unbalanced")
            items, start, scol = stack.pop()
            node = List(items, start, tok.line, scol, tok.col)
            if stack:
                stack[-1][0].append(node)
            else:
                done.append(node)
                if first_only:
                    return done, stack, i + 1
        elif stack:
            stack[-1][0].append(tok)
        else:
            raise InputError(f"unexpected '{tok}' outside parentheses", file, tok.line, tok.col)
    return done, stack, len(toks)


# Where PDDL keywords may stand: a keyword found elsewhere means the list around it was not closed.
_KEYWORD_PARENTS = {":parameters": {":action"}, ":precondition": {":action"}, ":effect": {":action"}}
_SECTION_PARENTS = {s: {"define"} for s in (
    ":requirements", ":types", ":constants", ":predicates", ":functions", ":durative-action", ":derived",
    ":domain", ":objects", ":init", ":goal", ":metric", ":constraints")}
_SECTION_PARENTS[":action"] = {"define", ":trajectory"}
_SECTION_PARENTS[":state"] = {":trajectory"}


def _missing_paren(stack: list[tuple[list, int, int]], file: str) -> None:
    """Unclosed lists at the end: point at the one a misplaced keyword shows was left open.

    A missing `)` in the middle of a file is only noticed at its end, where the innermost
    open list is usually the whole `(define ...`. The first keyword standing where PDDL does
    not allow it (`:effect` inside an `(and ...)`, `(:goal` inside `(:init ...)`) tells which
    list should have been closed before it."""
    node: List | None = None
    for items, start, scol in reversed(stack):  # close the open lists, innermost first
        if node is not None:
            items = items + [node]
        node = List(items, start, start, scol, scol)
    hit = _misplaced(node) if node is not None else None
    if hit is not None:
        container, word, at = hit
        raise InputError(f"missing ')': this '(' is not closed before '{word}' on line {at.line}", file,
                         container.line, container.col, kind="unbalanced")
    raise InputError("missing ')': this '(' is never closed", file, stack[-1][1], stack[-1][2], kind="unbalanced")


def _misplaced(root: List) -> tuple[List, str, SExpr] | None:
    """The first keyword (depth first, in file order) standing in a list where PDDL does not allow it."""
    todo: list[List] = [root]
    while todo:
        node = todo.pop()
        for child in node:
            if isinstance(child, Token):
                allowed = _KEYWORD_PARENTS.get(child)
                if allowed is not None and node.head() not in allowed:
                    return node, str(child), child
            else:
                allowed = _SECTION_PARENTS.get(child.head())
                if allowed is not None and node.head() not in allowed:
                    return node, f"({child.head()}", child
        todo.extend(reversed([c for c in node if isinstance(c, List)]))
    return None


def nodes(root: SExpr) -> Iterator[SExpr]:
    """Every list and token of `root`, depth first in file order (iterative)."""
    todo: list[SExpr] = [root]
    while todo:
        n = todo.pop()
        yield n
        if isinstance(n, List):
            todo.extend(reversed(n))


def headed(root: SExpr, heads: frozenset[str], holding: str | None = None) -> list[List]:
    """The lists of `root` (itself included), depth first in file order, whose head is one of `heads`
    or (`holding`) that hold that token: what `nodes` and a test of each node give, with no call per
    node (a pass over a domain of thousands of actions looks at a few of its tens of thousands of nodes)."""
    out: list[List] = []
    todo = [root] if isinstance(root, List) else []
    while todo:
        n = todo.pop()
        if n and (isinstance(n[0], Token) and n[0] in heads or holding is not None and holding in n):
            out.append(n)
        todo.extend([c for c in reversed(n) if isinstance(c, List)])
    return out


class Outline:
    """Every list of a tree in file order (depth first, as `headed` walks), and where the lists of each child
    of the root (a section of a domain) are in it: the passes that look for lists by their head filter this
    list instead of each walking the tree (four walks of a domain of thousands of actions). Valid while the
    tree's lists and heads are as they were: `parse` makes it again after a pass that changed them."""

    def __init__(self, root: List, lists: list[List]):
        self.lists = lists
        sections = {id(c) for c in root if isinstance(c, List)}
        starts = [i for i, n in enumerate(lists) if id(n) in sections]
        self._spans = {id(lists[a]): (a, b) for a, b in zip(starts, starts[1:] + [len(lists)])}

    @classmethod
    def of(cls, root: List) -> "Outline":
        lists: list[List] = []
        todo = [root]
        while todo:
            n = todo.pop()
            lists.append(n)
            todo.extend([c for c in reversed(n) if isinstance(c, List)])
        return cls(root, lists)

    def headed(self, heads: frozenset[str], holding: str | None = None, within: List | None = None) -> list[List]:
        """`headed(within or the root, heads, holding)`; `within`: a child of the root."""
        lists = self.lists if within is None else self.lists[slice(*self._spans[id(within)])]
        if holding is None:
            return [n for n in lists if n and isinstance(n[0], Token) and n[0] in heads]
        return [n for n in lists if n and (isinstance(n[0], Token) and n[0] in heads or holding in n)]


def first_holding(root: SExpr, token: str) -> List | None:
    """The first list of `root` (depth first, in file order) that holds `token`: `headed(root, frozenset(),
    token)[0]`, without walking the rest of the tree."""
    todo = [root] if isinstance(root, List) else []
    while todo:
        n = todo.pop()
        if token in n:
            return n
        todo.extend([c for c in reversed(n) if isinstance(c, List)])
    return None


def find(node: SExpr, head: str) -> List | None:
    """First sub-list (depth first) whose head is `head`: used to point at an error."""
    return next((n for n in nodes(node) if isinstance(n, List) and n.head() == head), None)


def find_token(node: SExpr, word: str) -> Token | None:
    return next((n for n in nodes(node) if isinstance(n, Token) and n == word), None)


__all__ = ["Token", "List", "SExpr", "read", "read_outlined", "Outline", "read_sections", "nodes", "headed",
           "first_holding", "find", "find_token"]
