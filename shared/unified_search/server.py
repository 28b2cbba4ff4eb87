"""A small HTTP API for front ends: search, then click through citations (``server`` extra).

Routes:

* ``POST /api/search`` with a JSON body (:class:`SearchBody`) runs one request
  per type through the search policy (``unified_search.session``) and answers
  with the request ID (the citation scope: the body's ``request_id``, else its
  ``chat_id``, else a new one), the references, the ``<references>`` XML, the
  citation prompt, the status and the errors of the sources that failed; when
  every source fails it answers 502 (422 for a query no source accepts) with
  the first error's code;
* ``GET /api/chat/{chat_id}/request/{request_id}/references`` lists the stored
  references of a request;
* ``GET /api/chat/{chat_id}/request/{request_id}/reference/{index}`` returns one;
* ``GET /api/chat/{chat_id}/searches?source=kb`` lists a chat's stored searches
  (``unified_search.search_history``).

Errors are JSON ``{"detail": ...}`` bodies: 404 says what was not found, 422
names the field that is wrong (a list of ``{"field", "message"}``). Every
citation ID the API has shown resolves through the click-through routes once
its search is recorded.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from unified_search._optional import require
from unified_search.db.understanding import understood_json
from unified_search.errors import ErrorCode, SearchError
from unified_search.modes import QueryMode
from unified_search.search_history import searches_route
from unified_search.session import RunId, RunIds, SearchOptions, SearchSession
from unified_search.types import SearchType

if TYPE_CHECKING:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse

    from unified_search.searcher import Searcher
    from unified_search.store import SearchStore

#: Error codes that mean the caller asked for something impossible (422), not a server failure.
_CALLER_CODES = frozenset({ErrorCode.INVALID_QUERY, ErrorCode.UNSUPPORTED})


class SearchBody(BaseModel):
    """The JSON body of ``POST /api/search``.

    Example:
        >>> SearchBody(query="return policy", types=["kb"], collections=["help"]).top_n is None
        True
    """

    model_config = ConfigDict(extra="forbid")

    query: str = Field(min_length=1)
    types: list[SearchType] | None = Field(default=None, min_length=1)
    """Sources to search, one request each; ``None`` searches every configured source."""
    collections: list[str] = Field(default_factory=list)
    models: list[str] = Field(default_factory=list)
    top_n: int | None = Field(default=None, ge=1, le=1000)
    mode: QueryMode | None = None
    """``fast``, ``deep`` or ``answer`` (see ``unified_search.modes``); ``None``: as typed."""
    chat_id: RunId | None = None
    """The conversation; its searches share one citation numbering unless ``request_id`` is given."""
    request_id: RunId | None = None
    """Continue an earlier request: citation numbers carry on from its references."""


def create_app(searcher: Searcher, store: SearchStore) -> Starlette:
    """Build the ASGI application over ``searcher`` (which should record into ``store``).

    Example:
        Not run here: it serves HTTP until stopped.

        >>> app = create_app(Searcher(store=store), store)  # doctest: +SKIP
        >>> uvicorn.run(app)  # doctest: +SKIP
    """
    require("starlette", extra="server", purpose="the HTTP API")
    from starlette.applications import Starlette
    from starlette.routing import Route

    session = SearchSession(searcher, shared_scope=False)
    routes = [
        Route("/api/search", _search_endpoint(session), methods=["POST"]),
        Route(
            "/api/chat/{chat_id}/request/{request_id}/references",
            _references_endpoint(store),
            methods=["GET"],
        ),
        Route(
            "/api/chat/{chat_id}/request/{request_id}/reference/{index}",
            _reference_endpoint(store),
            methods=["GET"],
        ),
        searches_route(store),
    ]
    return Starlette(routes=routes)


def _search_endpoint(session: SearchSession) -> Any:
    async def endpoint(request: Request) -> JSONResponse:
        body = await _body(request)
        if not isinstance(body, SearchBody):
            return body
        options = SearchOptions(
            types=body.types,
            collections=body.collections,
            models=body.models,
            k=body.top_n,
            mode=body.mode,
        )
        run = RunIds(request_id=body.request_id, chat_id=body.chat_id)
        try:
            response = await session.asearch(body.query, options, run=run)
        except ValidationError as exc:  # a request the engine refuses (a blank query ...)
            return _invalid(_problems(exc))
        except SearchError as exc:
            status = 422 if exc.code in _CALLER_CODES else 502
            return _json({"detail": str(exc), "code": exc.code.value}, status)
        return _json(
            {
                "request_id": response.request_id,
                "chat_id": response.chat_id,
                "status": response.status,
                "references": [ref.model_dump(mode="json") for ref in response.references],
                "xml": response.context.xml,
                "prompt": response.context.prompt,
                "errors": [error.model_dump(mode="json") for error in response.errors],
                "understood": understood_json(response.results),
                "duration_ms": round(response.duration_ms, 3),
            }
        )

    return endpoint


async def _body(request: Request) -> SearchBody | JSONResponse:
    try:
        raw = json.loads(await request.body())
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        return _invalid([{"field": "body", "message": f"not JSON: {exc}"}])
    try:
        return SearchBody.model_validate(raw)
    except ValidationError as exc:
        return _invalid(_problems(exc))


def _problems(exc: ValidationError) -> list[dict[str, str]]:
    return [
        {"field": ".".join(map(str, e["loc"])) or "body", "message": e["msg"]} for e in exc.errors()
    ]


def _references_endpoint(store: SearchStore) -> Any:
    async def endpoint(request: Request) -> JSONResponse:
        chat_id, request_id = request.path_params["chat_id"], request.path_params["request_id"]
        if missing := await _missing_request(store, chat_id, request_id):
            return missing
        references = await store.aget_references(request_id)
        return _json({"references": [ref.model_dump(mode="json") for ref in references]})

    return endpoint


def _reference_endpoint(store: SearchStore) -> Any:
    async def endpoint(request: Request) -> JSONResponse:
        chat_id, request_id = request.path_params["chat_id"], request.path_params["request_id"]
        raw = request.path_params["index"]
        if not raw.isdigit() or int(raw) < 1:
            return _invalid([{"field": "index", "message": "must be a whole number from 1"}])
        if missing := await _missing_request(store, chat_id, request_id):
            return missing
        reference = await store.aget_reference(request_id, int(raw))
        if reference is None:
            return _not_found(f"reference {raw} not found in request {request_id!r}")
        return _json(reference.model_dump(mode="json"))

    return endpoint


async def _missing_request(
    store: SearchStore, chat_id: str, request_id: str
) -> JSONResponse | None:
    """A 404 response when ``request_id`` has no visible record in ``chat_id``, else ``None``."""
    searches = await store.aget_searches(request_id)
    if not searches:
        return _not_found(f"request {request_id!r} not found")
    if all(record.chat_id != chat_id for record in searches):
        return _not_found(f"request {request_id!r} not found in chat {chat_id!r}")
    return None


def _json(content: Any, status: int = 200) -> JSONResponse:
    from starlette.responses import JSONResponse

    return JSONResponse(content, status_code=status)


def _invalid(problems: list[dict[str, str]]) -> JSONResponse:
    return _json({"detail": problems}, 422)


def _not_found(message: str) -> JSONResponse:
    return _json({"detail": message}, 404)
