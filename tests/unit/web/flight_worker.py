"""One process of a web search fleet sharing a Redis cache: ``python flight_worker.py URL PREFIX N MODE [LOCK_TTL]``.

Builds a web handler on the Redis cache at URL (key prefix PREFIX), prints
``ready``, waits for a line on standard input, then runs N identical searches
at once and prints, as JSON, how many calls reached the (mocked) provider and
how many items each search got (``-1`` for a failed search). MODE says how the
provider answers: ``ok`` after 0.5 s, ``fail`` with a 500 after 0.5 s, or
``crash``, which ends the process in the middle of the call, lock held. LOCK_TTL
sets ``web.cache.lock_ttl``, how long a process waits for another's call.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import httpx

from unified_search.config import SearchConfig
from unified_search.contract.handler import SearchContext
from unified_search.types import SearchRequest
from unified_search.web.handler import WebHandler

ANSWER = Path(__file__).resolve().parents[2] / "fixtures" / "web" / "tavily_search_success.json"


async def main(url: str, prefix: str, count: int, mode: str, lock_ttl: float) -> None:
    body = json.loads(ANSWER.read_text(encoding="utf-8"))["response"]
    calls = 0

    async def provider(request: httpx.Request) -> httpx.Response:
        nonlocal calls
        calls += 1
        if mode == "crash":
            os._exit(3)  # dies holding the lock, as a killed worker would
        await asyncio.sleep(0.5)
        if mode == "fail":
            return httpx.Response(500, json={"detail": {"error": "boom"}})
        return httpx.Response(200, json=body)

    cache = {"backend": "redis", "url": url, "prefix": prefix, "lock_ttl": lock_ttl}
    config = SearchConfig.load(
        profile={"web": {"providers": ["tavily"], "retries": 0, "cache": cache}}
    )
    handler = WebHandler(config, transport=httpx.MockTransport(provider))
    ctx = SearchContext(config=config, request_id="fleet")
    print("ready", flush=True)
    sys.stdin.readline()
    outcomes = await asyncio.gather(
        *(handler.asearch(SearchRequest(query="shared question"), ctx) for _ in range(count)),
        return_exceptions=True,
    )
    await handler.aclose()
    items = [-1 if isinstance(o, BaseException) else len(o.items) for o in outcomes]
    print(json.dumps({"calls": calls, "items": items}), flush=True)


if __name__ == "__main__":
    os.environ["TAVILY_API_KEY"] = "tvly-fleet-key"
    lock_ttl = float(sys.argv[5]) if len(sys.argv) > 5 else 10.0
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], lock_ttl))
