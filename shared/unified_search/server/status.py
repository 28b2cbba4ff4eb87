"""The HTTP route an operator reads how the record store's writes are going from (``server`` extra).

``GET /api/store`` answers :class:`unified_search.records.drops.StoreStatus` as JSON:
searches queued, searches this worker gave up on, the dropped searches listed in the
store by every worker, and the failure (with its code: ``STORAGE_FULL``, ``READ_ONLY``,
``NETWORK_ERROR`` ...) while writes are failing. Each worker answers for itself; the
total is shared. It is behind the same host and token checks as every route.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    from unified_search.records.store import SearchStore


def status_route(store: SearchStore) -> Route:
    """The route of ``GET /api/store`` over ``store``."""
    from starlette.routing import Route

    return Route("/api/store", _endpoint(store), methods=["GET"])


def _endpoint(store: SearchStore) -> Any:
    async def endpoint(_request: Request) -> JSONResponse:
        from starlette.responses import JSONResponse

        status = await store.astatus()
        return JSONResponse(status.model_dump(mode="json"))

    return endpoint
