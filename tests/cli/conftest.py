"""Shared helpers of the CLI contract tests.

The contract: exit 0 when all is well; 1 for a rule or file error, with exactly one line on
stderr starting ``tribes: ``; 2 for a usage error; never a traceback, never 70 (the internal-error
status). The helpers are :mod:`tribes.testing`'s; they reach the tests as fixtures: ``cli`` (an
in-process runner rooted in a fresh folder, from ``tests/conftest.py``), ``run_process`` (a real
process), ``position`` (a Clans position document builder) and ``binary`` (.tribes files built by
hand, byte by byte, to test the log format itself).
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tribes.testing import clans
from tribes.testing import cli as testing_cli
from tribes.testing.logbytes import Binary


@pytest.fixture
def position() -> Callable[..., dict[str, Any]]:
    """The Clans position builder :func:`tribes.testing.clans.position`."""
    return clans.position


@pytest.fixture
def binary() -> type[Binary]:
    """Helpers to build .tribes files by hand."""
    return Binary


@pytest.fixture
def run_process(tmp_path: Path) -> Callable[..., subprocess.CompletedProcess[str]]:
    """Runs the installed ``tribes`` in a real process in ``tmp_path``; checks no crash."""

    def run(*args: Any, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        return testing_cli.run_process(*args, cwd=tmp_path, timeout=timeout)

    return run
