"""The fuzz corpus for structured inputs: answers, items, results records, templates, suite manifests and
`validate --batch` files, mutated and read by the commands that take them.

The PDDL corpus (`corpus.py`) mutates models, problems, plans and states; these inputs are JSON lines
and TOML, written by people and language models, and the promise is the same: whatever the damage —
nesting 100,000 deep, a field of another type, a record cut short, invalid UTF-8, a byte-order mark,
a 5,000-digit number, a duplicate record, names that are markup, formulas or terminal escapes — the
run ends in a result (exit 0/1/3) or in one line naming the input file (exit 2), never in a traceback,
an internal error (exit 4) or a hang.

`python -m tests.fuzz.records --inputs 300 --seed 5` prints the outcome classes and the failures.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from tests.support.paths import EXAMPLES, IPC, ROOT

from .runner import invoke

QX, PLANS = EXAMPLES / "questions", ROOT / "benchmarks" / "plans" / "blocksworld"
FERRY = [str(IPC / "domains" / "ferry.pddl"), str(IPC / "problems" / "solving" / "ferry" / "0_ferry_prob.pddl")]
HOSTILE = ["[/bold]", "[link=http://e]x[/link]", "=HYPERLINK(\"http://e\")", "@SUM(A1)", "-1+2", "a|b <b>",
           "sam$\\frac{$x", "\x1b]8;;http://e\x07x\x1b[31m", "\u202eevil", "x" * 5000]
ODD_VALUES = [[], {}, [1], {"a": [None]}, 12, -0.5, 1e308, None, True, "", "high", 10 ** 30]
FAILURES = {"internal_error", "traceback", "hang", "bad_exit", "refused_unlocated", "not_one_line", "raw_control"}


def _lines(path: Path, n: int) -> str:
    return "".join(line + "\n" for line in path.read_text().splitlines()[:n])


def _batch() -> str:
    out = []
    for line in (PLANS / "plans.jsonl").read_text().splitlines()[:4]:
        rec = json.loads(line)
        rec["problem"], rec["plan"] = str((PLANS / rec["problem"]).resolve()), str(PLANS / rec["plan"])
        out.append(json.dumps(rec) + "\n")
    return "".join(out)


def _manifest() -> str:
    problems = IPC / "problems" / "solving" / "ferry"
    return f'[domains.ferry]\nreference = "{IPC / "domains" / "ferry.pddl"}"\nproblems = "{problems}"\n'


#: role → (the original text, its file name, the command with {input}, {out} placeholders)
ROLES: dict[str, tuple[Callable[[], str], str, list[str]]] = {
    "answers": (lambda: _lines(QX / "answers.jsonl", 8), "answers.jsonl",
                ["questions", "grade", str(QX / "items.jsonl"), "{input}", "-f", "json"]),
    "answers_table": (lambda: _lines(QX / "answers.jsonl", 8), "answers.jsonl",
                      ["questions", "grade", str(QX / "items.jsonl"), "{input}", "-o", "{out}/g.csv"]),
    "items": (lambda: _lines(QX / "items.jsonl", 6), "items.jsonl",
              ["questions", "grade", "{input}", str(QX / "answers.jsonl"), "-f", "json"]),
    "results": (lambda: (ROOT / "tests" / "golden" / "inputs" / "bench-results.jsonl").read_text(), "r.jsonl",
                ["bench", "report", "{input}", "-f", "csv"]),
    "results_table": (lambda: (ROOT / "tests" / "golden" / "inputs" / "bench-results.jsonl").read_text(),
                      "r.jsonl", ["bench", "report", "{input}", "-o", "{out}/t.md"]),
    "templates": (lambda: (ROOT / "amlasp" / "questions" / "templates" / "ferry.toml").read_text(), "t.toml",
                  ["questions", "generate", *FERRY, "--templates", "{input}", "--tasks", "app", "--forms", "bool",
                   "-n", "1", "--seed", "1", "-o", "{out}/items.jsonl"]),
    "manifest": (_manifest, "m.toml", ["bench", "run", "--learned", str(IPC / "learned" / "nolam"), "--suite",
                                       "{input}", "--task", "compare", "--results", "{out}/r.jsonl"]),
    "batch": (_batch, "b.jsonl", ["validate", str(IPC / "domains" / "blocksworld.pddl"), "--batch", "{input}",
                                  "-f", "json"]),
}


# --------------------------------------------------------------------------- mutations (text → bytes)

def _json_value_spans(text: str) -> list[tuple[int, int]]:
    """Where scalar values of JSON objects are (after a key's colon): strings, numbers, literals."""
    return [m.span(1) for m in re.finditer(r':\s*("(?:[^"\\]|\\.)*"|-?[0-9][0-9.eE+-]*|true|false|null)', text)]


def _toml_value_spans(text: str) -> list[tuple[int, int]]:
    return [m.span(1) for m in re.finditer(r'(?m)^\s*[A-Za-z0-9_.-]+\s*=\s*("(?:[^"\\\n]|\\.)*"|[^\n#]+)', text)]


def _spans(text: str, toml: bool) -> list[tuple[int, int]]:
    return _toml_value_spans(text) if toml else _json_value_spans(text)


def _replace(text: str, toml: bool, rng: random.Random, new: str) -> str | None:
    spans = _spans(text, toml)
    if not spans:
        return None
    a, b = rng.choice(spans)
    return text[:a] + new + text[b:]


def deep(text, toml, rng):
    return _replace(text, toml, rng, "[" * 100_000)


def odd_type(text, toml, rng):
    v = rng.choice(ODD_VALUES)
    return _replace(text, toml, rng, json.dumps(v) if not toml or v is not None else "[]")


def hostile(text, toml, rng):
    return _replace(text, toml, rng, json.dumps(rng.choice(HOSTILE)))


def huge_number(text, toml, rng):
    return _replace(text, toml, rng, "9" * 5000)


def cut(text, toml, rng):
    return text[:rng.randrange(1, max(2, len(text)))]


def duplicate_record(text, toml, rng):
    lines = text.splitlines(keepends=True)
    k = rng.randrange(len(lines))
    return "".join(lines[:k + 1] + [lines[k]] + lines[k + 1:])


def drop_key(text, toml, rng):
    keys = list(re.finditer(r'"[A-Za-z_]+":\s*("(?:[^"\\]|\\.)*"|[^,{}\[\]]+),?\s*' if not toml
                            else r'(?m)^[A-Za-z_.]+\s*=.*\n', text))
    if not keys:
        return None
    m = rng.choice(keys)
    return text[:m.start()] + text[m.end():]


TEXT_MUTATIONS = [deep, odd_type, hostile, huge_number, cut, duplicate_record, drop_key]


def mutate(text: str, toml: bool, rng: random.Random) -> tuple[str, bytes] | None:
    """A named mutation of `text` as the bytes of a file: a text mutation, or byte damage (invalid UTF-8, a BOM)."""
    kind = rng.randrange(len(TEXT_MUTATIONS) + 2)
    if kind == len(TEXT_MUTATIONS):
        data = text.encode()
        at = rng.randrange(len(data))
        return "invalid_utf8", data[:at] + b"\xff\xfe" + data[at:]
    if kind == len(TEXT_MUTATIONS) + 1:
        return "bom", b"\xef\xbb\xbf" + text.encode()
    op = TEXT_MUTATIONS[kind]
    out = op(text, toml, rng)
    return None if out is None else (op.__name__, out.encode())


# --------------------------------------------------------------------------- runs and their classes

@dataclass
class Outcome:
    role: str
    mutation: str
    cls: str
    exit: int | None
    stderr: str


def classify(role: str, run, path: Path) -> str:
    if run.exception == "Hang":
        return "hang"
    if run.exception or run.exit == 4:
        return "internal_error"
    if "Traceback" in run.stdout + run.stderr:
        return "traceback"
    if run.exit not in (0, 1, 2, 3):
        return "bad_exit"
    if re.search(r"[\x00-\x08\x0b-\x1f\x7f]", run.stdout + run.stderr):  # ESC, BEL ... reached the terminal
        return "raw_control"
    if run.exit != 2:
        return "accepted"
    errors = [x for x in run.stderr.splitlines() if x.startswith("amlasp: error:")]
    if len(errors) != 1:
        return "not_one_line"
    return "refused_located" if re.search(re.escape(str(path)) + r":\d+", errors[0]) or str(path) in errors[0] \
        else "refused_unlocated"


def run_one(role: str, rng: random.Random, limit: float = 60.0) -> Outcome | None:
    original, name, command = ROLES[role]
    toml = name.endswith(".toml")
    made = mutate(original(), toml, rng)
    if made is None:
        return None
    mutation, data = made
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / name
        path.write_bytes(data)
        args = [a.replace("{input}", str(path)).replace("{out}", d) for a in command]
        run = invoke(args, limit)
        return Outcome(role, mutation, classify(role, run, path), run.exit, run.stderr[-300:])


def run_records(n: int, seed: int, limit: float = 60.0) -> list[Outcome]:
    """`n` mutated inputs, the roles in turn, mutations drawn from `seed`."""
    rng = random.Random(seed)
    roles, out, tries = list(ROLES), [], 0
    while len(out) < n and tries < 20 * n:
        o = run_one(roles[tries % len(roles)], rng, limit)
        tries += 1
        if o is not None:
            out.append(o)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--inputs", type=int, default=300)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    outcomes = run_records(args.inputs, args.seed)
    print(f"{len(outcomes)} mutated inputs")
    for (role, mutation, cls), k in sorted(Counter((o.role, o.mutation, o.cls) for o in outcomes).items()):
        print(f"  {role:<14} {mutation:<17} {cls:<18} {k:>4}{'   <-- failure' if cls in FAILURES else ''}")
    failed = [o for o in outcomes if o.cls in FAILURES]
    for o in failed[:20]:
        print(f"FAILED {o.role}/{o.mutation}: {o.cls} exit {o.exit}: {o.stderr.strip()[:200]}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
