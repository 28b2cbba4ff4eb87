"""What document a URL names, whatever mirror, format or wrapper it comes through.

A paper has many addresses: arXiv's abstract, its PDF, each version, its DOI at
doi.org and at the publisher, PubMed and PubMed Central, Europe PMC. A page has
its AMP copy (on the site, in Google's or the AMP cache's wrapper) and its mobile
host. ``document_identity`` maps all of them to one identity: a scholarly
identifier (``arxiv:2101.00001``, ``doi:10.1038/s41586-020-2649-2``,
``pmid:31452104``, ``pmcid:PMC6707476``) where the URL carries one, else the
page's canonical URL (``unified_search.urls.canonical_url``) once unwrapped.
"""

from __future__ import annotations

import functools
import re
from urllib.parse import parse_qsl, unquote, urlsplit, urlunsplit

from unified_search.urls import canonical_url

_ARXIV_HOSTS = (
    "arxiv.org",
    "export.arxiv.org",
    "ar5iv.labs.arxiv.org",
    "ar5iv.org",
    "alphaxiv.org",
)
_ARXIV_ID = r"(\d{4}\.\d{4,5}|[a-z][a-z.-]*(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?"
_ARXIV_PATH = re.compile(rf"^/(?:abs|pdf|html|format|papers?)/{_ARXIV_ID}(?:\.pdf)?/?$", re.I)
_ARXIV_DOI = re.compile(rf"^10\.48550/arxiv\.{_ARXIV_ID}$", re.I)
_DOI = re.compile(r"\b(10\.\d{4,9}/[^\s?#&]+)", re.I)
# What publishers append to a DOI in their URLs: formats, parts and preprint versions.
_DOI_TAIL = re.compile(
    r"(?:\.full(?:\.pdf|-text)?|\.pdf|\.abstract|\.short|/(?:full|abstract|pdf|epdf|html|"
    r"fulltext|meta|references|figures|info)(?:/.*)?|(?<=\d)v\d+)+$",
    re.I,
)
_PUBMED = re.compile(r"^/(?:pubmed/)?(\d{1,9})/?$")
_EUROPEPMC = re.compile(r"^/(?:article|abstract|api/fulltextrepo)/(MED|PMC)/(PMC)?(\d+)", re.I)
_PMC = re.compile(r"/(?:pmc/)?articles/(PMC\d+)", re.I)
_NATURE = re.compile(r"^/articles/(s\d{5}-\d{3}-\d{4,5}-\w|[a-z]+\d{4,})", re.I)
_AMP_SUFFIX = re.compile(r"\.amp(?:\.html?)?$", re.I)
_AMP_ROUTE = re.compile(r"/amp(?=/|$)", re.I)
_AMP_PARAMS = {("amp", "1"), ("amp", "true"), ("amp", ""), ("outputtype", "amp"), ("output", "amp")}
_MOBILE_LABELS = {"m", "mobile", "amp"}


@functools.lru_cache(maxsize=4096)
def document_identity(url: str) -> str:
    """The identity of the document at ``url``: a scholarly identifier, else its canonical page.

    Example:
        >>> document_identity("https://arxiv.org/pdf/2101.00001v3.pdf")
        'arxiv:2101.00001'
        >>> document_identity("https://www.google.com/amp/s/www.example.com/news/story.amp")
        'url:example.com/news/story'
    """
    unwrapped = unwrap(url)
    return scholarly_id(unwrapped) or "url:" + canonical_url(unwrapped)


def scholarly_id(url: str) -> str | None:
    """The arXiv, DOI, PubMed or PMC identifier a URL carries, or ``None``."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower().removeprefix("www.")
    path = unquote(parts.path)
    if host in _ARXIV_HOSTS or host == "huggingface.co":
        found = _ARXIV_PATH.match(path)
        return f"arxiv:{found.group(1).lower()}" if found else None
    if host.endswith("ncbi.nlm.nih.gov") or host == "europepmc.org":
        return _medline(host, path)
    doi = _doi(host, path, parts.query)
    if doi is None:
        return None
    arxiv = _ARXIV_DOI.match(doi)
    return f"arxiv:{arxiv.group(1).lower()}" if arxiv else f"doi:{doi}"


def _medline(host: str, path: str) -> str | None:
    if found := _PMC.search(path):
        return f"pmcid:{found.group(1).upper()}"
    if host == "europepmc.org":
        if found := _EUROPEPMC.match(path):
            kind, number = found.group(1).upper(), found.group(3)
            return f"pmcid:PMC{number}" if kind == "PMC" else f"pmid:{number}"
        return None
    found = _PUBMED.match(path.removeprefix("/pubmed") if host.startswith("pubmed.") else path)
    if found and (host.startswith("pubmed.") or path.startswith("/pubmed/")):
        return f"pmid:{found.group(1)}"
    return None


def _doi(host: str, path: str, query: str) -> str | None:
    if host in ("doi.org", "dx.doi.org"):
        candidate = path.lstrip("/")
    elif host == "nature.com" and (found := _NATURE.match(path)):
        candidate = f"10.1038/{found.group(1)}"
    else:
        found = _DOI.search(path) or _DOI.search(unquote(query))
        if found is None:
            return None
        candidate = found.group(1)
    candidate = _DOI_TAIL.sub("", candidate.rstrip("/."))
    return candidate.lower() if _DOI.fullmatch(candidate) else None


def unwrap(url: str) -> str:
    """The page behind an AMP wrapper, AMP copy or mobile host (the URL itself otherwise).

    Example:
        >>> unwrap("https://en.m.wikipedia.org/wiki/Glacier?amp=1")
        'https://en.wikipedia.org/wiki/Glacier'
    """
    parts = urlsplit(url.strip())
    host = (parts.hostname or "").lower()
    path = parts.path
    if host.endswith("google.com") and path.startswith("/amp/"):
        return unwrap(_inner(path.removeprefix("/amp/")))
    if host.endswith(".cdn.ampproject.org"):
        return unwrap(_inner(re.sub(r"^/[cv]/", "/", path).lstrip("/")))
    labels = [label for label in host.split(".") if label not in _MOBILE_LABELS]
    netloc = ".".join(labels) if len(labels) >= 2 else host
    if (port := _port(parts.netloc)) is not None:
        netloc += f":{port}"
    query = parse_qsl(parts.query, keep_blank_values=True)
    kept = [(k, v) for k, v in query if (k.lower(), v.lower()) not in _AMP_PARAMS]
    rebuilt = "&".join(f"{k}={v}" if v else k for k, v in kept) if kept != query else parts.query
    plain = _AMP_ROUTE.sub("", _AMP_SUFFIX.sub("", path)) or "/"
    return urlunsplit((parts.scheme, netloc, plain, rebuilt, ""))


def _port(netloc: str) -> int | None:
    try:
        return urlsplit(f"//{netloc}").port
    except ValueError:
        return None


def _inner(rest: str) -> str:
    """``s/host/path`` (https) or ``host/path`` (http) as a URL."""
    secure = rest.startswith("s/")
    return ("https://" if secure else "http://") + rest.removeprefix("s/")
