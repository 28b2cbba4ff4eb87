"""The cookbook's pictures: a search's trace as a timeline, measured benchmarks as bar charts.

Figures are drawn with matplotlib's object API on the Agg canvas and shown as PNG
images, so they look the same in Jupyter, on GitHub and in a headless run, whatever
backend the kernel would pick. The benchmark figures are read from
``benchmarks/results/<name>.json``, which the scripts in ``benchmarks/`` write
themselves (``--json``): what was measured, never numbers typed or computed here.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from IPython.display import Image
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

RESULTS = Path(__file__).resolve().parent.parent / "benchmarks" / "results"
#: Ours first, in the project's colour; peers in grey.
OURS, PEER = "#2a6fdb", "#9aa0a6"
#: One colour per kind of trace node, and for a node that failed.
NODE_COLOURS = {"search": "#4d4d4d", "search_item": "#2a6fdb", "search_step": "#8fb3f0"}
FAILED = "#d64545"


def results(name: str) -> dict[str, dict[str, float]]:
    """The systems one benchmark measured and their figures, as it wrote them."""
    data = json.loads((RESULTS / f"{name}.json").read_text(encoding="utf-8"))
    systems: dict[str, dict[str, float]] = data["systems"]
    return systems


def measured(
    systems: Mapping[str, Mapping[str, float]], metric: str, *, names: str = ""
) -> dict[str, dict[str, float]]:
    """The systems that measured ``metric`` (and whose name matches ``names``), with it alone."""
    return {
        name: {metric: figures[metric]}
        for name, figures in systems.items()
        if metric in figures and re.search(names, name)
    }


def png(figure: Figure) -> Image:
    """Render ``figure`` on the Agg canvas as an embeddable PNG image."""
    FigureCanvasAgg(figure)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100, metadata={"Software": None})
    return Image(data=buffer.getvalue(), format="png")


def bars(
    ax: Any,
    systems: dict[str, dict[str, float]],
    metric: str,
    *,
    unit: str = "",
    fmt: str = "{:.4f}",
) -> None:
    """Horizontal bars of ``metric`` per system, ours highlighted, each bar labelled."""
    names = list(systems)
    values = [systems[name][metric] for name in names]
    colours = [OURS if name.startswith("unified-search") else PEER for name in names]
    positions = range(len(names))
    ax.barh(positions, values, color=colours)
    ax.set_yticks(list(positions), names)
    ax.invert_yaxis()
    for position, value in zip(positions, values, strict=True):
        ax.text(value, position, " " + fmt.format(value) + unit, va="center", fontsize=8)
    ax.set_xlim(0, max(values) * 1.25)
    ax.spines[["top", "right"]].set_visible(False)


def comparison(
    panels: Sequence[tuple[str, dict[str, dict[str, float]], str]],
    *,
    title: str,
    columns: int = 2,
    unit: str = "",
    fmt: str = "{:.4f}",
    marker: tuple[float, str] | None = None,
) -> Image:
    """A grid of bar charts, ``(panel title, systems, metric)`` each, as a PNG image.

    ``marker`` draws a dashed reference line, ``(value, label)``, on every panel.
    """
    columns = min(columns, len(panels))
    rows = -(-len(panels) // columns)
    height = 0.42 * max(len(systems) for _, systems, _ in panels) + 1.1
    longest = max(len(name) for _, systems, _ in panels for name in systems)
    width = max(5.6, 3.0 + 0.07 * longest)  # room for the longest system's name
    figure = Figure(figsize=(width * columns, height * rows + 0.5))
    axes = figure.subplots(rows, columns, squeeze=False).flatten()
    for ax, (name, systems, metric) in zip(axes, panels, strict=False):
        bars(ax, systems, metric, unit=unit, fmt=fmt)
        ax.set_title(name, fontsize=9)
        if marker:
            ax.axvline(marker[0], color="#333333", linestyle="--", linewidth=0.8, label=marker[1])
            ax.legend(loc="lower right", fontsize=7, frameon=False)
    for ax in axes[len(panels) :]:
        ax.set_visible(False)
    figure.suptitle(title, fontsize=11)
    figure.tight_layout()
    return png(figure)


def shares(systems: dict[str, dict[str, float]], parts: Sequence[str], *, title: str) -> Image:
    """One stacked bar per system: the percentage of each of ``parts``, labelled."""
    colours = ["#3c9d5d", "#d64545", "#e0a030", PEER]
    figure = Figure(figsize=(9, 0.6 * len(systems) + 1.4))
    ax = figure.subplots()
    names = list(systems)
    left = [0.0] * len(names)
    for part, colour in zip(parts, colours, strict=False):
        values = [systems[name][part] for name in names]
        ax.barh(names, values, left=left, color=colour, label=part)
        for row, (start, value) in enumerate(zip(left, values, strict=True)):
            if value >= 3:
                ax.text(start + value / 2, row, f"{value:g}%", ha="center", va="center", fontsize=8)
        left = [start + value for start, value in zip(left, values, strict=True)]
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("% of questions")
    ax.legend(ncols=len(parts), loc="lower right", bbox_to_anchor=(1, 1), frameon=False, fontsize=8)
    ax.spines[["top", "right"]].set_visible(False)
    ax.set_title(title, fontsize=9, loc="left", pad=22)
    figure.tight_layout()
    return png(figure)


def timeline(trace: Sequence[Any], *, title: str) -> Image:
    """A search's trace tree as horizontal bars from each node's start to its end.

    ``trace`` is a list of ``TraceNode`` (``response.trace``); nodes are drawn in
    tree order (each below its parent, indented), failed nodes in red.
    """
    rows = [
        (node, depth) for node, depth in _tree_order(trace) if node.started_at and node.ended_at
    ]
    timed = [node for node, _ in rows]
    origin = min(node.started_at for node in timed)
    total = max(_ms(node.ended_at, origin) for node in timed)
    figure = Figure(figsize=(9, 0.32 * len(timed) + 1.2))
    ax = figure.subplots()
    labels = []
    for row, (node, depth) in enumerate(rows):
        start, end = _ms(node.started_at, origin), _ms(node.ended_at, origin)
        failed = node.status.value == "failed"
        colour = FAILED if failed else NODE_COLOURS.get(node.kind, PEER)
        # Sub-millisecond steps stay visible as a sliver.
        ax.barh(row, max(end - start, total / 400), left=start, color=colour, height=0.7)
        ax.text(end, row, f" {end - start:.1f} ms", va="center", fontsize=7)
        labels.append("    " * depth + _label(node))
    ax.set_yticks(range(len(timed)), labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("ms since the search started")
    ax.set_xlim(0, total * 1.18)
    ax.spines[["top", "right"]].set_visible(False)
    ax.set_title(title, fontsize=10)
    figure.tight_layout()
    return png(figure)


def _label(node: Any) -> str:
    """The node's label; a request's also names its query, which tells sub-queries apart."""
    label = node.label or node.kind
    query = node.input.get("query") if node.kind == "search_item" else None
    text = f"{label}: {query}" if query else label
    return text if len(text) <= 52 else text[:51] + "…"


def _ms(moment: datetime, origin: datetime) -> float:
    return (moment - origin).total_seconds() * 1000


def _tree_order(trace: Sequence[Any]) -> list[tuple[Any, int]]:
    """Depth-first order: each node followed by its children, siblings by start time."""
    children: dict[str | None, list[Any]] = {}
    ids = {node.id for node in trace}
    for node in trace:
        parent = node.parent_id if node.parent_id in ids else None
        children.setdefault(parent, []).append(node)
    ordered: list[tuple[Any, int]] = []

    def visit(parent: str | None, depth: int) -> None:
        for node in sorted(children.get(parent, []), key=_start_key):
            ordered.append((node, depth))
            visit(node.id, depth + 1)

    visit(None, 0)
    return ordered


def _start_key(node: Any) -> float:
    return node.started_at.timestamp() if node.started_at else float("inf")
