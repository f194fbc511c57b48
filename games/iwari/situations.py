"""Each territory's situation as one int: the key legal moves look its plays up by.

A territory's plays depend on which of its spaces are free and on the totems its tents make room
for (and on the mover: the tribe, its supplies, its hand); whose tents take the other spaces
matters no more, so the same codes recur from game to game. A state keeps the situations of its territories as a cache
(``IwariState.situations``); a play changes one territory's, so the next state's are the last
ones with one replaced, not fifteen read again from the tents every turn.
"""

from __future__ import annotations

from collections.abc import Sequence

from tribes.games.iwari.board import Map

PAY_BITS = 10
"""A situation code leaves its low bits to a hand's pay code (``moves.pay_code``, under 640):
the memo key of a territory's plays is the sum of the two."""
ROOMS = 3
"""Room for 0, 1 or 2 more totems (a play places 2 pieces at most)."""

Situations = tuple[tuple[int, ...], tuple[tuple[int, ...], ...], tuple[int, ...]]
"""The tents and totems the codes were read from (the very tuples), and the codes by territory
index: a state whose tents or totems are other tuples (``attrs.evolve`` of them) does not use
them (:func:`codes`)."""


def situation(
    game_map: Map, index: int, tents: Sequence[int], totems: Sequence[Sequence[int]]
) -> int:
    """The code of territory number ``index`` (id - 1), shifted by ``PAY_BITS``: all that its
    placements depend on (:func:`~placement.options_for`) besides the mover's supplies: which
    of its spaces are free, how many totems still fit (0, 1, 2 or more: the most tents of one
    tribe there, less its totems), and for each tribe whether its tent then a totem fit (I8).
    Read in C where it can be: this runs at every play."""
    owners = game_map.owners_of[index](tents)
    tribes = len(totems[0])
    count = sum(totems[index + 1])
    held = list(map(owners.count, _MARKS[tribes]))
    most = max(held)
    free = int(bytes(owners).translate(_FREE_DIGITS), 2)  # first space, highest bit
    room = min(most - count, 2) if count < most else 0
    tent_totem = 0  # no free space, or all free (a tent only): no tent and totem either
    if free and most:
        if room:
            tent_totem = (1 << tribes) - 1  # totems fit: after any tribe's tent too
        else:  # after a tent of a tribe with the most tents there
            for tribe in range(tribes):
                if held[tribe] >= count:
                    tent_totem |= 1 << tribe
    return pack(index, free, room, tent_totem, len(game_map.territories), tribes)


_MARKS = tuple(tuple(range(1, tribes + 1)) for tribes in range(8))
"""By number of tribes: the marks of their tents (tribe + 1)."""
_FREE_DIGITS = bytes([ord("1")] + [ord("0")] * 255)
"""``bytes.translate`` table: an owner mark to a binary digit, 1 for a free space (mark 0)."""


def pack(index: int, free: int, room: int, tent_totem: int, territories: int, tribes: int) -> int:
    """The situation code of its parts (:func:`parts` gives them back): a mixed-radix number,
    from the lowest digit the territory's ``index`` (of ``territories``), the ``room`` for totems
    (of ``ROOMS``), ``tent_totem`` (a bit per tribe: of ``1 << tribes``) and ``free`` (a bit per
    space), shifted by ``PAY_BITS`` so that a hand's pay code fits below it: the plays' memo key
    is a situation code plus a pay code (:func:`play_key`)."""
    rest = free * (ROOMS << tribes) + tent_totem * ROOMS + room
    return (rest * territories + index) << PAY_BITS


def parts(code: int, territories: int, tribes: int) -> tuple[int, int, int, int]:
    """The index, free spaces (a bit per space, the first space highest), room for totems and
    tents-then-totem (a bit per tribe) of a :func:`situation` code or of a play key made of one
    (:func:`pack`'s inverse; the pay code in the low bits is left out)."""
    rest, index = divmod(code >> PAY_BITS, territories)
    free, rest = divmod(rest, ROOMS << tribes)
    tent_totem, room = divmod(rest, ROOMS)
    return index, free, room, tent_totem


PAY_MASK = (1 << PAY_BITS) - 1
"""The low bits of a play key: the hand's pay code."""


def play_key(code: int, pay: int) -> int:
    """The key a territory's plays are memoized by: its situation ``code`` and a hand's ``pay``
    code for its terrain (under ``1 << PAY_BITS``), in one int (the legal moves sum them in C,
    ``map(add, codes, pays)``); :func:`pay_of` and :func:`parts` read it back."""
    return code + pay


def pay_of(key: int) -> int:
    """The hand's pay code of a :func:`play_key`."""
    return key & PAY_MASK


def situations(
    game_map: Map, tents: tuple[int, ...], totems: tuple[tuple[int, ...], ...]
) -> Situations:
    """Every territory's situation code (a state's cache, at its making)."""
    codes = tuple(situation(game_map, i, tents, totems) for i in range(len(game_map.territories)))
    return tents, totems, codes


def changed(
    game_map: Map,
    tid: int,
    tents: tuple[int, ...],
    totems: tuple[tuple[int, ...], ...],
    before: tuple[int, ...],
) -> Situations:
    """The situations after a play in territory ``tid`` changed ``tents`` and ``totems``:
    ``before``'s codes with that territory's read again."""
    index = tid - 1
    code = situation(game_map, index, tents, totems)
    return tents, totems, (*before[:index], code, *before[index + 1 :])


def codes(
    game_map: Map,
    cached: Situations,
    tents: tuple[int, ...],
    totems: tuple[tuple[int, ...], ...],
) -> tuple[int, ...]:
    """The codes of ``cached`` when they were read from these very ``tents`` and ``totems``,
    else read again."""
    if cached[0] is tents and cached[1] is totems:
        return cached[2]
    return situations(game_map, tents, totems)[2]
