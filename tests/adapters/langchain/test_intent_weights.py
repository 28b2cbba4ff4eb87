"""The intent reranker behind LangChain uses the design's weight table by default."""

from __future__ import annotations

from langchain_core.documents import Document

from langchain_unified_search import UnifiedSearchReranker
from unified_search.contract.metadata import METADATA_KEY

EARLIER = {"factual": {"keyword": 0.6, "freshness": 0.1, "authority": 0.3}}


def pages() -> list[Document]:
    """A blog that matches every query word, and GitHub matching one of them."""
    return [
        Document(
            page_content="Raft consensus explained for beginners.",
            metadata={METADATA_KEY: {"type": "web", "url": "https://someblog.example/raft"}},
        ),
        Document(
            page_content="A Raft implementation in Go.",
            metadata={METADATA_KEY: {"type": "web", "url": "https://github.com/hashicorp/raft"}},
        ),
    ]


def hosts(ranked: list[Document]) -> list[str]:
    return [doc.metadata[METADATA_KEY]["url"].split("/")[2] for doc in ranked]


async def test_factual_questions_weigh_authority_as_the_design_does():
    """Factual weights 0.4/0.1/0.5 put GitHub first; the earlier 0.6/0.1/0.3 put the blog first."""
    question = "what is raft consensus"
    design = UnifiedSearchReranker(reranker="intent")
    assert hosts(design.compress_documents(pages(), question)) == ["github.com", "someblog.example"]
    assert hosts(await design.acompress_documents(pages(), question))[0] == "github.com"
    earlier = UnifiedSearchReranker(
        reranker="intent", config={"rerank": {"intent": {"weights": EARLIER}}}
    )
    assert hosts(earlier.compress_documents(pages(), question)) == [
        "someblog.example",
        "github.com",
    ]
