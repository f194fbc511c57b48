"""Clans positions (C7): a state read from a position document, and the position of any state.

A position written by :func:`position` gives its state back exactly: the villages with their
epochs and values, the chips, the track, the huts and a pending order of villages (C18, C19).
The older, shorter form (no ``villages``) is read as it always was: an occupied territory whose
neighbours are all empty is a village of unknown epoch and value.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import attrs

from tribes.core import digits
from tribes.core.errors import BadPosition
from tribes.core.positions import (
    check_keys,
    drop_items,
    lowered,
    numbered,
    pairs,
    per_seat,
    runs,
    same_seats,
    seat_names,
    seat_of,
    whole,
)
from tribes.core.views import count
from tribes.games.clans.board import (
    COLOUR_NAMES,
    COLOURS,
    HUTS_PER_COLOUR,
    TERRITORIES,
    VILLAGES,
    Board,
    Colour,
)
from tribes.games.clans.state import EMPTY, ClansState, Huts, PendingOrder, Village, build, c_index

_KEYS = {"seats", "clans", "to_move", "huts", "chips", "track", "epoch", "villages", "order"}
_VILLAGE_KEYS = {"territory", "number", "epoch", "huts", "value"}


def from_position(board: Board, position: Any, seats: Sequence[str]) -> ClansState:
    """A state from a position document (see docs/games/clans.md), or BadPosition saying what
    is wrong."""
    check_keys(position, "Clans", _KEYS, ("seats", "clans", "to_move", "huts"))
    seat_names(position, 2, 4)
    names = same_seats(position, seats)
    clans = _clans(position["clans"], names)
    to_move = seat_of(position["to_move"], names, "to_move")
    huts = _huts(position["huts"])
    chips_of = per_seat(position.get("chips", {}), names, "chips")
    chips = [whole(chips_of.get(n, 0), f"chips of {n}") for n in names]
    track = _track(position.get("track", {}))
    taken = sum(chips)
    listed = "villages" in position
    if taken > VILLAGES or (taken == VILLAGES and not listed):
        raise BadPosition(
            f"{taken} chips taken: the game would be over; at most {VILLAGES - 1} "
            "(a position of a finished game lists its villages: 'tribes position' writes one)"
        )
    state = build(board, clans, huts, to_move, chips, track)
    if "epoch" in position and position["epoch"] != state.epoch:
        raise BadPosition(
            f"epoch {position['epoch']!r} does not match the {taken} chips taken, which make "
            f"epoch {state.epoch} (the epoch may be left out)"
        )
    isolated = [
        t
        for t in range(1, TERRITORIES + 1)
        if state.totals[t] and not state.occupied & board.neighbour_mask[t]
    ]
    order = _order(position.get("order"), isolated, taken)
    if listed:
        villages = _villages(board, state, position["villages"], isolated, order)
    else:
        if len(isolated) > taken:
            raise BadPosition(
                f"{count(len(isolated), 'territory', 'territories')} are villages (all neighbours "
                f"empty) but only {count(taken, 'chip')} taken"
            )
        villages = tuple(
            Village(territory=t, number=n, epoch=None, huts=huts[t], value=None)
            for n, t in enumerate(isolated, start=1)
        )
    pending = PendingOrder(villages=tuple(order)) if order else None
    return attrs.evolve(state, villages=villages, pending=pending)


def position(state: ClansState, seats: Sequence[str]) -> dict[str, Any]:
    """The position document of ``state``: :func:`from_position` of it is ``state``."""
    doc: dict[str, Any] = {
        "seats": list(seats),
        "clans": {name: state.clans[i].value for i, name in enumerate(seats)},
        "to_move": seats[state.to_move],
        "huts": {
            str(t): _colours(state.huts[t]) for t in range(1, TERRITORIES + 1) if state.totals[t]
        },
        "chips": dict(zip(seats, state.chips, strict=True)),
        "track": dict(zip(COLOUR_NAMES, state.track, strict=True)),
        "villages": [
            {
                "territory": v.territory,
                "number": v.number,
                "epoch": v.epoch,
                "huts": _colours(v.huts),
                "value": v.value,
            }
            for v in state.villages
        ],
    }
    if state.pending is not None:
        doc["order"] = list(state.pending.villages)
    return doc


def simpler(position: Any) -> Iterator[Any]:
    """Positions one step simpler (for ``tribes shrink``): a village and its huts gone, a
    territory emptied, fewer huts, chips and track points. They need not be valid."""
    villages = position.get("villages") or []
    for i in reversed(range(len(villages))):
        candidate = drop_items(position, ("villages",), [i])
        territory = str(villages[i].get("territory")) if isinstance(villages[i], dict) else ""
        if territory in position.get("huts", {}):
            candidate = drop_items(candidate, ("huts",), [territory])
        yield candidate
    huts = position.get("huts") or {}
    yield from _each_dropped(position, ("huts",), sorted(huts, key=_number))
    for territory in sorted(huts, key=_number):
        yield from lowered(position, ("huts", territory))
    yield from lowered(position, ("track",))
    yield from lowered(position, ("chips",))


def _each_dropped(position: Any, path: tuple[str, ...], keys: list[str]) -> Iterator[Any]:
    """Runs of the entries at ``path`` dropped: all, halves, ... each one alone, then pairs."""
    for run in runs(len(keys)):
        yield drop_items(position, path, [keys[i] for i in run])
    for i, j in pairs(len(keys)):
        yield drop_items(position, path, [keys[i], keys[j]])


def _number(key: str) -> int:
    return digits.natural(key) or 0


def _colours(huts: Huts) -> dict[str, int]:
    return {COLOUR_NAMES[i]: n for i, n in enumerate(huts) if n}


# --- checks ---------------------------------------------------------------------------------------


def _order(value: Any, isolated: list[int], taken: int) -> list[int]:
    """C18, C19: the villages one move founded, whose order the player to move must choose."""
    if value is None:
        return []
    if (
        not isinstance(value, list)
        or len(value) < 2
        or not all(isinstance(t, int) and not isinstance(t, bool) for t in value)
        or len(set(value)) != len(value)
    ):
        raise BadPosition("'order' must list two or more territories: the villages to order")
    if taken >= VILLAGES:
        raise BadPosition("'order' in a finished game: the 12th village is founded already")
    for territory in value:
        if territory not in isolated:
            raise BadPosition(
                f"order: territory {territory} is no village to found (it must hold huts, all "
                "its neighbours empty)"
            )
    return list(value)


def _villages(
    board: Board,
    state: ClansState,
    value: Any,
    isolated: list[int],
    order: list[int],
) -> tuple[Village, ...]:
    """The villages as listed, each checked against the board, the chips and the epochs."""
    if not isinstance(value, list):
        raise BadPosition("'villages' must list {territory, number, epoch, huts, value}")
    taken = state.founded
    villages: list[Village] = []
    for i, item in enumerate(value):
        where = f"villages[{i}]"
        if not isinstance(item, dict) or not {"territory", "number", "huts"} <= set(item):
            raise BadPosition(f"{where}: an object of territory, number, epoch, huts and value")
        unknown = sorted(set(item) - _VILLAGE_KEYS)
        if unknown:
            raise BadPosition(f"{where}: unknown key '{unknown[0]}'")
        villages.append(_village(board, state, item, where, taken))
    numbers = [v.number for v in villages]
    if numbers != sorted(set(numbers)):
        raise BadPosition("villages: their numbers must rise, each once (the founding order)")
    scored = sum(1 for v in villages if v.number <= VILLAGES)
    if scored > taken:
        raise BadPosition(f"{count(scored, 'village')} numbered up to 12 but {taken} chips taken")
    if taken == VILLAGES and VILLAGES not in numbers:
        raise BadPosition("12 chips taken: the villages must include the 12th")
    territories = [v.territory for v in villages]
    if len(set(territories)) != len(territories):
        raise BadPosition("villages: two villages on one territory")
    for v in villages:
        if v.territory in order:
            raise BadPosition(f"territory {v.territory} is a village and in 'order' both")
    lone = [t for t in isolated if t not in territories and t not in order]
    if lone:
        raise BadPosition(
            f"territory {lone[0]} holds huts and all its neighbours are empty: list it in "
            "'villages' (or in 'order')"
        )
    return tuple(villages)


def _village(
    board: Board, state: ClansState, item: dict[str, Any], where: str, taken: int
) -> Village:
    territory = item["territory"]
    if not (type(territory) is int and 1 <= territory <= TERRITORIES):
        raise BadPosition(f"{where}: territory must be 1 to {TERRITORIES}, got {territory!r}")
    number = whole(item["number"], f"{where}: number", 99)
    if number < 1 or (number > VILLAGES and taken < VILLAGES) or (taken < number <= VILLAGES):
        raise BadPosition(
            f"{where}: number {number} with {taken} chips taken (a village up to the 12th takes "
            "a chip; later ones only come with the 12th)"
        )
    huts = _row(item["huts"], f"{where}: huts")
    epoch, value = item.get("epoch"), item.get("value")
    if number > VILLAGES and (epoch is not None or value is not None):
        raise BadPosition(f"{where}: a village beyond the 12th has no epoch and no value (C19)")
    if (epoch is None) != (value is None):
        raise BadPosition(f"{where}: epoch and value are both given or both null")
    doomed = False
    if epoch is not None:
        if epoch != board.slot_epochs[number - 1]:
            raise BadPosition(
                f"{where}: village {number} is founded in epoch {board.slot_epochs[number - 1]}, "
                f"not {epoch!r}"
            )
        chart = board.epoch(epoch)
        terrain = board.territory(territory).terrain
        doomed = number < VILLAGES and terrain in chart.unfavourable
        if number == VILLAGES:  # C16: its epoch's bonus on the chart, whatever its terrain
            worth = sum(huts) + chart.bonus
        else:
            worth = 0 if doomed else sum(huts) + (chart.bonus if terrain in chart.favourable else 0)
        if value != worth:
            raise BadPosition(
                f"{where}: village {number} at {territory} is worth {worth}, not {value!r} "
                "(C14–C16)"
            )
    on_board = state.huts[territory]
    if on_board != huts and not (doomed and on_board == EMPTY):
        raise BadPosition(
            f"{where}: territory {territory} holds {_colours(on_board) or 'no huts'}, the "
            f"village {_colours(huts) or 'none'} (a village never changes)"
        )
    if on_board != EMPTY and state.occupied & board.neighbour_mask[territory]:
        raise BadPosition(f"{where}: territory {territory} has occupied neighbours: no village")
    return Village(territory=territory, number=number, epoch=epoch, huts=huts, value=value)


def _colour(value: Any) -> Colour:
    try:
        return Colour(value)
    except ValueError:
        raise BadPosition(f"unknown colour '{value}'; colours: {', '.join(COLOUR_NAMES)}") from None


def _clans(value: Any, names: list[str]) -> list[Colour]:
    if not isinstance(value, dict) or set(value) != set(names):
        raise BadPosition("'clans' must give every seat its colour")
    clans = [_colour(value[n]) for n in names]
    if len(set(clans)) != len(clans):
        raise BadPosition("two seats hold the same clan colour")
    return clans


def _row(counts: Any, what: str) -> Huts:
    if not isinstance(counts, dict):
        raise BadPosition(f"{what} must be {{colour: count}}")
    row = [0] * len(COLOURS)
    for colour, n in counts.items():
        row[c_index(_colour(colour))] = whole(n, f"{what}: {colour} huts")
    return tuple(row)  # type: ignore[return-value]  # 5 colours


def _huts(value: Any) -> list[Huts]:
    if not isinstance(value, dict):
        raise BadPosition("'huts' must map territories to {colour: count}")
    huts: list[Huts] = [EMPTY] * (TERRITORIES + 1)
    unknown = f"unknown territory '{{key}}'; territories are 1 to {TERRITORIES}"
    for key, counts in numbered(value, TERRITORIES, "territory", unknown):
        if not isinstance(counts, dict):
            raise BadPosition(f"territory {key}: huts must be {{colour: count}}")
        huts[key] = _row(counts, f"territory {key}")
    for i, name in enumerate(COLOUR_NAMES):
        total = sum(h[i] for h in huts)
        if total > HUTS_PER_COLOUR:
            raise BadPosition(f"{total} {name} huts on the board; there are only {HUTS_PER_COLOUR}")
    return huts


def _track(value: Any) -> list[int]:
    if not isinstance(value, dict):
        raise BadPosition("'track' must map colours to points")
    track = [0] * len(COLOURS)
    for colour, points in value.items():
        track[c_index(_colour(colour))] = whole(points, f"track of {colour}")
    return track
