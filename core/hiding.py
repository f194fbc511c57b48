"""Hidden information as a game re-deals it: the optional part of the Game contract that lets
the conformance kit (:mod:`tribes.testing.conformance`) prove a game shows nothing hidden.

A *re-deal* of a state for a viewer is another state the viewer cannot tell from it: what the
viewer sees (the board, the counts of cards and tiles, their own hand or colour) is kept, and
what they cannot see (others' hands, the order of a deck, others' secret colours) is dealt
afresh. Every view of the two states for that viewer — ``show --json --as``, the text board, the
picture, the page — must then be the same; a view that differs gives a secret away. A game
gives its re-deal as a module (``GameBase.hiding``, :class:`tribes.core.game.Hiding`); these
are the helpers such modules share.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from tribes.core.game import EVERYTHING, Viewer
from tribes.core.prng import Stream

T = TypeVar("T")


def unseen_seats(viewer: Viewer, seats: int) -> list[int]:
    """The seats whose secrets ``viewer`` does not see: every seat but their own (a spectator:
    every seat; everything: none)."""
    if viewer == EVERYTHING:
        return []
    return [seat for seat in range(seats) if seat != viewer]


def redealt(items: Sequence[T], sizes: Sequence[int], draws: Stream) -> list[tuple[T, ...]]:
    """``items`` shuffled and cut into consecutive lots of ``sizes`` (the rest is the last
    lot): cards gathered from hands and a deck, dealt back to them."""
    pool = draws.shuffled(items)
    lots, at = [], 0
    for size in sizes:
        lots.append(pool[at : at + size])
        at += size
    lots.append(pool[at:])
    return lots
