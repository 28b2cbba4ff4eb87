"""The HTTP route that checks an answer's citations (``server`` extra): ``POST /api/verify``.

The JSON body (:class:`VerifyBody`) holds the ``answer`` and either the
``references`` it cites, or the ``chat_id`` and ``request_id`` of a search whose
stored references it cites; then the check is stored with that request
(``SearchStore.get_checks``). It answers the ``CitationReport``: one verdict per
sentence (``supported``, ``unsupported``, ``uncited``, ``unknown_id``,
``no_claim``) with its score and best supporting span. A request ID another chat
created, or no search created, is a 404; a wrong field is a 422 naming it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from unified_search.citations.verify import averify_citations
from unified_search.policy.session import RunId
from unified_search.types import Reference

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    from unified_search.config.search import SearchConfig
    from unified_search.records.store import SearchStore


class VerifyBody(BaseModel):
    """The JSON body of ``POST /api/verify``.

    Example:
        >>> VerifyBody(answer="Ice melts #ref:ref_001.", chat_id="c1", request_id="c1").references
        []
    """

    model_config = ConfigDict(extra="forbid")

    answer: str
    """The model's answer, with its citations (in the configured ``citation.format``)."""
    references: list[Reference] = Field(default_factory=list, max_length=1000)
    """The references the answer may cite; leave empty to use a stored request's."""
    chat_id: RunId | None = None
    request_id: RunId | None = None
    """The stored search (citation scope) whose references the answer cites."""

    @model_validator(mode="after")
    def _one_source_of_references(self) -> VerifyBody:
        if self.references and self.request_id is not None:
            raise ValueError("give references or a request_id, not both")
        if self.request_id is not None and self.chat_id is None:
            raise ValueError("a request_id needs the chat_id of the chat that created it")
        return self


def verify_route(config: SearchConfig, store: SearchStore) -> Route:
    """The route of ``POST /api/verify``, checking with ``config.citation``."""
    from starlette.routing import Route

    return Route("/api/verify", _endpoint(config, store), methods=["POST"])


def _endpoint(config: SearchConfig, store: SearchStore) -> Any:
    async def endpoint(request: Request) -> JSONResponse:
        from starlette.responses import JSONResponse

        from unified_search.server.guard import Refused, read_json

        try:
            body = VerifyBody.model_validate_json(await read_json(request, config.server))
        except Refused as refused:
            return refused.response()
        except ValidationError as exc:
            problems = [
                {"field": ".".join(map(str, e["loc"])) or "body", "message": e["msg"]}
                for e in exc.errors()
            ]
            return JSONResponse({"detail": problems}, 422)
        references = body.references
        if body.request_id is not None and body.chat_id is not None:
            searches = await store.aget_searches(body.request_id)
            if not searches or searches[0].chat_id != body.chat_id:
                found = f"request {body.request_id!r} not found in chat {body.chat_id!r}"
                return JSONResponse({"detail": found}, 404)
            references = await store.aget_references(body.request_id)
        report = await averify_citations(
            body.answer,
            references,
            config=config.citation,
            store=store if body.request_id else None,
            request_id=body.request_id or "",
            chat_id=body.chat_id,
        )
        return JSONResponse(report.model_dump(mode="json"))

    return endpoint
