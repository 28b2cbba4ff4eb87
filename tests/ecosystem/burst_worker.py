"""A burst of recorded searches: ``python burst_worker.py URL PREFIX``.

Searches without end, 20 at a time, each in a new scope (every fourth one
continues the scope ``shared``), and prints ``answered REQUEST_ID`` as each
answer arrives, until it is killed.
"""

from __future__ import annotations

import asyncio
import itertools
import sys

from unified_search.contract.handler import SearchContext
from unified_search.engine.searcher import Searcher
from unified_search.records.store import SearchStore
from unified_search.types import ResultItem, SearchRequest, SearchResult


class Words:
    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        items = [
            ResultItem(type="kb", collection="c", document_id=w, title=w, content=w * 20)
            for w in request.query.split()
        ]
        return SearchResult(type="kb", query=request.query, items=items)


async def main(url: str, prefix: str) -> None:
    searcher = Searcher(handlers={"kb": Words()}, store=SearchStore(url, table_prefix=prefix))
    counter = itertools.count()

    async def worker() -> None:
        while True:
            n = next(counter)
            scope = "shared" if n % 4 == 0 else None
            query = {"query": f"w{n} x{n} common", "type": "kb"}
            response = await searcher.asearch(query, request_id=scope)
            print("answered", response.request_id, n, flush=True)

    await asyncio.gather(*(worker() for _ in range(20)))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
