"""Documents and nodes made by the real loaders and readers, through every component.

LangChain's own loaders (``langchain_community``) and LlamaIndex's
``SimpleDirectoryReader`` read a small folder of files; WebBaseLoader reads a
page served by a fake transport. Whatever metadata they set comes back
unchanged, every reference gets an ID no other shares, nothing is dropped, and
the model is shown where each passage comes from.
"""

from __future__ import annotations

import copy
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from langchain_classic.retrievers import ContextualCompressionRetriever, EnsembleRetriever
from langchain_community.document_loaders import (
    CSVLoader,
    DirectoryLoader,
    JSONLoader,
    PyPDFLoader,
    TextLoader,
    WebBaseLoader,
)
from langchain_core.documents import Document
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import RunnablePassthrough
from llama_index.core import SimpleDirectoryReader, VectorStoreIndex
from llama_index.core.base.llms.types import CompletionResponse
from llama_index.core.embeddings import MockEmbedding
from llama_index.core.llms import CustomLLM, LLMMetadata
from llama_index.core.llms.callbacks import llm_completion_callback
from llama_index.core.node_parser import SentenceSplitter
from pydantic import Field

from langchain_unified_search import (
    AutoSearch,
    CitationOutputParser,
    UnifiedSearchReranker,
    UnifiedSearchRetriever,
    citation_prompt,
    format_references,
)
from llama_index_unified_search import (
    UnifiedRerankPostprocessor,
    citation_qa_template,
    resolve_citations,
)
from unified_search.contract.metadata import METADATA_KEY

FIXTURES = Path(__file__).parents[1] / "fixtures" / "loaders"
PAGE = """<html lang="en"><head><title>Leave rules</title>
<meta name="description" content="How leave works"></head>
<body><p>Leave is 25 days a year.</p></body></html>"""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "notes.txt").write_text("Leave is 25 days a year.\nCarry over up to 5 days.")
    (tmp_path / "orders.csv").write_text("id,customer,total\n1,Ann,120.5\n2,Bob,80\n")
    items = [{"text": "Heat pumps move heat.", "id": 7, "score": 0.3}, {"text": "Solar.", "id": 8}]
    (tmp_path / "items.json").write_text(json.dumps(items))
    (tmp_path / "policy").mkdir()
    (tmp_path / "policy" / "leave.md").write_text("# Leave\nYou get 25 days.")
    (tmp_path / "policy" / "copy.md").write_text("# Leave\nYou get 25 days.")  # same text
    shutil.copy(FIXTURES / "handbook.pdf", tmp_path / "handbook.pdf")  # two pages of text
    return tmp_path


class Page(requests.adapters.BaseAdapter):
    """Serve one HTML page for any URL, as a web server would."""

    def send(self, request: requests.PreparedRequest, **kwargs: Any) -> requests.Response:
        response = requests.Response()
        response.status_code, response.url, response.request = 200, request.url, request
        response._content = PAGE.encode()
        response.headers["Content-Type"] = "text/html; charset=utf-8"
        return response

    def close(self) -> None:
        pass


def web_page() -> list[Document]:
    loader = WebBaseLoader("https://example.org/leave", header_template={"User-Agent": "tests"})
    loader.session.mount("https://", Page())
    return loader.load()


def json_metadata(record: dict[str, Any], metadata: dict[str, Any]) -> dict[str, Any]:
    return {**metadata, "id": record["id"], "score": record.get("score")}


@pytest.fixture
def loaded(folder: Path) -> list[Document]:
    docs = [
        *TextLoader(str(folder / "notes.txt")).load(),
        *CSVLoader(str(folder / "orders.csv")).load(),
        *JSONLoader(
            str(folder / "items.json"),
            jq_schema=".[]",
            content_key="text",
            metadata_func=json_metadata,
        ).load(),
        *DirectoryLoader(str(folder / "policy"), glob="*.md", loader_cls=TextLoader).load(),
        *PyPDFLoader(str(folder / "handbook.pdf")).load(),
        *web_page(),
    ]
    assert {d.metadata.get("page_label") for d in docs} >= {"1", "2"}
    assert any(d.metadata.get("language") == "en" for d in docs)
    return docs


def described(text: str, metadata: dict[str, Any]) -> str:
    return text + json.dumps(metadata, sort_keys=True)


def user_part(metadata: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in metadata.items() if k != METADATA_KEY}


class Listed(BaseRetriever):
    docs: list[Document]

    def _get_relevant_documents(self, query: str, **kwargs: Any) -> list[Document]:
        return self.docs


@pytest.mark.parametrize("reranker", ["weighted", "rrf", "intent"])
async def test_every_reranker_returns_each_loaded_document_unchanged(loaded, reranker: str):
    before = copy.deepcopy(loaded)
    compressor = UnifiedSearchReranker(reranker=reranker)
    for ranked in (
        compressor.compress_documents(loaded, "how much leave"),
        await compressor.acompress_documents(loaded, "how much leave"),
    ):
        assert len(ranked) == len(loaded)
        assert sorted(described(d.page_content, user_part(d.metadata)) for d in ranked) == sorted(
            described(d.page_content, d.metadata) for d in before
        )
    assert loaded == before


def test_the_documented_chain_over_loaded_documents(loaded):
    """References as text, each with its origin; every document cited; invented IDs flagged."""
    model = GenericFakeChatModel(messages=iter([AIMessage("25 days #ref:ref_001 #ref:ref_099.")]))
    retriever = ContextualCompressionRetriever(
        base_compressor=UnifiedSearchReranker(), base_retriever=Listed(docs=loaded)
    )
    chain = (
        {"references": retriever | format_references(), "question": RunnablePassthrough()}
        | RunnablePassthrough.assign(prompt=citation_prompt(), answer=citation_prompt() | model)
        | RunnablePassthrough.assign(cited=CitationOutputParser())
    )
    state = chain.invoke("How much leave?")
    references = state["references"].references
    assert len({r.id for r in references}) == len(references) == len(loaded)
    assert sorted(described(r.content, r.metadata) for r in references) == sorted(
        described(d.page_content, d.metadata) for d in loaded
    )
    system = state["prompt"].to_messages()[0].content
    for title in ("notes.txt", "orders.csv", "leave.md", "copy.md", "handbook.pdf, page 2"):
        assert f'title="{title}"' in system
    assert 'title="Leave rules" url="https://example.org/leave"' in system
    assert state["cited"].unknown == ["ref_099"]


def test_auto_search_puts_loaded_documents_beside_what_it_finds(kit, loaded):
    given = loaded[-2:]  # fewer than options.skip_threshold, so it searches too
    state = AutoSearch(searcher=kit.searcher(), types=["kb"], k=2).invoke(
        {"messages": [("user", "leave policy")], "documents": given}
    )
    references = state["context"].references
    assert [r.metadata for r in references[: len(given)]] == [d.metadata for d in given]
    assert len({r.id for r in references}) == len(references) == len(given) + 2
    found = {r.id: r.title for r in state["response"].context.references}
    assert {r.id: r.title for r in references if r.id in found} == found  # IDs as stored


def test_an_ensemble_of_two_searches_keeps_every_document(kit):
    """Two retrievers number in scopes of their own: clashing IDs are renumbered, none lost."""
    web = UnifiedSearchRetriever(searcher=kit.searcher(), types=["web"])
    kb = UnifiedSearchRetriever(searcher=kit.searcher(), types=["kb"])
    docs = EnsembleRetriever(retrievers=[web, kb], weights=[0.5, 0.5]).invoke("alpha beta")
    references = format_references().invoke(docs).references
    assert sorted(r.title for r in references) == ["kb alpha", "kb beta", "web alpha", "web beta"]
    assert len({r.id for r in references}) == 4
    first = docs[0].metadata[METADATA_KEY]
    assert references[0].id == first["citation_id"]


class ScriptedLLM(CustomLLM):
    """Answer every prompt with ``answer`` and keep the prompts."""

    answer: str
    prompts: list[str] = Field(default_factory=list)

    @property
    def metadata(self) -> LLMMetadata:
        return LLMMetadata()

    @llm_completion_callback()
    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        self.prompts.append(prompt)
        return CompletionResponse(text=self.answer)

    @llm_completion_callback()
    def stream_complete(
        self, prompt: str, formatted: bool = False, **kwargs: Any
    ) -> Iterator[CompletionResponse]:
        yield self.complete(prompt)


def test_a_llamaindex_query_engine_over_read_files_cites_them(folder: Path):
    # PDFs need llama-index-readers-file; the text formats are read by the core reader.
    documents = SimpleDirectoryReader(
        str(folder), recursive=True, required_exts=[".txt", ".md", ".csv", ".json"]
    ).load_data()
    nodes = SentenceSplitter().get_nodes_from_documents(documents)
    before = {n.node_id: copy.deepcopy(n.metadata) for n in nodes}
    index = VectorStoreIndex(nodes, embed_model=MockEmbedding(embed_dim=8))
    llm = ScriptedLLM(answer="25 days #ref:ref_001, see #ref:ref_042.")
    engine = index.as_query_engine(
        llm=llm,
        similarity_top_k=len(nodes),
        node_postprocessors=[UnifiedRerankPostprocessor()],
        text_qa_template=citation_qa_template(),
    )
    response = engine.query("How much leave?")
    assert len(response.source_nodes) == len(nodes)
    for scored in response.source_nodes:
        assert user_part(scored.node.metadata) == before[scored.node.node_id]
    shown = "\n".join(llm.prompts)
    assert shown.count("<ref id=") == len(nodes)
    for name in ("notes.txt", "orders.csv", "items.json", "leave.md", "copy.md"):
        assert f'title="{name}"' in shown
    resolved = resolve_citations(response)
    assert resolved.unknown == ["ref_042"]
    assert resolved.cited_nodes[0].node.node_id in before
