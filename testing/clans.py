"""Clans under test: small positions on the standard board, and moves by their numbers.

Written from ``games/clans/rules.md`` and the board data only. Everything that is not particular to
Clans (playing by notation, refusals, effects of a type) comes from :mod:`tribes.testing`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tribes.core.errors import IllegalMove
from tribes.core.events import Event
from tribes.core.header import Header
from tribes.games.clans.board import COLOURS, load
from tribes.games.clans.events import HutsMoved, OrderChosen
from tribes.testing.harness import Harness, effects_of

CLANS = Harness("clans")
GAME = CLANS.game
BOARD = load()
SEATS2 = ("ann", "bob")
SEATS3 = ("ann", "bob", "cy")
SEAT_COLOURS = ("red", "blue", "green", "black")
"""The colours of the seats of a :func:`position`, in seat order, unless it says otherwise."""
NAMES = tuple(c.value for c in COLOURS)
EMPTY = (0, 0, 0, 0, 0)


def neighbours(t: int) -> tuple[int, ...]:
    """The territories adjacent to ``t`` on the standard board."""
    return BOARD.neighbours[t]


def terrain(t: int) -> str:
    """The terrain of territory ``t`` on the standard board."""
    return BOARD.territory(t).terrain


def huts(**counts: int) -> tuple[int, ...]:
    """A hut tuple in colour order (red, yellow, green, blue, black): ``huts(red=2, blue=1)``."""
    unknown = set(counts) - set(NAMES)
    assert not unknown, unknown
    return tuple(counts.get(name, 0) for name in NAMES)


def track(**points: int) -> tuple[int, ...]:
    """A track tuple in colour order, like :func:`huts`."""
    return huts(**points)


def position(
    board: dict[int, dict[str, int]],
    *,
    seats: Sequence[str] = SEATS2,
    clans: dict[str, str] | None = None,
    to_move: str | None = None,
    chips: dict[str, int] | None = None,
    track: dict[str, int] | None = None,
) -> dict[str, Any]:
    """A position document as ``--position`` reads it: ``board`` maps territory -> {colour:
    count}; the seats hold red, blue, green and black in order unless ``clans`` says otherwise;
    ``chips`` and ``track`` appear only when given (missing, they are all 0)."""
    doc: dict[str, Any] = {
        "seats": list(seats),
        "clans": clans if clans is not None else dict(zip(seats, SEAT_COLOURS, strict=False)),
        "to_move": to_move if to_move is not None else seats[0],
        "huts": {str(t): dict(c) for t, c in board.items()},
    }
    if chips is not None:
        doc["chips"] = dict(chips)
    if track is not None:
        doc["track"] = dict(track)
    return doc


def header_for(pos: dict[str, Any], **options: str) -> Header:
    """The (unchecked) header of a game from ``pos``."""
    return CLANS.header(seats=tuple(pos["seats"]), position=pos, options=options)


def start(board: dict[int, dict[str, int]], **kwargs: Any) -> Any:
    """The state of a position built by :func:`position`."""
    return GAME.setup(header_for(position(board, **kwargs)))


def from_seed(seed: int, seats: tuple[str, ...] = SEATS3) -> Any:
    """The start of a game from ``seed``."""
    return CLANS.from_seed(seed, seats)


def move(state: Any, source: int, target: int) -> tuple[Any, tuple[Any, ...]]:
    """Move the huts of ``source`` onto ``target`` (the reducer checks it)."""
    return GAME.apply(state, HutsMoved(source=source, target=target))


def order(state: Any, *villages: int) -> tuple[Any, tuple[Any, ...]]:
    """Choose the founding order of ``villages`` (C18, C19)."""
    return GAME.apply(state, OrderChosen(villages=tuple(villages)))


def refused(state: Any, move: str | Event, rule: str | None = None) -> IllegalMove:
    """See :meth:`tribes.testing.Harness.refused`."""
    return CLANS.refused(state, move, rule)


def moves(state: Any) -> set[tuple[int, int]]:
    """The legal HutsMoved of ``state`` as (source, target) pairs."""
    return {(e.source, e.target) for e in GAME.legal_moves(state) if isinstance(e, HutsMoved)}


def total_huts(state: Any) -> int:
    """Every hut on the board."""
    return sum(sum(h) for h in state.huts[1:])


__all__ = [
    "BOARD",
    "CLANS",
    "EMPTY",
    "GAME",
    "NAMES",
    "SEATS2",
    "SEATS3",
    "SEAT_COLOURS",
    "effects_of",
    "from_seed",
    "header_for",
    "huts",
    "move",
    "moves",
    "neighbours",
    "order",
    "position",
    "refused",
    "start",
    "terrain",
    "total_huts",
    "track",
]
