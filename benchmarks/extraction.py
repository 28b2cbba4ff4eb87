"""Main-text extraction quality on saved pages: how much boilerplate each extractor keeps, how much text it loses.

Each page of the dataset is a saved HTML file with its ground truth in
``pages.json``: the main text (title, paragraphs, list items, table values,
forum posts) and boilerplate snippets (navigation, cookie banners, footers,
share bars, sidebars, newsletter boxes, ads). For every extractor:

* ``main_kept`` — share of the main text's characters found in the output
  (1.0 = nothing lost);
* ``boilerplate_kept`` — share of the boilerplate snippets found in the output
  (0.0 = all left out);
* ``empty_pages`` — pages where the extractor returned nothing;
* ``ms_per_page`` — median time per page.

Pages marked ``"set": "held-out"`` were written after the extractors, in the
markup of real platforms (utility-class and generated class names, MediaWiki,
Discourse, Shopify, Sphinx, consent walls, recipe plugins); the table shows
them apart, as ``held-out``, next to the pages the extractors were tuned on.

Peers run when installed and are marked absent otherwise.

    python benchmarks/extraction.py --data benchmarks/data/extraction [--json PATH]
"""

from __future__ import annotations

import argparse
import html
import importlib.util
import json
import re
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from report import ABSENT, absent, write_json

from unified_search.html_text import html_to_text, main_text
from unified_search.web.extract import extract, has_trafilatura

Extractor = Callable[[str], str]
_SPACE = re.compile(r"\s+")


def normalise(text: str) -> str:
    return _SPACE.sub(" ", html.unescape(text)).strip().casefold()


def ours_default(markup: str) -> str:
    title, text = extract(markup, "auto")
    return f"{title}\n{text}"


def ours_builtin(markup: str) -> str:
    title, text = main_text(markup)
    return f"{title}\n{text}"


def visible_text(markup: str) -> str:
    """The reader before main-text extraction: every visible word of the page."""
    title, text = html_to_text(markup)
    return f"{title}\n{text}"


def justext_peer(markup: str) -> str:
    import justext

    # Thresholds lowered from jusText's defaults (70/200 characters), which classify every
    # paragraph of these pages (about 180 characters each) as boilerplate.
    paragraphs = justext.justext(
        markup, justext.get_stoplist("English"), length_low=30, length_high=100
    )
    return "\n".join(p.text for p in paragraphs if not p.is_boilerplate)


def bs4_peer(markup: str) -> str:
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(markup, "html.parser")
    for tag in soup(["script", "style"]):
        tag.decompose()
    return soup.get_text("\n")


def readability_peer(markup: str) -> str:
    from readability import Document

    document = Document(markup)
    return f"{document.short_title()}\n{html_to_text(document.summary())[1]}"


def html2text_peer(markup: str) -> str:
    import html2text

    converter = html2text.HTML2Text()
    converter.ignore_links = True
    converter.ignore_images = True
    return str(converter.handle(markup))


def systems() -> dict[str, tuple[Extractor | None, str]]:
    """Name → (extractor or None when absent, what it is)."""
    default = "trafilatura" if has_trafilatura() else "builtin"
    peers: list[tuple[str, str, Extractor, str]] = [
        (
            "jusText (boilerplate removal)",
            "justext",
            justext_peer,
            "stop-word paragraph classifier",
        ),
        ("readability-lxml", "readability", readability_peer, "Arc90 readability port"),
        (
            "html2text (LangChain Html2TextTransformer)",
            "html2text",
            html2text_peer,
            "HTML → Markdown",
        ),
        ("BeautifulSoup get_text", "bs4", bs4_peer, "all text, scripts and styles removed"),
    ]
    found: dict[str, tuple[Extractor | None, str]] = {
        "unified-search (default)": (ours_default, f"reader.extractor=auto → {default}"),
        "unified-search (builtin)": (ours_builtin, "standard library, furniture by structure"),
        "visible text (the reader before)": (visible_text, "every visible word"),
    }
    for name, module, function, what in peers:
        installed = importlib.util.find_spec(module) is not None
        found[name] = (
            function if installed else None,
            what if installed else f"not installed: {module}",
        )
    return found


def score(output: str, truth: dict[str, Any]) -> tuple[float, float]:
    text = normalise(output)
    main = [normalise(part) for part in truth["main"]]
    kept = sum(len(part) for part in main if part in text)
    boiler = [normalise(part) for part in truth["boilerplate"]]
    return kept / sum(len(part) for part in main), sum(b in text for b in boiler) / len(boiler)


def measure(
    data: Path,
) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, tuple[float, float]]]]:
    pages = json.loads((data / "pages.json").read_text(encoding="utf-8"))
    results: dict[str, dict[str, Any]] = {}
    by_shape: dict[str, dict[str, tuple[float, float]]] = {}
    for name, (function, what) in systems().items():
        if function is None:
            results[name] = absent(what)
            continue
        rows = []
        for page in pages:
            markup = (data / page["file"]).read_text(encoding="utf-8")
            started = time.perf_counter()
            output = function(markup)
            elapsed = (time.perf_counter() - started) * 1000
            group = page["shape"] if page.get("set") != "held-out" else "held-out"
            rows.append((group, *score(output, page), elapsed, not output.strip()))
        results[name] = {
            "main_kept": round(statistics.mean(r[1] for r in rows), 4),
            "boilerplate_kept": round(statistics.mean(r[2] for r in rows), 4),
            "empty_pages": sum(r[4] for r in rows),
            "ms_per_page": round(statistics.median(r[3] for r in rows), 3),
            "pages": len(rows),
        }
        for shape in sorted({r[0] for r in rows}, key=lambda group: (group == "held-out", group)):
            mine = [r for r in rows if r[0] == shape]
            by_shape.setdefault(shape, {})[name] = (
                statistics.mean(r[1] for r in mine),
                statistics.mean(r[2] for r in mine),
            )
    return results, by_shape


def table(
    results: dict[str, dict[str, Any]], by_shape: dict[str, dict[str, tuple[float, float]]]
) -> str:
    lines = [
        f"{'extractor':<44} {'main kept':>9} {'boilerplate kept':>16} {'empty':>5} {'ms/page':>8}",
        "-" * 86,
    ]
    for name, row in results.items():
        if ABSENT in row:
            lines.append(f"{name:<44} absent ({row[ABSENT]})")
            continue
        lines.append(
            f"{name:<44} {row['main_kept']:>9.3f} {row['boilerplate_kept']:>16.3f} "
            f"{row['empty_pages']:>5} {row['ms_per_page']:>8.2f}"
        )
    lines += ["", "by page shape, then the held-out pages (main kept / boilerplate kept):"]
    measured = [n for n, r in results.items() if "main_kept" in r]
    lines.append(f"{'shape':<8}" + "".join(f" {n[:24]:>24}" for n in measured))
    for shape, row in by_shape.items():
        cells = "".join(f" {row[n][0]:>11.2f} / {row[n][1]:<10.2f}" for n in measured)
        lines.append(f"{shape:<8}{cells}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--data", type=Path, required=True, help="folder with pages.json and the pages"
    )
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    results, by_shape = measure(args.data)
    print(table(results, by_shape))
    if args.json:
        about = {name: what for name, (function, what) in systems().items() if function}
        write_json(args.json, results, about=about)


if __name__ == "__main__":
    main()
