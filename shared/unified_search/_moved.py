"""Old module paths that moved into subpackages: they still import, with a warning naming the new home.

The package root once held every module; the modules now live in subpackages named
for their job (``engine``, ``policy``, ``records`` ...). Importing an old path gives
the module from its new home and a ``DeprecationWarning``; the old paths go away in
the release after 0.2.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from types import ModuleType

#: Old module path -> new module path.
MOVED: dict[str, str] = {
    "unified_search._section": "unified_search.config.section",
    "unified_search.agent_items": "unified_search.contract.agent_items",
    "unified_search.attachments": "unified_search.engine.attachments",
    "unified_search.choices": "unified_search.engine.choices",
    "unified_search.citation_format": "unified_search.citations.format",
    "unified_search.config_reference": "unified_search.config.reference",
    "unified_search.db.config": "unified_search.config.db",
    "unified_search.db.sample": "unified_search.samples.shop",
    "unified_search.deep": "unified_search.policy.deep",
    "unified_search.delegated_search": "unified_search.engine.delegated",
    "unified_search.delegates": "unified_search.contract.delegates",
    "unified_search.events": "unified_search.contract.events",
    "unified_search.format": "unified_search.policy.synthesis",
    "unified_search.handler": "unified_search.contract.handler",
    "unified_search.kb.config": "unified_search.config.kb",
    "unified_search.ledger": "unified_search.records.ledger",
    "unified_search.mcp_client": "unified_search.contract.mcp_client",
    "unified_search.merge": "unified_search.engine.merge",
    "unified_search.metadata": "unified_search.contract.metadata",
    "unified_search.modes": "unified_search.policy.modes",
    "unified_search.nlp.config": "unified_search.config.keyword",
    "unified_search.numbering": "unified_search.citations.numbering",
    "unified_search.outage": "unified_search.records.outage",
    "unified_search.parallel": "unified_search.engine.parallel",
    "unified_search.record_rows": "unified_search.records.rows",
    "unified_search.rerank.config": "unified_search.config.rerank",
    "unified_search.rerank.tables": "unified_search.config.authority",
    "unified_search.response": "unified_search.contract.response",
    "unified_search.search_history": "unified_search.server.history",
    "unified_search.searcher": "unified_search.engine.searcher",
    "unified_search.server_config": "unified_search.config.server",
    "unified_search.server_guard": "unified_search.server.guard",
    "unified_search.session": "unified_search.policy.session",
    "unified_search.steps": "unified_search.contract.steps",
    "unified_search.store": "unified_search.records.store",
    "unified_search.store_engine": "unified_search.records.engine",
    "unified_search.tools": "unified_search.policy.tools",
    "unified_search.trace": "unified_search.engine.trace",
    "unified_search.web.config": "unified_search.config.web",
    "unified_search.wording": "unified_search.engine.wording",
    "unified_search.writer": "unified_search.records.writer",
    "unified_search.writer_child": "unified_search.records.writer_child",
    "unified_search.writer_process": "unified_search.records.writer_process",
}


class _Alias(importlib.abc.Loader):
    def __init__(self, new: str) -> None:
        self.new = new
        self.own_spec: importlib.machinery.ModuleSpec | None = None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = importlib.import_module(self.new)
        self.own_spec = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        # The import system stamped the old name's spec on the module: give it its own back.
        module.__spec__ = self.own_spec


class _MovedFinder(importlib.abc.MetaPathFinder):
    def find_spec(
        self, fullname: str, path: object = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        new = MOVED.get(fullname)
        if new is None:
            return None
        warnings.warn(
            f"{fullname} moved to {new}; import it from there (the old path goes away in 0.3)",
            DeprecationWarning,
            stacklevel=2,
        )
        return importlib.machinery.ModuleSpec(fullname, _Alias(new))


def install() -> None:
    """Let the old module paths import (once per interpreter)."""
    if not any(isinstance(finder, _MovedFinder) for finder in sys.meta_path):
        sys.meta_path.append(_MovedFinder())
