import pytest

from unified_search.errors import ErrorCode, SearchError, as_search_error


@pytest.mark.parametrize(
    ("code", "retryable"),
    [
        (ErrorCode.RATE_LIMITED, True),
        (ErrorCode.TIMEOUT, True),
        (ErrorCode.NETWORK_ERROR, True),
        (ErrorCode.PROVIDER_ERROR, True),
        (ErrorCode.INVALID_API_KEY, False),
        (ErrorCode.QUOTA_EXCEEDED, False),
        (ErrorCode.NO_API_KEY, False),
        (ErrorCode.INVALID_QUERY, False),
    ],
)
def test_retryable_follows_the_code(code: ErrorCode, retryable: bool) -> None:
    assert SearchError(code, "x").retryable is retryable


def test_error_carries_context_and_round_trips() -> None:
    err = SearchError("RATE_LIMITED", "slow down", provider="tavily", query="q", retry_after=2.0)
    assert str(err) == "RATE_LIMITED [tavily]: slow down"
    info = err.info()
    back = SearchError.from_info(info)
    assert (back.code, back.message, back.provider, back.retryable) == (
        ErrorCode.RATE_LIMITED,
        "slow down",
        "tavily",
        True,
    )


def test_unknown_code_is_rejected() -> None:
    with pytest.raises(ValueError):
        SearchError("NOT_A_CODE", "x")


def test_foreign_exceptions_are_translated() -> None:
    assert as_search_error(TimeoutError()).code is ErrorCode.TIMEOUT
    assert as_search_error(ValueError("bad field")).code is ErrorCode.INVALID_QUERY
    unknown = as_search_error(RuntimeError("boom"), provider="p")
    assert (
        unknown.code is ErrorCode.UNKNOWN and "boom" in unknown.message and unknown.provider == "p"
    )
    original = SearchError("TIMEOUT", "t")
    assert as_search_error(original) is original
