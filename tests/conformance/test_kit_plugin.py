"""``pytest --tribes-game=NAME`` as a game's author runs it, in a real process in an empty
folder: the kit's tests for that game are collected (and selected by ``-k``); an unknown game
is one usage line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def pytest_in(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_kit_runs_on_the_game_named(tmp_path: Path) -> None:
    done = pytest_in(tmp_path, "--tribes-game=dice", "-k", "bots or rules", "-v")
    assert done.returncode == 0, done.stdout[-2000:]
    assert "tribes-conformance/dice::test_conformance_bots[1] PASSED" in done.stdout
    assert "tribes-conformance/dice::test_conformance_rules PASSED" in done.stdout
    assert "3 passed" in done.stdout


def test_an_unknown_game_is_one_usage_line(tmp_path: Path) -> None:
    done = pytest_in(tmp_path, "--tribes-game=chess")
    assert done.returncode == 4
    assert done.stderr.strip() == (
        "ERROR: --tribes-game: unknown game 'chess'; known games: clans, dice, hunters, iwari"
    )
