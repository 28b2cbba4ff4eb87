"""``unified-search serve --workers 2``: two processes, one store, citations that resolve anywhere."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import httpx

from unified_search.samples.shop import build_shop_database

QUESTIONS = [
    "wireless headphones under $100",
    "average price of products per category",
    "products in the books category",
    "customers from Germany",
]


async def ask_everything(port: int) -> list[dict[str, object]]:
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:

        async def ask(question: str) -> dict[str, object]:
            body = {"query": question, "types": ["db"], "chat_id": "chat-1"}
            answer = await client.post("/api/search", json=body)
            assert answer.status_code == 200, answer.text
            result: dict[str, object] = answer.json()
            return result

        answers = await asyncio.gather(*(ask(q) for q in QUESTIONS * 4))
        for answer in answers:
            for ref in answer["references"]:  # type: ignore[attr-defined]
                path = f"/api/chat/chat-1/request/chat-1/reference/{ref['index']}"
                for _ in range(3):  # several tries land on both workers
                    shown = await client.get(path)
                    assert shown.status_code == 200, shown.text
                    assert shown.json()["title"] == ref["title"]
        return answers


def test_two_workers_share_the_store_and_the_numbering(
    tmp_path: Path,
    free_port: Callable[[], int],
    serve_environment: Callable[..., dict[str, str]],
    wait_until_serving: Callable[[int, subprocess.Popen[str]], None],
) -> None:
    shop = build_shop_database(str(tmp_path / "shop.db"))
    config = tmp_path / "search.yml"
    config.write_text(f"db:\n  url: sqlite:///{shop}\n")
    port = free_port()
    command = [sys.executable, "-m", "unified_search.cli", "serve", "--workers", "2"]
    server = subprocess.Popen(
        [*command, "--port", str(port), "--config", str(config)],
        env=serve_environment(tmp_path / "home"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_until_serving(port, server)
        answers = asyncio.run(ask_everything(port))
    finally:
        server.terminate()
        _, log = server.communicate(timeout=60)
    workers = set(re.findall(r"Started server process \[(\d+)\]", log))
    assert len(workers) == 2, log
    by_item: dict[str, set[str]] = {}
    for answer in answers:
        for ref in answer["references"]:  # type: ignore[attr-defined]
            item = f"{ref['model']}:{ref['record_id']}:{ref['title']}:{ref['content']}"
            by_item.setdefault(item, set()).add(ref["id"])
    assert by_item and all(len(ids) == 1 for ids in by_item.values()), by_item
    ids = [next(iter(ids)) for ids in by_item.values()]
    assert len(ids) == len(set(ids))  # never one ID for two items, whichever worker numbered
