"""`bench report --html`: the whole report as one self-contained page.

Tables, the figures (SVG, inline as data URIs: vector, nothing to fetch), the settings and versions
of each results file, how the tables are computed, and per-domain notes (why a value is n/a,
planner time-outs, failed units). No scripts, no external resources; the same report gives the
same bytes.
"""

from __future__ import annotations

import base64
import io
from importlib.metadata import PackageNotFoundError, version

from ..experiments.report import MEAN, Report, Table
from .bench import cells, columns
from .escape import html as esc

_CSS = """
body { font-family: Georgia, 'Times New Roman', serif; margin: 2em auto; max-width: 72em; color: #222; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.9em; }
th, td { padding: 0.2em 0.6em; border-bottom: 1px solid #e4e4e4; }
th { border-bottom: 2px solid #888; text-align: center; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.mean td { border-top: 2px solid #888; font-style: italic; }
td.na { color: #999; }
img.figure { width: 100%; max-width: 60em; display: block; margin: 0.5em 0 1.5em 0; }
.small { font-size: 0.85em; color: #555; } dt { font-weight: bold; margin-top: 0.4em; }
"""


def report_html(report: Report) -> str:
    """The page, as text; without matplotlib, the page without its figures (and a line that says so)."""
    from .plots import NEEDS, available, figures, save
    images: dict[str, str] = {}
    for stem, fig in figures(report) if available() else ():
        buf = io.BytesIO()
        save(fig, buf, "svg")
        images[stem] = base64.b64encode(buf.getvalue()).decode("ascii")
    parts = [f"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
             f"<title>amlasp bench report</title>\n<style>{_CSS}</style>\n</head>\n<body>\n",
             "<h1>amlasp bench report</h1>\n", _summary(report)]
    if not available():
        parts.append(f"<p class=\"small\">No figures: {esc(NEEDS)}.</p>\n")
    for t in report.tables:
        parts.append(f"<h2 id=\"{t.name}\">{esc(t.title)}</h2>\n{_table(t)}")
        for stem, what in ((t.name, "per domain"), (f"{t.name}_heatmap", "learner × domain")):
            if stem not in images:
                continue
            parts.append(f"<img class=\"figure\" alt=\"{esc(t.title)}: {what}\" "
                         f"src=\"data:image/svg+xml;base64,{images[stem]}\">\n")
    parts += [_notes(report), _settings(report), _method(), "</body>\n</html>\n"]
    return "".join(parts)


def _summary(report: Report) -> str:
    t = report.tables[0]
    seeds = ", ".join(f"{esc(l)} ({n} seed{'s' * (n != 1)})" for l, n in report.seeds.items())
    return (f"<p>{len(t.learners)} learner(s): {seeds}; {len(t.domains)} domain(s); "
            f"{len(report.meta)} results file(s). Best value of each row in bold; n/a is never counted as 0.</p>\n")


def _table(t: Table) -> str:
    head = "".join(f"<th>{esc(c)}</th>" for c in columns(t))
    rows = []
    for label, row in zip(t.row_labels(), cells(t, lambda s: f"<b>{s}</b>")):
        tds = [f"<td>{esc(row[0])}</td>"]
        for c in row[1:]:
            text = c if c.startswith("<b>") else esc(c)
            tds.append(f"<td class=\"num{' na' if c == 'n/a' else ''}\">{text}</td>")
        cls = ' class="mean"' if label == MEAN else ""
        rows.append(f"<tr{cls}>{''.join(tds)}</tr>")
    return f"<table>\n<tr>{head}</tr>\n" + "\n".join(rows) + "\n</table>\n"


def _notes(report: Report) -> str:
    if not report.notes:
        return "<h2 id=\"notes\">Notes per domain</h2>\n<p>Nothing to note: every unit ran and was scored.</p>\n"
    items = []
    for (learner, domain), notes in sorted(report.notes.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        lis = "".join(f"<li>{esc(n)}</li>" for n in notes)
        items.append(f"<dt>{esc(domain)} — {esc(learner)}</dt><dd><ul>{lis}</ul></dd>")
    return "<h2 id=\"notes\">Notes per domain</h2>\n<dl>\n" + "\n".join(items) + "\n</dl>\n"


def _settings(report: Report) -> str:
    rows = []
    for m in report.meta:
        s = m.get("settings") or {}
        versions = ", ".join(f"{k} {v}" for k, v in (m.get("versions") or {}).items())
        rows.append("<tr>" + "".join(f"<td>{esc(str(x))}</td>" for x in (
            m["file"], m.get("amlasp", "?"), s.get("config", "?"), f"{s.get('timeout', '?')} s",
            f"{s.get('memory_mb', '?')} MB", m.get("suite", "?"), versions or "?")) + "</tr>")
    head = "".join(f"<th>{h}</th>" for h in ("results file", "amlasp", "planner", "time limit", "memory limit",
                                             "suite", "versions"))
    here = []
    for dist in ("amlasp", "matplotlib"):
        try:
            here.append(f"{dist} {version(dist)}")
        except PackageNotFoundError:
            pass
    return (f"<h2 id=\"settings\">Settings and versions</h2>\n<table>\n<tr>{head}</tr>\n" + "\n".join(rows)
            + f"\n</table>\n<p class=\"small\">Report drawn with {esc(', '.join(here))}.</p>\n")


def _method() -> str:
    return """<h2 id="method">How the tables are computed</h2>
<dl>
<dt>syntactic</dt><dd>amlasp compare: precision and recall of preconditions and effects per reference action,
averaged over the actions (or, with --aggregate cumulative, from the summed counts).</dd>
<dt>applicability, effects</dt><dd>amlasp eval on the suite's test states (docs/eval.md).</dd>
<dt>solving</dt><dd>amlasp solve: the share of the recorded problems whose plan, made with the learned model,
is valid in the reference (solved) or not (false; lower is better).</dd>
<dt>n/a</dt><dd>the task could not be scored: the learned model is missing or cannot be used, or the unit failed
(see the notes). n/a is left out of every mean alike, and the mean row says over how many domains it is taken.</dd>
<dt>seeds</dt><dd>results files of the same learner: each cell is the mean ± sample standard deviation over
them; the mean row is the mean ± standard deviation over seeds of each seed's mean over the same domains.</dd>
</dl>
"""


__all__ = ["report_html"]
