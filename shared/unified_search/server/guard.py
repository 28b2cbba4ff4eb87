"""What stands in front of the HTTP API's routes: who may call it, and how much they may send.

* ``Host`` allow-list and bearer token: Starlette's ``AuthenticationMiddleware``
  with the :class:`Gatekeeper` backend. The host check lives here rather than in
  Starlette's ``TrustedHostMiddleware`` because that one refuses in plain text,
  and every refusal of this API is JSON naming what is wrong.
* CORS: Starlette's ``CORSMiddleware``, only when ``server.cors_origins`` is set.
* Bodies: :func:`read_json` admits only ``application/json``, refuses a body over
  ``server.max_body_bytes`` (by its ``Content-Length`` before reading, else as it
  arrives) and one not sent within ``server.body_timeout``. Starlette has no
  body limit of its own (uvicorn neither), hence these few lines.
* Numbers in URLs: :func:`whole_number` reads ASCII digits only (``str.isdigit``
  also takes ``¹``, ``①``, ``١`` and ``１``, and ``int`` then fails or reads them).

Every refusal is a :class:`Refused`, answered as ``{"detail": [{"field", "message"}]}``.
"""

from __future__ import annotations

import asyncio
import hmac
import re

from pydantic import TypeAdapter, ValidationError
from starlette.authentication import (
    AuthCredentials,
    AuthenticationBackend,
    AuthenticationError,
    SimpleUser,
)
from starlette.middleware import Middleware
from starlette.middleware.authentication import AuthenticationMiddleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse

from unified_search.config.server import ServerConfig
from unified_search.policy.session import RunId

_RUN_ID: TypeAdapter[str] = TypeAdapter(RunId)
#: A well-formed ``Host`` header: a name or an IPv4 address, or an IPv6 one in brackets, and a
#: port. Starlette reads a malformed one as the server's own address, which would pass.
_HOST = re.compile(r"(?:\[(?P<v6>[0-9A-Fa-f:.]+)\]|(?P<name>[A-Za-z0-9.-]+))(?::[0-9]{1,5})?")
_CLOSE = {"Connection": "close"}
#: A whole number as a URL may write it: ASCII digits, no sign, no more than fit a SQL BIGINT.
_WHOLE = re.compile(r"[0-9]{1,18}")
#: The only media type a request body may have (a cross-site form or ``text/plain`` POST is refused).
JSON_MEDIA_TYPE = "application/json"


class Refused(AuthenticationError):
    """A request refused before any search: its status and the field or limit to blame."""

    def __init__(self, status: int, field: str, message: str, **headers: str) -> None:
        super().__init__(message)
        self.status, self.field, self.message, self.headers = status, field, message, headers

    def response(self) -> JSONResponse:
        """The JSON answer naming the field."""
        problem = {"field": self.field, "message": self.message}
        return JSONResponse({"detail": [problem]}, self.status, headers=self.headers or None)


class Gatekeeper(AuthenticationBackend):
    """Serve only the allowed ``Host`` names and, with a token, only callers who send it."""

    def __init__(self, allowed_hosts: list[str], token: str | None) -> None:
        self.hosts = [host.lower() for host in allowed_hosts]
        self.token = token.encode() if token else None

    async def authenticate(self, conn: HTTPConnection) -> tuple[AuthCredentials, SimpleUser] | None:
        """Refuse a foreign host (400) or a missing or wrong token (401)."""
        header = conn.headers.get("host", "")
        match = _HOST.fullmatch(header)
        host = (match.group("v6") or match.group("name")).lower() if match else None
        if host is None or not self._known(host):
            shown = host if host is not None else header
            raise Refused(400, "Host", f"host {shown!r} is not served; see server.allowed_hosts")
        if self.token is None:
            return None
        scheme, _, given = conn.headers.get("authorization", "").partition(" ")
        # compare_digest takes as long whatever the first wrong byte: no timing hint to the token.
        if scheme.lower() != "bearer" or not hmac.compare_digest(
            given.strip().encode(), self.token
        ):
            raise Refused(
                401,
                "Authorization",
                "a valid bearer token is required",
                **{"WWW-Authenticate": "Bearer"},
            )
        return AuthCredentials(["search"]), SimpleUser("client")

    def _known(self, host: str) -> bool:
        return any(
            pattern == "*"
            or host == pattern
            or (pattern.startswith("*.") and host.endswith(pattern[1:]))
            for pattern in self.hosts
        )


def guard_middleware(config: ServerConfig, token: str | None) -> list[Middleware]:
    """The middleware of the API, outermost first: CORS (when configured), then the gatekeeper.

    CORS answers a browser's preflight before the gatekeeper asks for the token it lacks.
    """
    stack = []
    if config.cors_origins:
        stack.append(
            Middleware(
                CORSMiddleware,
                allow_origins=config.cors_origins,
                allow_methods=["GET", "POST"],
                allow_headers=["Authorization", "Content-Type"],
            )
        )
    stack.append(
        Middleware(
            AuthenticationMiddleware,
            backend=Gatekeeper(config.allowed_hosts, token),
            on_error=_refusal,
        )
    )
    return stack


def _refusal(_conn: HTTPConnection, exc: AuthenticationError) -> JSONResponse:
    refused = exc if isinstance(exc, Refused) else Refused(401, "Authorization", str(exc))
    return refused.response()


async def read_json(request: Request, config: ServerConfig) -> bytes:
    """The body of a JSON request, within the size and time limits; raise :class:`Refused`.

    A refused body is left unread, so the answer closes the connection (else the server
    would keep it open for the keep-alive timeout, waiting for the rest).
    """
    media_type = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if media_type != JSON_MEDIA_TYPE:
        shown = media_type or "none"
        raise Refused(415, "Content-Type", f"must be {JSON_MEDIA_TYPE}, not {shown}", **_CLOSE)
    limit = config.max_body_bytes
    too_large = Refused(
        413, "body", f"larger than the limit of {limit} bytes (server.max_body_bytes)", **_CLOSE
    )
    declared = request.headers.get("content-length", "")
    if _WHOLE.fullmatch(declared) and int(declared) > limit:
        raise too_large
    body = bytearray()
    try:
        async with asyncio.timeout(config.body_timeout):
            async for chunk in request.stream():
                body += chunk
                if len(body) > limit:
                    raise too_large
    except TimeoutError:
        raise Refused(
            408,
            "body",
            f"not received within {config.body_timeout:g} s (server.body_timeout)",
            **_CLOSE,
        ) from None
    return bytes(body)


def whole_number(raw: str, field: str, low: int, high: int) -> int:
    """The number ``raw`` writes in ASCII digits, from ``low`` to ``high``; else a 422 naming ``field``.

    Raises:
        Refused: anything else (a sign, a space, a superscript or another script's digits).
    """
    if _WHOLE.fullmatch(raw) is None or not low <= int(raw) <= high:
        raise Refused(422, field, f"must be a whole number from {low} to {high}")
    return int(raw)


def id_problems(**ids: str) -> list[dict[str, str]]:
    """What is wrong with chat and request IDs from a URL, by name.

    The body's rules (1-255 printable characters): a NUL or a novel-length ID never
    reaches the store.
    """
    problems = []
    for field, value in ids.items():
        try:
            _RUN_ID.validate_python(value)
        except ValidationError as exc:
            problems.append({"field": field, "message": exc.errors()[0]["msg"]})
    return problems
