"""The HTTP route listing a chat's stored searches (``server`` extra), by source if asked.

``GET /api/chat/{chat_id}/searches?source=kb&limit=20`` answers
``{"searches": [...]}``: the chat's latest records, oldest first, each with its
references (the design's ``SearchFilter`` by chat and source). ``source`` is
who asked (``user``, ``hook``, ``auto``) or the kind of source (``web``,
``kb``, ``db``); a wrong ``source`` or ``limit`` is a 422 naming the field.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    from unified_search.records.store import SearchStore

#: The largest ``limit`` one request may ask for.
MAX_LIMIT = 1000


def searches_route(store: SearchStore) -> Route:
    """The route of ``GET /api/chat/{chat_id}/searches`` over ``store``."""
    from starlette.routing import Route

    return Route("/api/chat/{chat_id}/searches", _endpoint(store), methods=["GET"])


def _endpoint(store: SearchStore) -> Any:
    async def endpoint(request: Request) -> JSONResponse:
        from starlette.responses import JSONResponse

        from unified_search.server.guard import Refused, id_problems, whole_number

        if problems := id_problems(chat_id=request.path_params["chat_id"]):
            return JSONResponse({"detail": problems}, status_code=422)
        source = request.query_params.get("source")
        try:
            limit = whole_number(request.query_params.get("limit", "100"), "limit", 1, MAX_LIMIT)
        except Refused as refused:
            return refused.response()
        try:
            found = await store.afind_searches(
                chat_id=request.path_params["chat_id"], source=source, limit=limit
            )
        except ValueError as exc:
            return JSONResponse({"detail": [{"field": "source", "message": str(exc)}]}, 422)
        return JSONResponse({"searches": [record.model_dump(mode="json") for record in found]})

    return endpoint
