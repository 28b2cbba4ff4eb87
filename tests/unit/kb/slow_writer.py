"""A writer process for the two-writer tests: indexes slowly, says when it has begun.

Usage: python slow_writer.py CONFIG_JSON COLLECTION STARTED_FILE DOCUMENTS
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from unified_search.config import SearchConfig
from unified_search.kb.handler import KBHandler

sys.path.insert(0, str(Path(__file__).parent))
from conftest import HashEmbedding  # the tests' own embedding, found by its path


class SlowEmbedding(HashEmbedding):
    """The tests' embedding, a tenth of a second a call; marks its first call."""

    def __init__(self, started: Path) -> None:
        super().__init__()
        self.started = started

    def __call__(self, texts: list[str]) -> list[list[float]]:
        self.started.touch()
        time.sleep(0.1)
        return super().__call__(texts)


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
