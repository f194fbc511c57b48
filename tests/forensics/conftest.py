"""Shared helpers of the tests of find, baseline, regress and coverage: a small corpus of seeded
Clans games (made once per session), the demo's log, and test doubles of Clans whose rules were
changed on purpose (``forensics_doubles``), put in the registry's place for one test."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tribes import games
from tribes.core.game import Game
from tribes.testing.cli import tribes_command


@pytest.fixture(scope="session")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with ``runs.corpus`` (40 greedy Clans games, seed 1) and ``demo.tribes``."""
    folder = tmp_path_factory.mktemp("forensics")
    run = [*tribes_command(), "simulate", "clans", "--games", "40", "--seed", "1"]
    subprocess.run(
        [*run, "--bot", "greedy", "--save", "runs.corpus"],
        cwd=folder,
        check=True,
        capture_output=True,
    )
    subprocess.run([*tribes_command(), "demo"], cwd=folder, check=True, capture_output=True)
    shutil.copy(folder / "out" / "demo.tribes", folder / "demo.tribes")
    return folder


@pytest.fixture
def here(made: Path, tmp_path: Path) -> Path:
    """Fresh copies of ``runs.corpus`` and ``demo.tribes`` in the test's scratch folder."""
    for name in ("runs.corpus", "demo.tribes"):
        shutil.copy(made / name, tmp_path / name)
    return tmp_path


@pytest.fixture
def replace_game(monkeypatch: pytest.MonkeyPatch) -> Callable[[Game], None]:
    """Put a test double in the registry's place for its game's name (the real game is left
    alone): every log of that game then replays with the double's rules."""

    def replace(double: Game) -> None:
        real = games.get

        def get(name: str) -> Game:
            return double if name == double.name else real(name)

        monkeypatch.setattr(games, "get", get)

    return replace


def pytest_configure(config: pytest.Config) -> None:
    """``pytester`` for the plugin's tests (see tests/replay/conftest.py for why not
    ``pytest_plugins``)."""
    if not config.pluginmanager.has_plugin("pytester"):
        config.pluginmanager.import_plugin("pytester")
