"""Reading free answers tolerantly: yes/no, a choice, a number, an object, atoms, actions, plans.

A reasoner writes "Yes.", "(A)", "the answer is B: ...", "(board c1 l0) (sail l0 l1)",
"board c1 l0", "Board car c1 onto the ferry at location l0", a JSON list, or ACPBench's
"[(a) (b)] [(c)]" for progression. Each reader returns None when it finds nothing it can stand by.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..limits import check_nesting
from ..model import Atom, Domain, GroundAction
from .items import read_records
from .language import Phrasebook

_YES = {"yes", "true", "correct", "y"}
_NO = {"no", "false", "incorrect", "n"}
_NONE = {"none", "nothing", "no such", "there is none", "n/a"}


def read_answers(path: str | Path, errors: list[InputError] | None = None) -> dict[str, Any]:
    """A file of answers, JSON lines (or one JSON list) of `{"id": ..., "answer": ...}` → id (as text) → answer.
    Given `errors` (a partial run), a record that cannot be read (not JSON, not such an object) is
    appended there and left out, rather than raised; two answers to one id are refused either way."""
    out: dict[str, Any] = {}
    first: dict[str, int] = {}
    for row, line, col in read_records(path, errors):
        if not isinstance(row, dict) or "id" not in row or "answer" not in row:
            e = InputError('each answer is an object {"id": ..., "answer": ...}', path, line, col)
            if errors is None:
                raise e
            errors.append(e)
            continue
        key = str(row["id"])
        if key in first:  # which of two answers counts is not ours to guess
            raise InputError(f"a second answer to id {key} (the first is on line {first[key]})", path, line, col)
        first[key] = line
        out[key] = row["answer"]
    return out


def as_text(answer: Any) -> str:
    if isinstance(answer, str):
        return answer
    return json.dumps(answer)


_VERDICT = re.compile(r"\b(yes|no|true|false|correct|incorrect)\b")
_LEAD = re.compile(r"(?:^|\banswer\s*(?:is|:)|\b(?:i think|i believe|i would say|i'd say|probably|so|therefore|"
                   r"thus|hence)\b)[\s*_\"'`:,(\[]*$")
_IS = re.compile(r"\b(?:is|it's|that's)\s+(?:not\s+)?$")  # "it is true that ...", "is not correct"
_NOT = re.compile(r"\b(?:not|isn't|is not|wasn't|aren't)\s*$")


def read_verdicts(answer: Any) -> list[bool]:
    """The yes/no verdicts an answer gives, each once, in order: a verdict word that opens the answer
    (or follows "answer is", "I think", "so") or that ends a clause ("..., so yes.", "it is true."), "not
    true" read as no, "it is true that ..." as yes; a verdict word inside a reason is not one ("Yes,
    because there is no block on b1" is yes). One verdict is an answer; both ("Yes, but maybe no", "Yes...
    actually no", "yes/no") are ambiguous."""
    if isinstance(answer, bool):
        return [answer]
    text = as_text(answer).lower()
    if text.strip(" \t\n.!*\"'") in ("y", "n"):
        return [text.strip(" \t\n.!*\"'") == "y"]
    found: list[bool] = []
    for m in _VERDICT.finditer(text):
        after = text[m.end():].lstrip(" *_\"'`)]")
        opens = _LEAD.search(text[:m.start()]) is not None
        if after.startswith("?") or (opens and re.match(r"(or|idea)\b", after.lstrip()) is not None):
            continue  # a question restated ("Is it true?", "Yes or no:"), or "no idea": not a verdict
        stated = m.group(1) not in ("yes", "no") and _IS.search(text[:m.start()]) is not None
        if not (opens or stated or after == "" or after[0] in ".,;:!)/\n-\u2014\u2026"):
            continue
        said = m.group(1) in _YES
        if m.group(1) not in ("yes", "no") and _NOT.search(text[:m.start()]):
            said = not said  # "not true", "isn't correct"
        if said not in found:
            found.append(said)
    return found


def read_bool(answer: Any) -> bool | None:
    """The one verdict an answer gives (None when it gives none, or both: see `read_verdicts`)."""
    found = read_verdicts(answer)
    return found[0] if len(found) == 1 else None


_DECORATED = re.compile(r"(?:^|[^\w])\(([A-Da-d])\)|(?:^|[^\w(])([A-Da-d])[).:](?!\w)|"
                        r"answer\s*(?:is\s*)?:?\s*\(?([A-Da-d])\b|\b(?:option|choice)\s+([A-Da-d])\b", re.I)
#: a capital letter alone, not the article "A car ..." (but "A or B" names A)
_BARE = re.compile(r"\b([B-D]|A(?! (?!or\b|and\b)[a-z]))\b")
_NUMBERS = {w: k for k, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())}


def read_choices(answer: Any, choices: list[str] | None) -> list[str]:
    """Every label A-D an answer names, in order: decorated ("b)", "(B)", "B.", "Answer: B", "option c"),
    else a capital letter alone, else the text of a choice; one label is an answer, several ambiguous."""
    text = as_text(answer).strip()
    if re.fullmatch(r"\W*([A-Da-d])\W*", text):
        return [text.strip(" \t\n.()[]:*'\"").upper()]
    found = [next(g for g in m.groups() if g).upper() for m in _DECORATED.finditer(text)]
    if not found:
        found = [m.group(1) for m in _BARE.finditer(text)]
    if not found and choices:
        low = " ".join(text.lower().split())
        found = [label for label, c in zip("ABCD", choices) if " ".join(c.lower().split()).rstrip(".") in low]
    return list(dict.fromkeys(found))


def read_choice(answer: Any, choices: list[str] | None) -> str | None:
    """The one label an answer names (None when it names none, or several: see `read_choices`)."""
    found = read_choices(answer, choices)
    return found[0] if len(found) == 1 else None


def read_int(answer: Any) -> int | None:
    """An integer in digits or in words ("one", "minus one"), the first one given."""
    if isinstance(answer, bool):
        return None
    if isinstance(answer, int):
        return answer
    text = as_text(answer).lower()
    words = r"(?:minus |negative )?\b(?:" + "|".join(_NUMBERS) + r")\b"
    m = re.search(r"(?<![\w.-])-?\d+(?!\w|\.\d)|" + words, text)  # not the 9 of "l9", nor the 2 of "2.5"
    if m is None:
        return None
    said = m.group(0)
    if said.lstrip("-").isdigit():
        return int(said)
    sign = -1 if said.startswith(("minus", "negative")) else 1
    return sign * _NUMBERS[said.split()[-1]]


def is_none(answer: Any) -> bool:
    return answer is None or (isinstance(answer, list) and not answer) or \
        " ".join(as_text(answer).lower().strip(" .\"'[]").split()) in _NONE


class Reader:
    """Atoms and actions of one domain in an answer: PDDL (case, spacing, a missing outer paren pair
    forgiven) or the English of the domain's sentences (templates or generic)."""

    def __init__(self, domain: Domain, book: Phrasebook):
        self.domain, self.book = domain, book
        self.actions = {a.name: a.arity for a in domain.actions}
        self.predicates = {p.name: p.arity for p in domain.predicates}

    def _items(self, answer: Any) -> list[str]:
        """The pieces of an answer: JSON list elements, parenthesised groups, else lines or commas."""
        if isinstance(answer, list):
            return [x for a in answer for x in self._items(a)]
        text = as_text(answer)
        groups = re.findall(r"\(([^()]*)\)", text)
        if groups:
            return groups
        if self.action(text) or self.atom(text):  # one action or fact, perhaps in English with "and" in it
            return [text]
        return [x for x in re.split(r"[\n;,]|\band\b", text) if x.strip()]

    def _pddl(self, piece: str, table: dict[str, int]) -> tuple[str, tuple[str, ...]] | None:
        words = piece.strip().strip("().").lower().split()
        if words and words[0] in table and len(words) - 1 == table[words[0]]:
            return words[0], tuple(words[1:])
        return None

    def action(self, piece: str) -> GroundAction | None:
        x = self._pddl(piece, self.actions)
        return GroundAction(*x) if x else self.book.read_action(piece)

    def atom(self, piece: str) -> Atom | None:
        x = self._pddl(piece, self.predicates)
        return Atom(*x) if x else self.book.read_fact(piece)

    def actions_in(self, answer: Any) -> tuple[list[GroundAction], list[str]]:
        """The actions of an answer, in order, and the pieces that are none."""
        out, bad = [], []
        for piece in self._items(answer):
            a = self.action(piece)
            (out.append(a) if a else bad.append(piece.strip()))
        return out, bad

    def atoms_in(self, answer: Any) -> tuple[list[Atom], list[str]]:
        out, bad = [], []
        for piece in self._items(answer):
            a = self.atom(piece)
            (out.append(a) if a else bad.append(piece.strip()))
        return out, bad

    def progression(self, answer: Any) -> tuple[list[Atom], list[Atom]] | None:
        """{"pos": [...], "neg": [...]}, or ACPBench's "[...] [...]", or "positive effects: ... negative
        effects: ..."."""
        if isinstance(answer, dict):
            pos, neg = answer.get("pos", []), answer.get("neg", [])
        else:
            text = as_text(answer)
            if text.strip().startswith("{"):
                try:
                    check_nesting(text, None)
                    return self.progression(json.loads(text))
                except (ValueError, InputError):  # not JSON, or nested too deep: read as text
                    pass
            low = text.lower()
            if "negative" in low:
                i = low.index("negative")
                pos, neg = text[:i], text[i:]
            else:
                parts = re.findall(r"\[([^\[\]]*)\]", text)
                if len(parts) not in (1, 2):
                    return None
                pos, neg = parts[0], parts[1] if len(parts) == 2 else ""
        p, _ = self.atoms_in(pos)
        n, _ = self.atoms_in(neg)
        return p, n


__all__ = ["Reader", "read_answers", "read_bool", "read_verdicts", "read_choice", "read_choices", "read_int", "is_none",
           "as_text"]
