"""Figures of the paper's tables, sized and set for a two-column paper.

Per table: `<table>` — bars per domain, one colour per learner (colour-blind-safe palette), a
final `mean` group, error bars for the standard deviation over seeds, n/a as a hatched outline
(never a bar of height 0); `<table>_heatmap` — learner × domain cells (and the mean) per metric,
the value written in each, n/a hatched. Width 7 in (a two-column page's text width), 8 pt serif
text (7 pt ticks), fonts embedded as TrueType in PDF; PNG (300 dpi), SVG and PDF (vector).
The same report gives byte-identical files (no dates, fixed SVG ids).
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, Iterator, Sequence

from ..choices import Choice
from ..errors import InputError
from ..experiments.report import MEAN, Report, Table
from .escape import plot as plot_label


class PlotFormat(Choice):
    """`--plot-format`: the image files written for each figure."""

    PNG = "png"
    SVG = "svg"
    PDF = "pdf"

    @classmethod
    def option(cls) -> str:
        return "--plot-format"


#: Okabe & Ito's colour-blind-safe palette: one colour per learner, in the order learners appear.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000")
WIDTH_IN = 7.0  # \textwidth of a two-column paper (one column: 3.33 in)
STYLE: dict[str, Any] = {
    "font.family": "serif", "font.size": 8, "axes.titlesize": 8, "axes.labelsize": 8, "xtick.labelsize": 7,
    "ytick.labelsize": 7, "legend.fontsize": 7, "axes.spines.top": False, "axes.spines.right": False,
    "axes.linewidth": 0.6, "hatch.linewidth": 0.6, "savefig.dpi": 300, "pdf.fonttype": 42, "ps.fonttype": 42,
    "svg.hashsalt": "amlasp",  # fixed SVG ids: the same report gives the same file
}
_YLABEL = {"P": "precision", "R": "recall", "solved": "solving ratio", "false": "false-plan ratio"}
_METADATA = {"png": {"Software": None}, "svg": {"Date": None}, "pdf": {"CreationDate": None, "ModDate": None}}


#: Said when matplotlib is missing: figures are an extra.
NEEDS = "plots need matplotlib: pip install 'amlasp[plot]'"


def available() -> bool:
    """Whether matplotlib can be imported (the `[plot]` extra), asked before anything is written."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


@contextmanager
def _pyplot() -> Iterator:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InputError(NEEDS) from None
    with plt.rc_context(STYLE):  # type: ignore[arg-type]  # matplotlib types its keys as literals
        yield plt


def figures(report: Report) -> Iterator[tuple[str, object]]:
    """(file stem, matplotlib Figure) for every figure of the report; each is closed after use."""
    with _pyplot() as plt:
        for t in report.tables:
            for stem, draw in zip(_stems(t), (_bars, _heatmap)):
                fig = draw(plt, t)
                try:
                    yield stem, fig
                finally:
                    plt.close(fig)


def _stems(t: Table) -> tuple[str, str]:
    return t.name, f"{t.name}_heatmap"


def figure_files(report: Report, out_dir: str | Path, formats: Sequence[str]) -> list[Path]:
    """The files `plots` writes, for checking them against the inputs before any is drawn."""
    return [Path(out_dir) / f"{stem}.{PlotFormat.parse(str(f))}" for t in report.tables for stem in _stems(t)
            for f in formats]


def save(fig, path: Path | IO[bytes], fmt: str) -> None:
    fig.savefig(path, format=fmt, metadata=_METADATA[fmt], bbox_inches="tight", pad_inches=0.02)


def plots(report: Report, out_dir: str | Path, formats: Sequence[str] = ("png", "svg", "pdf")) -> list[Path]:
    """Write every figure in every format to `out_dir`; the files written."""
    chosen = [PlotFormat.parse(str(f)) for f in formats]
    if not available():  # before the folder is made: a failed call leaves nothing behind
        raise InputError(NEEDS)
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise InputError("--plots: not a directory", out)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for stem, fig in figures(report):
        for f in chosen:
            path = out / f"{stem}.{f}"
            save(fig, path, f.value)
            written.append(path)
    return written


def _columns(t: Table) -> list[str]:
    """The groups' labels: the domains, then the mean."""
    return [plot_label(x) for x in t.domains + (t.mean_label(),)]


def _label(t: Table, key: str, label: str) -> str:
    return _YLABEL.get(label, key.replace("_", " "))


def _bars(plt, t: Table):
    """One panel per metric; groups: the domains, then the mean (after a dashed line)."""
    n_l = max(1, len(t.learners))
    fig, axes = plt.subplots(len(t.metrics), 1, figsize=(WIDTH_IN, 1.45 * len(t.metrics) + 0.45), sharex=True,
                             squeeze=False)
    width = 0.8 / n_l
    rows = list(t.domains) + [MEAN]
    xs_of = [j + (j == len(t.domains)) * 0.6 for j in range(len(rows))]  # the mean group set apart
    for ax, (key, label, higher) in zip(axes[:, 0], t.metrics):
        for i, l in enumerate(t.learners):
            colour = PALETTE[i % len(PALETTE)]
            for j, row in enumerate(rows):
                x = xs_of[j] + (i - (n_l - 1) / 2) * width
                v, sd = t.cell(row, l, key), t.cell_std(row, l, key)
                if v is None:  # n/a: a hatched outline over the whole range, never a bar of height 0
                    ax.bar(x, 1.0, width, fill=False, hatch="////", edgecolor=colour, linewidth=0.4, alpha=0.45)
                    continue
                ax.bar(x, v, width, color=colour, label=plot_label(l) if j == 0 else None,
                       yerr=sd, error_kw={"elinewidth": 0.6, "capsize": 1.2, "ecolor": "0.2"})
                if v == 0:  # a measured 0: a thick stroke on the axis, so that it is seen (n/a is hatched)
                    ax.plot([x - width / 2, x + width / 2], [0, 0], color=colour, linewidth=2.2,
                            solid_capstyle="butt", clip_on=False, zorder=3)
        ax.axvline((xs_of[-2] + xs_of[-1]) / 2, color="0.5", linewidth=0.6, linestyle="--")
        ax.set_ylabel(_label(t, key, label) + ("" if higher else "\n(lower is better)"))
        ax.set_ylim(0, 1.0)
        ax.set_yticks([0, 0.25, 0.5, 0.75, 1.0])
        ax.grid(axis="y", alpha=0.3, linewidth=0.4)
        ax.set_xlim(xs_of[0] - 0.6, xs_of[-1] + 0.6)
    axes[-1, 0].set_xticks(xs_of)
    axes[-1, 0].set_xticklabels(_columns(t), rotation=45, ha="right", rotation_mode="anchor")
    from matplotlib.patches import Patch
    handles = [Patch(color=PALETTE[i % len(PALETTE)], label=plot_label(l)) for i, l in enumerate(t.learners)]
    handles.append(Patch(fill=False, hatch="////", edgecolor="0.4", linewidth=0.4, label="n/a"))
    fig.suptitle(plot_label(t.title, 200), y=0.995)
    fig.legend(handles=handles, loc="upper center", ncol=min(8, len(handles)), frameon=False,
               bbox_to_anchor=(0.5, 0.965))
    fig.tight_layout(rect=(0, 0, 1, 0.95), h_pad=0.4)
    return fig


def _heatmap(plt, t: Table):
    """Learners × (domains, mean) per metric, each cell's value written in it, n/a hatched grey."""
    import numpy as np
    from matplotlib.patches import Rectangle
    rows = list(t.domains) + [MEAN]
    n_l = max(1, len(t.learners))
    fig, axes = plt.subplots(len(t.metrics), 1, figsize=(WIDTH_IN, len(t.metrics) * (0.28 * n_l + 0.45) + 0.9),
                             squeeze=False, layout="constrained")
    cmap = plt.get_cmap("viridis").with_extremes(bad="white")
    for ax, (key, label, higher) in zip(axes[:, 0], t.metrics):
        grid = np.array([[np.nan if (v := t.cell(r, l, key)) is None else v for r in rows] for l in t.learners])
        image = ax.imshow(np.ma.masked_invalid(grid), cmap=cmap if higher else cmap.reversed(), vmin=0, vmax=1,
                          aspect="auto", interpolation="nearest")
        for i in range(grid.shape[0]):
            for j in range(grid.shape[1]):
                if np.isnan(grid[i, j]):
                    ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, hatch="////", edgecolor="0.6",
                                           linewidth=0))
                    ax.text(j, i, "n/a", ha="center", va="center", fontsize=5.5, color="0.3")
                else:
                    dark = (grid[i, j] < 0.55) == higher
                    ax.text(j, i, f"{grid[i, j]:.2f}", ha="center", va="center", fontsize=5.5,
                            color="white" if dark else "black")
        ax.axvline(len(t.domains) - 0.5, color="white", linewidth=2)
        ax.set_yticks(range(len(t.learners)))
        ax.set_yticklabels([plot_label(l) for l in t.learners])
        ax.set_ylabel(_label(t, key, label), rotation=0, ha="right", va="center")
        ax.set_xticks(range(len(rows)))
        if ax is axes[-1, 0]:  # the panels share their columns: labels once, under the last
            ax.set_xticklabels(_columns(t), rotation=45, ha="right", rotation_mode="anchor")
        else:
            ax.set_xticklabels([])
        ax.tick_params(length=0)
        for spine in ax.spines.values():
            spine.set_visible(False)
        bar = fig.colorbar(image, ax=ax, fraction=0.02, pad=0.01, ticks=[0, 0.5, 1])
        bar.outline.set_linewidth(0.4)
    axes[0, 0].set_title(plot_label(t.title, 200))
    return fig


__all__ = ["PlotFormat", "PALETTE", "STYLE", "NEEDS", "available", "figures", "plots", "save"]
