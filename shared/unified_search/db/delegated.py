"""Ask an agent or an MCP tool to write the DSL, and check what comes back.

The delegate receives ``{"question", "schema", "models"}``: the question, a
JSON description of each model (columns, types, keys, descriptions) and the
model names it may use. It answers with one DSL object, a list of them, or
``{"queries": [...]}``, as data or as JSON text (a chat model's message works;
a fenced ```json block is accepted). The answer is validated like any DSL; it
never reaches the database as text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from unified_search.contract.handler import SearchContext
from unified_search.db.dsl import QueryDSL
from unified_search.db.schema import ModelSchema

_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)


class InvalidDSL(ValueError):
    """A delegate answered with something that is not a usable DSL.

    Example:
        >>> parse_answer("not json", ["products"])
        Traceback (most recent call last):
        unified_search.db.delegated.InvalidDSL: answer is not JSON: Expecting value...
    """


async def ask_delegate(
    uses: str, question: str, schemas: Mapping[str, ModelSchema], ctx: SearchContext
) -> Any:
    """Call the delegate named by ``uses`` with the question and the schema; return its answer."""
    payload = {
        "question": question,
        "schema": {name: schema.describe() for name, schema in schemas.items()},
        "models": list(schemas),
    }
    return await ctx.delegates.call(uses, payload, ctx.config)


def parse_answer(answer: Any, models: list[str]) -> list[QueryDSL]:
    """Turn a delegate's answer into DSLs over ``models``; raise ``InvalidDSL`` otherwise."""
    data = _as_data(answer)
    if isinstance(data, dict) and "model" not in data and "result" in data:
        data = data["result"]  # MCP tools wrap non-object answers as {"result": ...}
    if isinstance(data, dict) and isinstance(data.get("queries"), list):
        data = data["queries"]
    entries = data if isinstance(data, list) else [data]
    if not entries or not all(isinstance(e, dict) for e in entries):
        raise InvalidDSL("expected a DSL object or a list of them")
    return [_one(entry, models) for entry in entries]


def _one(entry: dict[str, Any], models: list[str]) -> QueryDSL:
    if "model" not in entry and len(models) == 1:
        entry = {**entry, "model": models[0]}
    try:
        dsl = QueryDSL.model_validate(entry)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "dsl"
        raise InvalidDSL(f"{where}: {first['msg']}") from exc
    if dsl.model not in models:
        raise InvalidDSL(f"model {dsl.model!r} is not one of {', '.join(models)}")
    return dsl


def _as_data(answer: Any) -> Any:
    content = getattr(answer, "content", answer)  # chat messages carry text in .content
    if isinstance(content, bytes):
        content = content.decode("utf-8", errors="replace")
    if not isinstance(content, str):
        return content
    fenced = _FENCE.search(content)
    text = fenced.group(1) if fenced else content
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidDSL(f"answer is not JSON: {exc.msg}") from exc
