"""Fixtures for the Iwari rule tests; the position helpers themselves are in
:mod:`tribes.testing.iwari`."""

from __future__ import annotations

import pytest

from tribes.testing.iwari import big_territory_map, map_data


@pytest.fixture
def big_map(tmp_path) -> str:
    """A map file: the standard map with territory 5 grown to 13 tent spaces (16-21, 64-70)."""
    return big_territory_map(tmp_path)


@pytest.fixture
def standard_map_data() -> dict:
    """The standard map's JSON data, to alter in a test."""
    return map_data()
