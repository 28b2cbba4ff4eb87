"""No absolute path of the machine reaches an answer, a stored reference or a record."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from unified_search.engine.searcher import Searcher
from unified_search.kb.handler import KBHandler
from unified_search.records.store import SearchStore


async def test_references_name_documents_relative_to_the_indexed_folder(
    kb: KBHandler, config: Any, tmp_path: Path
) -> None:
    docs = tmp_path / "server" / "help"
    (docs / "guides").mkdir(parents=True)
    (docs / "guides" / "install.md").write_text("# Install\n\nInstall the glacier probe.\n")
    (docs / "faq.jsonl").write_text('{"title": "Glaciers", "text": "Glaciers melt in summer."}\n')
    await kb.aindex_paths("help", [docs.resolve()])  # an absolute folder, as a server gets it
    store = SearchStore(f"sqlite:///{tmp_path / 'records.sqlite3'}")
    async with Searcher(config, handlers={"kb": kb}, store=store) as searcher:
        response = await searcher.asearch(
            {"query": "glacier", "type": "kb", "collections": ["help"]}, request_id="chat-1"
        )
    await store.aflush()
    references = store.get_references("chat-1")
    records = store.find_searches(source="kb")
    store.close()
    assert {item.document_id for item in response.items} == {"guides/install.md", "faq.jsonl#1"}
    assert {ref.document_id for ref in references} == {"guides/install.md", "faq.jsonl#1"}
    shown = [response.model_dump_json(), *(r.model_dump_json() for r in references)]
    # A record also keeps the configuration, whose kb.data_dir is the operator's own setting.
    shown += [r.model_dump_json(exclude={"config"}) for r in records]
    assert len(records) == 1
    for text in shown:
        assert str(tmp_path) not in text
