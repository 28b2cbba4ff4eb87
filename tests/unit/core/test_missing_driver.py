"""A missing database driver names the extra that installs it, wherever the database is opened."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from unified_search._optional import missing_driver
from unified_search.db.execute import create_readonly_engine
from unified_search.errors import ErrorCode, SearchError
from unified_search.records.store import SearchStore

HINT = 'pip install "unified-search[postgres]"'
URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


@pytest.fixture
def no_psycopg(monkeypatch: pytest.MonkeyPatch) -> None:
    """Import psycopg fails, as on a machine without the postgres extra."""
    monkeypatch.setitem(sys.modules, "psycopg", None)


@pytest.mark.usefixtures("no_psycopg")
def test_database_search_names_the_extra() -> None:
    with pytest.raises(SearchError) as caught:
        create_readonly_engine(URL)
    assert caught.value.code is ErrorCode.UNSUPPORTED
    assert "no postgresql driver (psycopg is not installed)" in caught.value.message
    assert HINT in caught.value.message


@pytest.mark.usefixtures("no_psycopg")
def test_the_record_store_names_the_extra() -> None:
    with pytest.raises(SearchError) as caught:
        SearchStore(URL)
    assert HINT in caught.value.message and "postgres@" in caught.value.message


@pytest.mark.usefixtures("no_psycopg")
def test_the_command_line_names_the_extra(tmp_path: Path) -> None:
    from unified_search.cli.options import BadInput
    from unified_search.cli.runtime import check_database

    with pytest.raises(BadInput) as caught:
        check_database(URL)
    assert caught.value.exit_code == 2 and HINT in caught.value.message


def test_a_backend_without_an_extra_says_what_to_install() -> None:
    problem = missing_driver("mysql", ImportError("No module named 'MySQLdb'", name="MySQLdb"))
    assert (
        problem
        == "no mysql driver (MySQLdb is not installed): install a SQLAlchemy driver for mysql"
    )
