"""asp/schema.py is the one declaration of the ASP vocabulary: the encodings use no predicate across
the Python/clingo boundary that it does not declare (with the arity they use), and no module outside
asp/ spells fact or rule text, or reads an answer by a predicate's name spelled out."""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

import clingo
import pytest
from clingo import ast as clingo_ast

import amlasp
from amlasp.asp import schema
from amlasp.asp.run import encodings_folder
from amlasp.asp.schema import HOLDS, SCHEMA, Pred

PACKAGE = Path(amlasp.__file__).parent
ENCODINGS = sorted(encodings_folder().glob("*.lp"))  # type: ignore[union-attr]


#: The statements that name a predicate by its signature, and the role it plays there.
_SIGNATURES = {clingo_ast.ASTType.ShowSignature: "show", clingo_ast.ASTType.Defined: "defined"}
#: The statements whose parts play different roles: each part's field and its role.
_PARTS = {clingo_ast.ASTType.Rule: (("head", "head"), ("body", "body")),
          clingo_ast.ASTType.External: (("atom", "external"), ("body", "body"))}


def _signatures(path: Path) -> dict[str, set[tuple[str, int]]]:
    """The predicates an encoding defines (rule heads), uses (bodies, conditions), shows and
    declares `#external`."""
    out: dict[str, set[tuple[str, int]]] = defaultdict(set)

    def walk(node, role: str) -> None:
        if isinstance(node, str) or node is None:
            return
        if not isinstance(node, clingo_ast.AST):
            for x in node:  # a sequence of ASTs (`ASTSequence`, a list)
                walk(x, role)
            return
        t = node.ast_type
        if t in _SIGNATURES:  # `#show p/n.`, `#defined p/n.`
            out[_SIGNATURES[t]].add((node.name, node.arity))
        elif t in _PARTS:  # a statement's parts, each in its role
            for key, part in _PARTS[t]:
                walk(getattr(node, key), part)
        elif t == clingo_ast.ASTType.ShowTerm:
            out["show"].add((node.term.name, len(node.term.arguments)))
            walk(node.body, "body")
        elif t == clingo_ast.ASTType.SymbolicAtom:
            sym = node.symbol
            if sym.ast_type == clingo_ast.ASTType.Function:
                out[role].add((sym.name, len(sym.arguments)))
        else:
            for key in node.child_keys:
                walk(getattr(node, key), role)

    clingo_ast.parse_files([str(path)], lambda s: walk(s, "body"))
    return out


#: Encodings always grounded together (encodings/README.md): what one defines for another is
#: their own business, not the schema's.
_TOGETHER = {"semantics": ("types",), "compare": ("types", "edit"), "edit": ("compare", "types")}


@pytest.mark.parametrize("path", ENCODINGS, ids=lambda p: p.name)
def test_every_boundary_predicate_of_an_encoding_is_declared(path: Path):
    sig = _signatures(path)
    own = set(sig["head"]).union(*(_signatures(path.with_name(f"{o}.lp"))["head"]
                                   for o in _TOGETHER.get(path.stem, ())))
    crossing = (sig["body"] - own) | sig["show"] | sig["external"] | sig["defined"]
    missing = sorted(f"{n}/{a}" for n, a in crossing if (n, a) not in SCHEMA)
    assert not missing, f"{path.name} uses predicates that asp/schema.py does not declare: {missing}"


def test_every_declaration_is_used_by_an_encoding_or_written_by_asp():
    """A declaration nobody uses is stale: each names a predicate of some encoding, or one that only
    the facts of `amlasp facts` carry (docs/facts.md), or the compiled rules derive for Python alone
    (`app_run/4`)."""
    used: set[tuple[str, int]] = set()
    for path in ENCODINGS:
        for names in _signatures(path).values():
            used |= names
    facts_only = {("domain_name", 2), ("problem_name", 2), ("pre", 4), ("eff", 4), ("plan_length", 1),
                  ("occurs", 2), ("init", 2), ("complex_pre", 2), ("app_run", 4),
                  ("cost", 3), ("cost_function", 3), ("metric", 1),  # action costs (docs/facts.md)
                  ("cost_value", 3),  # read by the compiled action_cost/4 rules
                  ("span", 3), ("held", 3), ("hold", 4)}  # many states' rows and their rules (asp/states.py)
    stale = sorted(f"{n}/{a}" for n, a in SCHEMA if (n, a) not in used | facts_only)
    assert not stale, f"declared but used by no encoding: {stale}"


def test_writing_and_reading_by_field_name():
    assert HOLDS.fact(3, "on(b1,b2)") == "holds(3,on(b1,b2))."
    assert HOLDS("S", "F") == "holds(S,F)"
    assert HOLDS.fixed(3).text(["a", "on(b1,b2)"]) == "holds(3,a).\nholds(3,on(b1,b2))."
    assert HOLDS.fixed(3).text([]) == ""
    assert schema.GOAL_REACHABLE.fact() == "goal_reachable."
    assert HOLDS.row(1, "a") == "1,a"
    sym = clingo.parse_term("app(m,3,stack(b1,b2))")
    row = schema.APP.read(sym)
    assert (row.model.name, row.state.number, str(row.action)) == ("m", 3, "stack(b1,b2)")
    assert schema.APP.at("action") == 2
    assert schema.APP.split("app(m,3,stack(b1,b2))").action == "stack(b1,b2)"
    assert [r.atom.name for r in HOLDS.select([sym, clingo.parse_term("holds(1,a)")])] == ["a"]
    with pytest.raises(TypeError):
        HOLDS.fact(1)
    with pytest.raises(ValueError):
        schema.APP.read(clingo.parse_term("holds(1,a)"))
    with pytest.raises(ValueError):
        Pred("holds", "state atom", "again")


def test_the_schema_has_one_declaration_per_signature_and_meaningful_fields():
    for (name, arity), pred in SCHEMA.items():
        assert pred.doc and len(set(pred.fields)) == arity, pred
        assert re.fullmatch(r"[a-z][a-z0-9_]*", name)


# ---------------------------------------------------------------- no fact or rule text outside asp/

#: Folders whose modules may build ASP text: asp/ writes it; the encodings are .lp files.
_OWNERS = {"asp"}
_NAMES = {name for name, _ in SCHEMA}
_FACT = re.compile(r"(?<![\w@])([a-z][a-z0-9_]*)\((?:[^()]|\([^()]*\))*\)\.")


def _text_of(node: ast.AST) -> str | None:
    """A string literal's text, an f-string's with its fields as `X`."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "X" for v in node.values)
    return None


def _offences(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                  if isinstance(n, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                  and n.body and isinstance(n.body[0], ast.Expr)}
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and isinstance(node.left, ast.Attribute) and node.left.attr == "name":
            for right in node.comparators:
                values = right.elts if isinstance(right, (ast.Tuple, ast.List, ast.Set)) else [right]
                spelled = [_text_of(v) for v in values]
                if any(s in _NAMES for s in spelled):
                    out.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: reads an answer by a spelled name")
        text = _text_of(node)
        if text is None or id(node) in docstrings or isinstance(node, ast.Constant) and text.startswith("%"):
            continue
        facts = [m.group(1) for m in _FACT.finditer(text) if m.group(1) in _NAMES]
        if facts or ":-" in text:
            out.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: builds ASP text ({(facts or [':-'])[0]})")
    return out


def test_no_module_outside_asp_builds_fact_or_rule_text():
    offences = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.relative_to(PACKAGE).parts[0] not in _OWNERS:
            offences += _offences(path)
    assert not offences, "\n".join(offences)


def test_answers_are_decoded_by_name_outside_asp():
    """Outside asp/, an answer's atoms and nested terms are read by their declarations' field names
    (`Pred.read`, `Term.read`), never by argument position."""
    import re
    positional = re.compile(r"\.arguments\[")
    found = [f"{p.relative_to(PACKAGE)}:{i}" for p in sorted(PACKAGE.rglob("*.py")) if "asp" not in p.parts
             for i, line in enumerate(p.read_text().splitlines(), 1) if positional.search(line)]
    assert found == []


def test_a_term_is_read_by_its_fields_and_refuses_another_shape():
    import clingo

    from amlasp.asp.schema import SIGNED, TYPED
    t = clingo.parse_term("type(c1,truck)")
    assert TYPED.read(t).object.name == "c1" and TYPED.read(t).type.name == "truck"
    assert SIGNED.matches(clingo.parse_term("neg(at(c1,l1))")) and not SIGNED.matches(t)
    with pytest.raises(ValueError):
        SIGNED.read(t)
