"""Sentence templates: one per predicate and per action, with `{?param}` slots (TOML files).

A template file names the domain it is for and gives sentences in which `{?x}` stands for the
parameter `?x` of the predicate or action, as the domain declares it:

    domain = "ferry"
    description = "A ferry carries cars between locations, one car at a time."

    [predicates]
    at = "car {?c} is at location {?l}"
    empty_ferry = "the ferry is empty"

    [negated]           # optional; default: "is" → "is not", else "it is not the case that ..."
    empty_ferry = "the ferry is not empty"

    [actions]
    board = "board car {?car} onto the ferry at location {?loc}"

    [plurals]           # optional; default: English rules ("box" → "boxes")
    ferry = "ferries"

What a file leaves out is rendered generically. The shipped files (amlasp/questions/templates/)
are chosen by the domain's name, among those that fit it; `--templates FILE` gives one explicitly,
and then every name and slot must exist in the domain.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from ..errors import InputError
from ..limits import check_digits, check_nesting

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib
from ..model import Domain

SLOT = re.compile(r"\{(\?[^{}\s]+)\}")
SECTIONS = ("predicates", "negated", "actions", "plurals")


@dataclass(frozen=True)
class Templates:
    """Sentences for one domain, checked against it."""

    domain: str
    description: str = ""
    predicates: dict[str, str] = field(default_factory=dict)
    negated: dict[str, str] = field(default_factory=dict)
    actions: dict[str, str] = field(default_factory=dict)
    plurals: dict[str, str] = field(default_factory=dict)
    source: str = ""


def _place(text: str, key: str, section: str | None = None, mark: str | None = None
           ) -> tuple[int | None, int | None]:
    """Where a key (or a `[section]` header) is written, within `section` if given; the column of `mark`
    in its line when given (a slot). tomllib reports no place for values that parse."""
    current = None
    for i, line in enumerate(text.splitlines(), 1):
        header = re.match(r"\s*\[\s*([^\]\s]+)\s*\]", line)
        if header:
            current = header.group(1).lower()
            if current == key.lower() and section is None:
                return i, len(line) - len(line.lstrip()) + 1
            continue
        if section is not None and current != section:
            continue
        if re.match(rf'\s*"?{re.escape(key)}"?\s*=', line, re.IGNORECASE):
            col = line.find(mark) + 1 if mark and mark in line else len(line) - len(line.lstrip()) + 1
            return i, col
    return None, None


def parse_templates(text: str, source: str = "<templates>") -> Templates:
    """A template file's content, its shape checked (not yet against a domain)."""
    check_nesting(text, source, toml=True)
    check_digits(text, source)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        at = re.search(r"line (\d+), column (\d+)", str(e))
        raise InputError(f"not valid TOML: {re.sub(r' [(]at line .*[)]$', '', str(e))}", source,
                         *((int(at.group(1)), int(at.group(2))) if at else ())) from None
    unknown = set(data) - {"domain", "description", *SECTIONS}
    if unknown:
        key = sorted(unknown)[0]
        raise InputError(f"unknown key '{key}' (expected domain, description, {', '.join(SECTIONS)})", source,
                         *_place(text, key))
    if not isinstance(data.get("domain"), str):
        line, col = _place(text, "domain") if "domain" in data else (1, 1)
        raise InputError("a template file needs `domain = \"<domain name>\"`", source, line, col)
    tables: dict[str, dict[str, str]] = {}
    for section in SECTIONS:
        table = data.get(section, {})
        if not isinstance(table, dict):
            raise InputError(f"[{section}] must be a table", source, *_place(text, section))
        for k, v in table.items():
            if not isinstance(v, str):
                raise InputError(f"{section}.{k} must be a string", source, *_place(text, k, section))
        tables[section] = {k.lower(): v for k, v in table.items()}
    return Templates(data["domain"].lower(), str(data.get("description", "")), tables["predicates"],
                     tables["negated"], tables["actions"], tables["plurals"], source)


def problems(t: Templates, domain: Domain) -> list[tuple[str, str, str | None, str]]:
    """What does not fit `domain`: (section, key, slot or None, message) per unknown name and unknown slot."""
    out: list[tuple[str, str, str | None, str]] = []
    predicates = {p.name: [v for v, _ in p.parameters] for p in domain.predicates}
    actions = {a.name: [v for v, _ in a.parameters] for a in domain.actions}
    for section, kind, declared in (("predicates", "predicate", predicates), ("negated", "predicate", predicates),
                                    ("actions", "action", actions)):
        for name, sentence in getattr(t, section).items():
            if name not in declared:
                out.append((section, name, None, f"[{section}] {name}: the domain has no {kind} '{name}'"))
                continue
            out += [(section, name, "{" + s + "}", f"[{section}] {name}: slot {{{s}}} is not a parameter of "
                                                   f"'{name}' ({' '.join(declared[name]) or 'none'})")
                    for s in SLOT.findall(sentence) if s not in declared[name]]
    return out


def load_templates(path: str | Path, domain: Domain) -> Templates:
    """A template file given by the user: every name and slot must exist in `domain`."""
    from ..pddl.source import read_text
    text = read_text(path)
    t = parse_templates(text, str(path))
    bad = problems(t, domain)
    if bad:
        section, key, slot, message = bad[0]
        raise InputError(message, path, *_place(text, key, section, slot))
    return t


def shipped() -> list[Templates]:
    """The template files shipped with amlasp, sorted by file name."""
    folder = resources.files("amlasp.questions") / "templates"
    return [parse_templates(f.read_text(), f"templates/{f.name}")
            for f in sorted(folder.iterdir(), key=lambda f: f.name) if f.name.endswith(".toml")]


def templates_for(domain: Domain) -> Templates | None:
    """The shipped templates for a domain of this name that fit it (the first, by file name)."""
    for t in shipped():
        if t.domain == domain.name.lower() and not problems(t, domain):
            return t
    return None


__all__ = ["Templates", "SLOT", "parse_templates", "load_templates", "templates_for", "shipped", "problems"]
