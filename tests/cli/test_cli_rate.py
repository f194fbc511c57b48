"""``simulate``'s last line, the rate: a number that reads, whatever the speed (never ``0
games/s`` for games slower than one a second)."""

from __future__ import annotations

import re

import pytest

from tribes.cli.simulation import rate


@pytest.mark.parametrize(
    ("games", "seconds", "said"),
    [
        (1200, 1.0, "1200 games/s"),
        (3, 2.5, "1 games/s"),
        (1, 2.0, "30.0 games/min"),
        (2, 100.0, "1.2 games/min"),
        (1, 75.0, "75 s/game"),
        (3, 600.0, "200 s/game"),
    ],
)
def test_the_rate_is_in_a_unit_that_reads(games, seconds, said):
    assert rate(games, seconds) == said


def test_the_rate_is_never_zero_games_a_second():
    for seconds in (1.01, 5, 59, 61, 3600):
        said = rate(1, seconds)
        assert not said.startswith("0 "), said
        assert re.match(r"^\d+(\.\d)? (games/s|games/min|s/game)$", said), said


def test_simulate_ends_with_the_rate(cli):
    last = cli.ok("simulate", "clans", "--games", 2, "--seed", 3).splitlines()[-1]
    assert re.match(r"^\d+(\.\d)? (games/s|games/min|s/game)$", last), last
