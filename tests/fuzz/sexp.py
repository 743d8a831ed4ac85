"""A small s-expression reader that keeps character offsets: where the fuzzer cuts and splices.

Independent of amlasp's reader on purpose: the positions a fault is expected at come from
here, so a bug in amlasp's positions cannot hide itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_TOKEN = re.compile(r";[^\n]*|[()]|[^\s();]+")
CONNECTIVES = {"and", "or", "not", "imply", "exists", "forall", "when", "="}


@dataclass(eq=False)
class Node:
    """A token (`text` set) or a list, spanning text[start:end]; `depth`: how many lists enclose it."""

    start: int
    end: int
    depth: int
    text: str | None = None
    children: list["Node"] = field(default_factory=list)
    parent: "Node | None" = None

    @property
    def head(self) -> str | None:
        return self.children[0].text.lower() if self.children and self.children[0].text else None

    def walk(self):
        todo = [self]
        while todo:
            n = todo.pop()
            yield n
            todo.extend(reversed(n.children))

    def key(self, name: str) -> "Node | None":
        """The value after `:name` in this list (an action's `:precondition`, ...)."""
        for a, b in zip(self.children, self.children[1:]):
            if a.text and a.text.lower() == name:
                return b
        return None


def read(text: str) -> Node:
    """The first top-level list of `text` (the reader assumes balanced input: it reads the originals)."""
    stack: list[Node] = []
    for m in _TOKEN.finditer(text):
        tok = m.group()
        if tok[0] == ";":
            continue
        if tok == "(":
            node = Node(m.start(), -1, len(stack), parent=stack[-1] if stack else None)
            if stack:
                stack[-1].children.append(node)
            stack.append(node)
        elif tok == ")":
            node = stack.pop()
            node.end = m.end()
            if not stack:
                return node
        else:
            stack[-1].children.append(Node(m.start(), m.end(), len(stack), tok, parent=stack[-1]))
    raise ValueError("unbalanced original")


def position(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of `offset` (columns in characters, as an editor counts them)."""
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


def atoms(root: Node) -> list[Node]:
    """Atom uses (not connectives) inside preconditions, effects, :init, :goal and states."""
    out = []
    for n in root.walk():
        if n.text is None and n.head and n.head not in CONNECTIVES and not n.head.startswith((":", "?", "-")) \
                and not _variable_list(n) and _in_formula(n):
            out.append(n)
    return out


def _variable_list(n: Node) -> bool:
    """The `(?x - t)` of a `forall` or `exists`."""
    return n.parent is not None and n.parent.head in ("forall", "exists") and n.parent.children[1:2] == [n]


def _in_formula(n: Node) -> bool:
    p = n.parent
    while p is not None:
        prev = None
        if p.parent is not None:
            i = p.parent.children.index(p)
            prev = p.parent.children[i - 1].text.lower() if i > 0 and p.parent.children[i - 1].text else None
        if prev in (":precondition", ":effect") or p.head in (":init", ":goal", ":state"):
            return True
        if p.head in (":parameters", ":predicates", ":objects", ":types", ":constants", ":action") and p is n.parent:
            return False
        p = p.parent
    return False
