"""The design's own configuration loads: its ``search.yml`` and an assistant's overrides.

Every key the design writes is read as the key that means the same here; unknown
keys still fail naming the key.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from unified_search.auth import Secret
from unified_search.config import SearchConfig
from unified_search.config.aliases import ALIASES, design_layer
from unified_search.config.reference import reference_markdown
from unified_search.contract.delegates import Delegates
from unified_search.engine import Searcher
from unified_search.errors import ConfigurationError

#: The design's global search.yml, as it writes it (every key, the SerpAPI engine included).
DESIGN_SEARCH_YML = """\
web:
  provider: "serpapi"
  api_key_env: "MY_SERPAPI_KEY"
  max_results: 10
  engine: "bing"
kb:
  threshold: 0.7
  graph: false
db:
  max_results: 20
keyword:
  max_keywords: 10
  language: "auto"
querydsl:
  strict: false
rerank:
  top_n: 10
citation:
  format: "#ref:{id}"
  auto_inject_prompt: true
weights:
  user: 1.0
  hook: 0.8
  auto: 0.6
options:
  skip_threshold: 5
uses:
  search: builtin
  web: builtin
  keyword: builtin
  querydsl: builtin
  rerank: builtin
"""

#: An assistant's overrides (``package.yao``): ``uses`` and a ``search`` section beside the
#: collections and models available to it.
ASSISTANT = {
    "uses": {"search": "builtin", "rerank": "builtin"},
    "search": {
        "web": {"provider": "tavily", "max_results": 5},
        "kb": {"collections": ["docs", "faq"], "threshold": 0.7, "graph": True},
        "db": {"models": ["product", "order"], "max_results": 20},
        "keyword": {"max_keywords": 5, "language": "zh"},
        "querydsl": {"strict": True},
        "rerank": {"top_n": 5},
        "citation": {"format": "#ref:{id}", "auto_inject_prompt": True},
        "weights": {"user": 1.0, "hook": 0.9, "auto": 0.5},
        "options": {"skip_threshold": 10},
    },
    "kb": {"collections": ["docs", "faq", "handbook"]},
    "db": {"models": ["product", "order", "customer"]},
}


def test_the_designs_search_yml_loads_with_every_key_read(tmp_path: Path) -> None:
    file = tmp_path / "search.yml"
    file.write_text(DESIGN_SEARCH_YML, encoding="utf-8")
    config = SearchConfig.load(file)
    assert config.web.providers == ["serpapi"]
    assert config.web.serpapi.api_key_env == Secret.from_env("MY_SERPAPI_KEY")
    assert config.web.serpapi.engine == "bing"
    assert config.kb.threshold == 0.7 and config.kb.graph.enabled is False
    assert config.keyword.language == "auto"
    assert config.uses.rerank == "builtin"
    Searcher(config).close()  # `builtin` names the weighted reranker: the Searcher builds


def test_an_assistants_overrides_load_over_the_file(tmp_path: Path) -> None:
    file = tmp_path / "search.yml"
    file.write_text(DESIGN_SEARCH_YML, encoding="utf-8")
    config = SearchConfig.load(file, profile=ASSISTANT)
    assert config.web.providers == ["tavily"] and config.web.max_results == 5
    # The search section's collections win over the ones the assistant merely has.
    assert config.kb.collections == ["docs", "faq"] and config.kb.graph.enabled is True
    assert config.db.models == ["product", "order"]
    assert config.keyword.language == "zh" and config.querydsl.strict is True
    assert (config.weights.hook, config.options.skip_threshold) == (0.9, 10)


def test_api_key_env_follows_the_provider_named_beside_it_or_already_chosen() -> None:
    named = SearchConfig().merged({"web": {"provider": "brave", "api_key_env": "K1"}})
    assert named.web.brave.api_key_env == Secret.from_env("K1")
    later = named.merged({"web": {"api_key_env": "K2"}})
    assert later.web.brave.api_key_env == Secret.from_env("K2")
    # With no provider chosen, the key is Tavily's: the design's default provider.
    assert SearchConfig().merged({"web": {"api_key_env": "K3"}}).web.tavily.api_key_env == (
        Secret.from_env("K3")
    )


@pytest.mark.parametrize("value", ["builtin", "weighted"])
def test_builtin_reranker_is_the_weighted_one_everywhere(value: str) -> None:
    config = SearchConfig().merged({"uses": {"rerank": value}, "rerank": {"provider": value}})
    with Searcher(config) as searcher:
        assert searcher.reranker().name == "weighted"
        assert searcher.reranker("builtin").name == "weighted"


def test_rerank_provider_is_uses_rerank() -> None:
    assert SearchConfig().merged({"rerank": {"provider": "rrf"}}).uses.rerank == "rrf"


@pytest.mark.parametrize(
    ("layer", "key"),
    [
        ({"web": {"provider": "tavily", "providers": ["brave"]}}, "web.provider"),
        ({"web": {"provider": ["tavily"]}}, "web.provider"),
        ({"web": {"api_key_env": 3}}, "web.api_key_env"),
        ({"kb": {"graph": "yes"}}, "kb.graph"),
        ({"web": {"provder": "tavily"}}, "web.provder"),
        ({"search": {"kb": {"treshold": 0.5}}}, "kb.treshold"),
        ({"search": "web"}, "search"),
        ({"keyword": {"language": "fr"}}, "keyword.language"),
    ],
)
def test_unknown_or_wrong_design_keys_fail_naming_the_key(layer: dict, key: str) -> None:
    with pytest.raises(ConfigurationError) as info:
        SearchConfig().merged(layer)
    assert info.value.key == key


def test_the_layer_a_user_passes_is_not_changed() -> None:
    layer = {"web": {"provider": "tavily"}, "kb": {"graph": True}}
    design_layer(layer, {})
    assert layer == {"web": {"provider": "tavily"}, "kb": {"graph": True}}


def test_the_reference_lists_every_alias() -> None:
    reference = reference_markdown()
    for alias in ALIASES:
        assert f"`{alias.key}`" in reference
    assert "builtin" in reference


def test_checked_uses_accept_builtin_for_rerank() -> None:
    from unified_search.engine.choices import check_uses

    check_uses(SearchConfig().merged({"uses": {"rerank": "builtin"}}), Delegates())


def test_a_database_may_be_named_by_its_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    config = SearchConfig().merged({"db": {"url": "~/shop.db"}})
    assert config.db.url == f"sqlite:///{tmp_path / 'shop.db'}"
    assert SearchConfig().merged({"db": {"url": "sqlite:///shop.db"}}).db.url == "sqlite:///shop.db"
