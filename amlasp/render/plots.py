"""Plots of the paper's tables: per-domain bars, one group per domain, one bar per learner."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from ..choices import Choice
from ..errors import InputError
from ..experiments.report import Report, Table


class PlotFormat(Choice):
    """`--plot-format`: the image files written for each table."""

    PNG = "png"
    SVG = "svg"

    @classmethod
    def option(cls) -> str:
        return "--plot-format"


_YLABEL = {"P": "precision", "R": "recall", "solved": "solving ratio", "false": "false-plan ratio"}


def plots(report: Report, out_dir: str | Path, formats: Sequence[str] = ("png", "svg")) -> list[Path]:
    """Per-domain precision/recall per learner (grouped bars), one figure per table; the files written."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InputError("plots need matplotlib: pip install 'amlasp[plot]'") from None
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for t in report.tables:
        fig = _figure(plt, t)
        for f in formats:
            path = out / f"{t.name}.{f}"
            fig.savefig(path)
            written.append(path)
        plt.close(fig)
    return written


def _figure(plt, t: Table):
    """One panel per metric of the table, the domains along the x axis."""
    fig, axes = plt.subplots(len(t.metrics), 1, figsize=(max(6.0, 0.55 * len(t.domains) + 2), 2.6 * len(t.metrics)),
                             sharex=True, squeeze=False)
    width = 0.8 / max(1, len(t.learners))
    for ax, (key, label, _) in zip(axes[:, 0], t.metrics):
        for i, l in enumerate(t.learners):
            ys = [t.values.get((d, l, key)) for d in t.domains]
            xs = [j + (i - (len(t.learners) - 1) / 2) * width for j in range(len(t.domains))]
            ax.bar(xs, [y if y is not None else 0.0 for y in ys], width, label=l)
        ax.set_ylabel(_YLABEL.get(label, key.replace("_", " ")))
        ax.set_ylim(0, 1.22)  # room for the legend above the bars
        ax.set_yticks([0, 0.25, 0.5, 0.75, 1.0])
        ax.grid(axis="y", alpha=0.3)
    axes[-1, 0].set_xticks(range(len(t.domains)))
    axes[-1, 0].set_xticklabels(t.domains, rotation=60, ha="right")
    axes[0, 0].set_title(t.title)
    axes[0, 0].legend(fontsize="small", ncol=min(6, len(t.learners)), loc="upper right")
    fig.tight_layout()
    return fig
