"""Statistics of many games: fractions for shared wins, turn positions from the start player,
Wilson intervals."""

from __future__ import annotations

import pytest

from tribes.replay.stats import Row, Spread, stats, wilson


def test_wilson_interval_known_values():
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_positions_count_from_the_start_player_and_shared_wins_are_fractions():
    rows = [
        Row(("a", "b"), ("greedy", "random"), (10, 5), (0,), 40, first=0),
        Row(("a", "b"), ("greedy", "random"), (3, 8), (1,), 42, first=1),  # b started and won
        Row(("a", "b"), ("greedy", "random"), (6, 6), (0, 1), 44, first=0),
    ]
    result = stats(rows)
    first, second = result.by_position
    assert (first.wins, second.wins) == (2.5, 0.5)
    assert {r.name: r.wins for r in result.by_bot} == {"greedy": 1.5, "random": 1.5}
    assert result.shared == 1
    assert result.lengths == Spread.of([40, 42, 44]) and result.lengths.median == 42
    assert result.document()["by_position"][0]["rate"] == pytest.approx(2.5 / 3, abs=1e-6)
