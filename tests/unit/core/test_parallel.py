import asyncio

import pytest

from unified_search.engine.parallel import Mode, fan_out


def _job(delay: float, value: object, log: list[str] | None = None):
    async def run() -> object:
        try:
            await asyncio.sleep(delay)
        except asyncio.CancelledError:
            if log is not None:
                log.append(f"cancelled {value}")
            raise
        if isinstance(value, Exception):
            raise value
        return value

    return run


def _as_error(index: int, exc: BaseException) -> str:
    return f"error {index}: {type(exc).__name__}"


async def test_all_waits_for_every_job_and_keeps_order() -> None:
    results = await fan_out([_job(0.03, "slow"), _job(0.0, "fast")], on_error=_as_error)
    assert results == ["slow", "fast"]


async def test_failures_become_values_and_never_block_others() -> None:
    results = await fan_out([_job(0.0, RuntimeError("boom")), _job(0.01, "ok")], on_error=_as_error)
    assert results == ["error 0: RuntimeError", "ok"]


async def test_timeout_applies_per_job() -> None:
    results = await fan_out([_job(5, "never"), _job(0.0, "ok")], timeout=0.05, on_error=_as_error)
    assert results == ["error 0: TimeoutError", "ok"]


async def test_race_returns_first_finished_and_cancels_the_rest() -> None:
    log: list[str] = []
    results = await fan_out(
        [_job(5, "slow", log), _job(0.0, "first")], mode=Mode.RACE, on_error=_as_error
    )
    assert results == [None, "first"]
    assert log == ["cancelled slow"]


async def test_any_skips_useless_values() -> None:
    log: list[str] = []
    results = await fan_out(
        [_job(0.0, []), _job(0.02, ["hit"]), _job(5, ["late"], log)],
        mode=Mode.ANY,
        on_error=_as_error,
        useful=bool,
    )
    assert results == [[], ["hit"], None]
    assert log == ["cancelled ['late']"]


async def test_any_waits_for_all_when_nothing_is_useful() -> None:
    results = await fan_out(
        [_job(0.0, []), _job(0.01, [])], mode=Mode.ANY, on_error=_as_error, useful=bool
    )
    assert results == [[], []]


async def test_race_counts_a_failure_as_finished() -> None:
    results = await fan_out(
        [_job(0.0, RuntimeError("x")), _job(5, "slow")], mode=Mode.RACE, on_error=_as_error
    )
    assert results == ["error 0: RuntimeError", None]


async def test_no_jobs() -> None:
    assert await fan_out([], on_error=_as_error) == []


def test_mode_from_str_lists_valid_modes() -> None:
    assert Mode.from_str("race") is Mode.RACE
    with pytest.raises(ValueError, match="all, any, race"):
        Mode.from_str("fastest")
