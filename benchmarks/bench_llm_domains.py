"""How much of a corpus of LLM-written domains amlasp scores (benchmarks/llm_domains/, issue 31).

Each candidate of the corpus's manifest is compared with its reference by `amlasp.metrics.compare.compare`
(the Python API of `amlasp compare CAND REF`, which reads the candidate with the leniency a learned
model gets: predicates used but never declared, missing :requirements, ...). A candidate is

- *scored*: compare returned its figures (the CLI's exit 0), perhaps with broken actions left out of
  the learned model and listed (when the reader recovers from broken definitions: `broken_actions` in
  the summary, `Domain.broken`);
- *refused*: bad input (the CLI's exit 2), with the class of the refusal;
- *unknown*: the time limit was reached (exit 3); *internal*: any other exception (exit 4, a bug).

Printed: the counts, the refusals per class (the class the reader gives a broken definition when it
has one, else read from the message), the broken actions per class, the share scored per class of
mistake put into the candidates (from the manifest), the mean figures of the scored candidates, the
time, and the machine's load. `--json FILE` writes every candidate's row.

    python benchmarks/bench_llm_domains.py [--corpus benchmarks/llm_domains --time-limit 60 --json rows.json --cli]
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import re
import subprocess
import sys
import time
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from amlasp.errors import InputError, TimeLimitReached  # noqa: E402
from amlasp.metrics.compare import compare  # noqa: E402
from amlasp.metrics.compare.many import error_class  # noqa: E402
from amlasp.pddl.parse import load_domain  # noqa: E402

#: a refusal's class read from its message, finer than `many.error_class` (first match wins); a class the
#: reader gives (an InputError's `kind`, a broken definition's `error`) is used instead when there is one
MESSAGE_CLASSES = (
    ("undeclared-variable", r"undeclared variable"),
    ("undeclared-type", r"undeclared type"),
    ("wrong-arity", r"takes \d+ argument"),
    ("unknown-constant", r"unknown constant|unknown object"),
    ("undeclared-predicate", r"undefined predicate|undeclared predicate"),
    ("condition-as-effect", r"is a condition, not an effect"),
    ("unbalanced", r"missing '\)'|not closed|unbalanced|unexpected '\)'"),
    ("text-outside-define", r"outside parentheses"),
    ("parameter-list", r"expected a variable like"),
    ("unknown-key", r"unknown action key|unknown section"),
    ("malformed-formula", r"expected a condition like|expected an effect like"),
    ("type-hierarchy", r"type hierarchy"),
    ("unsupported", r"unsupported feature"),
)
#: fields under which a broken definition (`model.Broken`, or its JSON object) carries its class
CLASS_FIELDS = ("error", "error_class")


def message_class(message: str, e: Exception | None = None) -> str:
    for name, pattern in MESSAGE_CLASSES:
        if re.search(pattern, message, re.IGNORECASE):
            return name
    return error_class(e) if e is not None else "other"


def field(b: Any, name: str) -> Any:
    return b.get(name) if isinstance(b, dict) else getattr(b, name, None)


def broken_class(b: Any) -> str:
    """The class of a broken definition: its own (a short name), else read from its message."""
    for f in CLASS_FIELDS:
        value = field(b, f)
        if isinstance(value, str) and value and " " not in value:
            return value
    return message_class(str(field(b, "message") or b))


def is_action(b: Any) -> bool:
    return (field(b, "kind") or "action") in ("action", "derived")


def broken_actions(result: Any, candidate: Path) -> tuple[Any, ...]:
    """The broken actions compare left out of the candidate: the result's, else a recovering read's
    (none before the reader recovers from broken definitions)."""
    listed = getattr(result, "broken", None)
    if listed is None and "recover" in inspect.signature(load_domain).parameters:
        listed = getattr(load_domain(candidate, undeclared_predicates=True, numeric_fluents=True,
                                     recover=True), "broken", ())  # type: ignore[call-arg]
    return tuple(b for b in listed or () if is_action(b))


def named(row: dict[str, Any], broken: Any) -> None:
    """The classes and names of a scored candidate's broken actions into its row."""
    row["broken"] = [broken_class(b) for b in broken]
    row["broken_names"] = [field(b, "name") for b in broken]
    if row.get("broken_actions") is None:
        row["broken_actions"] = len(row["broken"])


def run_one(candidate: Path, reference: Path, time_limit: float) -> dict[str, Any]:
    row: dict[str, Any] = {"status": "scored", "class": None, "error": None, "broken": [], "broken_names": []}
    t0 = time.perf_counter()
    try:
        with warnings.catch_warnings():  # the ones the result carries are counted; the rest not printed
            warnings.simplefilter("ignore")
            result = compare(candidate, reference, time_limit=time_limit)
        row["warnings"] = len(result.warnings)
        s = result.summary()
        row.update({k: s.get(k) for k in ("edit_distance", "f1_macro", "action_accuracy", "broken_actions")})
        named(row, broken_actions(result, candidate))
    except TimeLimitReached as e:
        row.update(status="unknown", error=str(e))
    except InputError as e:  # its own class when the reader gives one (`kind`), else read from the message
        kind = getattr(e, "kind", None)
        row.update(status="refused", error=str(e), **{"class": kind if isinstance(kind, str) and kind
                                                      else message_class(e.message, e)})
    except Exception as e:  # a bug of ours: counted, never hidden
        row.update(status="internal", error=f"{type(e).__name__}: {e}")
    row["seconds"] = round(time.perf_counter() - t0, 3)
    return row


def run_cli(candidate: Path, reference: Path, time_limit: float) -> dict[str, Any]:
    """The same through `amlasp compare CAND REF -f json`, one process: the exit code says the status."""
    row: dict[str, Any] = {"status": "scored", "class": None, "error": None, "broken": [], "broken_names": []}
    t0 = time.perf_counter()
    res = subprocess.run([sys.executable, "-m", "amlasp", "compare", str(candidate), str(reference), "-f", "json",
                          "--time-limit", str(time_limit)], capture_output=True, text=True)
    error = res.stderr.strip().splitlines()[-1] if res.stderr.strip() else ""
    if res.returncode == 0:
        row["warnings"] = sum(line.startswith("amlasp: warning:") for line in res.stderr.splitlines())
        out = json.loads(res.stdout)
        s = out["summary"]
        row.update({k: s.get(k) for k in ("edit_distance", "f1_macro", "action_accuracy", "broken_actions")})
        named(row, [b for b in out.get("broken", []) if isinstance(b, dict) and is_action(b)])
    elif res.returncode == 2:
        message = error.removeprefix("amlasp: error: ")
        row.update(status="refused", error=message, **{"class": message_class(message)})
    else:
        row.update(status="unknown" if res.returncode == 3 else "internal", error=f"exit {res.returncode}: {error}")
    row["seconds"] = round(time.perf_counter() - t0, 3)
    return row


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3]) if Path("/proc/loadavg").exists() else "?"


def report(rows: list[dict[str, Any]], seconds: float, loads: tuple[str, str]) -> None:
    n = len(rows)
    status = Counter(r["status"] for r in rows)
    print(f"candidates: {n}")
    for s in ("scored", "refused", "unknown", "internal"):
        print(f"  {s:9} {status[s]:4}  ({100 * status[s] / n:.0f}%)")
    print("refusals by class:")
    for c, k in Counter(r["class"] for r in rows if r["status"] == "refused").most_common():
        print(f"  {c:24} {k:4}")
    print(f"warnings of the scored (the results' own; with --cli, the lines on stderr): "
          f"{sum(r.get('warnings', 0) for r in rows)}")
    broken = Counter(c for r in rows for c in r["broken"])
    print(f"broken actions (scored candidates): {sum(r.get('broken_actions') or 0 for r in rows)}")
    for c, k in broken.most_common():
        print(f"  {c:24} {k:4}")
    found = right = 0  # broken actions named, and named as the manifest's action of a mistake
    for r in rows:
        put = {c["action"] for c in r["changes"] if c["kind"] == "breaking" and c["action"]}
        found += sum(n is not None for n in r["broken_names"])
        right += sum(n in put for n in r["broken_names"] if n is not None)
    if found:
        print(f"  named as the action the manifest puts a mistake in: {right} of {found}")
    print("scored, per class of mistake put in (a candidate counts once per class it has):")
    per: dict[str, list[bool]] = {}
    for r in rows:
        for c in sorted({x["class"] for x in r["changes"] if x["kind"] in ("breaking", "lenient")}) or ["(none)"]:
            per.setdefault(c, []).append(r["status"] == "scored")
    for c, v in sorted(per.items(), key=lambda kv: -len(kv[1])):
        print(f"  {c:24} {sum(v):4} of {len(v):3}")
    scored = [r for r in rows if r["status"] == "scored"]
    for f in ("edit_distance", "f1_macro", "action_accuracy"):
        vals = [float(r[f]) for r in scored if isinstance(r.get(f), (int, float))]
        if vals:
            print(f"mean {f} of the scored: {sum(vals) / len(vals):.3f}")
    print(f"time: {seconds:.1f} s wall, {seconds / n:.2f} s per candidate; "
          f"load (1, 5, 15 min) before {loads[0]}, after {loads[1]}; cpus {os.cpu_count()}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", type=Path, default=ROOT / "benchmarks" / "llm_domains")
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--json", type=Path, help="write every candidate's row to this file")
    ap.add_argument("--cli", action="store_true", help="one `amlasp compare -f json` process per candidate "
                    "(its exit code the status) instead of the Python API")
    args = ap.parse_args()
    manifest = json.loads((args.corpus / "manifest.json").read_text(encoding="utf-8"))["candidates"]
    before, t0 = load(), time.perf_counter()
    rows = []
    for entry in manifest:
        row = (run_cli if args.cli else run_one)(args.corpus / entry["candidate"], args.corpus / entry["reference"],
                                                 args.time_limit)
        rows.append({"candidate": entry["candidate"], "changes": entry["changes"], **row})
    report(rows, time.perf_counter() - t0, (before, load()))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
