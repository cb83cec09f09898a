"""A picture of a tournament: each agent's Elo rating with its 95% interval.

Matplotlib is imported only here, and only when a plot is asked for; without it the
error says how to install it.  The file type follows the name: ``.png`` or ``.svg``; the
file is written atomically (:mod:`plies.outputs`).
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from plies.errors import OptionError
from plies.outputs import check_target, replacing
from plies.parallel.backends import BackendError
from plies.tournament.tournament import TournamentResult

FORMATS = (".png", ".svg")
CREATOR = "plies tournament --plot"
"""The program a plot names in its metadata (PNG ``Software``, SVG ``dc:creator``): how
``--plot`` recognises a file it may replace without ``--force`` (:mod:`plies.outputs`)."""


def check_plot_path(path: str | Path, *, force: bool = False) -> Path:
    """The file to draw ``path``'s plot to, if it names a PNG or SVG file that may be
    written (:func:`plies.outputs.check_target`: an existing file that is not a plot of
    plies' needs ``force``) and matplotlib is installed; else
    :class:`~plies.errors.OptionError`, :class:`~plies.errors.OutputFileError` or
    :class:`~plies.parallel.backends.BackendError`."""
    if Path(path).suffix.lower() not in FORMATS:
        raise OptionError(f"--plot {str(path)!r}: the file name must end in .png or .svg")
    target = check_target(path, option="--plot", kind="a plot plies drew",
                          signatures=(CREATOR.encode(),), force=force)
    _figure_class()  # matplotlib missing: say so before the games, not after
    return target


def _figure_class() -> Any:
    try:
        return importlib.import_module("matplotlib.figure").Figure
    except ImportError:
        raise BackendError(
            "matplotlib is not installed; install plies[plot] (pip install matplotlib) "
            "to draw --plot"
        ) from None


def plot_elo(result: TournamentResult, path: str | Path) -> Path:
    """Draw the Elo ratings of ``result`` with their 95% intervals to ``path``.

    Agents are listed best first, top to bottom; the dashed line is the mean (0).
    Returns the path written.
    """
    target = Path(path)
    if target.suffix.lower() not in FORMATS:
        raise OptionError(f"--plot {str(path)!r}: the file name must end in .png or .svg")
    figure_class = _figure_class()
    rows = list(reversed(result.standings()))  # matplotlib draws the first row lowest
    height = 1.2 + 0.45 * len(rows)
    fig = figure_class(figsize=(7.5, height), layout="constrained")
    ax = fig.add_subplot()
    ys = list(range(len(rows)))
    elo = [r.elo for r in rows]
    errors = [[r.elo - r.elo_low for r in rows], [r.elo_high - r.elo for r in rows]]
    ax.errorbar(elo, ys, xerr=errors, fmt="o", color="#1f5fa8", ecolor="#7fa6d6",
                elinewidth=3, capsize=4, markersize=7)
    for y, r in zip(ys, rows, strict=True):
        ax.annotate(f"{r.elo:+.0f}", (r.elo, y), xytext=(0, 7), textcoords="offset points",
                    ha="center", fontsize=8)
    ax.axvline(0, color="#999999", linestyle="--", linewidth=1)
    ax.set_yticks(ys, [f"{r.agent}  (score {100 * r.score:.0f}%)" for r in rows])
    ax.set_ylim(-0.6, len(rows) - 0.4)
    ax.set_xlabel("Elo (mean 0), bars: 95% interval")
    ax.grid(axis="x", alpha=0.3)
    ax.set_title(
        f"{result.game}: {len(result.records)} games, seed {result.seed}", fontsize=10
    )
    with replacing(target, label="--plot") as file:
        if target.suffix.lower() == ".svg":
            fig.savefig(file, format="svg", metadata={"Date": None, "Creator": CREATOR})
        else:
            fig.savefig(file, format="png", dpi=144, metadata={"Software": CREATOR})
    return target
