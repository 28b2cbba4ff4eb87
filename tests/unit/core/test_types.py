import pytest
from pydantic import ValidationError

from unified_search.types import (
    Reference,
    ResultItem,
    SearchRequest,
    SearchType,
    Source,
    citation_id,
    citation_index,
)


def _error_fields(exc: ValidationError) -> set[str]:
    return {".".join(str(p) for p in err["loc"]) for err in exc.errors()}


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"query": ""}, "query"),
        ({"query": "   \n\t"}, "query"),
        ({"query": "q", "limit": 0}, "limit"),
        ({"query": "q", "limit": 101}, "limit"),
        ({"query": "q", "threshold": -0.01}, "threshold"),
        ({"query": "q", "threshold": 1.01}, "threshold"),
        ({"query": "q", "type": "images"}, "type"),
        ({"query": "q", "source": "robot"}, "source"),
        ({"query": "q", "time_range": "decade"}, "time_range"),
        ({"query": "q", "rerank": {"top_n": 0}}, "rerank.top_n"),
        ({"query": "q", "colections": ["typo"]}, "colections"),
    ],
)
def test_bad_requests_name_the_field(payload: dict, field: str) -> None:
    """Every invalid request field is reported by name."""
    with pytest.raises(ValidationError) as info:
        SearchRequest.model_validate(payload)
    assert field in _error_fields(info.value)


def test_request_strips_query_and_defaults() -> None:
    request = SearchRequest(query="  vector search  ")
    assert request.query == "vector search"
    assert request.type is SearchType.WEB
    assert request.source is Source.USER
    assert request.limit is None


def test_limit_bounds_are_inclusive() -> None:
    assert SearchRequest(query="q", limit=1).limit == 1
    assert SearchRequest(query="q", limit=100).limit == 100


def test_item_keys_identify_the_same_thing() -> None:
    """Web items are keyed by canonical URL, KB by collection+document, DB by model+record."""
    web_a = ResultItem(type="web", url="https://www.Example.com/a/?utm_source=x#frag")
    web_b = ResultItem(type="web", url="http://example.com/a")
    assert web_a.key == web_b.key
    kb = ResultItem(type="kb", collection="docs", document_id="7")
    assert kb.key == "kb:docs:7"
    assert ResultItem(type="kb", collection="other", document_id="7").key != kb.key
    assert ResultItem(type="db", model="products", record_id="3").key == "db:products:3"
    bare_a = ResultItem(type="kb", title="t", content="same")
    bare_b = ResultItem(type="kb", title="t", content="same")
    assert bare_a.key == bare_b.key
    assert bare_a.key != ResultItem(type="kb", title="t", content="different").key


def test_items_are_immutable_values() -> None:
    item = ResultItem(type="kb", title="a")
    with pytest.raises(ValidationError):
        item.title = "b"  # type: ignore[misc]
    assert item.model_copy(update={"title": "b"}).title == "b"
    assert item.title == "a"


def test_citation_ids_round_trip() -> None:
    assert citation_id(1) == "ref_001"
    assert citation_id(1234) == "ref_1234"
    assert citation_index("ref_042") == 42
    for bad in ("ref_000", "ref_x", "cite_001", "ref_"):
        with pytest.raises(ValueError):
            citation_index(bad)
    with pytest.raises(ValueError):
        citation_id(0)


def test_reference_from_item() -> None:
    item = ResultItem(type="db", model="products", record_id="9", citation_id="ref_003", score=0.5)
    ref = Reference.from_item(item)
    assert (ref.id, ref.index, ref.model, ref.record_id, ref.score) == (
        "ref_003",
        3,
        "products",
        "9",
        0.5,
    )
    with pytest.raises(ValueError):
        Reference.from_item(item.model_copy(update={"citation_id": None}))
