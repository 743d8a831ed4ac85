"""amlasp/pddl/sexpr.py: the line-aware reader every PDDL text goes through first."""

from __future__ import annotations

import pytest

from amlasp.errors import InputError
from amlasp.pddl.parse import parse_domain
from amlasp.pddl.sexpr import read

DOMAIN = """(define (domain Blocks)  ; a comment (with a parenthesis
  (:predicates (On ?x ?y)
               (Clear ?x))
  ; a whole line of comment )
  (:action Pick-Up :parameters (?x)
     :precondition (Clear ?x)
     :effect (not (Clear ?x))))
"""


def test_tree_tokens_lower_case_and_comments_skipped():
    tree = read(DOMAIN, "d.pddl")
    assert tree == ["define", ["domain", "blocks"], [":predicates", ["on", "?x", "?y"], ["clear", "?x"]],
                    [":action", "pick-up", ":parameters", ["?x"], ":precondition", ["clear", "?x"], ":effect",
                     ["not", ["clear", "?x"]]]]
    assert tree.head() == "define" and tree[2].head() == ":predicates" and tree[3][7].head() == "not"


def test_every_token_and_list_knows_its_lines():
    tree = read(DOMAIN, "d.pddl")
    assert (tree.line, tree.end_line) == (1, 7)
    predicates = tree[2]
    assert (predicates.line, predicates.end_line) == (2, 3)
    assert predicates[2].line == 3 and predicates[2][0].line == 3
    action = tree[3]
    assert action.line == 5 and action[1].line == 5
    assert [t.line for t in action if isinstance(t, str) and t.startswith(":")] == [5, 5, 6, 7]


def test_crlf_and_cr_free_text_read_alike():
    tree = read(DOMAIN.replace("\n", "\r\n"), "d.pddl")
    assert tree == read(DOMAIN, "d.pddl")
    assert tree[3].line == 5 and tree.end_line == 7


def error(text: str) -> InputError:
    with pytest.raises(InputError) as caught:
        read(text, "f.pddl")
    return caught.value


@pytest.mark.parametrize("text,line,col,message", [
    ("", 1, 1, "empty file: no PDDL definition found"),
    ("; only a comment\n\n", 1, 1, "empty file: no PDDL definition found"),
    ("; only a comment\r\r", 1, 1, "empty file: no PDDL definition found"),
    ("(define (domain d))\n(extra)", 2, 1, "unexpected '(' after the end of the definition"),
    ("(define (domain d)))", 1, 20, "unexpected ')' after the end of the definition"),
    ("\nword (define)", 2, 1, "unexpected 'word' outside parentheses"),
    (")(define)", 1, 1, "unbalanced ')': no '(' to close"),
    ("(define\n (domain d)\n", 1, 1, "missing ')': this '(' is never closed"),
    ("(define (domain d) \x00)", 1, 1, "binary data, not a PDDL text file"),
    ("(define\n (domain d\x07))", 2, 11, "unreadable characters (is this a PDDL text file?)"),
    ("(define\r (domain d\x07))", 2, 11, "unreadable characters (is this a PDDL text file?)"),
    ("(a " * 101 + ")" * 101, 1, 301, "nesting deeper than 100 levels (set AMLASP_MAX_DEPTH to raise the limit of "
                                      "100 levels)"),
])
def test_errors_name_the_file_line_and_column(text, line, col, message):
    e = error(text)
    assert (e.file, e.line, e.col, e.message) == ("f.pddl", line, col, message)
    assert str(e) == f"f.pddl:{line}:{col}: {message}"


def test_a_missing_paren_is_found_where_a_keyword_shows_it():
    """Noticed only at the end of the file; the misplaced keyword points at the list left open."""
    text = DOMAIN.replace("(Clear ?x)\n     :effect", "(and (Clear ?x)\n     :effect")
    e = error(text)
    assert (e.line, e.col) == (6, 20) and e.message == "missing ')': this '(' is not closed before ':effect' on line 7"
    problem = "(define (problem p) (:domain d)\n  (:objects a)\n  (:init (on a a)\n  (:goal (on a a)))\n"
    e = error(problem)
    assert (e.line, e.col) == (3, 3) and e.message == "missing ')': this '(' is not closed before '(:goal' on line 4"


def test_columns_count_characters_and_a_question_mark_starts_a_variable():
    tree = read("(define\n\t(p ?x?y)  (clean?param_1 - c))", "f.pddl")
    p, clean = tree[1], tree[2]
    assert [(t, t.line, t.col) for t in p] == [("p", 2, 3), ("?x", 2, 5), ("?y", 2, 7)]
    assert (p.line, p.col, p.end_line, p.end_col) == (2, 2, 2, 9)
    assert list(clean) == ["clean", "?param_1", "-", "c"] and clean[1].col == 18


def test_a_snippet_is_read_at_its_place_in_its_file():
    node = read("(on a\n b)", "plan.txt", line=7, col=3)
    assert (node.line, node.col, node[1].col, node[2].line, node[2].col) == (7, 3, 7, 8, 2)


def _tokens(node):
    from amlasp.pddl.sexpr import Token, nodes
    return [n for n in nodes(node) if isinstance(n, Token)]


def test_a_type_glued_to_its_dash_is_read_as_dash_and_type():
    """unified-planning's sailing domain writes `(x ?b -boat)`: `-` then `boat` (no name or number begins
    with a dash and a letter); negative numbers and names with dashes stay one token."""
    root = read("(x ?b -boat ?c - Person c-d -1.5 -)")
    assert list(root) == ["x", "?b", "-", "boat", "?c", "-", "person", "c-d", "-1.5", "-"]
    assert [(t.col) for t in root[2:4]] == [7, 8]
    d = parse_domain("(define (domain s) (:types boat) (:predicates (saved ?b -boat))\n"
                     "(:action a :parameters (?b -boat) :precondition (saved ?b) :effect (not (saved ?b))))")
    assert d.predicates[0].parameters == (("?b", "boat"),) and d.actions[0].parameters == (("?b", "boat"),)


# --------------------------------------------------------------------------- the plain reader's fast path

def _same(a, b) -> bool:
    """Equal trees, every token's and list's place included."""
    if type(a) is not type(b) or (a.line, a.col) != (b.line, b.col):
        return False
    if isinstance(a, str):
        return str(a) == str(b)
    return (a.end_line, a.end_col) == (b.end_line, b.end_col) and len(a) == len(b) and \
        all(_same(x, y) for x, y in zip(a, b))


def _both(text: str, line: int = 1, col: int = 1):
    from amlasp.pddl import sexpr
    try:
        checked = sexpr._read_checked(text, "f.pddl", line, col, 100)
    except InputError:
        checked = None
    return checked, sexpr._read_plain(text, line, col, 100)


@pytest.mark.parametrize("folder", ["benchmarks/ipc/domains", "benchmarks/ipc_big", "examples"])
def test_the_plain_reader_gives_the_checked_readers_tree(folder):
    """`read` takes `_read_plain` for an ASCII text: the same tree, every position equal, as the token reader's."""
    from pathlib import Path
    root = Path(__file__).resolve().parents[2] / folder
    files = sorted(root.rglob("*.pddl"))
    assert files
    for path in files:
        text = path.read_text()
        checked, plain = _both(text)
        assert checked is not None and plain is not None and _same(checked, plain), path
        checked, plain = _both(text, 4, 0)  # a text read from inside a file (a plan line, a JSON literal)
        assert _same(checked, plain), path


@pytest.mark.parametrize("text", [
    "", ";c", "(a) b", "(a)(b)", ")", "(a", "a (b)", "(a ;x)", "(a))", "((" * 60 + "x" + "))" * 60])
def test_the_plain_reader_leaves_every_error_to_the_checked_reader(text):
    checked, plain = _both(text)
    assert checked is None and plain is None


@pytest.mark.parametrize("text", ["(A-B ?X-y -Z ?x- T)", "(a\t(b ; c)\n ) (-c\x0bd) ?)", "(a\n\n\n   b)"])
def test_the_plain_reader_splits_tokens_as_the_checked_reader(text):
    checked, plain = _both(text, 2, 5)
    assert plain is not None and _same(checked, plain)


@pytest.mark.parametrize("text,line,col", [("(a é\n(b \x07))", 2, 4), ("(a\n (b\x01))", 2, 4)])
def test_a_text_with_other_characters_is_read_by_the_checked_reader(text, line, col):
    with pytest.raises(InputError) as caught:
        read(text, "f.pddl")
    assert (caught.value.line, caught.value.col) == (line, col)


def test_headed_lists_in_file_order():
    from amlasp.pddl.sexpr import headed
    tree = read("(define (a (b x) (:parameters (c))) (b (a)) (d :parameters))")
    assert [n.line for n in headed(tree, frozenset({"a", "b"}))] == [1, 1, 1, 1]
    assert [list(n) for n in headed(tree, frozenset({"a", "b"}))] == [
        ["a", ["b", "x"], [":parameters", ["c"]]], ["b", "x"], ["b", ["a"]], ["a"]]
    assert [n[0] for n in headed(tree, frozenset(), ":parameters")] == [":parameters", "d"]
    assert headed(read("(x)")[0], frozenset({"x"})) == []


@pytest.mark.parametrize("text", [
    "(define (a (b x) (:parameters (c))) (b (a)) (d :parameters) (:action e :parameters (?x) :effect (and (a) (b))))",
    "(define (d é) (:action a :parameters (?x - b) :precondition (and (b ?x) (a))))",  # the checked reader's
])
def test_an_outline_finds_what_headed_finds(text):
    from amlasp.pddl.sexpr import List, Outline, headed, read_outlined
    tree, outline = read_outlined(text)
    assert [id(n) for n in outline.lists] == [id(n) for n in Outline.of(tree).lists]
    for heads, holding in ((frozenset({"a", "b"}), None), (frozenset(), ":parameters"), (frozenset({"and"}), "?x")):
        assert [id(n) for n in outline.headed(heads, holding)] == [id(n) for n in headed(tree, heads, holding)]
        for section in (s for s in tree if isinstance(s, List)):
            assert [id(n) for n in outline.headed(heads, holding, within=section)] == \
                [id(n) for n in headed(section, heads, holding)]


def test_the_first_list_holding_a_token():
    from amlasp.pddl.sexpr import first_holding, headed
    tree = read("(define (a (b - x) - (c -)) (d (- e)))")
    assert first_holding(tree, "-") is headed(tree, frozenset(), "-")[0]
    assert first_holding(tree, "-") == ["a", ["b", "-", "x"], "-", ["c", "-"]]
    assert first_holding(tree, "?y") is None
