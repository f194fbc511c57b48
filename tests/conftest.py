"""Fixtures every test folder shares; the helpers behind them are :mod:`tribes.testing`'s."""

from __future__ import annotations

from pathlib import Path

import pytest

from tribes.testing.cli import Cli


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    """``tribes`` in-process, in a scratch folder, its contract checked on every call."""
    return Cli(tmp_path)
