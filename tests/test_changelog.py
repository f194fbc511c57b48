"""The version moves with the changelog: the newest release CHANGELOG.md names is pyproject.toml's
version, which ``tribes --version`` says; above it only "Unreleased", below it older releases in
order, each with its date."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RELEASE = re.compile(r"## (?P<version>\d+\.\d+\.\d+) — (?P<date>\d{4}-\d{2}-\d{2})")
"""A release's heading: ``## 0.2.0 — 2026-12-06``."""


def headings(text: str) -> list[str]:
    """The changelog's sections, in order: its ``## `` headings."""
    return [line for line in text.splitlines() if line.startswith("## ")]


def releases(text: str) -> list[tuple[tuple[int, ...], str]]:
    """The releases the changelog names, newest first: (version, date)."""
    found = []
    for line in headings(text):
        match = RELEASE.fullmatch(line)
        if match:
            found.append((tuple(map(int, match["version"].split("."))), match["date"]))
    return found


def project_version() -> str:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def test_the_newest_release_of_the_changelog_is_the_project_version() -> None:
    text = (ROOT / "CHANGELOG.md").read_text()
    found = releases(text)
    assert found, "CHANGELOG.md names no release (## X.Y.Z — YYYY-MM-DD)"
    newest = ".".join(map(str, found[0][0]))
    assert newest == project_version(), (
        f"CHANGELOG.md's newest release is {newest}, pyproject.toml's version "
        f"{project_version()}: a release sets both"
    )


def test_releases_come_newest_first_with_their_dates_below_unreleased() -> None:
    text = (ROOT / "CHANGELOG.md").read_text()
    sections = headings(text)
    versions = [line for line in sections if line.startswith("## ") and line[3:4].isdigit()]
    assert all(RELEASE.fullmatch(line) for line in versions), versions  # each with its date
    found = releases(text)
    assert [v for v, _ in found] == sorted((v for v, _ in found), reverse=True)
    assert [d for _, d in found] == sorted((d for _, d in found), reverse=True)
    assert "## Unreleased" not in sections[1:], "Unreleased comes first, once"
    first_release = sections.index(versions[0])
    assert all(line == "## Unreleased" for line in sections[:first_release]), sections


def test_tribes_version_says_the_project_version() -> None:
    tribes = Path(sys.executable).with_name("tribes")
    done = subprocess.run([tribes, "--version"], capture_output=True, text=True, check=True)
    assert done.stdout == f"tribes, version {project_version()}\n"


def test_the_check_sees_a_release_out_of_order() -> None:
    text = "## Unreleased\n\n## 0.1.0 — 2026-11-30\n\n## 0.2.0 — 2026-12-06\n"
    found = releases(text)
    assert [v for v, _ in found] == [(0, 1, 0), (0, 2, 0)]
    assert [v for v, _ in found] != sorted((v for v, _ in found), reverse=True)
