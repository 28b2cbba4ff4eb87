"""The knowledge-base threshold through the LlamaIndex retriever: no node scores below it."""

from __future__ import annotations

import hashlib
from pathlib import Path

from llama_index_unified_search import UnifiedSearchRetriever
from unified_search.config import SearchConfig
from unified_search.engine.searcher import Searcher
from unified_search.kb.handler import KBHandler


class Hashed:
    """Bag of hashed words, normalised: texts sharing words are similar."""

    name = "hashed-32"

    def __call__(self, texts: list[str]) -> list[list[float]]:
        vectors = []
        for text in texts:
            vector = [0.0] * 32
            for word in text.lower().split():
                vector[int(hashlib.md5(word.encode()).hexdigest(), 16) % 32] += 1.0
            norm = sum(x * x for x in vector) ** 0.5 or 1.0
            vectors.append([x / norm for x in vector])
        return vectors


def test_threshold_holds_for_every_node(tmp_path: Path) -> None:
    config = SearchConfig.load(profile={"kb": {"data_dir": str(tmp_path), "collections": ["home"]}})
    kb = KBHandler.from_config(config, embedding=Hashed())
    kb.add_documents(
        "home",
        [
            {"id": "heat", "text": "heat pumps move heat from cold air"},
            {"id": "pump", "text": "a garden pump moves water"},
            {"id": "bread", "text": "bake bread after the dough rises"},
        ],
    )
    searcher = Searcher(config, handlers={"kb": kb})
    everything = UnifiedSearchRetriever(searcher, request_fields={"threshold": 0.0}).retrieve(
        "heat pumps in cold air"
    )
    assert len(everything) == 3
    cut = sorted(node.node.metadata["unified_search"]["score"] for node in everything)[1]
    floored = UnifiedSearchRetriever(searcher, request_fields={"threshold": cut}).retrieve(
        "heat pumps in cold air"
    )
    scores = [node.node.metadata["unified_search"]["score"] for node in floored]
    assert scores and min(scores) >= cut and len(floored) < len(everything)
    searcher.close()
