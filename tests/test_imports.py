"""amlasp's modules import one another without circles, and pddl/ stands below the rest.

Read from the source (ast), not by importing: every import statement counts, those inside
functions and under `if TYPE_CHECKING:` too (a lazy import that closes a circle still makes two
modules one, and a type named across a circle ties them for a reader and for mypy), so that a
circle is refused however it is hidden.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "amlasp"
#: What the PDDL layer must not reach: it reads and writes models, the rest is built on it.
ABOVE_PDDL = ("asp", "metrics", "reasoning", "questions", "render", "cli")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def _statements(tree: ast.AST):
    """Every import statement of `tree`, at any depth (`if TYPE_CHECKING:` blocks too)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        else:
            stack.extend(ast.iter_child_nodes(node))


def imports(name: str) -> set[str]:
    """The amlasp modules that module `name` imports (a package stands for its __init__)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in _statements(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name in MODULES}
            continue
        base = node.module or ""
        if node.level:
            anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
            base = ".".join(anchor + ([node.module] if node.module else []))
        for a in node.names:
            target = f"{base}.{a.name}"
            out.add(target if target in MODULES else base)
    return {m for m in out if m in MODULES and m != name}


GRAPH = {name: imports(name) for name in MODULES}


def cycles() -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in GRAPH:
        if root in index:
            continue
        work = [(root, iter(sorted(GRAPH[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(GRAPH[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    component.append(m)
                    if m == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_graph_is_read():
    """The walk finds imports of each kind (guards the test against reading nothing), those only for
    types too."""
    assert "amlasp.questions.tasks.common" in GRAPH["amlasp.questions.catalog"]  # under TYPE_CHECKING
    assert "amlasp.model" in GRAPH["amlasp.logic"]  # from .model import ...
    assert "amlasp.logic" in GRAPH["amlasp.pddl.writer"]  # from .. import logic
    assert "amlasp.pddl.parse" in GRAPH["amlasp.cli.core"]  # inside a function


def test_no_import_cycles():
    assert cycles() == []


@pytest.mark.parametrize("name", sorted(m for m in MODULES if m.startswith("amlasp.pddl")))
def test_pddl_imports_nothing_above_it(name):
    above = sorted(m for m in GRAPH[name] if m.split(".")[1] in ABOVE_PDDL)
    assert above == [], f"{name} imports {above}"


#: Where presentation lives (docs/architecture.md): only these import rich or amlasp.render.
PRESENTATION = ("amlasp.render", "amlasp.cli")


def _third_party(name: str) -> set[str]:
    path = MODULES[name]
    out: set[str] = set()
    for node in _statements(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out |= {a.name.split(".")[0] for a in node.names}
        elif not node.level and node.module:
            out.add(node.module.split(".")[0])
    return out


@pytest.mark.parametrize("name", sorted(m for m in MODULES if not m.startswith(PRESENTATION)))
def test_presentation_stays_in_render_and_cli(name):
    rendering = sorted(m for m in GRAPH[name] if m.startswith("amlasp.render"))
    assert rendering == [] and "rich" not in _third_party(name), f"{name} imports {rendering or 'rich'}"
