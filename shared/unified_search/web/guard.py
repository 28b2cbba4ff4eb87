"""The SSRF guard of URL retrieval: only public http(s) hosts, unless the user allows others.

A URL handed to ``retrieve`` may come from a model, so it could point at the
machine itself, the internal network or a cloud metadata service. Every host
is resolved and each address checked; a redirect is checked again before it is
followed. (A DNS answer that changes between the check and the connection is
not covered: run the reader behind an egress proxy where that matters.)
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Awaitable, Callable
from urllib.parse import urlsplit

from unified_search.errors import ErrorCode, SearchError

Resolver = Callable[[str, int], Awaitable[list[str]]]
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
SCHEMES = ("http", "https")


async def system_resolver(host: str, port: int) -> list[str]:
    """Resolve ``host`` with the operating system (without blocking the loop)."""
    infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


#: Special-purpose ranges the running Python's ``is_global`` may still call global (its
#: registry follows the IANA one with a lag): never a target for a model-supplied URL.
SPECIAL_RANGES = tuple(
    ipaddress.ip_network(net)
    for net in (
        "192.0.0.0/24",  # IETF protocol assignments (192.0.0.8 and the PCP/TURN anycasts too)
        "192.88.99.0/24",  # deprecated 6to4 relay anycast
        "::/96",  # deprecated IPv4-compatible IPv6 (``::127.0.0.1``)
        "::ffff:0:0:0/96",  # IPv4-translated (SIIT)
        "64:ff9b:1::/48",  # local-use IPv4/IPv6 translation
        "fec0::/10",  # deprecated site-local
        "5f00::/16",  # SRv6 segment identifiers
        "3fff::/20",  # documentation (2024)
    )
)
#: The NAT64 well-known prefix: the address is the embedded IPv4 one.
NAT64 = ipaddress.ip_network("64:ff9b::/96")


def is_public(address: str) -> bool:
    """Tell whether an IP address is globally routable (not private, loopback, special-purpose ...).

    IPv4 addresses embedded in IPv6 ones (mapped, 6to4, Teredo, NAT64) must be
    public too.

    Example:
        >>> [is_public(a) for a in ("93.184.216.34", "10.0.0.1", "169.254.169.254", "::1", "::ffff:127.0.0.1")]
        [True, False, False, False, False]
        >>> [is_public(a) for a in ("::127.0.0.1", "64:ff9b::7f00:1", "2002:7f00:1::", "192.0.0.8")]
        [False, False, False, False]
    """
    ip: IPAddress = ipaddress.ip_address(address.split("%", 1)[0])
    if any(ip in network for network in SPECIAL_RANGES if network.version == ip.version):
        return False
    embedded = _embedded_ipv4(ip)
    if embedded and not all(is_public(str(inner)) for inner in embedded):
        return False
    return ip.is_global and not ip.is_multicast


def _embedded_ipv4(ip: IPAddress) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address carries (mapped, 6to4, Teredo server and client, NAT64)."""
    if not isinstance(ip, ipaddress.IPv6Address):
        return []
    found = [ip.ipv4_mapped, ip.sixtofour, *(ip.teredo or ())]
    if ip in NAT64:
        found.append(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
    return [inner for inner in found if inner is not None]


def split_target(url: str) -> tuple[str, int]:
    """Return the host and port of an http(s) URL, or raise INVALID_QUERY saying what is wrong."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as exc:
        raise _refused(f"invalid URL {url!r}: {exc}") from None
    if parts.scheme.lower() not in SCHEMES:
        raise _refused(f"only http and https URLs can be retrieved, not {parts.scheme or 'none'!r}")
    if not parts.hostname:
        raise _refused(f"URL {url!r} has no host")
    return parts.hostname, port or (443 if parts.scheme.lower() == "https" else 80)


async def check_url(url: str, *, resolver: Resolver, allow_private: bool) -> None:
    """Refuse ``url`` unless it is http(s) and every address of its host is public."""
    host, port = split_target(url)
    if allow_private:
        return
    for address in await _addresses(host, port, resolver):
        if not is_public(address):
            raise _refused(
                f"refusing to fetch {host!r}: it resolves to the non-public address {address} "
                "(set web.reader.allow_private_hosts to allow it)"
            )


async def _addresses(host: str, port: int, resolver: Resolver) -> list[str]:
    try:
        ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        pass
    else:
        return [host]
    try:
        found = await resolver(host, port)
    except OSError as exc:
        raise SearchError(ErrorCode.NETWORK_ERROR, f"cannot resolve {host!r}: {exc}") from None
    if not found:
        raise SearchError(ErrorCode.NETWORK_ERROR, f"{host!r} has no address")
    return found


def _refused(message: str) -> SearchError:
    return SearchError(ErrorCode.INVALID_QUERY, message, provider="reader")
