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


def test_quantiles_are_those_of_the_sorted_values_counted_or_listed():
    """Spread of counts: the values each as many times as counted, as the sorted list says:
    quantiles between two neighbours, the mean, the sample standard deviation."""
    values = [7, 1, 3, 3, 9, 3, 1, 12, 5, 5]
    spread = Spread.of(values)
    assert (spread.count, spread.low, spread.high) == (10, 1, 12)
    assert spread.mean == pytest.approx(4.9)
    # sorted: 1 1 3 3 3 5 5 7 9 12; position q*(n-1)
    assert spread.p10 == 1.0  # position 0.9: between the two 1s
    assert spread.median == pytest.approx(3 + (5 - 3) * 0.5)  # positions 4 and 5
    assert spread.p90 == pytest.approx(9 + (12 - 9) * 0.1)  # position 8.1
    mean = sum(values) / 10
    assert spread.sd == pytest.approx((sum((v - mean) ** 2 for v in values) / 9) ** 0.5)
    assert Spread.of_counts({3: 3, 1: 2, 5: 2, 7: 1, 9: 1, 12: 1, 40: 0}) == spread
    assert Spread.of([]) == Spread(0, 0.0, 0.0, 0, 0.0, 0.0, 0.0, 0)
    assert Spread.of([4]) == Spread(1, 4.0, 0.0, 4, 4.0, 4.0, 4.0, 4)


def test_statistics_of_many_games_hold_no_row_per_game():
    """A million games (``simulate``, ``stats``) are summed one at a time: from 10,000 to 60,000
    games the memory held by the tally and the run's summary does not grow with them."""
    import tracemalloc

    from tribes.replay.simulate import Match, Summing

    how = Match(bots=("random",) * 3, seats=("a", "b", "c"))
    summing = Summing(how)

    def play(start: int, stop: int) -> None:
        for i in range(start, stop):
            scores = (i % 41, (i * 7) % 43, (i * 13) % 47)
            winners = tuple(s for s, v in enumerate(scores) if v == max(scores))
            summing.add(Row(how.seats, how.bots, scores, winners, 40 + i % 9, first=i % 3))

    tracemalloc.start()
    try:
        play(0, 10_000)
        held = tracemalloc.get_traced_memory()[0]
        play(10_000, 60_000)
        grown = tracemalloc.get_traced_memory()[0] - held
    finally:
        tracemalloc.stop()
    # Rows kept would be ~11 MB (a Row, its tuples, a pointer: ~220 bytes a game); what grows
    # is the interpreter's free list of small tuples (~85 KB, bounded)
    assert grown < 500_000, grown
    summary = summing.summary()
    assert summary.games == 60_000 and summary.stats is not None
    assert summary.stats.lengths.low == 40 and summary.stats.lengths.high == 48
