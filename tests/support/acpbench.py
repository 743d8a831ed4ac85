"""ACPBench items (tests/data/acpbench/<task>/dev.gen.json): each carries its own PDDL and answer."""

from __future__ import annotations

import json
import re
from functools import lru_cache

from amlasp.model import Domain, GroundAction, Problem
from amlasp.pddl.parse import parse_domain, parse_problem

from .notation import actions
from .paths import DATA

ACP = DATA / "acpbench"


@lru_cache(maxsize=None)
def items(task: str) -> list[dict]:
    return json.loads((ACP / task / "dev.gen.json").read_text())


def ids(task: str) -> list[str]:
    return [str(x["id"]) for x in items(task)]


def load(item: dict) -> tuple[Domain, Problem]:
    """The item's domain and problem (the problem's `:init` is the state asked about)."""
    d = parse_domain(item["PDDL_domain"], "domain.pddl")
    return d, parse_problem(item["PDDL_problem"], d, "problem.pddl")


def quoted_plan(question: str) -> list[GroundAction]:
    """The plan a question quotes: `... "(a x) (b y)" ...`."""
    return actions(re.search(r'"(.*)"', question).group(1))


def domain_name(item: dict) -> str:
    return re.search(r"\(domain\s+([\w-]+)", item["PDDL_domain"]).group(1)


def removal_key(plan: list[GroundAction], i: int, pair: bool) -> tuple[str, ...]:
    """ACPBench's name of a removal from a plan: [a1, a2, "-1"] for the pair at i, i+1, [a, k] for
    step i, the k-th occurrence (1-based) of its action."""
    if pair:
        return str(plan[i]), str(plan[i + 1]), "-1"
    return str(plan[i]), str(plan[:i + 1].count(plan[i]))
