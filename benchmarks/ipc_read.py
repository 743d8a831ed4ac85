"""How much of the IPC amlasp reads: every domain file of a benchmark collection, with one (or a few)
of its problems, read by amlasp's reader (and, with `--ground`, one problem's applicable actions at
its initial state grounded), the share read and every refusal with its reason, grouped by reason.

The collections are not shipped (hundreds of MB, their own licenses); bring them outside the
repository, for instance

    git clone https://github.com/potassco/pddl-instances /tmp/ipc
    git clone https://github.com/aibasel/downward-benchmarks /tmp/dwb
    python benchmarks/ipc_read.py /tmp/ipc /tmp/dwb [--problems 1] [--domains N] [--ground] [--timeout 60]

A *variant* is a folder holding a domain (IPC 2008's `cyber-security-sequential-satisficing-strips`,
downward-benchmarks' `movie`): its PDDL files, with those of its `domains/` and `instances/` folders,
told apart by their header (`(define (domain` or `(define (problem`). A variant with one domain file
reads it with its first problems; one with a domain file per problem (`domain-p01.pddl` and
`p01.pddl`, `domains/domain-1.pddl` and `instances/instance-1.pddl`) reads each domain file with the
problem of the same (first) number. A variant counts as read when all its files tried are. Refusals are
grouped by their message with names replaced by `…`; refusals of goals that are not conjunctions of
literals are counted apart (another item of issue 31). Temporal, numeric and preference domains are
refused by name (`unsupported feature: ...`): they are listed too. Times are CPU seconds of this
process (the reader's), and the load average when the run ended is printed.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
import warnings
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from amlasp import watchdog
from amlasp.errors import InputError, UnsupportedError
from amlasp.pddl.parse import load_domain, load_problem

_HEADER = re.compile(r"\(\s*define\s*\(\s*(domain|problem)\b", re.IGNORECASE)
_COMMENT = re.compile(r";[^\n]*")
_NAMES = re.compile(r"'[^']*'")
_NUMBER = re.compile(r"\d+")


@dataclass
class Tally:
    """What one run found: per variant, whether it was read; refusals by reason; times."""

    variants: dict[str, bool] = field(default_factory=dict)
    domains: list[bool] = field(default_factory=list)
    problems: list[bool] = field(default_factory=list)
    grounded: list[bool] = field(default_factory=list)
    refusals: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    warned: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    seconds: dict[str, float] = field(default_factory=lambda: defaultdict(float))


def kind(path: Path) -> str | None:
    """"domain", "problem" or None, by the file's header (its first 64 KB, comments dropped)."""
    with open(path, "rb") as f:
        head = f.read(65536).decode("utf-8", "replace")
    m = _HEADER.search(_COMMENT.sub("", head))
    return m.group(1).lower() if m else None


def natural(p: Path) -> list:
    return [int(x) if x.isdigit() else x for x in re.split(r"(\d+)", p.name)]


def variants(roots: list[Path]) -> dict[Path, list[Path]]:
    """Each folder that holds PDDL files itself or in its `domains/`/`instances/` folders → those files."""
    out: dict[Path, list[Path]] = {}
    for root in roots:
        for folder, dirs, files in os.walk(root):
            here = Path(folder)
            if here.name in ("domains", "instances"):
                continue
            found = [here / f for f in files if f.endswith(".pddl")]
            for sub in ("domains", "instances"):
                if sub in dirs:
                    found += [here / sub / f for f in os.listdir(here / sub) if f.endswith(".pddl")]
            if found:
                out[here] = sorted(found, key=natural)
    return out


def pairs(files: list[Path], per_domain: int) -> list[tuple[Path, list[Path]]]:
    """The domain files of a variant, each with the problems to read it with."""
    kinds = {f: kind(f) for f in files}
    domains = [f for f in files if kinds[f] == "domain"]
    problems = [f for f in files if kinds[f] == "problem"]
    if len(domains) == 1:
        return [(domains[0], problems[:per_domain])]
    by_number: dict[str, Path] = {}
    for p in problems:
        m = _NUMBER.search(p.stem)
        if m:
            by_number.setdefault(str(int(m.group())), p)
    out = []
    for d in domains:
        m = _NUMBER.search(d.stem)
        match = by_number.get(str(int(m.group()))) if m else None
        out.append((d, [match] if match else problems[:per_domain]))
    return out


def chosen(found: list[tuple[Path, list[Path]]], n: int | None) -> list[tuple[Path, list[Path]]]:
    """`n` of a variant's domain files: the first `n - 1` and the largest (per-problem domains grow with
    their problems: IPC 2008's cybersec from 0.1 to 1.6 MB), or all of them."""
    if n is None or len(found) <= n:
        return found
    largest = max(found, key=lambda dp: dp[0].stat().st_size)
    return found[:n - 1] + ([largest] if largest not in found[:n - 1] else found[n - 1:n])


def reason(e: BaseException) -> str:
    """A refusal's message without its location, names replaced by `…`: the key it is grouped by."""
    text = e.message if isinstance(e, InputError) and hasattr(e, "message") else str(e)
    text = re.sub(r"^.*?:\d+:\d+: ", "", str(text))
    text = re.sub(r"^[^ ]+\.pddl: ", "", text)
    return _NAMES.sub("'…'", text)


def where(e: BaseException) -> str:
    text = str(e)
    return text[:text.index(": ")] if ": " in text else text


def ground(domain, problem) -> int:
    from amlasp.reasoning.engine import applicable
    return len(applicable(domain, problem)[0])


def run(roots: list[Path], per_domain: int, grounding: bool, timeout: float, domains: int | None = None) -> Tally:
    tally = Tally()
    found = variants(roots)
    for folder, files in found.items():
        name = str(folder.relative_to(next(r for r in roots if folder.is_relative_to(r))))
        ok = True
        for dfile, problems in chosen(pairs(files, per_domain), domains):
            t = time.process_time()
            try:
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    d = load_domain(dfile)
                for text in d.warnings:
                    tally.warned[_NAMES.sub("'…'", text)] += 1
                for w in caught:
                    tally.warned[reason(w.message)] += 1  # type: ignore[arg-type]
                tally.domains.append(True)
            except (InputError, UnsupportedError) as e:
                tally.seconds["domains"] += time.process_time() - t
                tally.domains.append(False)
                tally.refusals[reason(e)].append(f"{name}: {where(e)}")
                ok = False
                continue
            tally.seconds["domains"] += time.process_time() - t
            for i, pfile in enumerate(problems):
                t = time.process_time()
                try:
                    with warnings.catch_warnings(record=True) as caught:
                        warnings.simplefilter("always")
                        p = load_problem(pfile, d)
                    for w in caught:
                        tally.warned[reason(w.message)] += 1  # type: ignore[arg-type]
                    tally.problems.append(True)
                except (InputError, UnsupportedError) as e:
                    tally.problems.append(False)
                    tally.refusals[reason(e)].append(f"{name}: {where(e)}")
                    ok = False
                    continue
                finally:
                    tally.seconds["problems"] += time.process_time() - t
                if grounding and i == 0:
                    t0, t = time.monotonic(), time.process_time()
                    try:
                        watchdog.within(timeout, "applicable", ground, d, p)
                        tally.grounded.append(True)
                    except (InputError, UnsupportedError) as e:
                        tally.grounded.append(False)
                        tally.refusals["applicable: " + reason(e)].append(f"{name}: {where(e)}")
                        ok = False
                    except Exception as e:  # a time limit: reported, not a refusal of the input
                        tally.grounded.append(False)
                        tally.refusals[f"applicable: {type(e).__name__}"].append(f"{name}: {pfile}")
                    tally.seconds["grounding (wall)"] += time.monotonic() - t0
        tally.variants[name] = ok
    return tally


def report(t: Tally, out=sys.stdout) -> None:
    def share(xs: list[bool]) -> str:
        return f"{sum(xs)}/{len(xs)} ({100 * sum(xs) / max(1, len(xs)):.1f}%)"

    goals = {k: v for k, v in t.refusals.items() if "goal" in k}
    print(f"variants read: {share(list(t.variants.values()))}", file=out)
    print(f"domain files read: {share(t.domains)}; problems read: {share(t.problems)}", file=out)
    if t.grounded:
        print(f"applicable at the initial state: {share(t.grounded)}", file=out)
    print("CPU seconds: " + ", ".join(f"{k} {v:.1f}" for k, v in t.seconds.items()), file=out)
    for title, group in (("refusals", {k: v for k, v in t.refusals.items() if k not in goals}),
                         ("refusals of goals (counted apart)", goals)):
        print(f"\n{title}: {sum(len(v) for v in group.values())} files", file=out)
        for why, where_ in sorted(group.items(), key=lambda kv: -len(kv[1])):
            print(f"  {len(where_):4d}  {why}", file=out)
            for w in sorted(set(x.split(": ")[0] for x in where_)):
                print(f"          {w}", file=out)
    common = sorted(t.warned.items(), key=lambda x: -x[1])[:12]
    print("\nwarnings (files): " + "; ".join(f"{n} x {w}" for w, n in common), file=out)
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", file=out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("roots", nargs="+", type=Path, help="benchmark folders (outside the repository)")
    parser.add_argument("--problems", type=int, default=1, help="problems read per domain file (default 1)")
    parser.add_argument("--ground", action="store_true", help="also ground one problem's applicable actions")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per grounding (default 60)")
    parser.add_argument("--domains", type=int, default=None,
                        help="domain files per variant: the first N-1 and the largest (default all)")
    args = parser.parse_args(argv)
    report(run([r.resolve() for r in args.roots], args.problems, args.ground, args.timeout, args.domains))
    return 0


if __name__ == "__main__":
    sys.exit(main())
