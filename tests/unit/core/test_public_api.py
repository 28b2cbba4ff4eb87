import subprocess
import sys

import pytest

import unified_search

EXPECTED = [
    "Citations",
    "ConfigurationError",
    "DBHandler",
    "Entity",
    "ErrorCode",
    "ErrorInfo",
    "EventName",
    "GraphNode",
    "KBHandler",
    "MissingDependencyError",
    "Mode",
    "Ranked",
    "Reference",
    "ReferenceContext",
    "Relation",
    "ResultItem",
    "RunIds",
    "RunOptions",
    "SearchConfig",
    "SearchContext",
    "SearchError",
    "SearchEvent",
    "SearchHandler",
    "SearchOptions",
    "SearchRecord",
    "SearchRequest",
    "SearchResponse",
    "SearchResult",
    "SearchSession",
    "SearchStore",
    "SearchType",
    "Searcher",
    "Secret",
    "Source",
    "ToolAnswer",
    "ToolLimits",
    "ToolSpec",
    "TraceNode",
    "TraceStatus",
    "WebHandler",
    "adeep_search",
    "build_context",
    "citation_prompt",
    "deep_search",
    "parse_citations",
    "run_sync",
    "tool_specs",
]


def test_core_public_names_are_pinned() -> None:
    assert unified_search.__all__ == EXPECTED == sorted(EXPECTED)


@pytest.mark.parametrize("name", EXPECTED)
def test_every_public_name_resolves(name: str) -> None:
    assert getattr(unified_search, name) is not None


def test_unknown_attribute_raises() -> None:
    with pytest.raises(AttributeError):
        unified_search.no_such_name  # noqa: B018


def test_core_never_imports_a_framework() -> None:
    """The core stays framework-free: importing it loads neither LangChain nor LlamaIndex."""
    code = "import sys, unified_search.searcher, unified_search.citations; print(chr(10).join(sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    loaded = set(out.split())
    assert "unified_search.searcher" in loaded
    assert not any(m.startswith(("langchain", "llama_index")) for m in loaded)
