"""The browser the page tests drive: headless Chromium (the system's, ``/usr/bin/chromium``;
``make test`` installs it) through Playwright, started once per test process (each pytest-xdist
worker) for every browser test it runs, and closed at its end; each test opens pages of its
own. Skipped, saying why, only when Chromium cannot be started at all — and never in CI (``CI``
set), where a browser that does not start is a failure."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium() -> str | None:
    return (
        os.environ.get("TRIBES_CHROMIUM")
        or shutil.which("chromium")
        or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)
    )


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """One Chromium for the process: starting it costs about a second of a core."""
    executable = chromium()
    if executable is None:
        no_browser("no Chromium: `make test` installs Debian's chromium (/usr/bin/chromium)")
    with sync_playwright() as p:
        try:
            launched = p.chromium.launch(executable_path=executable, args=FLAGS, timeout=20_000)
        except Exception as exc:  # the one case the browser tests skip: no browser to drive
            no_browser(f"Chromium ({executable}) cannot be started: {str(exc).splitlines()[0]}")
        yield launched
        launched.close()


def no_browser(why: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{why} (in CI the browser tests must run)")
    pytest.skip(why)
