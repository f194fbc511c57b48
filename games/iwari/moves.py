"""Iwari move generation: every legal event of a state, with the caches that make it cheap.

Plays are immutable events, so each distinct one is built once per process and handed out again.
A territory's plays are memoized by what they depend on: its situation (a code the state keeps
for each territory, ``situations``), the hand's pay code for its terrain (:func:`pay_code`) and
the mover's tribe and supplies; both codes leave out what does not matter (whose tents fill the
other spaces, the hand's other cards), so the same keys recur from game to game.
"""

from __future__ import annotations

import functools
from itertools import chain
from operator import add

from tribes.core.events import Event
from tribes.games.iwari import situations
from tribes.games.iwari.board import TERRAINS, Map, Terrain
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
from tribes.games.iwari.placement import MAX_CARDS, options_for, payments
from tribes.games.iwari.state import IwariState, Phase

THIRD = 2
"""The neutral third tribe's index in a 2-player game (I11)."""


def legal_moves(state: IwariState) -> list[Event]:
    if state.over:
        return []
    phase = state.phase
    if phase is Phase.ACTION:
        moves = plays(state, state.to_move, CardsPlayed)
        moves.extend(exchanges(state))
        return moves or [TurnPassed()]
    if phase is Phase.FEAT:
        feat = state.pending_feats[0]
        return [FeatPlaced(kind=feat.kind, target=t) for t in (*feat.options, DECLINED)]
    if phase is Phase.THIRD:
        return [*plays(state, THIRD, ThirdTribePlayed), ThirdTribePassed()]
    return list(_draws(sources(state)))


def plays(state: IwariState, tribe: int, kind: type[CardsPlayed | ThirdTribePlayed]) -> list[Event]:
    """Every play of ``tribe`` with the active hand, territory by territory."""
    if not any(state.hands[state.to_move]):
        return []
    return list(chain.from_iterable(_by_territory(state, tribe, kind)))


def can_play(state: IwariState, tribe: int) -> bool:
    """Whether ``tribe`` has any play with the active hand."""
    return any(state.hands[state.to_move]) and any(_by_territory(state, tribe, CardsPlayed))


def _by_territory(
    state: IwariState, tribe: int, kind: type[CardsPlayed | ThirdTribePlayed]
) -> list[tuple[Event, ...]]:
    """The plays of each territory, looked up in the memo of the turn's :data:`Context` by the
    territory's :func:`~situations.play_key` (its situation code, the state's cache, plus the
    hand's pay code for its terrain): a few passes in C over the territories, the plays computed
    only for keys not seen yet."""
    game_map = state.map
    tents, totems = state.tents, state.totems
    context = (
        game_map.key,
        kind is ThirdTribePlayed,
        tribe,
        min(state.tent_supply[tribe], 2),
        min(state.totem_supply[tribe], 2),
        state.tribes,
    )
    memo = _MEMOS.get(context)
    if memo is None:
        if len(_MEMOS) >= _CONTEXTS:
            _MEMOS.clear()
        memo = _MEMOS[context] = {}
    pays = _pay_codes(state.hands[state.to_move], game_map.terrain_numbers)
    codes = situations.codes(game_map, state.situations, tents, totems)
    keys = list(map(add, codes, pays))  # situations.play_key of each territory, in C
    try:
        return list(map(memo.__getitem__, keys))
    except KeyError:  # some territory's key is new: look them up one by one
        pass
    if len(memo) >= _MEMO_SIZE:
        memo.clear()
    found = []
    for key in keys:
        plays_there = memo.get(key)
        if plays_there is None:
            plays_there = memo[key] = _territory_plays(game_map, context, key)
        found.append(plays_there)
    return found


Context = tuple[tuple[str, tuple[str, ...]], bool, int, int, int, int]
"""What a territory's plays depend on besides its play key: the map (``Map.key``), whether the
play is the neutral third tribe's (I11), the tribe, its tents and totems left (up to 2) and the
number of tribes."""
_MEMOS: dict[Context, dict[int, tuple[Event, ...]]] = {}
"""By context, the memo of :func:`_territory_plays`: play key -> the territory's plays, a plain
dict read in C (``map(memo.__getitem__, keys)``), filled as turns ask."""
_CONTEXTS = 256
"""Contexts ``_MEMOS`` keeps (it starts over when full)."""
_MEMO_SIZE = 1 << 14
"""Entries a memo of ``_MEMOS`` keeps (it starts over when full)."""


Payments = tuple[tuple[Terrain, ...], ...]


@functools.lru_cache(maxsize=1024)
def _pay_codes(hand: tuple[int, ...], terrains: tuple[int, ...]) -> tuple[int, ...]:
    """The :func:`pay_code` of ``hand`` for each territory (``terrains``: their terrains'
    numbers)."""
    by_terrain = [pay_code(hand, i) for i in range(len(TERRAINS))]
    return tuple(by_terrain[t] for t in terrains)


def pay_code(hand: tuple[int, ...], terrain: int) -> int:
    """What the ways ``hand`` pays for pieces on terrain number ``terrain`` depend on, as one
    int (under ``1 << situations.PAY_BITS``): the terrain, its cards in hand (3 pay for
    anything) and the other terrains the hand holds a pair of (the wilds, I8); 0 when nothing
    pays for one piece. Hands that differ elsewhere pay alike, so plays memoized by this code
    repeat from game to game."""
    own = min(hand[terrain], MAX_CARDS)
    pairs = sum(1 << i for i, n in enumerate(hand) if n >= 2 and i != terrain)
    if not own and not pairs:
        return 0
    return pack_pay(terrain, own, pairs)


def pack_pay(terrain: int, own: int, pairs: int) -> int:
    """The pay code of its parts (:func:`pay_parts` gives them back): ``pairs`` (a bit per
    terrain) in the low ``len(TERRAINS)`` bits, above them the terrain's number and its own
    cards (0 to ``MAX_CARDS``) as one digit of ``MAX_CARDS + 1``."""
    return (terrain * (MAX_CARDS + 1) + own) << len(TERRAINS) | pairs


def pay_parts(pay: int) -> tuple[int, int, int]:
    """The terrain number, own cards and pairs of a :func:`pack_pay` code."""
    terrain, own = divmod(pay >> len(TERRAINS), MAX_CARDS + 1)
    return terrain, own, pay & ((1 << len(TERRAINS)) - 1)


@functools.lru_cache(maxsize=1024)
def payments_of(pay: int) -> tuple[Payments, Payments]:
    """The ways :func:`pay_code` ``pay`` pays for one piece and for two: those of the smallest
    hand with that code."""
    terrain, own, pairs = pay_parts(pay)
    hand = [own if i == terrain else 2 * (pairs >> i & 1) for i in range(len(TERRAINS))]
    one = payments(hand, 1, TERRAINS[terrain])
    two = payments(hand, 2, TERRAINS[terrain])
    return tuple(one), tuple(two)


def _territory_plays(game_map: Map, context: Context, key: int) -> tuple[Event, ...]:
    """The plays of the territory of play key ``key`` (its :func:`~situations.situation` plus a
    hand's :func:`pay_code` for its terrain) in ``context`` (the tribe with its supplies up to
    2): the placements of :func:`~placement.options_for`, each with every payment for its number
    of pieces (what :func:`plays` memoizes)."""
    pay = situations.pay_of(key)
    if not pay:
        return ()  # nothing pays for one piece, nor for two
    _, third, tribe, tents_left, totems_left, tribes = context
    index, free, room, tent_totem = situations.parts(key, len(game_map.territories), tribes)
    territory = game_map.territories[index]
    options = options_for(
        territory.spaces, free, room, bool(tent_totem >> tribe & 1), tents_left, totems_left
    )
    out: list[Event] = []
    for pieces in options:
        out.extend(_placement_paid(third, territory.id, pieces, pay))
    return tuple(out)


@functools.lru_cache(maxsize=1 << 16)
def _placement_paid(
    third: bool, territory: int, pieces: tuple[int, ...], pay: int
) -> tuple[Event, ...]:
    """A placement with each payment of :func:`pay_code` ``pay`` for its number of pieces, as
    the neutral third tribe's plays (``third``, I11) or the active tribe's (I8)."""
    one, two = payments_of(pay)
    return tuple(
        _play_event(third, territory, pieces, cards) for cards in (one if len(pieces) == 1 else two)
    )


@functools.lru_cache(maxsize=1 << 16)
def _play_event(
    third: bool, territory: int, pieces: tuple[int, ...], cards: tuple[Terrain, ...]
) -> Event:
    """Each distinct play is built once (plays are immutable; there are a few tens of
    thousands; the memo is bounded whatever the map)."""
    if third:
        return ThirdTribePlayed(territory=territory, pieces=pieces, cards=cards)
    return CardsPlayed(territory=territory, pieces=pieces, cards=cards)


def exchanges(state: IwariState) -> tuple[Event, ...]:
    return _exchanges(state.hands[state.to_move], sources(state))


@functools.lru_cache(maxsize=4096)
def _exchanges(hand: tuple[int, ...], where: tuple[int, ...]) -> tuple[Event, ...]:
    """I9: each card of ``hand`` with each source to draw from (built once for each hand and
    set of sources: they recur every few turns)."""
    return tuple(_exchange(t, s) for i, t in enumerate(TERRAINS) if hand[i] for s in where)


@functools.lru_cache(maxsize=64)
def _exchange(card: Terrain, source: int) -> Event:
    return CardExchanged(card=card, source=source)


def sources(state: IwariState) -> tuple[int, ...]:
    """Where a card can be drawn from: the deck, then the display's filled slots."""
    return _sources(state.display, bool(state.deck))


@functools.lru_cache(maxsize=1024)
def _sources(display: tuple[Terrain | None, ...], deck: bool) -> tuple[int, ...]:
    """The sources of a display and a deck (empty or not): the same few recur all game."""
    filled = tuple(i + 1 for i, card in enumerate(display) if card is not None)
    return (FROM_DECK, *filled) if deck else filled


@functools.lru_cache(maxsize=64)
def _draws(where: tuple[int, ...]) -> tuple[Event, ...]:
    """I10: a draw from each source."""
    return tuple(CardDrawn(source=s) for s in where)
