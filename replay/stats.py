"""What many games say: win rates by turn position and by bot with confidence intervals, and the
distributions of scores and game lengths (``tribes stats``, and the end of ``tribes simulate``).

A shared win counts as a fraction for each winner (two winners: half a win each). The interval of
a rate is Wilson's score interval at 95% (z = 1.96), which stays inside [0, 1] and is honest for
small counts; two rates whose intervals do not overlap differ beyond chance at that level.

*Turn position* is the order of play: position 1 is the seat that moves first (the start
player), position 2 the next seat in seat order, and so on. So "does the start player win more
often?" is the question whether position 1's interval lies above 1/seats.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from tribes.core import views

Z95 = 1.96


@attrs.frozen
class Row:
    """One finished game as statistics see it."""

    seats: tuple[str, ...]
    bots: tuple[str, ...]
    """The bot of each seat ("?" where the log does not say)."""
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    events: int
    first: int
    """The seat that moved first."""


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval of a rate ``wins / n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@attrs.frozen
class Rate:
    name: str
    games: int
    """Seats counted (for a position: games; for a bot: the seats it played)."""
    wins: float
    low: float
    high: float

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def line(self) -> str:
        return (
            f"  {self.name}: {self.rate:.1%} of {self.games} "
            f"(95% interval {self.low:.1%} to {self.high:.1%})"
        )

    def document(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "games": self.games,
            "wins": round(self.wins, 6),
            "rate": round(self.rate, 6),
            "interval": [round(self.low, 6), round(self.high, 6)],
        }


@attrs.frozen
class Spread:
    """A distribution in a few numbers."""

    count: int
    mean: float
    sd: float
    low: int
    p10: float
    median: float
    p90: float
    high: int

    @classmethod
    def of(cls, values: Iterable[int]) -> Spread:
        return cls.of_counts(Counter(values))

    @classmethod
    def of_counts(cls, counts: Mapping[int, int]) -> Spread:
        """The spread of the values ``counts`` holds, each as many times as it says: a million
        games' scores are a few dozen distinct numbers, so a run holds those, not a list."""
        values = sorted(v for v, c in counts.items() if c > 0)
        if not values:
            return cls(0, 0.0, 0.0, 0, 0.0, 0.0, 0.0, 0)
        n = sum(counts[v] for v in values)
        mean = sum(v * counts[v] for v in values) / n
        squares = math.fsum(counts[v] * (v - mean) ** 2 for v in values)
        sd = math.sqrt(squares / (n - 1)) if n > 1 else 0.0
        return cls(
            n,
            mean,
            sd,
            values[0],
            _quantile(values, counts, n, 0.1),
            _quantile(values, counts, n, 0.5),
            _quantile(values, counts, n, 0.9),
            values[-1],
        )

    def line(self, name: str) -> str:
        return (
            f"  {name}: mean {self.mean:.1f} (sd {self.sd:.1f}), min {self.low}, "
            f"10% {self.p10:g}, median {self.median:g}, 90% {self.p90:g}, max {self.high}"
        )

    def document(self) -> dict[str, Any]:
        return {
            k: round(v, 6) if isinstance(v, float) else v for k, v in attrs.asdict(self).items()
        }


def _quantile(values: Sequence[int], counts: Mapping[int, int], n: int, q: float) -> float:
    """Quantile ``q`` of the ``n`` values held as counts, ``values`` their distinct ones in
    order: linear between the two values around position ``q * (n - 1)`` of the sorted list."""
    pos = q * (n - 1)
    low = math.floor(pos)
    high = min(low + 1, n - 1)
    below, above = _at(values, counts, low), _at(values, counts, high)
    return below + (above - below) * (pos - low)


def _at(values: Sequence[int], counts: Mapping[int, int], index: int) -> int:
    """The value at ``index`` (from 0) of the sorted list the counts stand for."""
    seen = 0
    for value in values:
        seen += counts[value]
        if index < seen:
            return value
    return values[-1]


@attrs.frozen
class Stats:
    games: int
    games_by_seats: dict[int, int]
    by_position: tuple[Rate, ...]
    by_bot: tuple[Rate, ...]
    scores: Spread
    winning_scores: Spread
    lengths: Spread
    shared: int
    """Games with more than one winner."""

    def lines(self) -> list[str]:
        counts = ", ".join(f"{n} with {s} seats" for s, n in sorted(self.games_by_seats.items()))
        out = [f"stats of {self.games} games ({counts}); shared wins count as fractions"]
        out.append("win rate by turn position (1: the start player):")
        out += [r.line() for r in self.by_position]
        if self.by_bot:
            out.append("win rate by bot (per seat played):")
            out += [r.line() for r in self.by_bot]
        out.append("distributions:")
        out.append(self.scores.line("score"))
        out.append(self.winning_scores.line("winning score"))
        out.append(self.lengths.line("events a game"))
        if self.shared:
            out.append(f"  {self.shared} games had more than one winner")
        return out

    def document(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "games_by_seats": {str(k): v for k, v in sorted(self.games_by_seats.items())},
            "by_position": [r.document() for r in self.by_position],
            "by_bot": [r.document() for r in self.by_bot],
            "scores": self.scores.document(),
            "winning_scores": self.winning_scores.document(),
            "events": self.lengths.document(),
            "shared_wins": self.shared,
            "interval": "Wilson score, 95%",
        }


def stats(rows: Iterable[Row]) -> Stats:
    tally = Tally()
    for row in rows:
        tally.add(row)
    return tally.stats()


class Tally:
    """The statistics of games taken one at a time: counts and sums, never a row per game, so
    that a million games (``simulate``, ``stats``) take the memory of a thousand."""

    def __init__(self) -> None:
        self.games = 0
        self.by_seats: Counter[int] = Counter()
        self.position_wins: dict[int, float] = {}
        self.position_games: Counter[int] = Counter()
        self.bot_wins: dict[str, float] = {}
        self.bot_seats: Counter[str] = Counter()
        self.scores: Counter[int] = Counter()
        self.winning: Counter[int] = Counter()
        self.lengths: Counter[int] = Counter()
        self.shared = 0

    def add(self, row: Row) -> None:
        self.games += 1
        n = len(row.seats)
        self.by_seats[n] += 1
        share = 1 / len(row.winners) if row.winners else 0.0
        self.shared += len(row.winners) > 1
        for seat in range(n):
            position = (seat - row.first) % n
            won = share if seat in row.winners else 0.0
            self.position_games[position] += 1
            self.position_wins[position] = self.position_wins.get(position, 0.0) + won
            bot = row.bots[seat]
            self.bot_seats[bot] += 1
            self.bot_wins[bot] = self.bot_wins.get(bot, 0.0) + won
        self.scores.update(row.scores)
        self.winning.update(row.scores[w] for w in row.winners)
        self.lengths[row.events] += 1

    def stats(self) -> Stats:
        wins, bots = self.position_wins, self.bot_wins
        return Stats(
            games=self.games,
            games_by_seats=dict(self.by_seats),
            by_position=tuple(
                Rate(f"position {p + 1}", g, wins[p], *wilson(wins[p], g))
                for p, g in sorted(self.position_games.items())
            ),
            by_bot=tuple(
                Rate(b, g, bots[b], *wilson(bots[b], g))
                for b, g in sorted(self.bot_seats.items())
                if len(self.bot_seats) > 1 or b != "?"
            ),
            scores=Spread.of_counts(self.scores),
            winning_scores=Spread.of_counts(self.winning),
            lengths=Spread.of_counts(self.lengths),
            shared=self.shared,
        )


def bots_of(seats: Sequence[str], meta: dict[str, Any]) -> tuple[str, ...]:
    """The bot of each seat, from a log's ``meta.bots`` ("?" where it does not say)."""
    named = meta.get("bots") if isinstance(meta, dict) else None
    if not isinstance(named, dict):
        named = {}
    return tuple(views.printable(str(named.get(s, "?"))) for s in seats)
