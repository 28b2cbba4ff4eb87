"""``unified-search index`` stopped for real: Ctrl-C (SIGINT) and ``kill -9``, then run again."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from unified_search.config.kb import KBConfig
from unified_search.kb.chunking import chunk_document
from unified_search.kb.files import DirectoryReader

#: About 1,000 chunks: seconds of the embedding model on two cores, so a run is still
#: embedding when its second progress line (``--log-every 0.2``) is printed.
FILES = 200
PARAGRAPHS = 4


def expected_chunks(folder: Path) -> int:
    """How many chunks a complete index of ``folder`` holds (default chunking)."""
    size, overlap = KBConfig().chunking.size, KBConfig().chunking.overlap
    return sum(len(chunk_document(d, size, overlap)) for d in DirectoryReader(folder).load())


def make_folder(root: Path) -> Path:
    folder = root / "notes"
    folder.mkdir()
    for i in range(FILES):
        paragraphs = [
            f"Note {i} paragraph {p}: "
            + " ".join(f"word{(i * 31 + p * 7 + k) % 997}" for k in range(250))
            for p in range(PARAGRAPHS)
        ]
        (folder / f"note-{i:03}.md").write_text(f"# Note {i}\n\n" + "\n\n".join(paragraphs))
    return folder


def start(home: Path, *args: str) -> subprocess.Popen[str]:
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("UNIFIED_SEARCH_")},
        "UNIFIED_SEARCH_HOME": str(home),
    }
    return subprocess.Popen(
        [sys.executable, "-m", "unified_search.cli", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def wait_for_embedded_chunks(process: subprocess.Popen[str]) -> list[str]:
    """Read stderr until a progress line says some chunks are embedded."""
    assert process.stderr is not None
    lines = []
    for line in process.stderr:
        lines.append(line)
        found = re.match(r"embedding chunks: ([\d,]+)/", line)
        if found and int(found.group(1).replace(",", "")) > 0:
            return lines
    raise AssertionError("indexing ended before a progress line: " + "".join(lines))


def run(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    process = start(home, *args)
    out, err = process.communicate(timeout=600)
    return subprocess.CompletedProcess(args, process.returncode, out, err)


def ended(process: subprocess.Popen[str], guard: Any) -> str:
    """Standard error once ``process`` has ended (within the hang guard)."""
    try:
        return process.communicate(timeout=guard.seconds)[1]
    except subprocess.TimeoutExpired:
        process.kill()
        raise AssertionError(guard.message("the index command")) from None


def test_ctrl_c_then_kill_9_mid_index_then_a_rerun_finishes_with_agreeing_indexes(
    tmp_path: Path, hang_guard: Any
) -> None:
    folder = make_folder(tmp_path)
    home = tmp_path / "home"
    total = expected_chunks(folder)

    # Ctrl-C: stops mid-run, keeps what was embedded, says how to continue.
    process = start(home, "index", str(folder), "--collection", "notes", "--log-every", "0.2")
    lines = wait_for_embedded_chunks(process)
    assert lines[0].startswith(f"reading files: 0/{FILES}")
    assert lines[1].startswith(f"reading files: {FILES}/{FILES} (100%)")  # the stage is done
    assert lines[2].startswith(f"embedding chunks: 0/{total:,} (0%)")  # the total, up front
    assert re.search(r", \d+ chunks/s, about \d+ s left", lines[-1])  # rate and time left
    process.send_signal(signal.SIGINT)
    err = ended(process, hang_guard)
    assert process.returncode == 130, err
    message = err.strip().splitlines()[-1]
    assert message.startswith("interrupted: ") and "run the same command again" in message, err
    kept = int(message.split()[1].replace(",", ""))
    assert 0 < kept < total  # stopped where it was, not after embedding the rest
    check = run(home, "kb", "check", "notes")
    assert check.returncode == 0 and f"notes: {kept} chunks, consistent" in check.stdout

    # kill -9 while embedding the rest: nothing to clean up by hand.
    process = start(home, "index", str(folder), "--collection", "notes", "--log-every", "0.2")
    lines = wait_for_embedded_chunks(process)
    first = next(line for line in lines if line.startswith("embedding chunks:"))
    assert first.startswith(f"embedding chunks: 0/{total - kept:,} ")  # only what is left
    process.kill()
    ended(process, hang_guard)
    assert process.returncode == -signal.SIGKILL

    rerun = run(home, "index", str(folder), "--collection", "notes")
    assert rerun.returncode == 0, rerun.stderr
    assert f"{FILES} files (" in rerun.stdout
    check = run(home, "kb", "check", "notes")
    assert f"notes: {total} chunks, consistent" in check.stdout, check.stdout
    listed = run(home, "kb", "list").stdout
    assert re.search(rf"notes\W+{FILES}\W+{total}\W", listed), listed
