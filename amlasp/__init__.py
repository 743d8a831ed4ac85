"""amlasp: evaluate learned PDDL action models with Answer Set Programming (clingo).

The API is loaded on first use (module `__getattr__`, PEP 562): `import amlasp` — which every
`amlasp.x` import runs first — costs nothing, and a command-line call pays only for what it uses.
"""

from __future__ import annotations

from importlib import import_module

TYPE_CHECKING = False  # not typing's: importing typing costs a one-plan call 2-3 ms (amlasp.server)

__version__ = "0.1.0"

# public name → the module that defines it
_API = {
    "applicable": "amlasp.reasoning.engine",
    "execute": "amlasp.reasoning.engine",
    "validate_plans": "amlasp.reasoning.validations",  # many plans, of one problem or several, in one grounding
    "read_batch": "amlasp.pddl.batch",  # the plans of a batch file (JSON lines), for validate_plans
    "load_plan": "amlasp.pddl.plans",  # a plan file read as far as it goes (lenient: as LLMs write them)
    "InputError": "amlasp.errors",
    "UnsupportedError": "amlasp.errors",
    "load_domain": "amlasp.pddl.parse",
    "load_problem": "amlasp.pddl.parse",
    "parse_domain": "amlasp.pddl.parse",
    "parse_problem": "amlasp.pddl.parse",
    "compare": "amlasp.metrics.compare",  # syntactic comparison; result has .to_frame()
    "compare_problems": "amlasp.metrics.compare.problems",  # two problems up to renaming of objects
    "compare_many": "amlasp.metrics.compare.many",  # many candidates against one reference: one frame
    "similarity": "amlasp.metrics.similarity",  # behavioural similarity of two domains
    "solve": "amlasp.metrics.solve",  # problem-solving metrics; result has .to_frame()
    "evaluate": "amlasp.metrics.evaluate",  # predictive power; result has .to_frame()
}

if TYPE_CHECKING:  # for type checkers and IDEs: the same names, eagerly
    from typing import Any

    from .errors import InputError, UnsupportedError
    from .metrics.compare import compare
    from .metrics.compare.many import compare_many
    from .metrics.compare.problems import compare_problems
    from .metrics.evaluate import evaluate
    from .metrics.similarity import similarity
    from .metrics.solve import solve
    from .pddl.batch import read_batch
    from .pddl.parse import load_domain, load_problem, parse_domain, parse_problem
    from .pddl.plans import load_plan
    from .reasoning.engine import applicable, execute
    from .reasoning.validations import validate_plans


def __getattr__(name: str) -> Any:
    """Import the defining module of an API name on first access, then keep the name here."""
    module = _API.get(name)
    if module is None:
        raise AttributeError(f"module 'amlasp' has no attribute '{name}'")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The API only: not the helpers this module imports (`import_module`, `Any`, ...)."""
    return sorted(__all__)


__all__ = ["applicable", "execute", "validate_plans", "read_batch", "load_plan", "load_domain", "load_problem",
           "parse_domain", "parse_problem", "compare", "compare_problems", "compare_many", "similarity", "solve",
           "evaluate", "InputError", "UnsupportedError", "__version__"]
