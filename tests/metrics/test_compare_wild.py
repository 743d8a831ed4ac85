"""`compare` on real-world domains (tests/data/wild/, sources in its README): each file against a copy of
itself with every predicate, function, action and variable renamed by this test (on the text, not
through our model) has edit distance 0, and the renaming found maps each name back to its original.

Files with features this branch does not read yet (derived predicates, `either` types: issue 21,
another branch) are expected failures until then (strict=False: they turn green when it lands)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from amlasp.metrics.compare import compare
from amlasp.pddl.parse import parse_domain
from tests.support.paths import DATA

WILD = DATA / "wild"
FILES = sorted(WILD.glob("*/*.pddl"))
#: Features another branch of issue 21 brings: the files that use them are expected to fail here.
PENDING: dict[str, str] = {}  # pattern → why a file is expected to fail (none since issue 21)

_NAME = r"[a-z][a-z0-9_-]*"
_END = r"(?![a-z0-9_-])"


def _case(path: Path):
    text = path.read_text(encoding="utf-8-sig").lower()
    text = re.sub(r";[^\n]*", "", text)
    pending = [why for pattern, why in PENDING.items() if re.search(pattern, text)]
    marks = [pytest.mark.xfail(reason=", ".join(pending), strict=False)] if pending else []
    return pytest.param(path, marks=marks, id=f"{path.parent.name}/{path.stem}")


def _declared(text: str, section: str) -> list[str]:
    """The names heading the lists of a `(:predicates ...)` or `(:functions ...)` section."""
    m = re.search(rf"\(\s*{section}\b", text)
    if m is None:
        return []
    depth, i = 1, m.end()
    names = []
    while depth and i < len(text):
        if text[i] == "(":
            depth += 1
            if depth == 2:
                names.append(re.match(rf"\(\s*({_NAME})", text[i:]).group(1))
        elif text[i] == ")":
            depth -= 1
        i += 1
    return names


def renamed(text: str) -> tuple[str, dict[str, str]]:
    """`text` with predicates, functions, actions and variables renamed (new → old names).

    New predicate and function names keep the order of the old ones (`zzp0003` for the fourth in
    alphabetical order): compare sorts the conjuncts inside `or`, `imply` and quantifiers by their
    text, so a renaming that reorders them may cost edits there (docs/compare.md, "Inside")."""
    text = re.sub(r";[^\n]*", "", text.lower())
    back: dict[str, str] = {}
    for kind, names in (("p", _declared(text, ":predicates")), ("f", _declared(text, ":functions"))):
        for k, old in enumerate(sorted(set(names), key=lambda n: n.replace("-", "_"))):
            if old == "total-cost":  # the cost function keeps its name (PDDL's :metric refers to it)
                continue
            new = f"zz{kind}{k:04d}"
            text = re.sub(rf"\(\s*{re.escape(old)}{_END}", f"({new}", text)
            back[new] = old
    for k, old in enumerate(dict.fromkeys(re.findall(rf"\(:action\s+({_NAME})", text))):
        text = re.sub(rf"(\(:action\s+){re.escape(old)}{_END}", rf"\g<1>zza{k}", text)
        back[f"zza{k}"] = old
    for k, old in enumerate(sorted(set(re.findall(rf"\?{_NAME}", text)), key=lambda n: n.replace("-", "_"))):
        text = re.sub(rf"{re.escape(old)}{_END}", f"?zzv{k:04d}", text)  # in the old names' order, too
    return text, back


@pytest.mark.parametrize("path", [_case(p) for p in FILES])
def test_a_renamed_copy_is_at_distance_zero(path: Path):
    original = path.read_text(encoding="utf-8-sig")
    text, back = renamed(original)
    copy = parse_domain(text, f"renamed {path.name}", numeric_fluents=True)
    reference = parse_domain(original, str(path), numeric_fluents=True)
    assert len(copy.actions) == len(reference.actions) and len(copy.functions) == len(reference.functions)
    r = compare(copy, reference, time_limit=120)
    assert r.optimal and r.edit_distance == 0, r.edits
    assert len(r.action_mapping) == len(reference.actions) + len(reference.derived)  # rules compared as actions
    assert len(r.predicate_mapping) == len(reference.predicates)
    functions = reference.functions + tuple(f for f in reference.cost_functions if f.name != "total-cost")
    assert len(r.function_mapping) == len(functions)
    assert {back.get(l, l) for l, _ in r.function_mapping} == {f.name for f in functions}


def test_the_corpus_has_thirty_files_with_the_features_of_issue_21():
    assert len(FILES) >= 30
    texts = [p.read_text(encoding="utf-8-sig").lower() for p in FILES]
    assert sum("total-cost" in t for t in texts) >= 5
    assert sum(bool(re.search(r"\((increase|decrease|assign)\s+\((?!total-cost)", t)) for t in texts) >= 10
    assert sum("(:derived" in t for t in texts) >= 3 and sum("(either" in t for t in texts) >= 1
    assert any(re.search(r"\?(object|type|either)(?![a-z0-9_-])", t) for t in texts)  # odd variable names
    for source in {p.parent for p in FILES}:
        assert list(source.glob("LICENSE*")), source
