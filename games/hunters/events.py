"""Hunters and Gatherers events (what a player decided) and effects (what the rules made of it).

A turn is one decision: where the drawn tile goes and which piece, if any, goes on it. A bonus
tile earned by gold (H13) is a second decision of the same player, the same event type.
Wire tags and names are fixed forever: never renumber or rename them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

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
    RULES = ("H5", "H6")
    WHEN: ClassVar[Mapping[str, str]] = {"H6": "piece != null"}

    x: int
    y: int
    rotation: int
    piece: str | None = None
    feature: int | None = None


def _names(seats: Sequence[str], which: Sequence[int]) -> str:
    return " and ".join(seats[i] for i in which) or "nobody"


@attrs.frozen(kw_only=True)
class TileRemoved(Effect):
    """H5, H13: a drawn tile that fits nowhere leaves the game."""

    RULES = ("H5", "H13")
    WHEN: ClassVar[Mapping[str, str]] = {"H13": "bonus"}

    tile: int
    bonus: bool = False

    def describe(self, seats: Sequence[str]) -> str:
        kind = "bonus tile" if self.bonus else "tile"
        return f"{kind} {self.tile} fits nowhere: removed"


@attrs.frozen(kw_only=True)
class PlacedTile(Effect):
    """The tile an event placed, by its id (the event names only the cell)."""

    RULES = ("H5",)

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
    are the seats that scored ``points`` each; ``returned`` one seat per member sent home.

    What it counted, in the rules' words: a river's ``fish`` in the lakes at its ends (H9, its
    tiles are ``tiles``), a forest's ``pieces`` and ``mushrooms`` (H10, H20), a river system's
    ``fish`` (H16), a meadow's ``deer``, ``mammoths``, ``aurochs`` and ``tigers`` (H17, H21),
    whether the ``fire`` is in it (H19) and the seat whose hunter on the shrine took it
    (``shrine``, H22). ``features`` are its nodes, ``(x, y, feature id)``: what a picture marks."""

    RULES = (
        "H7",
        "H8",
        "H9",
        "H10",
        "H11",
        "H12",
        "H16",
        "H17",
        "H19",
        "H20",
        "H21",
        "H22",
    )
    WHEN: ClassVar[Mapping[str, str]] = {
        "H7": "not final",
        "H8": 'type == "river" and not final',
        "H9": 'type == "river" and not final',
        "H10": 'type == "forest" and not final',
        "H11": "not final and len(winners) > 0",
        "H12": "len(returned) > 0",
        "H16": 'type == "system"',
        "H17": 'type == "meadow"',
        "H19": "fire",
        "H20": "mushrooms > 0",
        "H21": "aurochs > 0",
        "H22": "shrine != null",
    }

    type: str
    tiles: tuple[tuple[int, int], ...]
    points: int
    winners: tuple[int, ...]
    returned: tuple[int, ...] = ()
    final: bool = False
    fish: int = 0
    pieces: int = 0
    mushrooms: int = 0
    deer: int = 0
    mammoths: int = 0
    aurochs: int = 0
    tigers: int = 0
    fire: bool = False
    shrine: int | None = None
    features: tuple[tuple[int, int, int], ...] = ()

    def describe(self, seats: Sequence[str]) -> str:
        size = len(self.tiles)
        what = {"system": "river system"}.get(self.type, self.type)
        done = "at the end" if self.final else "completed"
        gains = ", ".join(f"{seats[s]} +{self.points}" for s in self.winners) or "nobody scores"
        counted = self.counted()
        if self.shrine is not None:
            counted += f"; {seats[self.shrine]}'s hunter on the shrine takes it all (H22)"
        text = f"{what} of {_count(size, 'tile')} {done}: {counted}: {gains}"
        if self.returned:
            text += f"; members back to {_names(seats, sorted(set(self.returned)))}"
        return text

    def counted(self) -> str:
        """What the feature counted and the points it makes, with the rules that say so:
        ``2 tiles + 5 fish = 7 (H9)``."""
        if self.type == "river":
            terms = [_count(len(self.tiles), "tile")] + ([f"{self.fish} fish"] if self.fish else [])
            return f"{' + '.join(terms)} = {self.points} (H9)"
        if self.type == "forest":
            pieces = _count(self.pieces, "forest piece")
            if self.mushrooms:
                patches = _count(self.mushrooms, "mushroom patch", "mushroom patches")
                return f"2 × ({pieces} + {patches}) = {self.points} (H10, H20)"
            return f"2 × {pieces} = {self.points} (H10)"
        if self.type == "system":
            return f"{self.fish} fish = {self.points} (H16)"
        return self._animals()

    def _animals(self) -> str:
        terms, rules, notes = [], ["H17"], ""
        if self.deer or self.tigers:
            deer = f"{self.deer} deer"
            if self.tigers and self.fire:
                notes = f"; the fire: {_count(self.tigers, 'tiger')} eat nothing (H19)"
            elif self.tigers:
                deer += f" − {min(self.deer, self.tigers)} eaten by {_count(self.tigers, 'tiger')}"
            terms.append(deer)
        if self.mammoths:
            terms.append(_count(self.mammoths, "mammoth"))
        if self.aurochs:
            terms.append(f"{self.aurochs} aurochs")
            rules.append("H21")
        inside = " + ".join(terms) or "no animals"
        inside = f"({inside})" if len(terms) > 1 or " − " in inside else inside
        return f"2 × {inside} = {self.points} ({', '.join(rules)}){notes}"


def _count(n: int, word: str, plural: str = "") -> str:
    """``1 tile``, ``2 tiles``."""
    return f"{n} {word if n == 1 else plural or word + 's'}"


@attrs.frozen(kw_only=True)
class BonusEarned(Effect):
    """H13: gold in a completed forest; ``seat`` places bonus tile ``tile`` next."""

    RULES = ("H13",)

    seat: int
    tile: int

    def describe(self, seats: Sequence[str]) -> str:
        return f"gold: {seats[self.seat]} draws bonus tile {self.tile}"


@attrs.frozen(kw_only=True)
class GameEnded(Effect):
    RULES = ("H14", "H18")

    scores: tuple[int, ...]
    winners: tuple[int, ...]

    def describe(self, seats: Sequence[str]) -> str:
        totals = ", ".join(f"{seats[i]} {s}" for i, s in enumerate(self.scores))
        won = _names(seats, self.winners)
        return f"game over: {totals}; {won} {'win' if len(self.winners) > 1 else 'wins'}"


EVENTS = EventTable(
    [TilePlaced],
    effects=[TileRemoved, PlacedTile, FeatureScored, BonusEarned, GameEnded],
    uncounted={
        "H1": "the tiles are data, read at setup: no event applies them",
        "H2": "the supplies are dealt at setup, before any event",
        "H3": "the stacks are shuffled at setup, before any event",
        "H4": "a starting position is read at setup, before any event",
        "H15": "incomplete forests and rivers score nothing at the end: no effect shows them",
        "H23": "a view: who sees what changes no state",
    },
)
