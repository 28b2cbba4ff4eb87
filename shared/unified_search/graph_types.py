"""The knowledge graph's part of the data model: entities, relations and graph nodes.

Field names are the design's (a relation's ``subject``, ``predicate`` and ``object``;
a node's ``id``, ``description`` and ``metadata``) beside the names they had here
(``source``, ``type``, ``target``), which stay for the code that reads them. Import
them from ``unified_search.types`` like the rest of the model.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, computed_field, model_validator

JSON = dict[str, Any]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Entity(_Model):
    """A named thing found in text or in a query."""

    name: str
    type: str = "concept"


#: The design's names of a relation's parts, and the names they have here.
_TRIPLE = (("subject", "source"), ("predicate", "type"), ("object", "target"))


class Relation(_Model):
    """A link between two entities: ``subject`` -``predicate``-> ``object`` in the design's words.

    Example:
        >>> Relation(subject="Marie Curie", predicate="works_at", object="CNRS").target
        'CNRS'
    """

    source: str
    """The subject entity (``subject``)."""
    target: str
    """The object entity (``object``)."""
    type: str = "related_to"
    """The predicate (``predicate``)."""
    weight: float = 1.0

    @model_validator(mode="before")
    @classmethod
    def _design_names(cls, data: Any) -> Any:
        """Accept ``subject``/``predicate``/``object`` for ``source``/``type``/``target``."""
        if not isinstance(data, dict) or not data.keys() & {d for d, _ in _TRIPLE}:
            return data
        data = dict(data)
        for design, ours in _TRIPLE:
            if design in data and data.setdefault(ours, data[design]) != data.pop(design):
                raise ValueError(f"{design} and {ours} name different entities")
        return data

    @computed_field  # type: ignore[prop-decorator]
    @property
    def subject(self) -> str:
        """The design's name of ``source``."""
        return self.source

    @computed_field  # type: ignore[prop-decorator]
    @property
    def predicate(self) -> str:
        """The design's name of ``type``."""
        return self.type

    @computed_field  # type: ignore[prop-decorator]
    @property
    def object(self) -> str:
        """The design's name of ``target``."""
        return self.target


class GraphNode(_Model):
    """An entity associated with a query through the knowledge graph.

    Example:
        >>> GraphNode(name="CNRS", type="org").id
        'org:CNRS'
    """

    id: str = ""
    """Stable identity of the entity, ``<type>:<name>`` unless given."""
    name: str
    type: str = "concept"
    description: str = ""
    """What the graph says about the entity (how it was reached), for people."""
    relation: str | None = None
    """How the node relates to an entity of the query (``None`` for the query's own entities)."""
    score: float = 0.0
    metadata: JSON = Field(default_factory=dict)
    """Figures behind the node (the collections and chunks that mention it ...)."""

    @model_validator(mode="after")
    def _identified(self) -> GraphNode:
        if not self.id:
            object.__setattr__(self, "id", f"{self.type}:{self.name}")
        return self
