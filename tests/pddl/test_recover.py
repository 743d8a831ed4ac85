"""A recovering domain read (`parse_domain(recover=True)`): each broken definition left out with its located
error and class, the rest read; the strict default refuses every file of tests/data/broken at that error."""

from __future__ import annotations

import warnings
from dataclasses import replace
from pathlib import Path

import pytest

from amlasp.errors import KINDS, InputError, InputWarning
from amlasp.pddl.parse import load_domain, parse_domain

pytestmark = pytest.mark.filterwarnings("ignore::amlasp.errors.InputWarning")

BROKEN = Path(__file__).parents[1] / "data" / "broken"
ACTIONS = ["pick_up", "put_down", "stack", "unstack"]

#: file → (kind, name, error class, line, col, message): the one broken definition of each file.
CASES = {
    "undeclared-variable": ("action", "pick_up", "undeclared-variable", 13, 33, "undeclared variable '?y'"),
    "undeclared-type": ("action", "stack", "undeclared-type", 30, 36, "undeclared type 'blok'"),
    "wrong-arity": ("action", "put_down", "wrong-arity", 27, 7, "predicate 'ontable' takes 1 argument(s), 2 given"),
    "unknown-constant": ("action", "unstack", "unknown-constant", 40, 72,
                         "unknown constant 'table' (not in the domain's :constants)"),
    "undeclared-predicate": ("action", "put_down", "undeclared-predicate", 22, 40, "undefined predicate 'arm-free'"),
    "condition-as-effect": ("action", "stack", "condition-as-effect", 37, 6, "'exists' is a condition, not an effect"),
    "unclosed-action": ("action", "pick_up", "unbalanced", 11, 3,
                        "missing ')': this '(' is not closed before '(:action' on line 20"),
    "unbalanced-inside": ("action", "put_down", "unbalanced", 22, 7,
                          "unexpected ':precondition' after the ')' that closes this '(:action' on line 21: "
                          "a ')' too many before it?"),
    "unsupported": ("action", "unstack", "unsupported", 46, 6,
                    "unsupported feature: non-deterministic effects (oneof)"),
    "syntax": ("action", "put_down", "syntax", 23, 7, "unknown action key ':efect' (did you mean :effect?)"),
    "bad-type": ("type", "2nd-block", "invalid-name", 3, 17,
                 "invalid type name '2nd-block' (a name starts with a letter, then letters, digits, - or _)"),
    "bad-predicate": ("predicate", "heavy", "undeclared-type", 9, 21, "undeclared type 'weight'"),
    "bad-constant": ("constant", "table", "undeclared-type", 4, 23, "undeclared type 'furniture'"),
}


def _recovered(path: Path, **options):
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        return load_domain(path, recover=True, **options), [str(w.message) for w in said]


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_strict_default_refuses_the_file_at_its_error(name):
    kind, _, error, line, col, message = CASES[name]
    with pytest.raises(InputError) as e:
        load_domain(BROKEN / f"{name}.pddl")
    assert (e.value.line, e.value.col, e.value.kind) == ((line, col, error) if name != "unbalanced-inside"
                                                         else (29, 3, "unbalanced"))  # strict: after the define


@pytest.mark.parametrize("name", sorted(CASES))
def test_recovery_leaves_out_the_broken_definition_and_reads_the_rest(name):
    kind, what, error, line, col, message = CASES[name]
    path = BROKEN / f"{name}.pddl"
    domain, said = _recovered(path)
    (b,) = domain.broken
    assert (b.kind, b.name, b.error, b.line, b.col, b.message, b.file) == (kind, what, error, line, col, message,
                                                                          str(path))
    assert b.error in KINDS
    reference = load_domain(BROKEN / "reference.pddl")
    left = [a for a in ACTIONS if not (kind == "action" and a == what)]
    assert [a.name for a in domain.actions] == left
    # the rest read as in the reference (bar their lines)
    assert [replace(reference.action(a), line=0) for a in left] == [replace(a, line=0) for a in domain.actions]
    assert domain.predicates == reference.predicates and domain.types == reference.types
    verb = "is not scored" if kind == "action" else "is left out"
    assert f"{path}:{line}:{col}: {message} ({kind} '{what}' {verb})" in said or name == "bad-type"
    assert str(InputError(f"{message} ({kind} '{what}' {verb})", path, line, col)) in said  # long quotes shortened


def test_an_error_free_domain_reads_as_strictly():
    path = BROKEN / "reference.pddl"
    domain, said = _recovered(path)
    assert domain == load_domain(path) and domain.broken == () and said == []


def test_the_broken_definitions_of_a_file_are_all_reported_in_file_order():
    text = (BROKEN / "reference.pddl").read_text()
    text = text.replace("(clear ?x) (ontable ?x) (handempty)", "(clear ?z) (ontable ?x) (handempty)")
    text = text.replace(":precondition (holding ?x)", ":precondition (holding ?x ?x)")
    domain = parse_domain(text, "d.pddl", recover=True)
    assert [(b.name, b.error) for b in domain.broken] == [("pick_up", "undeclared-variable"),
                                                          ("put_down", "wrong-arity")]
    assert [a.name for a in domain.actions] == ["stack", "unstack"]


def test_one_name_of_several_is_left_out_alone_and_a_bad_type_drops_its_names():
    text = (BROKEN / "reference.pddl").read_text().replace(
        "(:types block)", "(:types block)\n  (:constants t1 2t t3 - block u1 u2 - furniture)")
    domain = parse_domain(text, "d.pddl", recover=True)
    assert [(b.name, b.error) for b in domain.broken] == [("2t", "invalid-name"), ("u1", "undeclared-type"),
                                                          ("u2", "undeclared-type")]
    assert domain.constants == (("t1", "block"), ("t3", "block"))


def test_an_unclosed_last_action_is_broken_and_the_others_read():
    text = (BROKEN / "reference.pddl").read_text().rstrip()
    assert text.endswith("(not (on ?x ?y))))\n\n)")
    text = text[:-len("(not (on ?x ?y))))\n\n)")] + "(not (on ?x ?y)))\n)"
    domain = parse_domain(text, "d.pddl", recover=True)
    assert [(b.name, b.error, b.line, b.col, b.message) for b in domain.broken] == [
        ("unstack", "unbalanced", 38, 3, "missing ')': this '(' is not closed before the end of the define on line 47")]
    assert [a.name for a in domain.actions] == ACTIONS[:3]
    # the define's ')' forgotten instead (a ')' at the end of a line, not left of the action): refused
    with pytest.raises(InputError, match="never closed"):
        parse_domain((BROKEN / "reference.pddl").read_text().rstrip()[:-1], "d.pddl", recover=True)


def test_a_broken_derived_rule_is_left_out():
    text = """(define (domain d) (:requirements :strips :derived-predicates)
      (:predicates (p ?x) (q ?x) (r ?x))
      (:derived (q ?x) (p ?y))
      (:derived (r ?x) (p ?x))
      (:action a :parameters (?x) :precondition (q ?x) :effect (p ?x)))"""
    domain = parse_domain(text, "d.pddl", recover=True)
    assert [(b.kind, b.name, b.error) for b in domain.broken] == [("derived", "q", "undeclared-variable")]
    assert [r.predicate for r in domain.derived] == ["r"]


@pytest.mark.parametrize("text, message", [
    ("(define (domain d) (:predicates (p ?x) (:action a :parameters (?x) :effect (p ?x)))",
     "d.pddl:1:20: missing ')': this '(' is not closed before '(:action' on line 1"),
    ("(define (domain d) (:requirements :durative-actions) (:action a :effect (and)))",
     "d.pddl:1:35: unsupported feature: requirement :durative-actions"),
    ("(domain d)", "d.pddl:1:1: expected (define (domain NAME) ...)"),
    ("(define (domain d) (:action a :effect (and))", "d.pddl:1:1: missing ')': this '(' is never closed"),
])
def test_a_header_that_does_not_read_is_refused_as_strictly(text, message):
    with pytest.raises(InputError) as e:
        parse_domain(text, "d.pddl", recover=True)
    assert str(e.value) == message


def test_under_strict_warnings_the_broken_action_refuses_the_file():
    with warnings.catch_warnings():
        warnings.simplefilter("error", InputWarning)
        with pytest.raises(InputWarning, match="undeclared variable '\\?y' \\(action 'pick_up' is not scored\\)"):
            load_domain(BROKEN / "undeclared-variable.pddl", recover=True)


def test_every_error_class_is_documented():
    text = (Path(__file__).parents[2] / "docs" / "input.md").read_text()
    section = text[text.index("## What is recovered"):text.index("## PDDL features")]
    assert [k for k in KINDS if f"`{k}`" not in section] == []


def test_the_llm_corpus_broken_actions_are_those_its_manifest_breaks():
    """benchmarks/llm_domains: 125 LLM-style candidates, each change listed in manifest.json. Read as compare
    reads a learned model, every candidate whose header reads is read, and each action it leaves out is one
    the manifest puts a breaking change in (those it does not leave out, a repair reads: an unknown constant,
    a glued dash, an undeclared type); prose or a Markdown fence around the define is unwrapped (pddl.unwrap),
    so none is refused."""
    import json
    root = Path(__file__).parents[2] / "benchmarks" / "llm_domains"
    manifest = json.loads((root / "manifest.json").read_text())["candidates"]
    read, broken, refused = 0, 0, []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for c in manifest:
            breaking = {ch["action"] for ch in c["changes"] if ch["kind"] == "breaking" and ch.get("action")}
            try:
                domain = load_domain(root / c["candidate"], undeclared_predicates=True, recover=True)
            except InputError:
                refused.append({ch["class"] for ch in c["changes"]})
                continue
            read += 1
            left_out = {b.name for b in domain.broken if b.kind == "action"}
            assert left_out <= breaking, c["candidate"]
            broken += len(left_out)
            repaired = {ch["class"] for ch in c["changes"]
                        if ch["kind"] == "breaking" and ch.get("action") in breaking - left_out}
            assert repaired <= {"unknown_constant", "glued_hyphen", "undeclared_type"}, c["candidate"]
    assert (read, broken, refused) == (125, 56, [])
    assert all(classes & {"markdown_fence", "prose_preamble"} for classes in refused)


def test_every_action_broken_is_read_one_at_a_time_in_file_order():
    """Recovery reads each action with the declarations alone once the whole file fails: 300 actions, every
    other one broken, give the 150 broken ones in file order with their own places, and the 150 others."""
    actions = [f"(:action a{i} :parameters (?x ?y) :precondition (and (clear ?x) (on ?x ?y))\n"
               f" :effect (and (clear {'?z' if i % 2 else '?y'}) (not (on ?x ?y))))" for i in range(300)]
    text = "(define (domain bw) (:predicates (clear ?x) (on ?x ?y))\n" + "\n".join(actions) + ")\n"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        d = parse_domain(text, "d.pddl", recover=True)
    assert [a.name for a in d.actions] == [f"a{i}" for i in range(0, 300, 2)]
    assert [(b.name, b.line, b.col, b.error) for b in d.broken] == [
        (f"a{i}", 2 * i + 3, 22, "undeclared-variable") for i in range(1, 300, 2)]
