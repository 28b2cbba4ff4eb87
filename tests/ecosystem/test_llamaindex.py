"""LlamaIndex: reader nodes through the postprocessor, a FunctionAgent with the tool spec."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest
from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.base.llms.types import ChatMessage, MessageRole, ToolCallBlock
from llama_index.core.llms.mock import MockFunctionCallingLLM
from llama_index.core.schema import NodeWithScore, TextNode

from llama_index_unified_search import (
    UnifiedRerankPostprocessor,
    UnifiedSearchRetriever,
    UnifiedSearchToolSpec,
    resolve_citations,
)
from unified_search.contract.metadata import METADATA_KEY
from unified_search.engine.searcher import Searcher
from unified_search.records.store import SearchStore


def reader_nodes(reader: dict[str, dict[str, Any]]) -> list[NodeWithScore]:
    return [
        NodeWithScore(
            node=TextNode(id_=name, text=f"{name}: leave is 25 days", metadata=copy.deepcopy(meta)),
            score=0.5 + i / 10,
        )
        for i, (name, meta) in enumerate(reader.items())
    ]


@pytest.mark.parametrize("reranker", ["weighted", "rrf", "intent"])
async def test_reader_nodes_keep_their_metadata_through_every_reranker(kit, reranker: str):
    nodes = reader_nodes(kit.LLAMAINDEX_READER)
    post = UnifiedRerankPostprocessor(reranker=reranker)
    for ranked in (
        post.postprocess_nodes(nodes, query_str="leave"),
        await post.apostprocess_nodes(nodes, query_str="leave"),
    ):
        assert sorted(n.node.node_id for n in ranked) == sorted(kit.LLAMAINDEX_READER)
        for scored in ranked:
            meta = {k: v for k, v in scored.node.metadata.items() if k != METADATA_KEY}
            assert meta == kit.LLAMAINDEX_READER[scored.node.node_id]
    assert [n.node.metadata for n in nodes] == list(kit.LLAMAINDEX_READER.values())


def test_resolve_citations_flags_ids_matching_no_node(kit):
    nodes = UnifiedSearchRetriever(kit.searcher(), types=["kb"]).retrieve("leave days")
    found = resolve_citations("25 days #ref:ref_001, see #ref:ref_009", source_nodes=nodes)
    assert found.ids == ["ref_001", "ref_009"] and found.unknown == ["ref_009"]
    foreign = resolve_citations("#ref:ref_001", source_nodes=reader_nodes(kit.LLAMAINDEX_READER))
    assert foreign.unknown == ["ref_001"]  # a reader's own "citation_id" key is not ours


def scripted_llm(calls: list[tuple[str, dict[str, Any]]]) -> MockFunctionCallingLLM:
    def respond(messages: list[ChatMessage], **kwargs: Any) -> ChatMessage:
        if any(m.role == MessageRole.TOOL for m in messages):
            cited = re.findall(r'<ref id="(ref_\d+)"', str([m.content for m in messages]))
            return ChatMessage(role="assistant", content=f"Answer #ref:{cited[0]}.")
        blocks = [
            ToolCallBlock(tool_call_id=f"c{i}", tool_name=name, tool_kwargs=args)
            for i, (name, args) in enumerate(calls)
        ]
        return ChatMessage(role="assistant", blocks=blocks)

    return MockFunctionCallingLLM(response_generator=respond)


# The workflows package reads attributes pydantic deprecated while building and running an agent.
@pytest.mark.filterwarnings("ignore::pydantic.warnings.PydanticDeprecatedSince20")
@pytest.mark.filterwarnings("ignore::pydantic.warnings.PydanticDeprecatedSince211")
async def test_function_agent_with_the_tool_spec_cites_distinct_resolvable_ids(
    kit, sqlite_store: SearchStore
):
    spec = UnifiedSearchToolSpec(kit.searcher(sqlite_store))
    calls = [
        ("web_search", {"query": "leave rules", "max_results": 2}),
        ("kb_search", {"query": "leave days"}),
        ("db_search", {"query": "leave requests"}),
        ("retrieve_url", {"url": "https://example.com/policy"}),
    ]
    agent = FunctionAgent(tools=spec.to_tool_list(), llm=scripted_llm(calls))
    handler = agent.run("How much leave?")
    outputs = []
    async for event in handler.stream_events():
        if type(event).__name__ == "ToolCallResult":
            outputs.append(event.tool_output)
    answer = await handler
    assert str(answer.response.content).startswith("Answer #ref:ref_")
    assert not any(o.is_error for o in outputs) and len(outputs) == 4
    references = [ref for o in outputs for ref in o.raw_output.response.references]
    ids = [ref.id for ref in references]
    assert len(ids) == 7 and len(set(ids)) == 7
    sqlite_store.flush()  # another store reads what is committed
    fresh = Searcher(store=SearchStore(sqlite_store.url))
    for ref in references:
        assert fresh.store.get_reference(spec.session.scope, ref.index).id == ref.id
    fresh.close()
