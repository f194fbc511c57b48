"""The conformance kit's random games and the words its failures use: where (game, seed,
seats, step, viewer), which steps are drawn, the failure itself."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from tribes import games
from tribes.core.engine import Step
from tribes.core.game import EVERYTHING, SPECTATOR, Game, Viewer
from tribes.events.logfile import GameLog
from tribes.testing.harness import Harness, Played

SEEDS = range(1, 9)
"""The seeds of the kit's random games: each plays with a seat count from the game's fewest to
its most, in turn."""

WIDTHS = (100, 60)
"""The terminal widths the text board is rendered at."""


class Nonconformance(AssertionError):
    """A game fails the kit: the message names the game, the seed, the step, the viewer and
    what is wrong, in the game's terms."""


def fail(where: str, what: str) -> Nonconformance:
    return Nonconformance(f"{where}: {what}")


def viewer_words(seats: Sequence[str], viewer: Viewer) -> str:
    """A viewer as ``--as`` names it: a seat's name, spectator, all."""
    if viewer == EVERYTHING:
        return "all"
    if viewer is SPECTATOR:
        return "spectator"
    return f"seat {viewer} ({seats[viewer]})"


def viewers(count: int) -> list[Viewer]:
    """Everything, a spectator and every seat."""
    return [EVERYTHING, SPECTATOR, *range(count)]


# --- the games the checks play --------------------------------------------------------------------


@attrs.frozen
class Playout:
    """A seeded random game of ``game``: where it is (for messages) and every step."""

    game: Game[Any]
    seed: int
    seats: tuple[str, ...]
    options: Mapping[str, str]
    played: Played

    @property
    def log(self) -> GameLog:
        return self.played.log

    @property
    def steps(self) -> tuple[Step[Any], ...]:
        return self.played.steps

    def where(self, step: int | None = None, viewer: Viewer | str = "") -> str:
        said = [f"{self.game.name} seed {self.seed}, {len(self.seats)} seats"]
        if self.options:
            said.append("options " + ",".join(f"{k}={v}" for k, v in sorted(self.options.items())))
        if step is not None:
            event = self.steps[step].event
            said.append(f"step {step}" + (f" ({self.game.format_move(event)})" if event else ""))
        if viewer != "":
            said.append(f"viewer {viewer_words(self.seats, viewer)}")  # type: ignore[arg-type]  # not "": a Viewer
        return ", ".join(said)


def seat_count(game: Game[Any], seed: int) -> int:
    """The seat count the kit plays ``seed`` with: every count from the fewest to the most, in
    turn over the seeds."""
    low, high = game.facts.min_seats, game.facts.max_seats
    return low + seed % (high - low + 1)


def playout(
    game: Game[Any] | str,
    seed: int,
    seats: int | None = None,
    options: Mapping[str, str] | None = None,
) -> Playout:
    """A seeded random legal game to its end (PRNG stream "conformance" of the seed)."""
    harness = Harness(game)
    count = seat_count(harness.game, seed) if seats is None else seats
    names = tuple(f"s{i}" for i in range(count))
    played = harness.random_game(seed, names, None, stream="conformance", **dict(options or {}))
    return Playout(harness.game, seed, names, dict(options or {}), played)


def game_of(game: Game[Any] | str) -> Game[Any]:
    return games.get(game) if isinstance(game, str) else game


DRAWN = 8
"""The steps of a game whose pictures the hidden-information and picture checks draw: about
this many, evenly spread, the last among them (a drawing costs tens of milliseconds)."""


def drawn_steps(count: int, every: int = DRAWN, phase: int = 0) -> set[int]:
    """The indexes of about ``every`` steps out of ``count``, evenly spread, with the last;
    ``phase`` (a playout's seed) shifts them, so that the kit's seeds draw other steps each and
    together cover most of a game's course."""
    stride = max(1, count // every)
    return {*range(phase % stride, count, stride), count - 1}


def clip(text: str, width: int = 100) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"
