"""How a citation is written, in both directions: a reference to text, and text back to IDs.

A citation format (``citation.format``) is text with fields taken from the
reference: ``{id}`` (``ref_001``), ``{index}`` (``1``), ``{type}`` (``web``,
``kb`` or ``db``), ``{title}`` and ``{url}``. A reference without a URL is
linked to its anchor, ``#ref:<id>``, so a link format works for every
reference. A format must name the reference by ``{id}``, ``{index}`` or
``{url}``; those are also what parsing resolves, in that order (``{title}``
only when nothing else is there).

Example:
    >>> check_format('<a class="ref" data-ref-id="{id}" href="#ref:{id}">[{id}]</a>')
    '<a class="ref" data-ref-id="{id}" href="#ref:{id}">[{id}]</a>'
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from unified_search.config.citation import FIELD_PATTERN, check_format
from unified_search.types import Reference, citation_id
from unified_search.urls import canonical_url

_ID = re.compile(r"ref_\d{3,}")
_ANCHOR = "#ref:"
# What each field looks like in an answer. A field at the very end of a format is
# matched greedily, anywhere else lazily up to the text that follows it.
_SHAPES = {
    "id": (r"ref_\d{3,}", r"ref_\d{3,}"),
    "index": (r"\d+", r"\d+"),
    "type": (r"web|kb|db", r"web|kb|db"),
    "title": (r"[^\n]*?", r"[^\n]*"),
    "url": (r"[^\s<>\"]+?", r"[^\s<>\"]+"),
}
_TRAILING = ".,;:!?"


def fields_of(fmt: str) -> set[str]:
    """The fields ``fmt`` uses."""
    return set(FIELD_PATTERN.findall(fmt))


def link_of(reference: Reference) -> str:
    """The reference's URL, or its anchor ``#ref:<id>`` when it has none."""
    return reference.url or f"{_ANCHOR}{reference.id}"


def format_citation(fmt: str, reference: Reference) -> str:
    """Write the citation of ``reference`` in ``fmt``.

    Example:
        >>> ref = Reference(id="ref_002", index=2, type="kb", source="auto", weight=0.6,
        ...                 score=0.9, title="Leave policy")
        >>> format_citation("[{title}]({url})", ref)
        '[Leave policy](#ref:ref_002)'
    """
    values = {
        "id": reference.id,
        "index": str(reference.index),
        "type": reference.type.value,
        "title": reference.title,
        "url": link_of(reference),
    }
    return FIELD_PATTERN.sub(lambda match: values[match.group(1)], fmt)


@functools.lru_cache(maxsize=64)
def citation_pattern(fmt: str) -> re.Pattern[str]:
    """Compile a pattern finding citations written in ``fmt``; each field is a named group.

    A field used twice (``{id}`` in an HTML link) is captured the first time and
    only has to have the right shape after that.
    """
    check_format(fmt)
    parts: list[str] = []
    seen: set[str] = set()
    end = 0
    for match in FIELD_PATTERN.finditer(fmt):
        parts.append(re.escape(fmt[end : match.start()]))
        name = match.group(1)
        lazy, greedy = _SHAPES[name]
        shape = greedy if match.end() == len(fmt) else lazy
        parts.append(f"(?:{shape})" if name in seen else f"(?P<{name}>{shape})")
        seen.add(name)
        end = match.end()
    parts.append(re.escape(fmt[end:]))
    return re.compile("".join(parts))


@dataclass(frozen=True)
class Lookup:
    """The references an answer may cite, found by URL and by title."""

    by_url: Mapping[str, str]
    by_title: Mapping[str, str]

    @classmethod
    def of(cls, references: Iterable[Reference]) -> Lookup:
        """Index ``references``; the first reference with a URL or title keeps it."""
        by_url: dict[str, str] = {}
        by_title: dict[str, str] = {}
        for ref in references:
            if ref.url:
                by_url.setdefault(canonical_url(ref.url), ref.id)
            if ref.title:
                by_title.setdefault(ref.title.strip(), ref.id)
        return cls(by_url, by_title)


def cited(text: str, fmt: str, lookup: Lookup | None) -> Iterator[tuple[str | None, str]]:
    """Yield each citation in ``text`` as (the ID it names or ``None``, what was written)."""
    for match, cid in located(text, fmt, lookup):
        yield cid, match.group(0)


def located(
    text: str, fmt: str, lookup: Lookup | None
) -> Iterator[tuple[re.Match[str], str | None]]:
    """Yield each citation in ``text`` as its match (where it is) and the ID it names or ``None``."""
    for match in citation_pattern(fmt).finditer(text):
        yield match, _identify(match.groupdict(), lookup)


def _identify(groups: Mapping[str, str | None], lookup: Lookup | None) -> str | None:
    if groups.get("id"):
        return groups["id"]
    index = groups.get("index")
    if index:
        return citation_id(int(index)) if int(index) >= 1 else None
    url = (groups.get("url") or "").rstrip(_TRAILING)
    if url.startswith(_ANCHOR) and _ID.fullmatch(url.removeprefix(_ANCHOR)):
        return url.removeprefix(_ANCHOR)
    if lookup is None:
        return None
    if url:
        return lookup.by_url.get(canonical_url(url))
    return lookup.by_title.get((groups.get("title") or "").strip())
