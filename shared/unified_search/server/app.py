"""A small HTTP API for front ends: search, then click through citations (``server`` extra).

Routes:

* ``POST /api/search`` with a JSON body (:class:`SearchBody`) runs one request
  per source through the search policy (``unified_search.policy.session``): the sources
  are the body's ``types``, else every configured one and those its
  ``collections`` and ``models`` name. It answers with the chat ID (the body's,
  else a new one: keep it to read the references back), the request ID (the
  citation scope: the body's ``request_id``, else the chat), the references, the
  ``<references>`` XML, the citation prompt, the status, the errors of the
  sources that failed and the warnings (the answer not stored, ...: status
  ``partial``). When every source fails it answers 502 (422 for a query no
  source accepts) with the first error's code;
* ``GET /api/chat/{chat_id}/request/{request_id}/references`` lists the stored
  references of a request;
* ``GET /api/chat/{chat_id}/request/{request_id}/reference/{index}`` returns one;
* ``GET /api/chat/{chat_id}/searches?source=kb`` lists a chat's stored searches
  (``unified_search.server.history``);
* ``POST /api/verify`` checks an answer's citations (``unified_search.server.verify``).
* ``GET /api/store`` says how the record store's writes are going: queued, dropped,
  failing and why (``unified_search.server.status``).
* ``GET /api/cache`` shows the web cache's statistics and ``DELETE /api/cache``
  empties it (``unified_search.server.cache``).

A request belongs to the chat that created it: only that chat can read its
references or continue it (``request_id``); any other chat, or a request ID no
search created, gets 404. Limits and access (``server`` section, token in
``$UNIFIED_SEARCH_API_TOKEN``) are checked first (``unified_search.server.guard``).

Errors are JSON ``{"detail": ...}`` bodies, never a traceback: 404 says what
was not found; 400, 401, 408, 413, 415 and 422 name the field or the limit that
is wrong (a list of ``{"field", "message"}``). Every citation ID the API has
shown resolves through the click-through routes once its search is recorded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from unified_search._optional import require
from unified_search.db.understanding import understood_json
from unified_search.engine.attachments import DataSource
from unified_search.errors import REFUSALS, SearchError
from unified_search.policy.modes import QueryMode
from unified_search.policy.session import RunId, RunIds, SearchSession
from unified_search.server.cache import cache_routes
from unified_search.server.controls import RequestUses, control_problems, search_options
from unified_search.server.history import searches_route
from unified_search.server.status import status_route
from unified_search.server.verify import verify_route
from unified_search.types import SearchType, normal_query

if TYPE_CHECKING:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse

    from unified_search.config.server import ServerConfig
    from unified_search.engine.searcher import Searcher
    from unified_search.records.store import SearchStore

#: The largest reference index a URL may ask for (a SQL ``INTEGER``).
MAX_INDEX = 2**31 - 1
#: Error codes that mean the caller asked for something impossible (422), not a server failure.
_CALLER_CODES = REFUSALS


class SearchBody(BaseModel):
    """The JSON body of ``POST /api/search``.

    Example:
        >>> SearchBody(query="return policy", types=["kb"], collections=["help"]).top_n is None
        True
    """

    model_config = ConfigDict(extra="forbid")

    query: str = Field(min_length=1)
    """Normalised as every request's query is (``unified_search.types.normal_query``)."""
    types: list[SearchType] | None = Field(default=None, min_length=1)
    """Sources to search, one request each; ``None`` searches every configured source."""
    collections: list[str] = Field(default_factory=list)
    models: list[str] = Field(default_factory=list)
    top_n: int | None = Field(default=None, ge=1, le=1000, strict=True)
    """A JSON number (``"5"``, ``true`` or ``5.0`` are refused, as a URL's digits must be ASCII)."""
    mode: QueryMode | None = None
    """``fast``, ``deep`` or ``answer`` (see ``unified_search.policy.modes``); ``None``: as typed."""
    chat_id: RunId | None = None
    """The conversation; its searches share one citation numbering unless ``request_id`` is given."""
    request_id: RunId | None = None
    """Continue an earlier request: citation numbers carry on from its references."""
    uses: RequestUses | None = None
    """Which implementation does each job for this request (``unified_search.server.controls``)."""
    attachments: list[DataSource] = Field(default_factory=list)
    """The user's own rows, documents (and allowed MCP resources), cited at weight 1.0."""
    search: bool = True
    """``false`` searches no source: only the attachments are cited."""

    _normal_query = field_validator("query")(normal_query)


def create_app(searcher: Searcher, store: SearchStore, *, token: str | None = None) -> Starlette:
    """Build the ASGI application over ``searcher`` (which should record into ``store``).

    Its limits and allowed hosts are the ``server`` section of ``searcher.config``;
    with a ``token``, every request must send ``Authorization: Bearer <token>``.

    Example:
        Not run here: it serves HTTP until stopped.

        >>> app = create_app(Searcher(store=store), store)  # doctest: +SKIP
        >>> uvicorn.run(app)  # doctest: +SKIP
    """
    require("starlette", extra="server", purpose="the HTTP API")
    from starlette.applications import Starlette
    from starlette.exceptions import HTTPException
    from starlette.routing import Route

    from unified_search.server.guard import guard_middleware

    config = searcher.config.server
    session = SearchSession(searcher, shared_scope=False)
    routes = [
        Route("/api/search", _search_endpoint(session, store), methods=["POST"]),
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
        verify_route(searcher.config, store),
        status_route(store),
        *cache_routes(searcher),
    ]
    return Starlette(
        routes=routes,
        middleware=guard_middleware(config, token),
        exception_handlers={HTTPException: _http_error, Exception: _internal_error},
    )


def _search_endpoint(session: SearchSession, store: SearchStore) -> Any:
    from unified_search.server.guard import Refused

    limits = session.searcher.config.server

    async def endpoint(request: Request) -> JSONResponse:
        try:
            body = await _body(request, limits)
        except Refused as refused:
            return refused.response()
        if not isinstance(body, SearchBody):
            return body
        if body.request_id is not None and (
            refusal := await _not_continuable(store, body.chat_id, body.request_id)
        ):
            return refusal
        if problems := control_problems(body, session.searcher):
            return _invalid(problems)
        run = RunIds(request_id=body.request_id, chat_id=body.chat_id)
        try:
            options = search_options(body)
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
                "warnings": [warning.model_dump(mode="json") for warning in response.warnings],
                "understood": understood_json(response.results),
                "duration_ms": round(response.duration_ms, 3),
            }
        )

    return endpoint


async def _body(request: Request, limits: ServerConfig) -> SearchBody | JSONResponse:
    """The validated body; a 422 naming the field, or :class:`Refused` for a limit."""
    from unified_search.server.guard import read_json

    raw = await read_json(request, limits)
    try:  # pydantic's parser bounds the nesting depth: a deep body is a 422, not a crash
        body = SearchBody.model_validate_json(raw)
    except ValidationError as exc:
        return _invalid(_problems(exc))
    if len(body.query) > limits.max_query_chars:
        message = (
            f"longer than the limit of {limits.max_query_chars} characters (server.max_query_chars)"
        )
        return _invalid([{"field": "query", "message": message}])
    return body


def _problems(exc: ValidationError) -> list[dict[str, str]]:
    return [
        {"field": ".".join(map(str, e["loc"])) or "body", "message": e["msg"]} for e in exc.errors()
    ]


def _references_endpoint(store: SearchStore) -> Any:
    async def endpoint(request: Request) -> JSONResponse:
        chat_id, request_id = request.path_params["chat_id"], request.path_params["request_id"]
        if refusal := await _not_in_chat(store, chat_id, request_id):
            return refusal
        references = await store.aget_references(request_id)
        return _json({"references": [ref.model_dump(mode="json") for ref in references]})

    return endpoint


def _reference_endpoint(store: SearchStore) -> Any:
    async def endpoint(request: Request) -> JSONResponse:
        from unified_search.server.guard import Refused, whole_number

        chat_id, request_id = request.path_params["chat_id"], request.path_params["request_id"]
        try:
            index = whole_number(request.path_params["index"], "index", 1, MAX_INDEX)
        except Refused as refused:
            return refused.response()
        if refusal := await _not_in_chat(store, chat_id, request_id):
            return refusal
        reference = await store.aget_reference(request_id, index)
        if reference is None:
            return _not_found(f"reference {index} not found in request {request_id!r}")
        return _json(reference.model_dump(mode="json"))

    return endpoint


async def _not_continuable(
    store: SearchStore, chat_id: str | None, request_id: str
) -> JSONResponse | None:
    """Refuse continuing ``request_id`` unless ``chat_id`` created it (or it is the chat itself)."""
    if chat_id is None:
        message = "needs the chat_id of the chat that created the request"
        return _invalid([{"field": "chat_id", "message": message}])
    # The chat's own scope (its searches' default) may be new; any other must exist.
    return await _not_in_chat(store, chat_id, request_id, new=request_id == chat_id)


async def _not_in_chat(
    store: SearchStore, chat_id: str, request_id: str, *, new: bool = False
) -> JSONResponse | None:
    """A 404 unless ``request_id`` was created in ``chat_id`` (its first record is the chat's).

    A request with no record yet passes when it may be ``new``. IDs no search can have (a NUL, 300 characters) are a 422 naming them.
    """
    from unified_search.server.guard import id_problems

    if problems := id_problems(chat_id=chat_id, request_id=request_id):
        return _invalid(problems)
    searches = await store.aget_searches(request_id)
    if not searches:
        return None if new else _not_found(f"request {request_id!r} not found")
    if searches[0].chat_id != chat_id:
        return _not_found(f"request {request_id!r} not found in chat {chat_id!r}")
    return None


async def _http_error(_request: Request, exc: Exception) -> JSONResponse:
    """Starlette's own refusals (404 no such route, 405 wrong method) as JSON."""
    from starlette.exceptions import HTTPException

    assert isinstance(exc, HTTPException)
    return _json({"detail": exc.detail}, exc.status_code)


async def _internal_error(_request: Request, _exc: Exception) -> JSONResponse:
    """A bug answers a plain JSON 500; the traceback goes to the server's log, never the client."""
    return _json({"detail": "internal server error"}, 500)


def _json(content: Any, status: int = 200) -> JSONResponse:
    from starlette.responses import JSONResponse

    return JSONResponse(content, status_code=status)


def _invalid(problems: list[dict[str, str]]) -> JSONResponse:
    return _json({"detail": problems}, 422)


def _not_found(message: str) -> JSONResponse:
    return _json({"detail": message}, 404)
