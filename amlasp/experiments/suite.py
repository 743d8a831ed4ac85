"""Where `amlasp bench` finds its suite: the installed IPC suite, a directory in its layout, or a TOML manifest.

A suite gives each domain its reference model, the problems `solve` plans for and the test
states `eval` reads. Three sources, one interface (`Suite.domain`):

- the IPC suite shipped with amlasp, the default: package data `amlasp/suite/` in an installed
  wheel, `benchmarks/` in a source checkout (the same files: setup.py maps one onto the other,
  so the repository keeps one copy where its tour and tests use it);
- a directory in that layout (`--suite DIR`): `ipc/domains/<d>.pddl`,
  `ipc/problems/solving/<d>/*.pddl`, `states/<d>/*_traj` with their problems in `states/<d>/problems/`;
- a TOML manifest (`--suite FILE.toml`) for a user's own domains (docs/bench.md):

      [domains.ferry]
      reference = "ferry/domain.pddl"
      problems = "ferry/problems"          # a directory of *.pddl, a file, or a list of them
      states = ["ferry/states"]            # trajectories, JSON state files, problem files, or directories
      state_problems = "ferry/states/problems"   # optional: where the trajectories' problems are

Every error names the suite and says how to choose another (`--suite`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

from ..errors import InputError
from ..limits import check_digits, check_nesting

#: The 20 IPC learning-track domains of the paper, in the order of its tables.
PAPER_DOMAINS: tuple[str, ...] = (
    "barman", "blocksworld", "childsnack", "depots", "elevators", "ferry", "floortile", "goldminer", "grippers",
    "matchingbw", "miconic", "nomystery", "npuzzle", "parking", "rovers", "satellite", "sokoban", "spanner", "tpp",
    "transport",
)
_HOW = "choose a suite with --suite DIR or --suite manifest.toml; see docs/bench.md"
_KEYS = ("reference", "problems", "states", "state_problems")


@dataclass(frozen=True)
class SuiteDomain:
    """One domain of a suite, its paths resolved (relative to the manifest, for a manifest)."""

    name: str
    reference: Path
    problems: tuple[Path, ...] = ()  # solve: problem files
    states: tuple[Path, ...] = ()  # eval: state files
    state_problems: Optional[Path] = None  # eval: the trajectories' problems (default: next to each)


def installed_suite() -> Optional[Path]:
    """The shipped IPC suite: package data in a wheel, else the source checkout's `benchmarks/`."""
    package = Path(__file__).resolve().parents[1] / "suite"
    if (package / "ipc" / "domains").is_dir():
        return package
    checkout = Path(__file__).resolve().parents[2] / "benchmarks"
    return checkout if (checkout / "ipc" / "domains").is_dir() else None


def suite_reference(path: str | Path) -> Optional[str]:
    """The domain whose reference in the installed suite `path` is (the same bytes), or None."""
    root = installed_suite()
    try:
        data = Path(path).read_bytes()
    except OSError:
        return None
    if root is None or len(data) > 1 << 20:
        return None
    for ref in sorted((root / "ipc" / "domains").glob("*.pddl")):
        if ref.stat().st_size == len(data) and ref.read_bytes() == data:
            return ref.stem
    return None


def swapped(learned: str | Path, reference: str | Path) -> list[str]:
    """A warning when the file given as the learned model is a reference domain of the installed suite and
    the reference is not: the two were most likely given the other way round (LEARNED comes first)."""
    name = suite_reference(learned)
    if name is None or suite_reference(reference) is not None:
        return []
    return [f"{learned} is the IPC suite's reference domain of {name}, given as the learned model: are the "
            f"two swapped? (the learned model comes first, then the reference)"]


class Suite:
    """A suite: `domain(name, tasks)` gives what the tasks need, or a one-line error naming the suite."""

    def __init__(self, root: Path, manifest: Optional[dict[str, dict]] = None, installed: bool = False):
        self.root = root
        self.manifest = manifest  # domain → entry (paths already resolved), for a manifest suite
        self.installed = installed

    @property
    def quote_within(self) -> Optional[str]:
        """For a manifest: its folder. A file the manifest names from elsewhere is read, but an error in it
        is told by its place and class only, never by what the file holds (a manifest is untrusted)."""
        return str(self.root.parent) if self.manifest is not None else None

    def describe(self) -> str:
        kind = "manifest" if self.manifest is not None else ("installed IPC suite" if self.installed else "suite")
        return f"the {kind} {self.root}"

    @property
    def default_domains(self) -> tuple[str, ...]:
        return tuple(self.manifest) if self.manifest is not None else PAPER_DOMAINS

    def domain(self, name: str, tasks: Sequence[str]) -> SuiteDomain:
        """The files of `name` that `tasks` need; missing ones are refused here, before any unit runs."""
        d = self._manifest_domain(name) if self.manifest is not None else self._layout_domain(name, tasks)
        if not d.reference.is_file():
            raise InputError(f"no reference domain for '{name}' in {self.describe()} ({_HOW})", d.reference)
        if "solve" in tasks and not d.problems:
            raise InputError(f"no problems for '{name}' in {self.describe()} (needed by solve; {_HOW}, "
                             "or leave solve out with --task)")
        if "eval" in tasks and not d.states:
            raise InputError(f"no test states for '{name}' in {self.describe()} (needed by eval; make them with "
                             f"amlasp gen trajectories, {_HOW}, or leave eval out with --task)")
        return d

    def _layout_domain(self, name: str, tasks: Sequence[str]) -> SuiteDomain:
        from ..pddl.inputs import listing, problem_files
        ipc, states = self.root / "ipc", self.root / "states" / name
        ref = ipc / "domains" / f"{name}.pddl"
        solving = ipc / "problems" / "solving" / name
        problems = tuple(problem_files(solving)) if "solve" in tasks and solving.is_dir() else ()
        trajs = tuple(listing(states, "*_traj")) if states.is_dir() else ()
        return SuiteDomain(name, ref, problems, trajs, states / "problems" if (states / "problems").is_dir() else None)

    def _manifest_domain(self, name: str) -> SuiteDomain:
        entry = self.manifest.get(name) if self.manifest is not None else None
        if entry is None:
            raise InputError(f"no domain '{name}' in this manifest (it has {', '.join(self.manifest) or 'none'})",
                             self.root)
        from ..pddl.inputs import input_files, problem_files
        try:
            problems = tuple(problem_files(entry["problems"])) if entry.get("problems") else ()
            states = tuple(input_files(entry.get("states") or [], where=" (in the suite manifest)"))
        except InputError as e:  # a path the manifest names: said with the manifest and the domain
            raise InputError(f"{e} (named by domain '{name}' of the suite manifest {self.root})") from None
        return SuiteDomain(name, entry["reference"], problems, states, entry.get("state_problems"))


def load_suite(suite: str | Path | None = None) -> Suite:
    """The suite at `suite` (a directory or a `.toml` manifest), or the installed IPC suite."""
    if suite is None:
        root = installed_suite()
        if root is None:
            raise InputError(f"the IPC suite is not installed with this amlasp; {_HOW}")
        return Suite(root, installed=True)
    path = Path(suite).resolve()
    if path.is_dir():
        if not (path / "ipc" / "domains").is_dir():
            raise InputError(f"not a suite directory (expected ipc/domains/<domain>.pddl; a manifest is a .toml file; "
                             f"{_HOW})", path)
        return Suite(path)
    if not path.is_file():
        raise InputError(f"no such suite directory or manifest ({_HOW})", path)
    return Suite(path, manifest=read_manifest(path))


def read_manifest(path: Path) -> dict[str, dict]:
    """domain → {reference, problems, states, state_problems} with paths relative to the manifest resolved."""
    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]
    from ..pddl.source import read_text
    try:
        text = read_text(path)
        check_nesting(text, path, toml=True)
        check_digits(text, path)
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"\(at line (\d+)", str(e))
        raise InputError(f"not a TOML suite manifest: {str(e).split(' (at line')[0]}", path,
                         int(m.group(1)) if m else None) from None
    domains = data.get("domains")
    unknown = sorted(set(data) - {"domains"})
    if unknown or not isinstance(domains, dict) or not domains:
        raise InputError("a suite manifest has [domains.<name>] tables and nothing else"
                         + (f" (unknown: {', '.join(unknown)})" if unknown else ""), path)
    base = path.parent
    out: dict[str, dict] = {}
    for name, entry in domains.items():
        where = f"[domains.{name}]"
        if not isinstance(entry, dict):
            raise InputError(f"{where} must be a table", path)
        bad = sorted(set(entry) - set(_KEYS))
        if bad:
            raise InputError(f"{where}: unknown key {', '.join(map(repr, bad))} (expected {', '.join(_KEYS)})", path)
        if "reference" not in entry:
            raise InputError(f"{where}: missing 'reference' (the reference domain file)", path)
        out[name] = {k: _paths(base, v, f"{where} {k}", path, many=k in ("problems", "states"))
                     for k, v in entry.items()}
    return out


def _paths(base: Path, value, where: str, manifest: Path, many: bool):
    """A manifest value as a path (or, for `problems`/`states`, a list of paths), relative to the manifest
    (an absolute path is taken as it is: a researcher's files may live anywhere; what a file outside the
    manifest's folder holds is never quoted in a message, `Suite.quote_within`)."""
    items = value if isinstance(value, list) else [value]
    if not items or not all(isinstance(v, str) and v and "\0" not in v for v in items) or (len(items) > 1 and not many):
        raise InputError(f"{where}: expected {'a path or a list of paths' if many else 'a path'} (strings)", manifest)
    paths = [(base / v).resolve() for v in items]
    return paths if many else paths[0]


__all__ = ["PAPER_DOMAINS", "Suite", "SuiteDomain", "installed_suite", "load_suite", "read_manifest"]
