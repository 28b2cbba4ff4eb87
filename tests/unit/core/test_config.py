from pathlib import Path

import pytest

from unified_search.auth import Secret
from unified_search.config import MCPServerConfig, SearchConfig, deep_merge
from unified_search.errors import ConfigurationError
from unified_search.types import Source


def test_documented_defaults() -> None:
    cfg = SearchConfig()
    assert cfg.web.max_results == 10
    # min_similarity chosen by benchmarks/kb_select.py: 0.7 cost recall@100.
    assert cfg.kb.threshold is None and cfg.kb.min_similarity == 0.0
    assert cfg.kb.hybrid.dense_weight == 0.6
    assert cfg.db.max_results == 20
    assert cfg.keyword.max_keywords == 10
    assert cfg.rerank.top_n == 10
    assert cfg.citation.format == "#ref:{id}"
    assert cfg.citation.auto_inject_prompt is True
    assert (cfg.weights.user, cfg.weights.hook, cfg.weights.auto) == (1.0, 0.8, 0.6)
    assert cfg.options.skip_threshold == 5
    assert cfg.uses.search == "builtin" and cfg.uses.rerank == "weighted"


def test_layers_override_only_the_keys_they_set(tmp_path: Path) -> None:
    file = tmp_path / "search.yml"
    file.write_text("rerank:\n  top_n: 3\nweights:\n  hook: 0.5\n", encoding="utf-8")
    cfg = SearchConfig.load(
        file, profile={"weights": {"auto": 0.2}}, overrides={"rerank": {"top_n": 7}}
    )
    assert cfg.rerank.top_n == 7  # request beats file
    assert cfg.weights.hook == 0.5  # from the file
    assert cfg.weights.auto == 0.2  # from the profile
    assert cfg.weights.user == 1.0  # default untouched
    assert cfg.weights.of(Source.HOOK) == 0.5


def test_config_file_from_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    file = tmp_path / "global.yml"
    file.write_text("options:\n  language: zh\n", encoding="utf-8")
    monkeypatch.setenv("UNIFIED_SEARCH_CONFIG", str(file))
    assert SearchConfig.load().options.language == "zh"


def test_unknown_key_names_key_and_file(tmp_path: Path) -> None:
    file = tmp_path / "search.yml"
    file.write_text("kb:\n  treshold: 0.5\n", encoding="utf-8")
    with pytest.raises(ConfigurationError) as info:
        SearchConfig.load(file)
    assert info.value.key == "kb.treshold"
    assert str(file) in str(info.value)
    assert "unknown key" in str(info.value)


@pytest.mark.parametrize(
    ("layer", "key"),
    [
        ({"kb": {"threshold": 2}}, "kb.threshold"),
        ({"citation": {"format": "[cite]"}}, "citation.format"),
        ({"options": {"language": "fr"}}, "options.language"),
        ({"mcp": {"s": {"command": "x", "url": "http://y"}}}, "mcp.s"),
    ],
)
def test_bad_values_name_the_key(layer: dict, key: str) -> None:
    with pytest.raises(ConfigurationError) as info:
        SearchConfig().merged(layer)
    assert info.value.key == key
    assert isinstance(info.value, ValueError)


def test_bad_files(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="cannot read"):
        SearchConfig.load(tmp_path / "missing.yml")
    broken = tmp_path / "broken.yml"
    broken.write_text("a: [1,\n", encoding="utf-8")
    with pytest.raises(ConfigurationError, match="not valid YAML"):
        SearchConfig.load(broken)
    listing = tmp_path / "list.yml"
    listing.write_text("- 1\n", encoding="utf-8")
    with pytest.raises(ConfigurationError, match="mapping"):
        SearchConfig.load(listing)
    empty = tmp_path / "empty.yml"
    empty.write_text("", encoding="utf-8")
    assert SearchConfig.load(empty) == SearchConfig()


def test_deep_merge_replaces_lists_and_merges_mappings() -> None:
    merged = deep_merge({"a": {"b": 1, "c": [1, 2]}, "d": 1}, {"a": {"c": [3]}})
    assert merged == {"a": {"b": 1, "c": [3]}, "d": 1}


def test_mcp_server_needs_one_transport() -> None:
    assert MCPServerConfig(command="python").command == "python"
    with pytest.raises(ValueError):
        MCPServerConfig()


def test_secret_is_redacted_and_read_late(monkeypatch: pytest.MonkeyPatch) -> None:
    secret = Secret.from_env("EXAMPLE_KEY")
    assert not secret.is_set()
    monkeypatch.setenv("EXAMPLE_KEY", "sk-live-123")
    assert secret.resolve() == "sk-live-123"
    assert "sk-live" not in repr(secret)
    token = Secret.from_token("sk-raw")
    assert "sk-raw" not in repr(token)
    with pytest.raises(ValueError):
        token.to_json()
    assert secret.to_json() == "EXAMPLE_KEY"
