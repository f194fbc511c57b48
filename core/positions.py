"""The first checks of a position file, the same for every game: a JSON object with known keys,
its seats, seat names used as keys, whole numbers. Each failure is one BadPosition line. And
the edits ``tribes shrink`` makes of a position: entries dropped, numbers lowered."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Sequence
from typing import Any

from tribes.core import digits
from tribes.core.errors import BadPosition

_SHOWN = {"game", "events", "winners", "ended"}
"""Keys of every ``show --json`` document (and of no position)."""

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
        hint = ""
        if _SHOWN & set(position):
            hint = (
                "; that is a show --json document, not a position: "
                "'tribes position LOG --at N' writes the position of a state"
            )
        raise BadPosition(
            f"unknown position key '{unknown[0]}'; known: {', '.join(sorted(known))}{hint}"
        )
    for key in required:
        if key not in position:
            raise BadPosition(f"the position needs '{key}'")
    return position


POSITION_OPTIONS = "options"
"""The key of a position's options (those differing from their defaults, as ``--option``
gives them): ``new --position`` takes them, a game with other options refuses the position."""


def position_options(position: Any) -> dict[str, str]:
    """The options a position names (none when it names none)."""
    value = position.get(POSITION_OPTIONS, {}) if isinstance(position, dict) else {}
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    ):
        raise BadPosition("position 'options' must map option names to values, as --option K=V")
    return dict(value)


def numbered(
    value: dict[str, Any], most: int, what: str, unknown: str
) -> Iterator[tuple[int, Any]]:
    """The entries of ``value`` keyed by a number from 1 to ``most`` in ASCII digits, as
    ``(number, entry)``. A key of another form is refused by ``unknown`` (``{key}`` in it is
    the key); a number written twice (``"12"`` and ``"012"``) is refused, naming ``what``."""
    seen: dict[int, str] = {}
    for key, entry in value.items():
        number = digits.natural(key) if isinstance(key, str) else None
        if number is None or not 1 <= number <= most:
            raise BadPosition(unknown.format(key=key))
        if number in seen:
            raise BadPosition(f"{what} {number} is named twice, as '{seen[number]}' and '{key}'")
        seen[number] = key
        yield number, entry


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


# --- simpler positions (tribes shrink) ------------------------------------------------------------

Path = tuple[str | int, ...]


def drop_items(position: Any, path: Path, keys: Collection[Any]) -> Any:
    """A copy of ``position`` without the entries ``keys`` (dict keys or list indices) of the
    container at ``path``; the rest shared, ``position`` untouched."""

    def drop(container: Any) -> Any:
        if isinstance(container, dict):
            return {k: v for k, v in container.items() if k not in keys}
        if isinstance(container, list):
            return [v for i, v in enumerate(container) if i not in keys]
        return container

    return replaced(position, path, drop)


def replaced(position: Any, path: Path, change: Any) -> Any:
    """A copy of ``position`` with the value at ``path`` replaced by ``change(value)``; the
    containers along the path copied, nothing else."""
    if not path:
        return change(position)
    head, rest = path[0], path[1:]
    if isinstance(position, dict) and head in position:
        return {**position, head: replaced(position[head], rest, change)}
    if isinstance(position, list) and isinstance(head, int) and 0 <= head < len(position):
        copy = list(position)
        copy[head] = replaced(position[head], rest, change)
        return copy
    return position


def lowered(position: Any, path: Path) -> Iterator[Any]:
    """For each whole number in the object at ``path`` (by key): the position without it (a
    count left out is 0), then with it halved, then one less."""
    container = position
    for key in path:
        container = container.get(key) if isinstance(container, dict) else None
    if not isinstance(container, dict):
        return
    for key in sorted(container, key=str):
        value = container[key]
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            continue
        yield drop_items(position, path, [key])
        for smaller in dict.fromkeys(n for n in (value // 2, value - 1) if n):
            yield replaced(position, (*path, key), lambda _, n=smaller: n)


def runs(count: int) -> Iterator[range]:
    """Runs of indices of ``count`` items to drop, big first (all, halves, quarters, ... each
    one alone), the last ones first: what a shrinker tries, as delta debugging does."""
    size = count
    while size >= 1:
        for end in range(count, 0, -size):
            yield range(max(0, end - size), end)
        size //= 2


def pairs(count: int, most: int = 16) -> Iterator[tuple[int, int]]:
    """Pairs of indices of ``count`` items to drop together, the last ones first, for what one
    at a time cannot remove (two huts that each keep the other from being a village); none
    past ``most`` items, where there would be too many to try."""
    if count <= most:
        for i in reversed(range(count)):
            for j in reversed(range(i)):
                yield (j, i)


def objects(value: Any, what: str, keys: Sequence[str]) -> Iterator[tuple[str, dict[str, Any]]]:
    """The items of the list ``value`` (a position's ``what``), each an object of exactly
    ``keys``, with where each stands: ``("feats.pending[0]", {...})``."""
    listed = ", ".join(keys)
    if not isinstance(value, list):
        raise BadPosition(f"'{what}' must list objects of {listed}")
    for i, item in enumerate(value):
        if not isinstance(item, dict) or set(item) != set(keys):
            raise BadPosition(f"{what}[{i}]: an object of {listed}")
        yield f"{what}[{i}]", item
