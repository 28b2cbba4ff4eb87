"""What a request itself fixes for the database: its own wheres, orders and columns.

They are validated (a bad part is an INVALID_QUERY naming it, e.g.
``request wheres.0.op``) and merged around every generated DSL: the request's
wheres first, its orders before the generated ones, its ``select`` instead of
all columns.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from unified_search.db.dsl import FieldLike, Order, QueryDSL, Where, field_name
from unified_search.db.nl.planner import Plan
from unified_search.errors import ErrorCode, SearchError
from unified_search.types import SearchRequest

_Part = TypeVar("_Part", bound=BaseModel)


@dataclass(frozen=True)
class RequestParts:
    """The wheres, orders and columns of a request, merged into every DSL it runs.

    Example:
        >>> RequestParts([], [], ["name"]).as_dsl("products").select
        ['name']
    """

    wheres: list[Where]
    orders: list[Order]
    select: list[FieldLike]

    def as_dsl(self, model: str) -> QueryDSL:
        """Return these parts alone as a DSL over ``model``."""
        return QueryDSL(model=model, wheres=self.wheres, orders=self.orders, select=self.select)


def request_parts(request: SearchRequest) -> RequestParts:
    """Validate the request's own DSL parts."""
    return RequestParts(
        wheres=[_validated(Where, "wheres", i, w) for i, w in enumerate(request.wheres)],
        orders=[_validated(Order, "orders", i, o) for i, o in enumerate(request.orders)],
        select=list(request.select),
    )


def _validated(model: type[_Part], part: str, index: int, data: Any) -> _Part:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join([part, str(index), *(str(p) for p in first["loc"])])
        raise SearchError(
            ErrorCode.INVALID_QUERY, f"request {where}: {first['msg']}", provider="db"
        ) from exc


def merged(plan: Plan, extra: RequestParts) -> Plan:
    """Put the request's own wheres, orders and select around the generated DSL."""

    def merge(dsl: QueryDSL) -> QueryDSL:
        ordered = {field_name(o.field) for o in extra.orders}
        orders = [*extra.orders, *(o for o in dsl.orders if field_name(o.field) not in ordered)]
        update: dict[str, Any] = {"wheres": [*extra.wheres, *dsl.wheres], "orders": orders}
        if extra.select and not dsl.aggregates:
            update["select"] = extra.select
        return dsl.model_copy(update=update)

    relaxed = merge(plan.relaxed) if plan.relaxed else None
    return Plan(merge(plan.dsl), plan.keywords, relaxed)
