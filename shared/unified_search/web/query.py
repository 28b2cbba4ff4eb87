"""The query a web search actually sends: its keywords where ``uses.keyword`` asks for them.

Only searches whose source is in ``keyword.sources`` (automatic ones by default:
their query is a whole chat message) are shortened to keywords; a query a user
or a model typed is sent as typed.
"""

from __future__ import annotations

from unified_search.contract.handler import SearchContext
from unified_search.contract.steps import StepName
from unified_search.types import SearchRequest


async def search_keywords(request: SearchRequest, ctx: SearchContext) -> list[str]:
    """Return the keywords to search with, or ``[]`` to send the query as typed.

    A failing extractor never fails the search: the query is sent as typed and
    the failure is logged on the request's trace.
    """
    wanted = request.use_keywords and request.source in ctx.config.keyword.sources
    if not ctx.config.uses.keyword or not wanted:
        return []
    from unified_search.nlp.keywords import keywords_for  # query understanding loads on demand

    try:
        async with ctx.step(StepName.KEYWORD_EXTRACTION, uses=ctx.config.uses.keyword):
            words = await keywords_for(request.query, ctx.config, ctx.delegates)
    except Exception as exc:  # keywords are an optimisation; the raw query still works
        await ctx.log("warn", f"keyword extraction failed ({type(exc).__name__}); using the query")
        return []
    return [word for word in words if word.strip()]
