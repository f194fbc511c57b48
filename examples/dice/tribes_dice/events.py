"""Bonus Dice events (what a player decided) and effects (what the rules made of it)."""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from tribes.core.events import Effect, Event, EventTable


@attrs.frozen(kw_only=True)
class Rolled(Event):
    TAG = 1
    NAME = "roll"
    RULES = ("D3",)


@attrs.frozen(kw_only=True)
class Stopped(Event):
    TAG = 2
    NAME = "stop"
    RULES = ("D4",)


@attrs.frozen(kw_only=True)
class DieRolled(Effect):
    RULES = ("D3",)
    seat: int
    face: int

    def describe(self, seats: Sequence[str]) -> str:
        return f"{seats[self.seat]} rolls a {self.face}"


@attrs.frozen(kw_only=True)
class TurnLost(Effect):
    RULES = ("D3",)
    seat: int
    points: int

    def describe(self, seats: Sequence[str]) -> str:
        return f"{seats[self.seat]} loses the turn's {self.points} points"


@attrs.frozen(kw_only=True)
class Banked(Effect):
    RULES = ("D4",)
    seat: int
    points: int
    score: int

    def describe(self, seats: Sequence[str]) -> str:
        return f"{seats[self.seat]} banks {self.points}: {self.score} in all"


@attrs.frozen(kw_only=True)
class GameEnded(Effect):
    RULES = ("D5", "D6")
    reason: str
    bonus: tuple[int, ...]
    scores: tuple[int, ...]

    def describe(self, seats: Sequence[str]) -> str:
        cards = ", ".join(f"{s} {b}" for s, b in zip(seats, self.bonus, strict=True))
        return f"the game ends: {self.reason}; bonus cards {cards}"


EVENTS = EventTable(
    [Rolled, Stopped],
    effects=[DieRolled, TurnLost, Banked, GameEnded],
    uncounted={"D1": "the components are data", "D2": "the setup is no event"},
)
