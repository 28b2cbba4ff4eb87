import asyncio

import pytest

from unified_search.config import SearchConfig
from unified_search.contract.delegates import Delegates, Uses, parse_uses
from unified_search.errors import ConfigurationError, ErrorCode, SearchError


def test_parse_uses() -> None:
    assert parse_uses("builtin") == Uses("builtin")
    assert parse_uses("my_agent") == Uses("agent", "my_agent")
    assert parse_uses("mcp:tools.search") == Uses("mcp", "tools", "search")
    for bad in ("", "mcp:", "mcp:server", "mcp:.tool"):
        with pytest.raises(ConfigurationError):
            parse_uses(bad)


class _Runnable:
    def invoke(self, payload: dict) -> str:
        return "invoke:" + payload["q"]


class _AsyncRunnable:
    async def ainvoke(self, payload: dict) -> str:
        return "ainvoke:" + payload["q"]


class _AsyncCallable:
    async def __call__(self, payload: dict) -> str:
        return "acall:" + payload["q"]


async def _coroutine_fn(payload: dict) -> str:
    return "coro:" + payload["q"]


@pytest.mark.parametrize(
    ("agent", "expected"),
    [
        (lambda payload: "fn:" + payload["q"], "fn:x"),
        (_coroutine_fn, "coro:x"),
        (_Runnable(), "invoke:x"),
        (_AsyncRunnable(), "ainvoke:x"),
        (_AsyncCallable(), "acall:x"),
    ],
)
async def test_every_kind_of_agent_is_called(agent: object, expected: str) -> None:
    delegates = Delegates({"a": agent})
    assert await delegates.call("a", {"q": "x"}, SearchConfig()) == expected


async def test_unknown_agent_lists_registered_ones() -> None:
    delegates = Delegates({"alpha": lambda p: p, "beta": lambda p: p})
    with pytest.raises(SearchError) as info:
        await delegates.call("gamma", {}, SearchConfig())
    assert info.value.code is ErrorCode.UNSUPPORTED
    assert "alpha, beta" in info.value.message


def test_registration_rejects_reserved_names_and_non_callables() -> None:
    delegates = Delegates()
    with pytest.raises(ValueError):
        delegates.register("builtin", lambda p: p)
    with pytest.raises(ValueError):
        delegates.register("mcp:x.y", lambda p: p)
    with pytest.raises(TypeError):
        delegates.register("x", 42)


def test_builtin_is_not_delegated() -> None:
    with pytest.raises(ValueError):
        asyncio.run(Delegates().call("builtin", {}, SearchConfig()))
