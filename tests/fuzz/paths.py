"""Fuzz cases for what bench reads and writes beside PDDL: results files (torn, appended to,
overwritten, reordered), names that become paths (learners, manifest domains, problems: `..`,
separators, links), and paths written inside manifests and JSON state files.

Each generator takes a seeded `random.Random`; the checks are in test_paths.py. Invalid UTF-8,
byte-order marks and nesting limits of results files are the malformed-records corpus's part."""

from __future__ import annotations

import json
import random

#: Pieces of hostile names: ways out of a folder, separators, look-alikes, and harmless parts.
NAME_PIECES = ("..", ".", "/", "\\", "\0", "sam", "ferry", "a b", "~", "%2e%2e", "..." , "-", "link", "ß", "x" * 300)

#: Text that may follow a results file's last newline or replace one of its lines.
TAILS = ('{"learner": "sam", "domain": "fe', '{"task": "meta", "amlasp"', '{"learner": 1}', "[1, 2]", "null",
         "(define (problem p))", "a note", '{"task": "compare"}', "\n", "\n\n", " ", "{", '"task"',
         '{"learner": "sam", "domain": "ferry", "task": "compare", "summary": {}}', "[" * 5000)


def name(rng: random.Random) -> str:
    """A learner, domain or problem name made of 1-4 pieces."""
    return "".join(rng.choice(NAME_PIECES) for _ in range(rng.randint(1, 4)))


def results_text(base: str, rng: random.Random) -> str:
    """`base` (a real results file) damaged one way: cut, appended to, a line replaced, lines dropped."""
    lines = base.splitlines(keepends=True)
    kind = rng.choice(("cut", "append", "replace", "drop", "cut+append"))
    if kind == "cut":
        return base[: rng.randrange(len(base) + 1)]
    if kind == "append":
        return base + rng.choice(TAILS)
    if kind == "replace":
        i = rng.randrange(len(lines))
        lines[i] = rng.choice(TAILS) + ("\n" if rng.random() < 0.5 else "")
        return "".join(lines)
    if kind == "drop":
        return "".join(ln for ln in lines if rng.random() < 0.7)
    return base[: rng.randrange(len(base) + 1)] + rng.choice(TAILS)


def is_record_line(line: str) -> bool:
    """A whole line that `ResultsFile` reads as a record or the meta line."""
    try:
        rec = json.loads(line)
    except (ValueError, RecursionError):
        return False
    return isinstance(rec, dict) and "task" in rec


def relative_path(rng: random.Random) -> str:
    """A path as a manifest or a JSON state file might write it."""
    parts = [rng.choice(("..", ".", "sub", "p.pddl", "", "/etc", "secret.pddl", "/")) for _ in range(rng.randint(1, 4))]
    return rng.choice(("/", "")) + "/".join(parts)
