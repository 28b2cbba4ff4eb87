"""The official LangChain standard suites, run offline over fake sources."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import pytest
from langchain_core.tools import BaseTool
from langchain_tests.integration_tests import RetrieversIntegrationTests, ToolsIntegrationTests
from langchain_tests.unit_tests import ToolsUnitTests

from langchain_unified_search import (
    DBSearchTool,
    KBSearchTool,
    RetrieveURLTool,
    UnifiedSearchRetriever,
    WebSearchTool,
)
from unified_search.engine.searcher import Searcher


class _Bound:
    """Give the suite's properties a Searcher over fresh fake sources."""

    _factory: Callable[..., Searcher]

    @pytest.fixture(autouse=True)
    def _bind(self, searcher_factory: Callable[..., Searcher]) -> None:
        self._factory = searcher_factory


class TestRetrieverStandard(_Bound, RetrieversIntegrationTests):
    @property
    def retriever_constructor(self) -> type[UnifiedSearchRetriever]:
        return UnifiedSearchRetriever

    @property
    def retriever_constructor_params(self) -> dict[str, Any]:
        return {"searcher": self._factory(), "types": ["web", "kb", "db"], "k": 5}

    @property
    def retriever_query_example(self) -> str:
        return "refund policy"


class _ToolBase(_Bound):
    tool_class: type[BaseTool]
    example: ClassVar[dict[str, Any]]

    @property
    def tool_constructor(self) -> type[BaseTool]:
        return self.tool_class

    @property
    def tool_constructor_params(self) -> dict[str, Any]:
        return {"searcher": self._factory()}

    @property
    def tool_invoke_params_example(self) -> dict[str, Any]:
        return self.example


class _WebSearch(_ToolBase):
    tool_class = WebSearchTool
    example: ClassVar[dict[str, Any]] = {
        "query": "python release",
        "max_results": 3,
        "include_domains": ["python.org"],
    }


class _RetrieveURL(_ToolBase):
    tool_class = RetrieveURLTool
    example: ClassVar[dict[str, Any]] = {"url": "https://example.com/article"}


class _KBSearch(_ToolBase):
    tool_class = KBSearchTool
    example: ClassVar[dict[str, Any]] = {
        "query": "vacation days",
        "collections": ["handbook"],
        "max_results": 3,
    }


class _DBSearch(_ToolBase):
    tool_class = DBSearchTool
    example: ClassVar[dict[str, Any]] = {
        "query": "orders over 100 dollars",
        "models": ["orders"],
        "max_results": 4,
    }


class TestWebSearchUnit(_WebSearch, ToolsUnitTests):
    pass


class TestWebSearchIntegration(_WebSearch, ToolsIntegrationTests):
    pass


class TestRetrieveURLUnit(_RetrieveURL, ToolsUnitTests):
    pass


class TestRetrieveURLIntegration(_RetrieveURL, ToolsIntegrationTests):
    pass


class TestKBSearchUnit(_KBSearch, ToolsUnitTests):
    pass


class TestKBSearchIntegration(_KBSearch, ToolsIntegrationTests):
    pass


class TestDBSearchUnit(_DBSearch, ToolsUnitTests):
    pass


class TestDBSearchIntegration(_DBSearch, ToolsIntegrationTests):
    pass
