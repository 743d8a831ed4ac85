"""The corpus of LLM-style domains (benchmarks/llm_domains/) is what its manifest says: every candidate and
reference exists, no file is unlisted, every change names a known class of its kind and, where it is in
an action, an action of the candidate; and the committed files are what the seeded generator writes.
Cheap: nothing is scored (benchmarks/bench_llm_domains.py does that)."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parents[2] / "benchmarks" / "llm_domains"


@pytest.fixture(scope="module")
def make():
    spec = importlib.util.spec_from_file_location("llm_domains_make", CORPUS / "make.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    yield module
    del sys.modules[spec.name]


def manifest(root: Path = CORPUS) -> dict:
    return json.loads((root / "manifest.json").read_text(encoding="utf-8"))


def test_every_listed_file_exists_and_every_file_is_listed():
    entries = manifest()["candidates"]
    assert len(entries) >= 100
    listed = [CORPUS / e["candidate"] for e in entries]
    assert len(set(listed)) == len(listed)
    assert all(p.is_file() for p in listed), [str(p) for p in listed if not p.is_file()]
    assert set(listed) == set((CORPUS / "domains").glob("*.pddl"))
    refs = {(CORPUS / e["reference"]).resolve() for e in entries}
    assert all(r.is_file() for r in refs), [str(r) for r in refs if not r.is_file()]
    assert (CORPUS / "README.md").is_file() and (CORPUS / "LICENSE").is_file()


def test_every_change_is_of_a_known_class_and_names_an_action_of_its_candidate(make):
    for e in manifest()["candidates"]:
        text = (CORPUS / e["candidate"]).read_text(encoding="utf-8")
        actions = set(re.findall(r"\(:action\s+([^\s()]+)", text))
        mistakes = 0
        for c in e["changes"]:
            assert make.KINDS[c["class"]] == c["kind"], (e["candidate"], c)
            assert c["action"] is None or c["action"] in actions, (e["candidate"], c, actions)
            mistakes += c["kind"] in ("breaking", "lenient") and c["class"] != "missing_requirements"
        expected = {"clean": (0, 0), "one_broken": (1, 1), "several_broken": (2, 3)}[e["profile"]]
        assert expected[0] <= mistakes <= expected[1], (e["candidate"], e["profile"], e["changes"])


def test_the_mix_is_mostly_one_broken_action_with_clean_and_several(make):
    entries = manifest()["candidates"]
    profiles = [e["profile"] for e in entries]
    assert profiles.count("one_broken") > len(entries) / 2
    assert profiles.count("clean") >= 10 and profiles.count("several_broken") >= 10
    classes = {c["class"] for e in entries for c in e["changes"]}
    assert set(make.KINDS) <= classes, set(make.KINDS) - classes


def test_the_committed_files_are_what_the_generator_writes(make, tmp_path):
    make.write(tmp_path, manifest()["seed"])
    assert manifest(tmp_path) == manifest()
    for p in sorted((CORPUS / "domains").glob("*.pddl")):
        assert (tmp_path / "domains" / p.name).read_bytes() == p.read_bytes(), p.name
