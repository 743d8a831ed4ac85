""""did you mean ...?": the PDDL keyword (or declared name) a typo was meant to be.

`difflib`'s ratio over the words a place allows: `:precondtion` → `:precondition`, `(:predicats`
→ `:predicates`, `:typng` → `:typing`, `(clera ?x)` → `clear`. Nothing is suggested when no word is
close (a ratio under 0.65: `adn` → `and` is 0.67, `:cost` → `:effect` 0.5), so that a suggestion
is a likely fix, never a guess."""

from __future__ import annotations

import difflib
from typing import Iterable

#: The keywords of each place where a typo can be told from the allowed words.
DOMAIN_SECTIONS = (":requirements", ":types", ":constants", ":predicates", ":action", ":functions",
                   ":derived", ":durative-action", ":constraints")
PROBLEM_SECTIONS = (":domain", ":requirements", ":objects", ":init", ":goal", ":metric", ":constraints")
ACTION_KEYS = (":parameters", ":precondition", ":effect")
REQUIREMENTS = (":strips", ":typing", ":negative-preconditions", ":disjunctive-preconditions", ":equality",
                ":existential-preconditions", ":universal-preconditions", ":quantified-preconditions",
                ":conditional-effects", ":adl", ":fluents", ":numeric-fluents", ":object-fluents",
                ":durative-actions", ":derived-predicates", ":timed-initial-literals", ":preferences",
                ":constraints", ":action-costs", ":duration-inequalities", ":continuous-effects",
                ":non-deterministic", ":probabilistic-effects", ":time")
OPERATORS = ("and", "or", "not", "imply", "exists", "forall", "when")


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """` (did you mean X?)` for the closest of `choices`, or "" when none is close."""
    word = str(word).lower()
    close = difflib.get_close_matches(word, [c for c in choices if c != word], n=1, cutoff=0.65)
    return f" (did you mean {close[0]}?)" if close else ""


__all__ = ["did_you_mean", "DOMAIN_SECTIONS", "PROBLEM_SECTIONS", "ACTION_KEYS", "REQUIREMENTS", "OPERATORS"]
