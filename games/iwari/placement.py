"""I8: what a play may place and how it is paid for; the plays a tribe can make."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence

import attrs

from tribes.core.errors import IllegalMove
from tribes.games.iwari.board import TERRAINS, Terrain
from tribes.games.iwari.events import TOTEM_PIECE
from tribes.games.iwari.state import Hand, IwariState

MAX_CARDS = 3
MAX_PIECES = 2


@attrs.frozen(kw_only=True)
class Placed:
    """The pieces of a play, placed: the new tents, totems and supplies."""

    tents: tuple[int, ...]
    totems: tuple[tuple[int, ...], ...]
    tent_supply: tuple[int, ...]
    totem_supply: tuple[int, ...]
    new_tents: tuple[int, ...]
    new_totems: int


def place(state: IwariState, tribe: int, territory: int, pieces: Sequence[int]) -> Placed:
    """Place ``pieces`` one at a time (the ruling of I8), each checked against the state after
    the one before; IllegalMove names what is wrong."""
    game_map = state.map
    if not 1 <= territory <= len(game_map.territories):
        raise IllegalMove(f"there is no territory {territory}", rule="I1")
    if not 1 <= len(pieces) <= MAX_PIECES:
        raise IllegalMove(f"a play places 1 or 2 pieces, not {len(pieces)}", rule="I8")
    spaces = game_map.territory(territory).spaces
    tents = list(state.tents)
    if not any(tents[s] for s in spaces) and (len(pieces) != 1 or pieces[0] == TOTEM_PIECE):
        raise IllegalMove(
            f"territory {territory} is unexplored: it takes exactly one piece, a tent", rule="I8"
        )
    row = list(state.totems[territory])
    tent_supply, totem_supply = state.tent_supply[tribe], state.totem_supply[tribe]
    new_tents = []
    for piece in pieces:
        if piece == TOTEM_PIECE:
            if not totem_supply:
                raise IllegalMove("no totem is left in the supply", rule="I8")
            most = max(_tents_by_tribe(tents, spaces, state.tribes))
            if sum(row) + 1 > most:
                raise IllegalMove(
                    f"territory {territory} would hold {sum(row) + 1} totems but no tribe has more "
                    f"than {most} tents there",
                    rule="I8",
                )
            row[tribe] += 1
            totem_supply -= 1
        else:
            if piece not in spaces:
                raise IllegalMove(f"tent space {piece} is not in territory {territory}", rule="I8")
            if tents[piece]:
                raise IllegalMove(f"tent space {piece} is taken", rule="I8")
            if not tent_supply:
                raise IllegalMove("no tent is left in the supply", rule="I8")
            tents[piece] = tribe + 1
            tent_supply -= 1
            new_tents.append(piece)
    totems = list(state.totems)
    totems[territory] = tuple(row)
    return Placed(
        tents=tuple(tents),
        totems=tuple(totems),
        tent_supply=_set(state.tent_supply, tribe, tent_supply),
        totem_supply=_set(state.totem_supply, tribe, totem_supply),
        new_tents=tuple(new_tents),
        new_totems=pieces.count(TOTEM_PIECE),
    )


def _tents_by_tribe(tents: Sequence[int], spaces: Sequence[int], tribes: int) -> list[int]:
    counts = [0] * tribes
    for s in spaces:
        if tents[s]:
            counts[tents[s] - 1] += 1
    return counts


def _set(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return (*values[:index], value, *values[index + 1 :])


def check_payment(cards: Sequence[Terrain], pieces: int, terrain: Terrain, hand: Hand) -> None:
    """Each piece costs a card of the territory's terrain or a pair of one terrain (a wild):
    at most 3 cards for 2 pieces. The cards must be in hand."""
    if not 1 <= len(cards) <= MAX_CARDS:
        raise IllegalMove(f"a play uses 1 to {MAX_CARDS} cards, not {len(cards)}", rule="I8")
    for i, t in enumerate(TERRAINS):
        need = cards.count(t)  # a terrain equals itself only (an enum member)
        if need > hand[i]:
            raise IllegalMove(
                f"{need} {t.value} card{'s' if need > 1 else ''} played, {hand[i]} in hand",
                rule="I8",
            )
    if not pays(tuple(cards), pieces, terrain):
        raise IllegalMove(
            f"{_listed(cards)} cannot pay for {pieces} piece{'s' if pieces > 1 else ''} on {terrain.value}: "
            f"each piece takes a {terrain.value} card or a pair of one terrain",
            rule="I8",
        )


def _listed(cards: Sequence[Terrain]) -> str:
    return " ".join(c.value for c in cards)


def pays(cards: tuple[Terrain, ...], pieces: int, terrain: Terrain) -> bool:
    if pieces == 1:
        return (len(cards) == 1 and cards[0] is terrain) or (
            len(cards) == 2 and cards[0] is cards[1]
        )
    if pieces == 2:
        if len(cards) == 2:
            return cards[0] is terrain and cards[1] is terrain
        if len(cards) == 3:
            for i, card in enumerate(cards):
                rest = [c for j, c in enumerate(cards) if j != i]
                if card is terrain and rest[0] is rest[1]:
                    return True
    return False


def payments(hand: Sequence[int], pieces: int, terrain: Terrain) -> list[tuple[Terrain, ...]]:
    """Every way to pay for ``pieces`` from ``hand``, each sorted in terrain order."""
    own = TERRAINS.index(terrain)
    pairs = [t for i, t in enumerate(TERRAINS) if hand[i] >= 2]
    out: list[tuple[Terrain, ...]] = []
    if pieces == 1:
        if hand[own]:
            out.append((terrain,))
        out.extend((t, t) for t in pairs)
    else:
        if hand[own] >= 2:
            out.append((terrain, terrain))
        for t in pairs:
            if t is terrain:
                if hand[own] >= 3:
                    out.append((terrain, terrain, terrain))
            elif hand[own]:
                out.append(_sorted((terrain, t, t)))
    return out


def _sorted(cards: Sequence[Terrain]) -> tuple[Terrain, ...]:
    return tuple(sorted(cards, key=TERRAINS.index))


@functools.lru_cache(maxsize=4096)
def options_for(
    spaces: tuple[int, ...],
    free: int,
    room: int,
    tent_totem: bool,
    tents_left: int,
    totems_left: int,
) -> tuple[tuple[int, ...], ...]:
    """The placements a tribe can make in a territory whose ``free`` spaces (a bit per space,
    the first space highest) are empty, with ``room`` for 0, 1 or 2 more totems (the most tents of one tribe
    there, less its totems) and, with ``tent_totem``, room for a totem after a tent of its own;
    one per outcome: two tents in space order, a tent before a totem (a totem before a tent is
    never needed: the tent only opens room). Supplies count up to 2."""
    last = len(spaces) - 1
    empty = [s for bit, s in enumerate(spaces) if free >> (last - bit) & 1]
    options: list[tuple[int, ...]] = []
    if tents_left:
        options.extend((s,) for s in empty)
    if len(empty) == len(spaces):
        return tuple(options)  # unexplored: one tent only
    if totems_left and room:
        options.append((TOTEM_PIECE,))
        if totems_left >= 2 and room >= 2:
            options.append((TOTEM_PIECE, TOTEM_PIECE))
    if tents_left >= 2:
        options.extend(itertools.combinations(empty, 2))
    if tents_left and totems_left and empty and tent_totem:
        options.extend((s, TOTEM_PIECE) for s in empty)
    return tuple(options)
