"""The first checks of a position file, the same for every game: a JSON object with known keys,
its seats, seat names used as keys, whole numbers. Each failure is one BadPosition line."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Any

from tribes.core.errors import BadPosition

MAX_COUNT = 100_000
"""No count in a position is larger (games have their own, smaller limits where the rules do)."""


def check_keys(
    position: Any, game: str, known: Collection[str], required: Iterable[str]
) -> dict[str, Any]:
    """``position`` as a dict with only ``known`` keys and every ``required`` one."""
    if not isinstance(position, dict):
        raise BadPosition(f"a {game} position must be a JSON object")
    unknown = sorted(set(position) - set(known))
    if unknown:
        raise BadPosition(f"unknown position key '{unknown[0]}'; known: {', '.join(sorted(known))}")
    for key in required:
        if key not in position:
            raise BadPosition(f"the position needs '{key}'")
    return position


def seat_names(position: Any, min_seats: int, max_seats: int) -> list[str]:
    """The seats a position names: ``min_seats`` to ``max_seats`` distinct names."""
    if not isinstance(position, dict) or "seats" not in position:
        raise BadPosition("the position needs 'seats', a list of names")
    value = position["seats"]
    if (
        not isinstance(value, list)
        or not min_seats <= len(value) <= max_seats
        or not all(isinstance(n, str) and n for n in value)
    ):
        raise BadPosition(f"'seats' must list {min_seats} to {max_seats} seat names")
    if len(set(value)) != len(value):
        raise BadPosition("seat names must differ")
    return list(value)


def same_seats(position: dict[str, Any], seats: Sequence[str]) -> list[str]:
    """The position's seats, which must be the game's (``new --position`` takes them from it)."""
    names = position.get("seats")
    if not isinstance(names, list) or names != list(seats):
        raise BadPosition(f"the position's seats {names!r} differ from the game's {list(seats)}")
    return names


def seat_of(value: Any, names: Sequence[str], what: str) -> int:
    """The seat a name in a position stands for."""
    if value not in names:
        raise BadPosition(f"{what} '{value}' is not a seat")
    return names.index(value)


def whole(value: Any, what: str, most: int = MAX_COUNT) -> int:
    """A whole number from 0 to ``most`` (never a bool or a float)."""
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= most:
        raise BadPosition(f"{what} must be a whole number from 0 to {most}, got {value!r}")
    return value


def per_seat(value: Any, names: Sequence[str], what: str) -> dict[str, Any]:
    """A map from (some of) the seat names to values."""
    if not isinstance(value, dict) or not set(value) <= set(names):
        raise BadPosition(f"'{what}' must map seat names ({', '.join(names)}) to values")
    return value
