"""The distribution as a user gets it: `python -m build`, `twine check`, and the wheel installed into a
fresh virtualenv, where `amlasp bench run` finds the IPC suite from any directory.

The fresh venv gets amlasp from the wheel only; its dependencies (clingo, unified-planning, ...)
are those of the test environment, reached through a path entry (so no network is needed beyond
what `python -m build` needs for its isolated build environment).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from tests.support.paths import IPC, ROOT

pytestmark = pytest.mark.slow  # ~60 s: build, venv, one domain of the suite


def clean_env(**extra: str) -> dict[str, str]:
    """The environment without PYTHONPATH: what runs must see the wheel, not this checkout."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")} | extra


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    pytest.importorskip("build")
    out = tmp_path_factory.mktemp("dist")
    # a copy of the checkout: building writes amlasp.egg-info next to the sources, and tests leave the repository alone
    source = tmp_path_factory.mktemp("source") / "amlasp"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info",
                                                                "__pycache__", ".pytest_cache", "results"))
    res = subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(source)], capture_output=True,
                         text=True, timeout=600, env=clean_env())
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    assert "is absent from the `packages` configuration" not in res.stdout + res.stderr  # no data left out
    return out


def test_build_and_twine_check(dist):
    pytest.importorskip("twine")
    files = sorted(dist.iterdir())
    assert sorted(f.suffix for f in files) == [".gz", ".whl"]
    res = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", *map(str, files)], capture_output=True,
                         text=True, timeout=120)
    assert res.returncode == 0, res.stdout + res.stderr


def test_wheel_ships_license_metadata_and_only_the_suite_bench_needs(dist):
    wheel = zipfile.ZipFile(next(dist.glob("*.whl")))
    names = set(wheel.namelist())
    assert "amlasp-0.1.0.dist-info/licenses/LICENSE" in names
    assert "MIT License" in wheel.read("amlasp-0.1.0.dist-info/licenses/LICENSE").decode()
    meta = wheel.read("amlasp-0.1.0.dist-info/METADATA").decode()
    for field in ("Author: ", "Keywords: ", "Classifier: Topic :: Scientific/Engineering",
                  "License-Expression: MIT"):
        assert field in meta, field
    # the suite: every paper domain's reference, solving problems and test states, with the data's license
    from amlasp.experiments.suite import PAPER_DOMAINS
    assert {"amlasp/suite/ipc/LICENSE", "amlasp/suite/states/LICENSE"} <= names
    for d in PAPER_DOMAINS:
        assert f"amlasp/suite/ipc/domains/{d}.pddl" in names
        assert sum(n.startswith(f"amlasp/suite/ipc/problems/solving/{d}/") for n in names) == 10
        assert any(n.startswith(f"amlasp/suite/states/{d}/") and n.endswith("_traj") for n in names)
    assert not [n for n in names if "/learned/" in n or "/trajectories/" in n or "/problems/learning/" in n]
    assert "amlasp/encodings/semantics.lp" in names


def test_installed_wheel_runs_bench_from_another_directory(dist, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120, env=clean_env())
    py = venv / "bin" / "python"
    res = subprocess.run([str(py), "-m", "pip", "install", "-q", "--no-deps", "--no-index",
                          str(next(dist.glob("*.whl")))], capture_output=True, text=True, timeout=300, env=clean_env())
    assert res.returncode == 0, res.stderr
    site = Path(subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True, env=clean_env()).stdout.strip())
    # the test environment's packages as a plain path entry, after the venv's own (its amlasp is the wheel's)
    deps = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (site / "zz_test_environment.pth").write_text("".join(f"{p}\n" for p in sorted(deps)))
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "learned").mkdir(parents=True)
    shutil.copy(IPC / "learned" / "nolam" / "ferry.pddl", elsewhere / "learned")
    amlasp = str(venv / "bin" / "amlasp")

    env = clean_env(PATH=str(venv / "bin") + os.pathsep + os.environ.get("PATH", ""))

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([amlasp, *args], cwd=elsewhere, capture_output=True, text=True, timeout=600, env=env)

    res = subprocess.run([str(py), "-c", "import amlasp.experiments.suite as s; print(s.installed_suite())"],
                         cwd=elsewhere, capture_output=True, text=True, env=env)
    where = res.stdout.strip()
    assert res.returncode == 0 and where.startswith(str(venv)) and where.endswith("amlasp/suite"), \
        res.stdout + res.stderr
    res = run("bench", "run", "--learned", "learned", "--domain", "ferry", "--results", "r.jsonl", "--timeout", "30")
    assert res.returncode == 0, res.stderr
    recs = [json.loads(line) for line in (elsewhere / "r.jsonl").read_text().splitlines()]
    assert [r["task"] for r in recs].count("solve") == 10 and {r["task"] for r in recs} == {"meta", "compare", "eval",
                                                                                             "solve"}
    assert not [r for r in recs if "error" in r] and recs[0]["suite"].startswith("the installed IPC suite")
    res = run("bench", "report", "r.jsonl", "--format", "csv")
    assert res.returncode == 0 and "syntactic,ferry,learned,precision," in res.stdout, res.stderr
    res = run("bench", "run", "--learned", "learned", "--domain", "nosuch", "--results", "r2.jsonl")
    assert res.returncode == 2 and "no reference domain for 'nosuch'" in res.stderr and "--suite" in res.stderr


def test_readme_links_work_on_a_package_index_page_and_its_files_ship_in_the_sdist(dist):
    """A package index shows the README without the repository: a relative link would be dead there,
    so the README names its documents as paths, and the source distribution carries each of them."""
    import re
    import tarfile
    readme = (ROOT / "README.md").read_text()
    assert not re.findall(r"\]\((?!https?://)[^)]*\)", readme)
    named = set(re.findall(r"`((?:docs|benchmarks|amlasp|encodings|examples)/[\w./-]+\.(?:md|pddl|txt|toml))`",
                           readme))
    assert {"docs/compare.md", "docs/input.md", "encodings/README.md"} <= named
    with tarfile.open(next(dist.glob("*.tar.gz"))) as sdist:
        shipped = {n.split("/", 1)[1] for n in sdist.getnames() if "/" in n}
    assert named <= shipped, named - shipped


def test_dir_of_the_package_is_its_api():
    import amlasp
    assert dir(amlasp) == sorted(amlasp.__all__)
    assert not {"Any", "TYPE_CHECKING", "annotations", "import_module"} & set(dir(amlasp))


def test_the_readme_tour_writes_into_a_temporary_folder():
    """Running the tour from a checkout leaves the repository as it was: every file it writes is under $T."""
    import re
    readme = (ROOT / "README.md").read_text()
    tour = readme[readme.index("```bash\nI=benchmarks/ipc"):]
    tour = tour[:tour.index("\n```\n")]
    assert "T=$(mktemp -d)" in tour
    written = re.findall(r"(?:-o|--output|--results|--html|--plots|--keep-plans)\s+(\S+)", tour)
    assert written and all(w.startswith("$T/") for w in written), written
