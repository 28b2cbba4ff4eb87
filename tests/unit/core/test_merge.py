from hypothesis import given
from hypothesis import strategies as st

from unified_search.config import Weights
from unified_search.dedup import dedup
from unified_search.engine.merge import merge, stamped, weighted_items
from unified_search.types import ResultItem, SearchResult, SearchType, Source

_items = st.builds(
    ResultItem,
    type=st.just("kb"),
    collection=st.sampled_from(["a", "b"]),
    document_id=st.sampled_from(["1", "2", "3"]),
    weight=st.sampled_from([0.6, 0.8, 1.0]),
    score=st.floats(min_value=0, max_value=1),
)


@given(st.lists(_items, max_size=30))
def test_dedup_keeps_one_best_item_per_identity(items: list[ResultItem]) -> None:
    kept = dedup(items)
    keys = [i.key for i in kept]
    assert len(keys) == len(set(keys))
    assert set(keys) == {i.key for i in items}
    for item in kept:
        rivals = [i for i in items if i.key == item.key]
        assert (item.weight, item.score) == max((i.weight, i.score) for i in rivals)


@given(st.lists(_items, max_size=30))
def test_dedup_is_idempotent_and_keeps_first_seen_order(items: list[ResultItem]) -> None:
    kept = dedup(items)
    assert dedup(kept) == kept
    first_seen = list(dict.fromkeys(i.key for i in items))
    assert [i.key for i in kept] == first_seen


def test_merge_weighs_by_source_and_prefers_the_trusted_copy() -> None:
    page = ResultItem(type="web", url="https://x.io/a", score=0.9)
    auto = SearchResult(type="web", query="q", source=Source.AUTO, items=[page])
    user = SearchResult(
        type="web",
        query="q",
        source=Source.USER,
        items=[page.model_copy(update={"url": "http://x.io/a/"})],
    )
    merged = merge([auto, None, user], Weights())
    assert len(merged) == 1
    assert merged[0].weight == 1.0 and merged[0].source is Source.USER


@given(st.lists(_items, max_size=10), st.sampled_from(list(Source)))
def test_items_already_weighed_are_passed_on_without_copies(
    items: list[ResultItem], source: Source
) -> None:
    weights = Weights()
    once = weighted_items(SearchResult(type="kb", query="q", source=source, items=items), weights)
    again = weighted_items(SearchResult(type="kb", query="q", source=source, items=once), weights)
    assert all(a is b for a, b in zip(once, again, strict=True))
    assert all(i.source is source and i.weight == weights.of(source) for i in once)
    retyped = [stamped(item, source, weights.of(source), SearchType.WEB) for item in once]
    assert all(i.type is SearchType.WEB and i.key != "" for i in retyped)
