"""Iwari move generation: every legal event of a state, with the caches that make it cheap.

Plays are immutable events, so each distinct one is built once per process and handed out again;
payments and placement options are cached by what they depend on (a hand; a territory's
situation), never by the state.
"""

from __future__ import annotations

import functools

from tribes.core.events import Event
from tribes.games.iwari.board import TERRAINS, Terrain
from tribes.games.iwari.events import (
    DECLINED,
    FROM_DECK,
    CardDrawn,
    CardExchanged,
    CardsPlayed,
    FeatPlaced,
    ThirdTribePassed,
    ThirdTribePlayed,
    TurnPassed,
)
from tribes.games.iwari.placement import options_for, payments
from tribes.games.iwari.state import DISPLAY, IwariState, Phase

THIRD = 2
"""The neutral third tribe's index in a 2-player game (I11)."""
_DRAWS = tuple(CardDrawn(source=s) for s in range(5))


def legal_moves(state: IwariState) -> list[Event]:
    if state.over:
        return []
    phase = state.phase
    if phase is Phase.ACTION:
        moves: list[Event] = [*plays(state, state.to_move, CardsPlayed), *exchanges(state)]
        return moves or [TurnPassed()]
    if phase is Phase.FEAT:
        feat = state.pending_feats[0]
        return [FeatPlaced(kind=feat.kind, target=t) for t in (*feat.options, DECLINED)]
    if phase is Phase.THIRD:
        return [*plays(state, THIRD, ThirdTribePlayed), ThirdTribePassed()]
    return [_DRAWS[s] for s in sources(state)]


def plays(
    state: IwariState,
    tribe: int,
    kind: type[CardsPlayed] | type[ThirdTribePlayed],
    *,
    first: bool = False,
) -> list[Event]:
    """Every play of ``tribe`` with the active hand, territory by territory (only the first
    territory's with ``first``): one loop, not a generator resumed at every territory of every
    turn."""
    hand = state.hands[state.to_move]
    if not any(hand):
        return []
    tents, totems, tribes = state.tents, state.totems, state.tribes
    tents_left = min(state.tent_supply[tribe], 2)
    totems_left = min(state.totem_supply[tribe], 2)
    pays = _hand_payments(hand)
    game_map = state.map
    out: list[Event] = []
    for territory, owners_of in zip(game_map.territories, game_map.owners_of, strict=True):
        one, two = pays[territory.terrain]
        if not one:
            continue  # no payment for one piece, none for two either
        tid = territory.id
        options = options_for(
            owners_of(tents),
            territory.spaces,
            sum(totems[tid]),
            tribe,
            tents_left,
            totems_left,
            tribes,
        )
        if options:
            # mypy takes the event classes for unhashable; a class is hashable
            out.extend(_territoryplays(kind, tid, options, one, two))  # type: ignore[arg-type]
            if first:
                break
    return out


def can_play(state: IwariState, tribe: int) -> bool:
    """Whether ``tribe`` has any play with the active hand: the first territory that takes one
    answers."""
    return bool(plays(state, tribe, CardsPlayed, first=True))


Payments = tuple[tuple[Terrain, ...], ...]


@functools.lru_cache(maxsize=1024)
def _hand_payments(
    hand: tuple[int, ...],
) -> dict[Terrain, tuple[tuple[tuple[Terrain, ...], ...], ...]]:
    """For each terrain, the ways ``hand`` pays for one piece and for two."""
    return {t: _payments(hand, t) for t in TERRAINS}


@functools.lru_cache(maxsize=65536)
def _territoryplays(
    kind: type[CardsPlayed] | type[ThirdTribePlayed],
    territory: int,
    options: tuple[tuple[int, ...], ...],
    one: tuple[tuple[Terrain, ...], ...],
    two: tuple[tuple[Terrain, ...], ...],
) -> tuple[Event, ...]:
    """Every play of some placements with some payments; plays are immutable, so the same ones
    are built once and handed out again."""
    return tuple(
        _play_event(kind, territory, pieces, cards)  # type: ignore[arg-type]  # (as above)
        for pieces in options
        for cards in (one if len(pieces) == 1 else two)
    )


@functools.lru_cache(maxsize=1 << 16)
def _play_event(
    kind: type[CardsPlayed] | type[ThirdTribePlayed],
    territory: int,
    pieces: tuple[int, ...],
    cards: tuple[Terrain, ...],
) -> Event:
    """Each distinct play is built once (there are a few tens of thousands; the memo is bounded
    whatever the map)."""
    return kind(territory=territory, pieces=pieces, cards=cards)


@functools.lru_cache(maxsize=4096)
def _payments(
    hand: tuple[int, ...], terrain: Terrain
) -> tuple[tuple[tuple[Terrain, ...], ...], tuple[tuple[Terrain, ...], ...]]:
    return tuple(payments(hand, 1, terrain)), tuple(payments(hand, 2, terrain))  # type: ignore[arg-type]


def exchanges(state: IwariState) -> list[Event]:
    where = sources(state)
    hand = state.hands[state.to_move]
    return [_exchange(t, s) for i, t in enumerate(TERRAINS) if hand[i] for s in where]


@functools.lru_cache(maxsize=64)
def _exchange(card: Terrain, source: int) -> Event:
    return CardExchanged(card=card, source=source)


def sources(state: IwariState) -> list[int]:
    """Where a card can be drawn from: the deck, then the display's filled slots."""
    display = state.display
    if None not in display:  # the display is full but once the deck has run out
        return [FROM_DECK, *_SLOTS[len(display)]] if state.deck else list(_SLOTS[len(display)])
    out = [FROM_DECK] if state.deck else []
    out.extend(i + 1 for i, card in enumerate(display) if card is not None)
    return out


_SLOTS = tuple(tuple(range(1, n + 1)) for n in range(DISPLAY + 1))
"""The slots of a full display of n cards: 1 to n."""
