"""The examples in the docstrings of the package and the adapters run and show what they say.

Every module of ``unified_search``, ``langchain_unified_search`` and
``llama_index_unified_search`` is searched with the standard library's
``doctest``; each module holding an example is one test. An example that cannot
run offline (it needs a server, a network service, a model file or a name the
reader supplies) is marked ``# doctest: +SKIP``, and its docstring must then say
why in a line starting ``Not run here:``.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
import tempfile
from pathlib import Path

import pytest

PACKAGES = ("unified_search", "langchain_unified_search", "llama_index_unified_search")
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
REASON = re.compile(r"^\s*Not run here: \S", re.M)


def _modules_with_examples() -> list[str]:
    """Modules whose source holds ``>>>``, found without importing them (``__main__`` runs)."""
    names: list[str] = []
    for package in PACKAGES:
        spec = importlib.util.find_spec(package)
        assert spec is not None and spec.submodule_search_locations is not None
        for info in pkgutil.walk_packages(spec.submodule_search_locations, f"{package}."):
            module = importlib.util.find_spec(info.name)
            if info.name.endswith("__main__") or module is None or module.origin is None:
                continue
            if ">>>" in Path(module.origin).read_text(encoding="utf-8"):
                names.append(info.name)
    return names


MODULES = _modules_with_examples()


def _doctests(name: str) -> list[doctest.DocTest]:
    module = importlib.import_module(name)
    return [test for test in doctest.DocTestFinder().find(module, name) if test.examples]


def test_the_package_has_examples_to_run() -> None:
    """The search finds the examples (a walk that found none would pass every test below)."""
    assert len(MODULES) > 100
    assert {name.split(".")[0] for name in MODULES} == set(PACKAGES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # examples' temporary folders
    tests = _doctests(name)
    source = importlib.util.find_spec(name)
    assert source is not None and source.origin is not None
    found = sum(len(test.examples) for test in tests)
    written = Path(source.origin).read_text(encoding="utf-8").count(">>>")
    assert found == written, f"{written - found} example(s) outside a docstring doctest can see"
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    for test in tests:
        runner.run(test, out=report.append)
        skipped = any(example.options.get(doctest.SKIP) for example in test.examples)
        assert not skipped or REASON.search(test.docstring or ""), (
            f"{test.name}: an example marked +SKIP needs a 'Not run here: <reason>' line"
        )
    assert runner.failures == 0, "".join(report)
