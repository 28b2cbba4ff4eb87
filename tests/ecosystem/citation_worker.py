"""One worker process continuing a citation scope: ``python citation_worker.py URL PREFIX SCOPE NAME N``.

Runs N searches in SCOPE through a Searcher recording into the store at URL and
prints, as JSON, the citation ID each item got. Every search finds an item of
its own and the item ``common``, which every worker also finds.
"""

from __future__ import annotations

import asyncio
import json
import sys

from unified_search.contract.handler import SearchContext
from unified_search.engine.searcher import Searcher
from unified_search.records.store import SearchStore
from unified_search.types import ResultItem, SearchRequest, SearchResult


class Words:
    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        items = [
            ResultItem(type="kb", collection="c", document_id=w, title=w, content=w)
            for w in request.query.split()
        ]
        return SearchResult(type="kb", query=request.query, items=items)


async def main(url: str, prefix: str, scope: str, name: str, count: int) -> None:
    searcher = Searcher(handlers={"kb": Words()}, store=SearchStore(url, table_prefix=prefix))
    shown: list[tuple[str, str]] = []
    for i in range(count):
        response = await searcher.asearch(
            {"query": f"{name}-{i} common", "type": "kb"}, request_id=scope
        )
        shown += [(item.title, item.citation_id or "") for item in response.items]
    await searcher.aclose()
    print(json.dumps(shown))


if __name__ == "__main__":
    url, prefix, scope, name, count = sys.argv[1:]
    asyncio.run(main(url, prefix, scope, name, int(count)))
