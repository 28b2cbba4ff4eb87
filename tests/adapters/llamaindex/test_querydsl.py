"""An agent writing the query DSL, through the LlamaIndex tool spec: the design's ``orders``
spelling works, and a DSL that fails validation is reported on the result with its reason."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from llama_index_unified_search import UnifiedSearchToolSpec
from unified_search.db.handler import DBHandler
from unified_search.db.understanding import Understanding
from unified_search.engine.searcher import Searcher
from unified_search.errors import SearchError
from unified_search.samples.shop import build_shop_database


def spec(tmp_path: Path, answer: Any, **querydsl: Any) -> UnifiedSearchToolSpec:
    shop = build_shop_database(tmp_path / "shop.db")
    config = {
        "db": {"url": f"sqlite:///{shop}", "models": ["products"]},
        "uses": {"querydsl": "writer"},
        "querydsl": querydsl,
    }
    searcher = Searcher(config, handlers={"db": DBHandler()}, agents={"writer": lambda p: answer})
    return UnifiedSearchToolSpec(searcher)


def test_orders_with_field_and_order_as_the_design_writes_them(tmp_path: Path) -> None:
    dsl = {"model": "products", "orders": [{"field": "price", "order": "desc"}], "limit": 3}
    answer = spec(tmp_path, dsl).call("db_search", {"query": "most expensive products"})
    assert [ref.title for ref in answer.response.references] == [
        "Nimbus Laptop 16",
        "Nimbus Laptop 14",
        "Robot Vacuum S2",
    ]
    result = answer.response.results[0]
    assert result is not None and result.dsl is not None
    assert result.dsl["orders"] == [{"field": "price", "sort": "desc"}]


@pytest.mark.parametrize(
    ("dsl", "reason"),
    [
        ({"model": "products", "orders": [{"field": "price", "order": "upwards"}]}, "orders.0"),
        ({"model": "products", "wheres": [{"field": "secret", "value": 1}]}, "secret"),
        ({"model": "users"}, "users"),
    ],
)
def test_a_dsl_that_fails_validation_is_a_warning_with_the_reason(
    tmp_path: Path, dsl: dict[str, Any], reason: str
) -> None:
    answer = spec(tmp_path, dsl).call("db_search", {"query": "Lumen products"})
    understanding = Understanding.of(answer.response.results[0])
    assert understanding is not None and understanding.generator == "builtin"
    [warning] = understanding.warnings
    assert warning.startswith("writer returned an unusable DSL: ") and reason in warning
    assert warning.endswith("the builtin generator answered instead")


def test_strict_querydsl_fails_instead(tmp_path: Path) -> None:
    with pytest.raises(SearchError, match="writer returned an unusable DSL"):
        spec(tmp_path, {"model": "users"}, strict=True).call("db_search", {"query": "Lumen"})
