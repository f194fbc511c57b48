"""Helpers for the Clans rule tests: small positions on the real (standard) board.

Written from ``rules/clans.md`` and the board data only.
"""

from __future__ import annotations

from typing import Any

import tribes.games
from tribes.core.errors import IllegalMove
from tribes.core.header import Header
from tribes.games.clans.board import COLOURS, load
from tribes.games.clans.events import HutsMoved, OrderChosen

GAME = tribes.games.get("clans")
BOARD = load()
SEATS2 = ("ann", "bob")
SEATS3 = ("ann", "bob", "cy")
DEFAULT_CLANS = {"ann": "red", "bob": "blue", "cy": "green", "dee": "black"}
NAMES = tuple(c.value for c in COLOURS)
EMPTY = (0, 0, 0, 0, 0)


def neighbours(t: int) -> tuple[int, ...]:
    """The territories adjacent to ``t`` on the standard board."""
    return BOARD.neighbours[t]


def terrain(t: int) -> str:
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
    seats: tuple[str, ...] = SEATS2,
    clans: dict[str, str] | None = None,
    to_move: str | None = None,
    chips: dict[str, int] | None = None,
    points: dict[str, int] | None = None,
) -> dict[str, Any]:
    """A position document: ``board`` maps territory -> {colour: count}."""
    return {
        "seats": list(seats),
        "clans": clans if clans is not None else {s: DEFAULT_CLANS[s] for s in seats},
        "to_move": to_move if to_move is not None else seats[0],
        "huts": {str(t): dict(c) for t, c in board.items()},
        "chips": {s: 0 for s in seats} | (chips or {}),
        "track": {name: 0 for name in NAMES} | (points or {}),
    }


def header_for(pos: dict[str, Any], **options: str) -> Header:
    return Header(
        game="clans",
        rules_version=1,
        seed=0,
        seats=tuple(pos["seats"]),
        position=pos,
        options=dict(options),
    )


def start(board: dict[int, dict[str, int]], **kwargs: Any) -> Any:
    """The state of a position built by :func:`position`."""
    return GAME.setup(header_for(position(board, **kwargs)))


def from_seed(seed: int, seats: tuple[str, ...] = SEATS3) -> Any:
    return GAME.setup(Header(game="clans", rules_version=1, seed=seed, seats=seats))


def move(state: Any, source: int, target: int) -> tuple[Any, tuple[Any, ...]]:
    return GAME.apply(state, HutsMoved(source=source, target=target))


def order(state: Any, *villages: int) -> tuple[Any, tuple[Any, ...]]:
    return GAME.apply(state, OrderChosen(villages=tuple(villages)))


def of_type(effects: tuple[Any, ...], kind: type) -> list[Any]:
    return [e for e in effects if isinstance(e, kind)]


def refused(state: Any, event: Any) -> IllegalMove:
    """The IllegalMove that both ``check`` and ``apply`` raise for ``event``."""
    try:
        GAME.check(state, event)
    except IllegalMove as exc:
        checked = exc
    else:
        raise AssertionError(f"check accepted {event}")
    try:
        GAME.apply(state, event)
    except IllegalMove as exc:
        assert exc.rule == checked.rule
    else:
        raise AssertionError(f"apply accepted {event}")
    return checked


def moves(state: Any) -> set[tuple[int, int]]:
    """The legal HutsMoved of ``state`` as (source, target) pairs."""
    return {(e.source, e.target) for e in GAME.legal_moves(state) if isinstance(e, HutsMoved)}


def total_huts(state: Any) -> int:
    return sum(sum(h) for h in state.huts[1:])
