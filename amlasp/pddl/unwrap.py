"""A PDDL definition inside a language model's answer: the Markdown code fence around it, or a sentence
before or after it ("Sure! Below is the complete domain file."), is not PDDL, and its intent is clear.

`unwrap` blanks such lines (their text becomes spaces, their line breaks stay, so every later position
is the file's own) and says so in one warning (`amlasp --strict` refuses it). Only text with nothing
of PDDL in it is taken for an answer's: no line that begins with `(`, `)` or `:`, no `(define` or `(:`.
So `(in-package ...)` before a definition, a second `(define`, or the actions left after a `)` too
many closed the definition early, stay the errors they were.
"""

from __future__ import annotations

import re

from ..errors import warn_input
from .source import normalise

# The first line that opens the definition, `(define` (any case, spaces after the parenthesis).
_DEFINE = re.compile(r"^[ \t]*\([ \t]*define\b", re.IGNORECASE | re.MULTILINE)
_PAREN_OR_COMMENT = re.compile(r";[^\n]*|[()]")
_PDDL = re.compile(r"^[ \t]*[():]|\([ \t]*(define\b|:)", re.IGNORECASE | re.MULTILINE)


def unwrap(text: str, file: str) -> str:
    """`text` with the lines of an answer around its definition blanked (one warning), or `text` itself."""
    text = normalise(text)
    start = _DEFINE.search(text)
    if start is None:
        return text
    head, body = text[:start.start()], text[start.start():]
    cut = _end_of_definition(body) if _may_have_text_after(body) else None
    before = _answer_lines(head)
    after = cut is not None and _answer_lines(body[cut:])
    if not before and not after:
        return text
    define_line = head.count("\n") + 1
    said = [f"lines 1-{define_line - 1}" if define_line > 2 else "line 1"] if before else []
    if after:
        said.append(f"after line {define_line + body[:cut].count(chr(10))}")
    at = _position(text, _first_word(head, 0) if before else _first_word(text, len(head) + (cut or 0)))
    warn_input(f"text around the (define ...) that is not PDDL is ignored ({' and '.join(said)}: a Markdown code "
               "fence or a sentence, as in a language model's answer)", file, *at)
    if after:
        body = body[:cut] + _blank(body[cut:])
    return (_blank(head) if before else head) + body


def _answer_lines(text: str) -> bool:
    """`text` has words, and nothing of PDDL (outside comments): no line that begins with `(`, `)` or `:`,
    no `(define`, no `(:`: an answer's sentences or a code fence."""
    bare = _strip_comments(text)
    return _has_text(bare) and _PDDL.search(bare) is None


def _may_have_text_after(body: str) -> bool:
    """A cheap test before the definition's end is looked for: words after its last `)`, or a last line that
    begins as a sentence or a fence does (a letter, a backquote, `#`, `*`)."""
    bare = _strip_comments(body[-4096:]).rstrip()
    last = bare[bare.rfind("\n") + 1:].lstrip()
    return bool(bare[bare.rfind(")") + 1:].strip()) or (last[:1].isalpha() or last[:1] in "`#*")


def _strip_comments(text: str) -> str:
    return re.sub(r";[^\n]*", "", text)


def _has_text(text: str) -> bool:
    return bool(text.strip())


def _end_of_definition(body: str) -> int | None:
    """The offset just after the `)` that closes the definition `body` starts with, or None when it is
    never closed (comments skipped)."""
    depth = 0
    for m in _PAREN_OR_COMMENT.finditer(body):
        c = m.group()
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return m.end()
    return None


def _first_word(text: str, offset: int) -> int:
    """The offset of the first character from `offset` on that is no white space."""
    return offset + len(text[offset:]) - len(text[offset:].lstrip())


def _position(text: str, offset: int) -> tuple[int, int]:
    """The line and column (1-based) of `offset` in `text`."""
    return text.count("\n", 0, offset) + 1, offset - text.rfind("\n", 0, offset)


def _blank(text: str) -> str:
    """Every character of `text` but its line breaks, a space."""
    return re.sub(r"[^\n]", " ", text)


__all__ = ["unwrap"]
