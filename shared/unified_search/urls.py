"""URL hygiene: one canonical form per page, and a clean URL to show.

Two URLs name the same page when they differ only by scheme (http/https),
host case, a default port, a ``www.`` prefix, a trailing slash, a fragment,
tracking parameters or the order of the remaining query parameters.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from urllib.parse import urlsplit, urlunsplit

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
        # Newsroom and ad-platform campaign tags seen on shared article links.
        "cmp",
        "cmpid",
        "ncid",
        "ocid",
        "icid",
        "smid",
        "s_cid",
        "_ga",
        "_gl",
        "gclsrc",
        "guccounter",
        "guce_referrer",
        "guce_referrer_sig",
        "sr_share",
        "soc_src",
        "soc_trk",
        "mbid",
        "ito",
    }
)
_TRACKING_PREFIXES = ("utm_", "pk_", "hsa_", "__hs", "at_", "ns_", "itm_", "wt.")
_DEFAULT_PORTS = {"http": 80, "https": 443}
_MULTI_SLASH = re.compile(r"/{2,}")


def _is_tracking(name: str) -> bool:
    lowered = name.lower()
    return lowered in TRACKING_PARAMS or lowered.startswith(_TRACKING_PREFIXES)


@functools.lru_cache(maxsize=4096)
def _host(scheme: str, netloc: str) -> str:
    """Lower-case host with a non-default port; cached because domains repeat across results."""
    parts = urlsplit(f"{scheme}://{netloc}")
    host = (parts.hostname or "").lower()
    if ":" in host:  # IPv6 literal
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:
        port = None
    return host if port in (None, _DEFAULT_PORTS.get(scheme)) else f"{host}:{port}"


def _split(url: str) -> tuple[str, str, str, list[str]]:
    """Split into scheme, host[:port], path and the kept ``name=value`` parameters.

    Parameters stay as written (no decoding and re-encoding), so the shown URL is
    the provider's, minus the tracking.
    """
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    params = [p for p in parts.query.split("&") if p and not _is_tracking(p.partition("=")[0])]
    return scheme, _host(scheme, parts.netloc), parts.path, params


def clean_url(url: str) -> str:
    """Return the URL to show: tracking parameters and the fragment removed, host lower-cased.

    Example:
        >>> clean_url("https://Example.com:443/a?utm_source=x&id=2#top")
        'https://example.com/a?id=2'
    """
    scheme, netloc, path, params = _split(url)
    return urlunsplit((scheme, netloc, path or "/", "&".join(params), ""))


@functools.lru_cache(maxsize=4096)
def canonical_url(url: str) -> str:
    """Return the identity of a page, used to deduplicate results (remembered per URL).

    Example:
        >>> canonical_url("http://www.example.com/docs/?b=2&a=1&utm_medium=feed")
        'example.com/docs?a=1&b=2'
    """
    _, netloc, path, params = _split(url)
    identity = netloc.removeprefix("www.") + _MULTI_SLASH.sub("/", path).rstrip("/")
    return f"{identity}?{'&'.join(sorted(params))}" if params else identity


def secure_url(kept: str | None, other: str | None) -> str | None:
    """Of two URLs of the same page, the one to show: ``https`` wins over ``http``.

    Example:
        >>> secure_url("http://x.io/a", "https://x.io/a/")
        'https://x.io/a/'
    """
    if kept and other and not kept.startswith("https://") and other.startswith("https://"):
        return other
    return kept or other


def in_domains(address: str, domains: Iterable[str]) -> bool:
    """Tell whether a URL's host (or a bare host) is one of ``domains`` or a subdomain of one.

    Domains may be written as hosts or as URLs.

    Example:
        >>> in_domains("https://docs.python.org/3/", ["python.org"]), in_domains("evilpython.org", ["python.org"])
        (True, False)
    """
    host = hostname(address)
    return bool(host) and any(
        host == domain or host.endswith("." + domain) for domain in map(hostname, domains) if domain
    )


def hostname(address: str | None) -> str:
    """The lower-case host of a URL or of a bare host, without port or trailing dot.

    Example:
        >>> hostname("HTTPS://Docs.Python.org:443/3/"), hostname("python.org/x"), hostname(None)
        ('docs.python.org', 'python.org', '')
    """
    text = (address or "").strip().lower()
    host = urlsplit(text if "//" in text else f"//{text}").hostname
    return (host or "").strip(".")


def host_of(url: str | None) -> str | None:
    """The host of ``url`` without a leading ``www.``: the site results are grouped and ranked by."""
    return hostname(url).removeprefix("www.") or None
