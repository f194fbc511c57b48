"""The Clans state and how a game starts from the seed (C4–C6); a start from a position (C7)
is read in ``positions``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import attrs

from tribes.core.builders import evolver
from tribes.core.prng import Chance
from tribes.core.reprs import fields_repr
from tribes.events.codec import CACHE
from tribes.games.clans.board import (
    COLOURS,
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

    __repr__ = fields_repr


@attrs.frozen(kw_only=True)
class PendingOrder:
    """The active player must order these villages (C18, C19); they are not founded yet."""

    villages: tuple[int, ...]

    __repr__ = fields_repr


@attrs.frozen(kw_only=True)
class ClansState:
    """Everything about a Clans game at one point.

    Four fields are caches of ``huts``, kept because legal moves read them on every turn:
    ``totals`` (huts per territory), ``occupied`` (bit ``t`` set when territory ``t`` holds huts),
    ``pairs`` (bit ``i`` set when both ends of the board's pair ``i`` are occupied) and ``big``
    (bit ``t`` set when territory ``t`` holds 7 huts or more).
    """

    board_source: str
    """Which board: ``"standard"``, or a carried board file's :func:`datafiles.key` (by its
    content): what the state hashes; the board itself is the cache ``board``."""
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
    board: Board = attrs.field(
        default=attrs.Factory(lambda self: load(self.board_source), takes_self=True),
        eq=False,
        repr=False,
        metadata={CACHE: True},
    )
    """The board of ``board_source`` (a cache: built by the setup, handed from state to state)."""

    __repr__ = fields_repr

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
        return evolve(built, **rest)

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


evolve = evolver(ClansState)
"""``evolve(state, to_move=1, ...)``: the state with these fields changed, every other one carried
(``attrs.evolve``, made fast by ``core.builders``): how the reducer makes each new state."""


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
    huts = cast(tuple[Huts, ...], tuple(map(tuple, huts)))
    totals = tuple(map(sum, huts))
    occupied = big = 0
    pairs = (1 << len(board.pairs)) - 1  # every pair, less those touching an empty territory
    if min(totals[1:]) and max(totals) < BIG_GROUP:  # every start from the seed (C4)
        occupied = (1 << (TERRITORIES + 1)) - 2
    else:
        touch = board.touch_mask
        for t in range(1, TERRITORIES + 1):
            total = totals[t]
            if total:
                occupied |= 1 << t
                if total >= BIG_GROUP:
                    big |= 1 << t
            else:
                pairs &= ~touch[t]
    return ClansState(
        board_source=board.source,
        board=board,
        clans=tuple(clans),
        huts=huts,
        totals=totals,
        occupied=occupied,
        pairs=pairs,
        big=big,
        to_move=to_move,
        chips=tuple(chips),
        track=tuple(track),
        villages=tuple(villages),
    )


def from_seed(board: Board, chance: Chance, seats: int) -> ClansState:
    """C4: each region gets one hut of each colour, dealt at random to its territories. C5: each
    seat draws a clan card. C6: a random start player. Each draw has its own PRNG stream."""
    huts: list[Huts] = [EMPTY] * (TERRITORIES + 1)
    deal = chance.stream("huts")
    for members in board.regions:
        for tid, colour in zip(members, deal.shuffled(range(len(COLOURS))), strict=True):
            huts[tid] = _ONE[colour]
    cards = chance.shuffled("clans", COLOURS)[:seats]
    start = chance.below("start", seats)
    return build(board, cards, huts, start, (0,) * seats, (0,) * len(COLOURS))
