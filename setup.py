"""Build script: the one thing pyproject.toml cannot say.

The IPC suite that `amlasp bench` runs lives once in the repository, under benchmarks/, where
the README's tour, the tests and the benchmark scripts use it. In the wheel it becomes the data
directory amlasp/suite/ (`package_dir` maps each of its directories, `package_data` says which
files: the references, the solving problems, the test states with their problems, the
licenses; not the training data or the learned models), so that an installed amlasp finds it
from any directory (amlasp/experiments/suite.py). Everything else is in pyproject.toml.
"""

from pathlib import Path

from setuptools import find_namespace_packages, setup


def suite() -> dict[str, tuple[str, list[str]]]:
    """Data package → (its directory, the files it ships)."""
    out = {"amlasp.suite.ipc": ("benchmarks/ipc", ["LICENSE"]),
           "amlasp.suite.ipc.domains": ("benchmarks/ipc/domains", ["*.pddl"]),
           "amlasp.suite.states": ("benchmarks/states", ["LICENSE"])}
    for d in sorted(p for p in Path("benchmarks/ipc/problems/solving").iterdir() if p.is_dir()):
        out[f"amlasp.suite.ipc.problems.solving.{d.name}"] = (d.as_posix(), ["*.pddl"])
    for d in sorted(p for p in Path("benchmarks/states").iterdir() if p.is_dir()):
        out[f"amlasp.suite.states.{d.name}"] = (d.as_posix(), ["*_traj"])
        if (d / "problems").is_dir():
            out[f"amlasp.suite.states.{d.name}.problems"] = ((d / "problems").as_posix(), ["*.pddl"])
    return out


SUITE = suite()
#: The clingo programs live once, in the repository's top-level encodings/; in the wheel they are the data
#: directory amlasp/encodings/ (`asp.run.encodings_folder` finds either).
DATA = SUITE | {"amlasp.encodings": ("encodings", ["*.lp", "README.md"])}
setup(packages=find_namespace_packages(include=["amlasp", "amlasp.*"], exclude=["*.__pycache__"]) + list(DATA),
      package_dir={name: directory for name, (directory, _) in DATA.items()},
      package_data={"amlasp.questions": ["templates/*.toml"]} | {name: files for name, (_, files) in DATA.items()})
