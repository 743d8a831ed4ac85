"""The commands for LLM-written PDDL as a user runs them (docs/llm.md): compare on two problems,
on a folder of candidates, and similarity."""

from __future__ import annotations

import json

from tests.support.cli import run
from tests.support.paths import EXAMPLES

BW = EXAMPLES / "blocksworld"
GEN = """(define (problem g) (:domain blocksworld) (:objects x y z - block)
(:init (handempty) (clear z) (on z y) (on y x) (ontable x))
(:goal (and (on z x) (on x y) {extra})))"""


def test_compare_two_problems_json_says_each_verdict_and_its_notion(tmp_path):
    gen = tmp_path / "gen.pddl"
    gen.write_text(GEN.format(extra="(clear z)"))
    r = run("compare", gen, BW / "problem.pddl", "--domain", BW / "domain.pddl", "-f", "json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["verdicts"] == {"syntactic": False, "semantic": True} and out["equivalent_notion"] == "semantic"
    assert out["edit_distance"] == 1 and out["edits"] == ["remove goal (clear z)"]
    assert sorted(map(tuple, out["mapping"])) == [("x", "b2"), ("y", "b1"), ("z", "b3")]
    assert out["solvable"]["answer"] == "yes" and len(out["solvable"]["plan"]) == 8


def test_compare_two_problems_not_equivalent_exits_1(tmp_path):
    gen = tmp_path / "gen.pddl"
    gen.write_text(GEN.format(extra="(ontable y)"))
    r = run("compare", gen, BW / "problem.pddl", "--domain", BW / "domain.pddl", "--goals", "syntactic")
    assert r.exit_code == 1, r.output
    assert "equivalent (syntactic): no" in r.stdout and "remove goal (ontable y)" in r.stdout
    bad = run("compare", gen, BW / "problem.pddl", "--domain", BW / "domain.pddl", "--goals", "maybe")
    assert bad.exit_code == 2 and "--goals" in bad.output


def test_compare_a_folder_of_candidates(tmp_path):
    (tmp_path / "a.pddl").write_text((BW / "learned.pddl").read_text())
    (tmp_path / "b.pddl").write_text("(define (domain x)")
    r = run("compare", tmp_path, BW / "domain.pddl", "-f", "json", "--jobs", "2")
    assert r.exit_code == 2, r.output  # a candidate could not be read (docs/input.md, "Many inputs: partial runs")
    rows = json.loads(r.stdout)["candidates"]
    assert [(x["status"], x["error_class"]) for x in rows] == [("ok", None), ("error", "syntax")]
    csv = run("compare", tmp_path, BW / "domain.pddl", "-f", "csv", "--as-written")
    assert csv.stdout.splitlines()[0].startswith("candidate,status,error_class,error,edit_distance")
    tex = run("compare", tmp_path, BW / "domain.pddl", "-f", "latex")
    assert "\\begin{tabular}" in tex.stdout


def test_similarity_command(tmp_path):
    r = run("similarity", BW / "learned.pddl", BW / "domain.pddl", "--problems", BW / "problem.pddl", "--walks", "5",
            "-f", "json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["problems"][0]["proven_equivalent"] is True and out["summary"]["ew_mean"] == 1.0
    bad = run("similarity", BW / "learned.pddl", BW / "domain.pddl", "--problems", BW / "problem.pddl",
              "--walks", "0")
    assert bad.exit_code == 2
