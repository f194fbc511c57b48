"""Helpers of the log tests: ``binary`` builds .tribes files by hand
(:mod:`tribes.testing.logbytes`)."""

from __future__ import annotations

import pytest

from tribes.testing.logbytes import Binary


@pytest.fixture
def binary() -> type[Binary]:
    return Binary
