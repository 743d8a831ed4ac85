"""Action schemas → clingo rules.

- `rules.py`: the rule objects (`Rule`, `BodyLiteral` and its `Kind`, `Scope`);
- `action.py`: `Compiler`, the rules of one model's actions, a rule or a literal at a time;
- `domain.py`: a whole domain's program (`compile_domain`, `compile_validation`);
- `slots.py`, `pair.py`, `changes.py`, `counts.py`: eval's program of a reference and a learned
  model (`compile_pair`): the actions paired into slots, their joint applicability, the change
  rules of jointly applicable actions, and the rules that count instead of making atoms.
"""

from .action import Compiler
from .domain import ActionRules, compile_domain, compile_validation, derived_program, runs_apply
from .rules import BodyLiteral, Comment, Kind, Rule, Scope

__all__ = ["Compiler", "ActionRules", "compile_domain", "compile_validation", "derived_program", "runs_apply",
           "BodyLiteral", "Comment", "Kind", "Rule", "Scope"]
