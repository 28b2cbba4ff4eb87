"""What every benchmark writes with ``--json PATH``: one shape for all of them.

``{"systems": {name: {metric: number}}, "absent": {name: why}, ...}``: ours are named
``unified-search…`` (the default ``unified-search (default)…``), a system that could not
run (its package missing, a service not given) is listed under ``absent`` with the
reason instead, and anything else a benchmark reports goes beside them under its own
key. A metric that was not measured (``None``, or NaN: no sample) is left out; a figure
that is not a number is an error here, so a table's text never passes for a measurement.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

#: The key of a row that stands for a system that could not run; its value says why.
ABSENT = "absent"


def absent(why: str) -> dict[str, Any]:
    """The row of a system that could not run, and why (``"not installed: bm25s"``)."""
    return {ABSENT: why}


def write_json(path: Path, rows: Mapping[str, Mapping[str, Any]], **extra: Any) -> None:
    """Write ``rows`` (name → metrics, or an ``absent`` row) and ``extra`` to ``path``."""
    systems: dict[str, dict[str, float]] = {}
    missing: dict[str, str] = {}
    for name, metrics in rows.items():
        if ABSENT in metrics:
            missing[name] = str(metrics[ABSENT])
            continue
        systems[name] = {k: _number(name, k, v) for k, v in metrics.items() if _measured(v)}
    document = {"systems": systems, ABSENT: missing, **extra}
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")


def _measured(value: Any) -> bool:
    return value is not None and not (isinstance(value, float) and math.isnan(value))


def _number(name: str, metric: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{name}: {metric} is not a number: {value!r}")
    return value
