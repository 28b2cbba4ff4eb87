"""Every chunk keeps where it is in its document; a PDF chunk keeps its page (or page range)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unified_search.citations.context import build_context
from unified_search.citations.pages import page_at, page_label
from unified_search.config import CitationConfig
from unified_search.config.kb import LimitsConfig
from unified_search.engine.searcher import Searcher
from unified_search.kb.chunking import PAGE_STARTS, Document, chunk_document, page_fields
from unified_search.kb.handler import KBHandler
from unified_search.kb.readers import read_pdf
from unified_search.records.store import SearchStore


def pdf(pages: list[str]) -> bytes:
    """A plain PDF with one line of text per page (Helvetica), as pypdf reads it back."""
    objects = ["<< /Type /Catalog /Pages 2 0 R >>", ""]
    kids = []
    for text in pages:
        stream = f"BT /F1 10 Tf 20 700 Td ({text}) Tj ET".encode()
        content = len(objects) + 1
        objects.append(f"<< /Length {len(stream)} >>\nstream\n{stream.decode()}\nendstream")
        kids.append(len(objects) + 1)
        objects.append(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
            f"/Resources << /Font << /F1 {{font}} 0 R >> >> /Contents {content} 0 R >>"
        )
    font = len(objects) + 1
    objects.append("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    objects[1] = (
        f"<< /Type /Pages /Kids [{' '.join(f'{k} 0 R' for k in kids)}] /Count {len(kids)} >>"
    )
    body, offsets = b"%PDF-1.4\n", []
    for number, obj in enumerate(objects, start=1):
        offsets.append(len(body))
        body += f"{number} 0 obj\n{obj.replace('{font}', str(font))}\nendobj\n".encode()
    xref = len(body)
    body += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    body += "".join(f"{o:010d} 00000 n \n" for o in offsets).encode()
    body += (
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    )
    return body


PAGES = [
    "Glaciers retreat in warm summers across the Alps.",
    "",  # an empty page still counts
    "Sea ice thins in the Arctic every decade.",
    "Permafrost thaws and releases methane.",
]


def test_the_pdf_reader_marks_where_each_page_starts_empty_pages_included() -> None:
    [parsed] = read_pdf(pdf(PAGES), "climate", LimitsConfig())
    starts = [int(s) for s in parsed.metadata[PAGE_STARTS].split(",")]
    assert parsed.metadata["pages"] == 4 and len(starts) == 4
    for number, text in enumerate(PAGES):
        if text:
            assert parsed.text[starts[number] :].startswith(text)
    assert starts[1] == starts[2]


@pytest.mark.parametrize(("size", "overlap"), [(8, 2), (12, 0), (400, 40)])
def test_chunks_know_their_offsets_and_pages(size: int, overlap: int) -> None:
    [parsed] = read_pdf(pdf(PAGES), "climate", LimitsConfig())
    doc = Document(text=parsed.text, source="climate.pdf", metadata=parsed.metadata)
    chunks = chunk_document(doc, size, overlap)
    assert len(chunks) >= 1
    for chunk in chunks:
        assert doc.text[chunk.start : chunk.end] == chunk.text
        assert PAGE_STARTS not in chunk.metadata
        first, last = chunk.metadata["page"], chunk.metadata["page_end"]
        for offset, char in enumerate(chunk.text):
            page = page_at(chunk.metadata, offset)
            assert page is not None and first <= page <= last
            if not char.isspace():
                assert char in PAGES[page - 1]
    if size == 400:
        assert page_label(chunks[0].metadata) == "1-4"


@given(
    st.lists(st.integers(min_value=0, max_value=500), min_size=1, max_size=8),
    st.integers(min_value=0, max_value=600),
    st.integers(min_value=1, max_value=200),
)
@settings(max_examples=200)
def test_page_fields_agree_with_a_character_by_character_count(
    gaps: list[int], start: int, length: int
) -> None:
    starts = [sum(gaps[:i]) for i in range(len(gaps))]
    fields: dict[str, Any] = page_fields(starts, start, start + length)

    def page_of(position: int) -> int:
        return max(1, sum(1 for s in starts if s <= position))

    assert fields["page"] == page_of(start) and fields["page_end"] == page_of(start + length - 1)
    for offset in range(length):
        assert page_at(fields, offset) == page_of(start + offset)


def test_a_text_document_without_pages_has_offsets_and_no_page() -> None:
    doc = Document(text="  \n Leave is 25 days.\n\n  Sick leave is paid. ", source="hr.md")
    [chunk] = chunk_document(doc, 100, 10)
    assert doc.text[chunk.start : chunk.end] == chunk.text == chunk.text.strip()
    assert "page" not in chunk.metadata and page_at(chunk.metadata, 0) is None


def test_the_reference_block_shows_the_page() -> None:
    from unified_search.types import ResultItem

    item = ResultItem(
        type="kb",
        content="Sea ice thins.",
        citation_id="ref_001",
        metadata={"page": 3, "page_end": 4},
    )
    assert 'page="3-4"' in build_context([item], CitationConfig()).xml


async def test_the_click_through_returns_offsets_and_pages(
    kb: KBHandler, config: Any, tmp_path: Path
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "climate.pdf").write_bytes(pdf(PAGES))
    await kb.aindex_paths("climate", [folder])
    store = SearchStore(f"sqlite:///{tmp_path / 'records.sqlite3'}")
    async with Searcher(config, handlers={"kb": kb}, store=store) as searcher:
        response = await searcher.asearch(
            {"query": "sea ice arctic", "type": "kb", "collections": ["climate"]},
            request_id="chat-1",
        )
        reference = await store.aget_reference("chat-1", 1)
    assert reference is not None and reference == response.references[0]
    meta = reference.metadata
    assert {"start", "end", "page", "page_end"} <= set(meta)
    [parsed] = read_pdf(pdf(PAGES), "climate", LimitsConfig())
    assert parsed.text[meta["start"] : meta["end"]] == reference.content
