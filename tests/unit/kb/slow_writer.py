"""A writer process for the two-writer tests: indexes slowly, says when it has begun.

Usage: python slow_writer.py CONFIG_JSON COLLECTION STARTED_FILE DOCUMENTS
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
import time
from pathlib import Path

from unified_search.config import SearchConfig
from unified_search.kb.handler import KBHandler

DIM = 64


class SlowEmbedding:
    """Hashed words (as the tests' embedding), a tenth of a second a call; marks its first call."""

    name = "hash-64"

    def __init__(self, started: Path) -> None:
        self.started = started

    def __call__(self, texts: list[str]) -> list[list[float]]:
        self.started.touch()
        time.sleep(0.1)
        return [self._one(t) for t in texts]

    @staticmethod
    def _one(text: str) -> list[float]:
        vector = [0.0] * DIM
        for word in text.lower().replace(".", " ").split():
            vector[int(hashlib.md5(word.encode()).hexdigest(), 16) % DIM] += 1.0
        norm = math.sqrt(sum(x * x for x in vector)) or 1.0
        return [x / norm for x in vector]


def main() -> None:
    profile, collection, started, count = sys.argv[1:5]
    config = SearchConfig.load(profile=json.loads(profile))
    kb = KBHandler.from_config(config, embedding=SlowEmbedding(Path(started)))
    docs = [
        {"id": f"d{i}", "text": f"Document {i} about topic {i % 7}."} for i in range(int(count))
    ]
    report = kb.add_documents(collection, docs)
    print(json.dumps({"added": report.added}))


if __name__ == "__main__":
    main()
