"""Show what the benchmarks measured: fill the figure blocks of the README and the docs.

Every benchmark writes its figures with ``--json benchmarks/results/<name>.json`` as
``{"systems": {name: {metric: value}}}``. A Markdown page never types a figure by hand; it holds
a block that names the results and the columns, and this script writes the table (or one
value) from the results:

    <!-- figures {"results": "core", "columns": [["wall ms", "wall_ms", ".1f"]]} -->
    | system | wall ms |
    |---|---|
    | unified-search all() | 202.8 |
    <!-- /figures -->

    ... took <!-- figure {"results": "core", "system": "...", "metric": "wall_ms", "format": ".1f"} -->202.8<!-- /figure --> ms

A table block may also name ``systems`` (a list, in that order; or a regular expression),
``sort`` (a column header, best first: highest, or lowest when the header is in ``ascending``),
and ``bold`` (a system, ``unified-search (default)`` unless set). A value missing from the
results shows as ``–``.

    python benchmarks/figures.py            # rewrite every block from the results
    python benchmarks/figures.py --check    # fail, naming the blocks, when one is stale
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
DEFAULT = "unified-search (default)"
TABLE = re.compile(r"(<!-- figures (\{.*?\}) -->\n)(.*?)(<!-- /figures -->)", re.S)
VALUE = re.compile(r"(<!-- figure (\{.*?\}) -->)(.*?)(<!-- /figure -->)", re.S)


def pages(root: Path = ROOT) -> list[Path]:
    """The Markdown pages that may hold figure blocks: the README and the docs."""
    return [root / "README.md", *sorted((root / "docs").rglob("*.md"))]


def load(name: str, results: Path = RESULTS) -> dict[str, dict[str, Any]]:
    """The systems of one results file, checked to be of the standard shape."""
    data = json.loads((results / f"{name}.json").read_text(encoding="utf-8"))
    systems = data.get("systems") if isinstance(data, Mapping) else None
    if not isinstance(systems, Mapping) or not all(
        isinstance(v, Mapping) for v in systems.values()
    ):
        raise ValueError(
            f"{name}.json is not of the shape {{'systems': {{name: {{metric: value}}}}}}"
        )
    return {str(k): dict(v) for k, v in systems.items()}


def shown(value: Any, fmt: str) -> str:
    """A figure as the page shows it; ``–`` when it was not measured."""
    if value is None:
        return "–"
    if isinstance(value, int | float) and not isinstance(value, bool):
        return format(value, fmt)
    return str(value)


def table(spec: Mapping[str, Any], results: Path = RESULTS) -> str:
    """The Markdown table a ``figures`` block asks for."""
    systems = load(spec["results"], results)
    columns: list[list[str]] = spec["columns"]
    names = _chosen(systems, spec.get("systems"))
    if "sort" in spec:
        metric = next(c[1] for c in columns if c[0] == spec["sort"])
        sign = 1 if spec["sort"] in spec.get("ascending", []) else -1

        def best_first(name: str) -> tuple[int, float]:
            figure = systems[name].get(metric)
            return (1, 0.0) if figure is None else (0, sign * figure)

        names.sort(key=best_first)
    bold = spec.get("bold", DEFAULT)
    lines = ["| system | " + " | ".join(c[0] for c in columns) + " |"]
    lines.append("|---|" + "---|" * len(columns))
    for name in names:
        cells = [shown(systems[name].get(c[1]), c[2] if len(c) > 2 else "") for c in columns]
        label = f"**{name}**" if name == bold else name
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def value(spec: Mapping[str, Any], results: Path = RESULTS) -> str:
    """The one figure a ``figure`` block asks for."""
    systems = load(spec["results"], results)
    return shown(systems.get(spec["system"], {}).get(spec["metric"]), spec.get("format", ""))


def _chosen(systems: Mapping[str, Any], wanted: str | list[str] | None) -> list[str]:
    if wanted is None:
        return list(systems)
    if isinstance(wanted, str):
        return [name for name in systems if re.search(wanted, name)]
    unknown = [name for name in wanted if name not in systems]
    if unknown:
        raise KeyError(f"systems not in the results: {unknown}")
    return list(wanted)


def render(text: str, results: Path = RESULTS) -> str:
    """``text`` with every figure block filled from the results."""
    text = TABLE.sub(
        lambda m: m.group(1) + table(json.loads(m.group(2)), results) + m.group(4), text
    )
    return VALUE.sub(
        lambda m: m.group(1) + value(json.loads(m.group(2)), results) + m.group(4), text
    )


def stale(files: Iterable[Path], results: Path = RESULTS) -> list[str]:
    """The pages whose figure blocks differ from the results."""
    return [
        str(p)
        for p in files
        if render(p.read_text(encoding="utf-8"), results) != p.read_text(encoding="utf-8")
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only say which pages are stale")
    args = parser.parse_args(argv)
    if args.check:
        found = stale(pages())
        for path in found:
            print(
                f"{path}: figures differ from benchmarks/results; run python benchmarks/figures.py"
            )
        return 1 if found else 0
    for path in pages():
        text = path.read_text(encoding="utf-8")
        if (new := render(text)) != text:
            path.write_text(new, encoding="utf-8")
            print(f"updated {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
