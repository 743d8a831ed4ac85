"""`validate --lenient`: a plan as a language model writes it, repaired into the IPC plan format.

An LLM's plan is often right and yet no plan file: it sits in a Markdown code fence, its lines end in a
backslash or are joined by literal `\\n` escapes (a JSON string written twice), its steps are numbered
(`1.`, `Step 1:`), an action lacks its parentheses or is written as a call (`stack(b1, b2)`), its
arguments are separated by commas, a name is spelled with `-` for the domain's `_` (or in capitals), and
a cost line closes it (`Cost: 12`). Each of these forms means one plan only, and `lenient_lines` repairs
it, recording each change as a `Repair` (the verdict counts them); anything else stays as written, for
the strict reader to refuse at its place. Only what a repair cannot make wrong is repaired: a line
without parentheses is taken for an action only when its first word names one of the domain's, and a
cost line only after the last step. An extra or a missing argument is never repaired (docs/validate.md:
VAL drops an extra argument silently).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from ..model import canonical_name

#: The kinds of repair, in the order they are made on a line.
KINDS = ("fence", "text", "escape", "backslash", "number", "parentheses", "commas", "case", "cost")


@dataclass(frozen=True)
class Repair:
    """One change lenient reading made to a plan's text: at `line` (1-based, of the text as given), of a
    `kind` (`KINDS`), `before` and `after` it (`after` empty: the line was left out)."""

    line: int
    kind: str
    before: str
    after: str

    def to_dict(self) -> dict:
        return {"line": self.line, "kind": self.kind, "before": self.before, "after": self.after}


_FENCE = re.compile(r"^\s*(```|~~~)[\w+.-]*\s*$")
_NUMBER = re.compile(r"^\s*(?:(?:step|action)\s*\d+\s*[.):\-]?|\d+\s*[.)\-]|[-*\u2022])\s*(?=[(\w])", re.IGNORECASE)
_STRICT_TIME = re.compile(r"^\s*\d+(?:\.\d+)?\s*:")  # `0: (a b)`, `0.000: (a b) [1]`: the strict format's
_CALL = re.compile(r"^(\s*)([^\s(),;]+)\s*\(([^()]*)\)\s*$")  # stack(b1, b2)
_COST = re.compile(r"^\s*(?:total\s+|plan\s+)?(?:cost|length|makespan)\b\s*[:=]?\s*\d[\w\s.()=:,-]*$", re.IGNORECASE)
_WORD = re.compile(r"[^\s()]+")


class Names:
    """The names a plan's words may mean: the domain's actions and the problem's objects, and each by its
    canonical name (`model.canonical_name`: case and `-`/`_` aside)."""

    def __init__(self, actions: Iterable[str], objects: Iterable[str]):
        self.actions = set(actions)
        known = self.actions | set(objects)
        self.known = known
        self.canonical = {canonical_name(n): n for n in known}

    def is_action(self, word: str) -> bool:
        return word.lower() in self.actions or self.canonical.get(canonical_name(word)) in self.actions

    def spelled(self, word: str) -> str:
        """`word` as the domain or problem spells it, if it differs only in case or `-`/`_`; else `word`."""
        if word.lower() in self.known:
            return word
        return self.canonical.get(canonical_name(word), word)


def lenient_lines(text: str, names: Names) -> tuple[list[tuple[int, str]], list[Repair]]:
    """The lines of `text` to read as a plan, each with its line number in `text`, and the repairs made."""
    repairs: list[Repair] = []
    lines = list(enumerate(text.split("\n"), 1))
    lines = _unfenced(lines, repairs)
    out: list[tuple[int, str]] = []
    for n, raw in lines:
        for part in _unescaped(n, raw, repairs):
            out.append((n, _step(n, part, names, repairs)))
    out = _without_cost(out, repairs, names)
    repairs.sort(key=lambda r: r.line)  # stable: a line's repairs in the order they were made
    return out, repairs


def _unfenced(lines: list[tuple[int, str]], repairs: list[Repair]) -> list[tuple[int, str]]:
    """Without Markdown code fences, and, when the plan is fenced, without the text around the fences
    (an answer's sentences: lines with no parenthesis)."""
    fences = [n for n, line in lines if _FENCE.match(line)]
    if not fences:
        return lines
    out = []
    inside = False
    for n, line in lines:
        if _FENCE.match(line):
            inside = not inside
            repairs.append(Repair(n, "fence", line.strip(), ""))
        elif not inside and line.strip() and "(" not in line and not line.lstrip().startswith(";"):
            repairs.append(Repair(n, "text", line.strip(), ""))
        else:
            out.append((n, line))
    return out


def _unescaped(n: int, line: str, repairs: list[Repair]) -> list[str]:
    """The line split at literal `\\n` escapes, its line-end backslash dropped."""
    parts = [line]
    if "\\n" in line:
        parts = line.split("\\n")
        if parts and not parts[-1].strip():
            parts.pop()
        repairs.append(Repair(n, "escape", line.strip(), " | ".join(p.strip() for p in parts)))
    out = []
    for p in parts:
        stripped = p.rstrip()
        if stripped.endswith("\\") and ";" not in stripped and stripped.rstrip("\\").strip():
            kept = stripped.rstrip("\\").rstrip()
            repairs.append(Repair(n, "backslash", stripped.strip(), kept.strip()))
            p = kept
        out.append(p)
    return out


def _step(n: int, line: str, names: Names, repairs: list[Repair]) -> str:
    """One line with its step number, parentheses, commas and names repaired (comments kept)."""
    code, sep, comment = line.partition(";")
    if not code.strip():
        return line
    was = code.strip()
    if not _STRICT_TIME.match(code):
        m = _NUMBER.match(code)
        if m:
            code = code[m.end():]
            repairs.append(Repair(n, "number", was, code.strip()))
    code = _parenthesised(n, code, names, repairs)
    if "," in code and "(" in code:
        before = code.strip()
        code = re.sub(r"\s*,\s*", " ", code)
        repairs.append(Repair(n, "commas", before, code.strip()))
    before = code.strip()
    code = _WORD.sub(lambda w: names.spelled(w.group()), code)
    if code.strip() != before:
        repairs.append(Repair(n, "case", before, code.strip()))
    return code + sep + comment


def _parenthesised(n: int, code: str, names: Names, repairs: list[Repair]) -> str:
    """`stack(b1, b2)`, `stack b1 b2`, `(stack b1 b2` and `stack b1 b2)` as `(stack b1 b2)`: only for a
    first word that names an action of the domain."""
    text = code.strip()
    call = _CALL.match(code)
    if call and names.is_action(call.group(2)):
        after = f"({call.group(2)} {call.group(3)})".replace(" )", ")")
        repairs.append(Repair(n, "parentheses", text, after))
        return call.group(1) + after
    opened, closed = text.count("("), text.count(")")
    if opened == closed and opened > 0:
        return code
    bare = text.strip("()").strip()
    words = bare.split()
    if not words or "(" in bare or ")" in bare or not names.is_action(words[0]):
        return code
    if opened > 1 or closed > 1:
        return code
    after = f"({bare})"
    repairs.append(Repair(n, "parentheses", text, after))
    return code[:len(code) - len(code.lstrip())] + after


def _without_cost(lines: list[tuple[int, str]], repairs: list[Repair], names: Names) -> list[tuple[int, str]]:
    """Without the cost or length lines after the last step (`Cost: 12`, `Total cost = 12 (unit cost)`); a line
    whose first word names an action is a step."""
    def code(i: int) -> str:
        return lines[i][1].split(";", 1)[0].strip()

    end = len(lines)
    while end and (not code(end - 1) or (_COST.match(code(end - 1)) and not names.is_action(code(end - 1).split()[0]))):
        end -= 1
        if code(end):
            repairs.append(Repair(lines[end][0], "cost", lines[end][1].strip(), ""))
    return lines[:end] + [x for i, x in enumerate(lines) if i >= end and not code(i)]


__all__ = ["KINDS", "Names", "Repair", "lenient_lines"]
