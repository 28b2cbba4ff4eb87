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
    "StepName",
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


@pytest.mark.parametrize(
    ("package", "blocked", "extra"),
    [
        ("langchain_unified_search", "langchain_core", "langchain"),
        ("llama_index_unified_search", "llama_index.core", "llamaindex"),
    ],
)
def test_an_adapter_without_its_extra_names_the_extra(
    package: str, blocked: str, extra: str
) -> None:
    """Importing an adapter whose framework is missing raises one error naming the extra."""
    code = (
        f"import sys; sys.modules[{blocked!r}] = None\n"
        "from unified_search import MissingDependencyError\n"
        f"try:\n    import {package}\n"
        "except MissingDependencyError as exc:\n    print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert f'pip install "unified-search[{extra}]"' in out.stdout


def test_every_package_has_a_version_and_type_information() -> None:
    import importlib.resources

    import langchain_unified_search
    import llama_index_unified_search

    for package in (unified_search, langchain_unified_search, llama_index_unified_search):
        assert package.__version__ == unified_search.__version__
        assert importlib.resources.files(package.__name__).joinpath("py.typed").is_file()
