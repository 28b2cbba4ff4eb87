"""The README stays a front page: two commands, short, pointing into the documentation site."""

from __future__ import annotations

import re
from pathlib import Path

from unified_search.config.reference import reference_markdown

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
CONFIGURATION = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")


def test_quickstart_has_a_demo_command_and_a_test_command_in_separate_environments() -> None:
    quickstart = README.split("## Quickstart", 1)[1].split("\n## ", 1)[0]
    demo, tests = (c.strip() for c in re.findall(r"```bash\n(.*?)```", quickstart, flags=re.S))
    assert "\n" not in demo and "\n" not in tests
    assert demo.endswith("unified-search demo") and tests.endswith("pytest --cov")
    environments = [re.match(r"python3 -m venv (\S+) ", command) for command in (demo, tests)]
    assert all(environments) and environments[0][1] != environments[1][1]  # type: ignore[index]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert tests.replace('-e ".[dev]"', '-q -e ".[dev]"') in ci


def test_the_readme_is_a_front_page() -> None:
    assert len(README.splitlines()) <= 250


def test_every_page_of_the_site_is_linked_from_the_readme_or_the_home_page() -> None:
    home = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    linked = set(re.findall(r"\]\(docs/([^)#]+)\)", README)) | set(
        re.findall(r"\]\(([^)#:]+\.md)\)", home)
    )
    pages = {p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs").rglob("*.md")}
    assert pages - linked - {"index.md"} == set()


def test_configuration_reference_matches_the_code() -> None:
    match = re.search(
        r"<!-- config-reference:start -->\n(.*?)<!-- config-reference:end -->", CONFIGURATION, re.S
    )
    assert match, "docs/configuration.md has no config-reference markers"
    assert match.group(1).strip() == reference_markdown().strip()
