from hypothesis import given
from hypothesis import strategies as st

from unified_search.urls import TRACKING_PARAMS, canonical_url, clean_url


def test_clean_url_drops_tracking_and_fragment() -> None:
    assert (
        clean_url("https://Example.com:443/a?utm_source=x&id=2&fbclid=abc#top")
        == "https://example.com/a?id=2"
    )
    assert clean_url("http://example.com:8080/") == "http://example.com:8080/"


def test_same_page_same_canonical_form() -> None:
    variants = [
        "https://example.com/docs",
        "http://example.com/docs/",
        "https://WWW.example.com/docs?utm_campaign=x",
        "https://example.com:443/docs#section",
        "https://example.com//docs?gclid=1&mc_cid=2&ref_src=twsrc",
    ]
    assert len({canonical_url(v) for v in variants}) == 1


def test_meaningful_query_parameters_are_kept_in_any_order() -> None:
    assert canonical_url("https://x.io/s?b=2&a=1") == canonical_url("https://x.io/s?a=1&b=2")
    assert canonical_url("https://x.io/s?a=1") != canonical_url("https://x.io/s?a=2")


def test_ipv6_hosts_survive() -> None:
    assert clean_url("http://[::1]:8000/x") == "http://[::1]:8000/x"


_segment = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-", min_size=1, max_size=8)


@given(
    host=_segment,
    path=st.lists(_segment, max_size=3),
    params=st.dictionaries(
        _segment.filter(lambda k: k not in TRACKING_PARAMS), _segment, max_size=3
    ),
    tracking=st.dictionaries(
        st.sampled_from(["utm_source", "utm_medium", "fbclid", "gclid"]), _segment
    ),
)
def test_canonical_is_idempotent_and_ignores_tracking(host, path, params, tracking) -> None:
    base = f"https://{host}.com/" + "/".join(path)
    query = "&".join(f"{k}={v}" for k, v in {**params, **tracking}.items())
    url = f"{base}?{query}" if query else base
    plain = f"{base}?" + "&".join(f"{k}={v}" for k, v in params.items()) if params else base
    assert canonical_url(url) == canonical_url(plain)
    assert canonical_url(clean_url(url)) == canonical_url(url)
