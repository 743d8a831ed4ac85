"""The shipped IPC domains (benchmarks/ipc) and the small problems the oracles can afford."""

from __future__ import annotations

from pathlib import Path

from .paths import DATA, IPC

REFERENCES = IPC / "domains"
NOLAM = IPC / "learned" / "nolam"
HANDMADE = DATA / "differential"  # problems for domains without a small enough shared one, and ADL domains

DOMAINS = sorted(p.stem for p in REFERENCES.glob("*.pddl"))
LEARNED = sorted(p.stem for p in NOLAM.glob("*.pddl"))
ADL = ["briefcase", "gripper-untyped", "lab"]  # HANDMADE/adl/<name>-domain.pddl and -problem.pddl


def reference(domain: str) -> Path:
    return REFERENCES / f"{domain}.pddl"


def smallest(domain: str) -> Path:
    """The smallest shared problem of a domain (by file size, then name)."""
    files = [f for kind in ("solving", "learning") for f in (IPC / "problems" / kind / domain).glob("*.pddl")
             if f.stat().st_size > 0]
    assert files, f"no problem for {domain}: add one to {HANDMADE}"
    return min(files, key=lambda f: (f.stat().st_size, f.name))


def small_problem(domain: str) -> Path:
    """A hand-made problem if there is one (see tests/external/test_differential.py), else the smallest shared one."""
    own = HANDMADE / f"{domain}.pddl"
    return own if own.exists() else smallest(domain)
