"""Help, bad input and the configuration layers, through the real command line."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

Cli = Callable[..., Any]

COMMANDS = ("config", "deep", "demo", "index", "records", "search", "serve")


def one_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    return lines[0]


def test_help_lists_every_command(cli: Cli) -> None:
    run = cli("--help")
    assert run.code == 0
    for command in COMMANDS:
        assert f"  {command} " in run.out


def test_every_command_has_help_with_usage(cli: Cli) -> None:
    for command in COMMANDS:
        run = cli(command, "--help")
        assert run.code == 0, run.err
        assert f"Usage: unified-search {command}" in run.out


def test_unknown_flag_is_one_line_with_exit_code_2(cli: Cli) -> None:
    run = cli("search", "headphones", "--frobnicate")
    assert run.code == 2
    line = one_line(run.err)
    assert line.startswith("unified-search: error: No such option '--frobnicate'")
    assert "Traceback" not in run.err


def test_unknown_command_and_missing_argument_exit_2(cli: Cli) -> None:
    assert cli("serach", "x").code == 2
    run = cli("search")
    assert run.code == 2
    assert "Missing argument 'QUERY'" in one_line(run.err)


def test_unknown_config_key_names_the_key_and_the_file(cli: Cli, tmp_path: Path) -> None:
    config = tmp_path / "search.yml"
    config.write_text("kb:\n  colections: [help]\n")
    run = cli("config", "--config", str(config))
    assert run.code == 2
    line = one_line(run.err)
    assert "kb.colections" in line
    assert str(config) in line
    assert "unknown key" in line


def test_missing_config_file_is_bad_input(cli: Cli, tmp_path: Path) -> None:
    run = cli("config", "--config", str(tmp_path / "nope.yml"))
    assert run.code == 2
    assert "nope.yml" in one_line(run.err)


def test_config_file_then_environment_layers(cli: Cli, tmp_path: Path) -> None:
    config = tmp_path / "search.yml"
    config.write_text("db:\n  url: sqlite:///from-file.db\nrerank:\n  top_n: 7\n")
    from_file = yaml.safe_load(cli("config", "--config", str(config)).out)
    assert from_file["db"]["url"] == "sqlite:///from-file.db"
    assert from_file["rerank"]["top_n"] == 7
    env = {"UNIFIED_SEARCH_DB_URL": "sqlite:///from-env.db", "UNIFIED_SEARCH_CONFIG": str(config)}
    layered = yaml.safe_load(cli("config", env=env).out)
    assert layered["db"]["url"] == "sqlite:///from-env.db"  # the environment beats the file
    assert layered["rerank"]["top_n"] == 7  # the file named by $UNIFIED_SEARCH_CONFIG was read


def test_config_redacts_secrets_and_names_key_variables(cli: Cli, tmp_path: Path) -> None:
    config = tmp_path / "search.yml"
    config.write_text(
        "mcp:\n  tools:\n    command: tool-server\n    env:\n      GITHUB_TOKEN: ghp-raw-secret-value\n"
    )
    run = cli(
        "config", "--config", str(config), "--format", "json", env={"TAVILY_API_KEY": "tvly-secret"}
    )
    assert run.code == 0, run.err
    assert "ghp-raw-secret-value" not in run.out
    assert "tvly-secret" not in run.out
    shown = json.loads(run.out)
    assert shown["web"]["tavily"]["api_key_env"] == "TAVILY_API_KEY"
    assert shown["web"]["providers"] == ["tavily"]  # a key in the environment enables its provider
    assert shown["mcp"]["tools"]["env"] == {}
    assert shown["kb"]["data_dir"] is None  # kb/ in the data folder ($UNIFIED_SEARCH_HOME)


def test_flags_beat_the_environment(cli: Cli, shop_db: str, tmp_path: Path) -> None:
    env = {"UNIFIED_SEARCH_DB_URL": f"sqlite:///{tmp_path / 'missing.db'}"}
    from_env = cli("search", "headphones", "--type", "db", env=env)
    assert from_env.code == 2
    assert "the database file does not exist" in one_line(from_env.err)
    flagged = cli("search", "headphones", "--type", "db", "--db", shop_db, env=env)
    assert flagged.code == 0, flagged.err
    assert "Aurora Wireless Headphones" in flagged.out
