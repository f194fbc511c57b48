"""The Clans state and how a game starts: from the seed (C4–C6) or from a position (C7)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import attrs

from tribes.core.errors import BadPosition
from tribes.core.positions import check_keys, per_seat, same_seats, seat_names, seat_of, whole
from tribes.core.prng import Stream
from tribes.core.views import count
from tribes.events.codec import CACHE
from tribes.games.clans.board import (
    COLOUR_NAMES,
    COLOURS,
    HUTS_PER_COLOUR,
    TERRITORIES,
    VILLAGES,
    Board,
    Colour,
    load,
)

Huts = tuple[int, int, int, int, int]
"""Hut counts of one territory, by colour index (red, yellow, green, blue, black)."""

EMPTY: Huts = (0, 0, 0, 0, 0)
BIG_GROUP = 7
"""A source of this many huts or more cannot move (C9), save onto a group as large (C10)."""
_ONE: tuple[Huts, ...] = tuple(
    cast(Huts, tuple(int(i == colour) for i in range(len(COLOURS))))
    for colour in range(len(COLOURS))
)


@attrs.frozen(kw_only=True)
class Village:
    """A founded village. ``number`` 1..12 takes a chip; beyond 12 it scores nothing (C19).
    ``epoch`` and ``value`` are None for villages founded before a starting position."""

    territory: int
    number: int
    epoch: int | None
    huts: Huts
    value: int | None


@attrs.frozen(kw_only=True)
class PendingOrder:
    """The active player must order these villages (C18, C19); they are not founded yet."""

    villages: tuple[int, ...]


@attrs.frozen(kw_only=True)
class ClansState:
    """Everything about a Clans game at one point.

    Four fields are caches of ``huts``, kept because legal moves read them on every turn:
    ``totals`` (huts per territory), ``occupied`` (bit ``t`` set when territory ``t`` holds huts),
    ``pairs`` (bit ``i`` set when both ends of the board's pair ``i`` are occupied) and ``big``
    (bit ``t`` set when territory ``t`` holds 7 huts or more).
    """

    board_source: str
    """Where the board came from (``"standard"`` or a path): states refer to boards by name."""
    clans: tuple[Colour, ...]
    huts: tuple[Huts, ...]
    totals: tuple[int, ...] = attrs.field(metadata={CACHE: True})
    occupied: int = attrs.field(metadata={CACHE: True})
    pairs: int = attrs.field(metadata={CACHE: True})
    big: int = attrs.field(metadata={CACHE: True})
    to_move: int
    chips: tuple[int, ...]
    track: tuple[int, ...]
    villages: tuple[Village, ...] = ()
    pending: PendingOrder | None = None
    over: bool = False

    @classmethod
    def from_fields(cls, **fields: Any) -> ClansState:
        """A state from its serialized fields, caches rebuilt (the codec calls this)."""
        rest = {
            k: v
            for k, v in fields.items()
            if k not in ("board_source", "clans", "huts", "to_move", "chips", "track")
        }
        built = build(
            load(fields["board_source"]),
            fields["clans"],
            fields["huts"],
            fields["to_move"],
            fields["chips"],
            fields["track"],
        )
        return attrs.evolve(built, **rest)

    @property
    def board(self) -> Board:
        return load(self.board_source)

    @property
    def founded(self) -> int:
        """Villages that took a chip so far (C12)."""
        return sum(self.chips)

    @property
    def epoch(self) -> int:
        """The current epoch: that of the next chip (5 once all are taken)."""
        slots = self.board.slot_epochs
        return slots[min(self.founded, VILLAGES - 1)]

    def scores(self) -> tuple[int, ...]:
        """Each seat's score: its colour's track score plus its chips (C22)."""
        return tuple(
            self.track[c_index(c)] + n for c, n in zip(self.clans, self.chips, strict=True)
        )


def c_index(colour: Colour) -> int:
    return COLOURS.index(colour)


def build(
    board: Board,
    clans: Sequence[Colour],
    huts: Sequence[Huts],
    to_move: int,
    chips: Sequence[int],
    track: Sequence[int],
    villages: Sequence[Village] = (),
) -> ClansState:
    """A state with its caches computed from ``huts`` (indexed by territory id, slot 0 unused)."""
    huts = tuple(cast(Huts, tuple(h)) for h in huts)
    totals = tuple(sum(h) for h in huts)
    occupied = sum(1 << t for t in range(1, TERRITORIES + 1) if totals[t])
    big = sum(1 << t for t in range(1, TERRITORIES + 1) if totals[t] >= BIG_GROUP)
    pairs = sum(1 << i for i, (a, b) in enumerate(board.pairs) if totals[a] and totals[b])
    return ClansState(
        board_source=board.source,
        clans=tuple(clans),
        huts=huts,
        totals=totals,
        occupied=occupied,  # type: ignore[arg-type]
        pairs=pairs,
        big=big,
        to_move=to_move,
        chips=tuple(chips),
        track=tuple(track),
        villages=tuple(villages),
    )


def from_seed(board: Board, seed: int, seats: int) -> ClansState:
    """C4: each region gets one hut of each colour, dealt at random to its territories. C5: each
    seat draws a clan card. C6: a random start player. Each draw has its own PRNG stream."""
    huts: list[Huts] = [EMPTY] * (TERRITORIES + 1)
    deal = Stream(seed, "huts")
    for members in board.regions:
        for tid, colour in zip(members, deal.shuffled(range(len(COLOURS))), strict=True):
            huts[tid] = _ONE[colour]
    cards = Stream(seed, "clans").shuffled(COLOURS)[:seats]
    start = Stream(seed, "start").below(seats)
    return build(board, cards, huts, start, (0,) * seats, (0,) * len(COLOURS))


# --- positions (C7) -------------------------------------------------------------------------------

_POSITION_KEYS = {"seats", "clans", "to_move", "huts", "chips", "track", "epoch"}


def from_position(board: Board, position: Any, seats: Sequence[str]) -> ClansState:
    """A state from a position document (see the README), or BadPosition saying what is wrong."""
    check_keys(position, "Clans", _POSITION_KEYS, ("seats", "clans", "to_move", "huts"))
    seat_names(position, 2, 4)
    names = same_seats(position, seats)
    clans = _clans(position["clans"], names)
    to_move = seat_of(position["to_move"], names, "to_move")
    huts = _huts(position["huts"])
    chips_of = per_seat(position.get("chips", {}), names, "chips")
    chips = [whole(chips_of.get(n, 0), f"chips of {n}") for n in names]
    track = _track(position.get("track", {}))
    if sum(chips) >= VILLAGES:
        raise BadPosition(
            f"{sum(chips)} chips taken: the game would be over; at most {VILLAGES - 1}"
        )
    state = build(board, clans, huts, to_move, chips, track)
    if "epoch" in position and position["epoch"] != state.epoch:
        raise BadPosition(
            f"epoch {position['epoch']!r} does not match the {sum(chips)} chips taken, which make "
            f"epoch {state.epoch} (the epoch may be left out)"
        )
    isolated = [
        t
        for t in range(1, TERRITORIES + 1)
        if state.totals[t] and not state.occupied & board.neighbour_mask[t]
    ]
    if len(isolated) > sum(chips):
        raise BadPosition(
            f"{count(len(isolated), 'territory', 'territories')} are villages (all neighbours empty) "
            f"but only {count(sum(chips), 'chip')} taken"
        )
    villages = tuple(
        Village(territory=t, number=n, epoch=None, huts=huts[t], value=None)
        for n, t in enumerate(isolated, start=1)
    )
    return attrs.evolve(state, villages=villages)


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


def _huts(value: Any) -> list[Huts]:
    if not isinstance(value, dict):
        raise BadPosition("'huts' must map territories to {colour: count}")
    huts: list[Huts] = [EMPTY] * (TERRITORIES + 1)
    for key, counts in value.items():
        if not (isinstance(key, str) and key.isdigit() and 1 <= int(key) <= TERRITORIES):
            raise BadPosition(f"unknown territory '{key}'; territories are 1 to {TERRITORIES}")
        if not isinstance(counts, dict):
            raise BadPosition(f"territory {key}: huts must be {{colour: count}}")
        row = [0] * len(COLOURS)
        for colour, n in counts.items():
            row[c_index(_colour(colour))] = whole(n, f"territory {key}: {colour} huts")
        huts[int(key)] = tuple(row)  # type: ignore[assignment]
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
