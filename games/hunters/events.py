"""Hunters and Gatherers events (what a player decided) and effects (what the rules made of it).

A turn is one decision: where the drawn tile goes and which piece, if any, goes on it. A bonus
tile earned by gold (H13) is a second decision of the same player, the same event type.
Wire tags and names are fixed forever: never renumber or rename them.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from tribes.core.events import Effect, Event, EventTable

PIECES = ("gatherer", "fisher", "hunter", "hut")
DIRECTION_NAMES = ("north", "east", "south", "west")


@attrs.frozen(kw_only=True)
class TilePlaced(Event):
    """H5, H6: the drawn tile at (x, y) turned ``rotation`` quarter turns clockwise, with
    ``piece`` (None or one of PIECES) on its feature ``feature`` (None without a piece)."""

    TAG = 1
    NAME = "place"

    x: int
    y: int
    rotation: int
    piece: str | None = None
    feature: int | None = None


EVENTS = EventTable([TilePlaced])


def _names(seats: Sequence[str], which: Sequence[int]) -> str:
    return " and ".join(seats[i] for i in which) or "nobody"


@attrs.frozen(kw_only=True)
class TileRemoved(Effect):
    """H5, H13: a drawn tile that fits nowhere leaves the game."""

    tile: int
    bonus: bool = False

    def describe(self, seats: Sequence[str]) -> str:
        kind = "bonus tile" if self.bonus else "tile"
        return f"{kind} {self.tile} fits nowhere: removed"


@attrs.frozen(kw_only=True)
class PlacedTile(Effect):
    """The tile an event placed, by its id (the event names only the cell)."""

    tile: int
    x: int
    y: int
    rotation: int

    def describe(self, seats: Sequence[str]) -> str:
        turned = f" turned {DIRECTION_NAMES[self.rotation]}" if self.rotation else ""
        return f"tile {self.tile} placed at ({self.x}, {self.y}){turned}"


@attrs.frozen(kw_only=True)
class FeatureScored(Effect):
    """H8–H12 (``final`` False) and H15–H17 (``final`` True): one feature's scoring. ``winners``
    are the seats that scored ``points`` each; ``returned`` one seat per member sent home."""

    type: str
    tiles: tuple[tuple[int, int], ...]
    points: int
    winners: tuple[int, ...]
    returned: tuple[int, ...] = ()
    final: bool = False

    def describe(self, seats: Sequence[str]) -> str:
        size = len(self.tiles)
        what = {"system": "river system"}.get(self.type, self.type)
        done = "at the end" if self.final else "completed"
        gains = ", ".join(f"{seats[s]} +{self.points}" for s in self.winners) or "nobody scores"
        text = f"{what} of {size} tile{'' if size == 1 else 's'} {done}: {gains}"
        if self.returned:
            text += f"; members back to {_names(seats, sorted(set(self.returned)))}"
        return text


@attrs.frozen(kw_only=True)
class BonusEarned(Effect):
    """H13: gold in a completed forest; ``seat`` places bonus tile ``tile`` next."""

    seat: int
    tile: int

    def describe(self, seats: Sequence[str]) -> str:
        return f"gold: {seats[self.seat]} draws bonus tile {self.tile}"


@attrs.frozen(kw_only=True)
class GameEnded(Effect):
    scores: tuple[int, ...]
    winners: tuple[int, ...]

    def describe(self, seats: Sequence[str]) -> str:
        totals = ", ".join(f"{seats[i]} {s}" for i, s in enumerate(self.scores))
        won = _names(seats, self.winners)
        return f"game over: {totals}; {won} {'win' if len(self.winners) > 1 else 'wins'}"
