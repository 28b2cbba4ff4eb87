"""The HTTP routes of the web cache (``server`` extra): its statistics, and emptying it.

``GET /api/cache`` answers the statistics of the cache this server's web source
uses (``unified_search.web.cache.CacheStats`` as JSON); ``DELETE /api/cache``
empties it and answers ``{"cleared": n}``. Without a web cache (``web.cache.enabled:
false``, or a registered web source that keeps none) both answer 404.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from unified_search.types import SearchType

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    from unified_search.engine.searcher import Searcher


def cache_routes(searcher: Searcher) -> list[Route]:
    """The routes of ``/api/cache`` over ``searcher``'s web source."""
    from starlette.routing import Route

    return [Route("/api/cache", _endpoint(searcher), methods=["GET", "DELETE"])]


def _endpoint(searcher: Searcher) -> Any:
    async def endpoint(request: Request) -> JSONResponse:
        from starlette.responses import JSONResponse

        handler = await searcher.ahandler(SearchType.WEB)
        cache = getattr(handler, "cache", None)
        if cache is None:
            return JSONResponse({"detail": "this server keeps no web cache"}, status_code=404)
        if request.method == "DELETE":
            return JSONResponse({"cleared": await cache.aclear()})
        return JSONResponse((await cache.astats()).model_dump(mode="json"))

    return endpoint
