"""Documents made by LangChain loaders go through every component and come back unchanged."""

from __future__ import annotations

import copy

import pytest
from langchain_classic.retrievers import ContextualCompressionRetriever
from langchain_core.documents import Document
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import RunnablePassthrough

from langchain_unified_search import (
    AutoSearch,
    CitationOutputParser,
    UnifiedSearchReranker,
    citation_prompt,
    format_references,
)
from unified_search.contract.metadata import METADATA_KEY

RERANKERS = ["weighted", "rrf", "intent"]


@pytest.fixture
def loaders(kit) -> dict:
    return kit.LANGCHAIN_LOADERS


@pytest.fixture
def loaded(loaders):
    def build() -> list[Document]:
        return [
            Document(page_content=f"{name}: leave is 25 days a year", metadata=copy.deepcopy(meta))
            for name, meta in loaders.items()
        ]

    return build


def without_ours(doc: Document) -> dict:
    return {k: v for k, v in doc.metadata.items() if k != METADATA_KEY}


class ListRetriever(BaseRetriever):
    docs: list[Document]

    def _get_relevant_documents(self, query: str, **kwargs: object) -> list[Document]:
        return self.docs


@pytest.mark.parametrize("reranker", RERANKERS)
async def test_every_reranker_keeps_each_loaders_metadata(reranker: str, loaded):
    docs = loaded()
    compressor = UnifiedSearchReranker(reranker=reranker)
    for ranked in (
        compressor.compress_documents(docs, "how much leave"),
        await compressor.acompress_documents(docs, "how much leave"),
    ):
        assert sorted(d.page_content for d in ranked) == sorted(d.page_content for d in docs)
        by_text = {d.page_content: d for d in docs}
        for doc in ranked:
            assert without_ours(doc) == by_text[doc.page_content].metadata
            assert isinstance(doc.metadata[METADATA_KEY]["rerank_score"], float)
    assert [d.metadata for d in docs] == [d.metadata for d in loaded()]  # inputs untouched


def test_contextual_compression_over_a_foreign_retriever(loaded):
    retriever = ContextualCompressionRetriever(
        base_compressor=UnifiedSearchReranker(top_n=3), base_retriever=ListRetriever(docs=loaded())
    )
    result = retriever.invoke("leave")
    assert len(result) == 3
    originals = [d.metadata for d in loaded()]
    assert all(without_ours(doc) in originals for doc in result)


def test_references_prompt_and_parser_compose_over_loader_documents(loaded, loaders):
    """The documented chain: references as text in the prompt, invented IDs flagged."""
    model = GenericFakeChatModel(messages=iter([AIMessage("25 days #ref:ref_002 #ref:ref_042.")]))
    chain = (
        {"references": format_references(), "question": lambda _: "How much leave?"}
        | RunnablePassthrough.assign(answer=citation_prompt() | model)
        | CitationOutputParser()
    )
    answer = chain.invoke(loaded())
    assert answer.citations == ["ref_002", "ref_042"] and answer.unknown == ["ref_042"]
    assert answer.references[0].metadata == loaders["PyPDFLoader"]


def test_format_references_pipes_into_the_prompt_as_text(loaded, loaders):
    prompt = (format_references() | citation_prompt()).invoke(
        {"question": "How much leave?", "references": loaded()}
    )
    system = prompt.to_messages()[0].content
    assert '<references>\n<ref id="ref_001"' in system
    assert "ReferenceContext(" not in system and "references=[" not in system
    assert system.count("<ref ") == len(loaders)


def test_auto_search_takes_loader_documents_as_the_users_own(kit, loaded, loaders):
    state = AutoSearch(searcher=kit.searcher(), types=["kb"], k=2).invoke(
        {"messages": [("user", "leave policy")], "documents": loaded()}
    )
    refs = state["context"].references
    assert [r.metadata for r in refs[: len(loaders)]] == list(loaders.values())
    assert len({r.id for r in refs}) == len(refs)
