"""URL hygiene: one canonical form per page, and a clean URL to show.

Two URLs name the same page when they differ only by scheme (http/https),
host case, a default port, a ``www.`` prefix, a trailing slash, a fragment,
tracking parameters or the order of the remaining query parameters.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

#: Query parameters that only track the visitor; they never change the page.
TRACKING_PARAMS = frozenset(
    {
        "fbclid",
        "gclid",
        "dclid",
        "gbraid",
        "wbraid",
        "msclkid",
        "yclid",
        "twclid",
        "igshid",
        "mc_cid",
        "mc_eid",
        "ref_src",
        "ref_url",
        "_hsenc",
        "_hsmi",
        "mkt_tok",
        "oly_anon_id",
        "oly_enc_id",
        "vero_id",
        "spm",
        "si",
    }
)
_TRACKING_PREFIXES = ("utm_", "pk_", "hsa_", "__hs")
_DEFAULT_PORTS = {"http": 80, "https": 443}
_MULTI_SLASH = re.compile(r"/{2,}")


def _is_tracking(name: str) -> bool:
    lowered = name.lower()
    return lowered in TRACKING_PARAMS or lowered.startswith(_TRACKING_PREFIXES)


def _split(url: str) -> tuple[str, str, str, list[tuple[str, str]]]:
    """Split into scheme, host[:port] (lower-case, default port dropped), path and kept params."""
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if ":" in host:  # IPv6 literal
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:
        port = None
    netloc = host if port in (None, _DEFAULT_PORTS.get(scheme)) else f"{host}:{port}"
    params = parse_qsl(parts.query, keep_blank_values=True) if parts.query else []
    return scheme, netloc, parts.path, [(k, v) for k, v in params if not _is_tracking(k)]


def clean_url(url: str) -> str:
    """Return the URL to show: tracking parameters and the fragment removed, host lower-cased.

    Example:
        >>> clean_url("https://Example.com:443/a?utm_source=x&id=2#top")
        'https://example.com/a?id=2'
    """
    scheme, netloc, path, params = _split(url)
    return urlunsplit((scheme, netloc, path or "/", urlencode(params), ""))


def canonical_url(url: str) -> str:
    """Return the identity of a page, used to deduplicate results.

    Example:
        >>> canonical_url("http://www.example.com/docs/?b=2&a=1&utm_medium=feed")
        'example.com/docs?a=1&b=2'
    """
    _, netloc, path, params = _split(url)
    identity = netloc.removeprefix("www.") + _MULTI_SLASH.sub("/", path).rstrip("/")
    return f"{identity}?{urlencode(sorted(params))}" if params else identity
