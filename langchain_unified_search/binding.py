"""Which session an adapter searches through, and the run identifiers of a LangChain call.

``SessionBinding`` accepts a ready ``SearchSession`` (to share a citation scope
with other objects), a ``Searcher``, or a configuration (a dict, a
``SearchConfig`` or a ``search.yml`` path) to build one from.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langchain_core.runnables import RunnableConfig, ensure_config
from pydantic import BaseModel, ConfigDict, Field, model_validator

from unified_search import Searcher
from unified_search.config import SearchConfig
from unified_search.policy import RunIds, SearchSession


class SessionBinding(BaseModel):
    """Hold the session an adapter searches through (one is built when none is given)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    session: SearchSession | None = Field(default=None, exclude=True)
    """A session shared with other tools or retrievers: they then share one citation scope."""
    searcher: Searcher | None = Field(default=None, exclude=True)
    """A ready Searcher (for example one with custom handlers or a record store)."""
    config: SearchConfig | dict[str, Any] | str | Path | None = Field(default=None, exclude=True)
    """A configuration to build the Searcher from: a dict, a ``SearchConfig`` or a YAML path."""

    @model_validator(mode="after")
    def _build_session(self) -> Any:
        given = [
            name for name in ("session", "searcher", "config") if getattr(self, name) is not None
        ]
        if len(given) > 1:
            raise ValueError(f"give one of session, searcher or config, not {' and '.join(given)}")
        if self.session is None:
            self.session = SearchSession(self.searcher or Searcher(self.config))
        self.searcher = self.session.searcher
        return self

    @property
    def engine(self) -> Searcher:
        """The Searcher in use."""
        return self.bound.searcher

    @property
    def bound(self) -> SearchSession:
        """The session in use (always set after validation)."""
        assert self.session is not None
        return self.session


def run_ids(config: RunnableConfig | None) -> RunIds:
    """Read ``request_id``, ``thread_id`` and ``chat_id`` from the run's ``configurable``.

    The run's own config is merged with the one of the enclosing run (a LangGraph
    node, a chain), as LangChain does; other keys are ignored.
    """
    return RunIds.from_values(ensure_config(config).get("configurable"))
