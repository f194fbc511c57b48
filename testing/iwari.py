"""Iwari under test: small positions on the standard (stand-in) map, with every card accounted
for, and the scorings reached at once.

Written from ``games/iwari/rules.md``, the map data and the position format of ``state.py`` only.
Everything that is not particular to Iwari (playing by notation, refusals, effects of a type)
comes from :mod:`tribes.testing`.

Map facts the tests lean on (``data/map.json``):

- territories: 1 glacier [1-3], 2 glacier [4-7], 3 tundra [8-12], 4 coast [13-15],
  5 tundra [16-21], 6 forest [22-26], 7 tundra [27-31], 8 glacier [32-35], 9 coast [36-39],
  10 coast [40-43], 11 forest [44-49], 12 desert [50-52], 13 forest [53-56], 14 tundra [57-60],
  15 desert [61-63];
- paths run along each territory's spaces in number order, and across borders at 2-18, 3-4,
  7-9, 7-26, 9-27, 14-38, 25-42, 26-27, 30-48, 35-36, 35-52, 43-45, 49-50, 49-63, 52-53, 56-57;
- connections: 1 T1-T2, 2 T1-T5 (2 peaks), 3 T2-T6 (1), 4 T3-T7 (3), 5 T3-T4 water,
  6 T5-T6 (spaces 21, 23: no path), 7 T4-T9 (4), 8 T6-T7 (2), 9 T7-T8, 10 T5-T10 water (1),
  11 T6-T10, 12 T8-T12 (3), 13 T9-T14 water, 14 T11-T12, 15 T12-T13 (4), 16 T13-T14,
  17 T10-T15 water, 18 T11-T15.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from importlib import resources
from pathlib import Path
from typing import Any

from tribes.core.errors import IllegalMove
from tribes.core.events import Event
from tribes.core.header import Header
from tribes.games.iwari.board import TERRAINS
from tribes.games.iwari.events import (
    ConnectionScored,
    SettlementScored,
    TerritoryScored,
)
from tribes.games.iwari.state import Phase
from tribes.testing.harness import Harness, effects_of

IWARI = Harness("iwari")
GAME = IWARI.game
SEATS2 = ("ann", "bob")
SEATS3 = ("ann", "bob", "cy")
SEATS4 = ("ann", "bob", "cy", "dee")
SEATS5 = ("ann", "bob", "cy", "dee", "eve")
LETTERS = "tfgcd"
FULL = (13, 12, 11, 11, 10)
"""I2: the whole deck by terrain (t f g c d)."""
REMOVED = {2: 2, 3: 2, 4: 1, 5: 0}
"""I2: cards of each terrain removed by player count."""


def counts(players: int) -> tuple[int, ...]:
    """I2: the cards of each terrain (t f g c d) for ``players``."""
    return tuple(n - REMOVED[players] for n in FULL)


def total(players: int) -> int:
    """I2: the number of cards for ``players``."""
    return sum(counts(players))


def _remainder(players: int, used: str) -> list[str]:
    """The cards not in ``used``, interleaved t f g c d t f g c d ... (a fixed order)."""
    left = dict(zip(LETTERS, counts(players), strict=True))
    for ch in used:
        left[ch] -= 1
        assert left[ch] >= 0, f"too many '{ch}' cards in the scenario"
    out: list[str] = []
    while any(left.values()):
        for ch in LETTERS:
            if left[ch]:
                out.append(ch)
                left[ch] -= 1
    return out


def position(
    seats: tuple[str, ...] = SEATS3,
    *,
    hands: dict[str, str] | None = None,
    to_move: str | None = None,
    start: str | None = None,
    display: str = "tfgc",
    deck: str | None = None,
    deck_size: int | None = None,
    discard: str = "",
    tents: dict[str, list[int]] | None = None,
    totems: dict[str, dict[int, int]] | None = None,
    scores: dict[str, int] | None = None,
    covered: list[int] | None = None,
    deck_outs: int = 0,
) -> dict[str, Any]:
    """A valid position document. Seats without a given hand hold "tfg". Every other card of
    the game goes to the deck (``deck_size`` of them, all by default) and the rest to the discard;
    with an explicit ``deck`` the rest all goes to the discard."""
    hands = {s: (hands or {}).get(s, "tfg") for s in seats}
    used = "".join(hands.values()) + display + discard + (deck or "")
    rest = _remainder(len(seats), used)
    if deck is None:
        size = len(rest) if deck_size is None else deck_size
        deck, rest = "".join(rest[:size]), rest[size:]
    pos: dict[str, Any] = {
        "seats": list(seats),
        "to_move": to_move or seats[0],
        "start": start or seats[0],
        "hands": hands,
        "deck": deck,
        "display": display,
        "discard": discard + "".join(rest),
        "deck_outs": deck_outs,
    }
    if tents:
        pos["tents"] = {k: list(v) for k, v in tents.items()}
    if totems:
        pos["totems"] = {k: {str(t): n for t, n in v.items()} for k, v in totems.items()}
    if scores:
        pos["scores"] = dict(scores)
    if covered:
        pos["covered"] = list(covered)
    return pos


def header_for(pos: dict[str, Any], *, seed: int = 0, **options: str) -> Header:
    """The (unchecked) header of a game from ``pos``."""
    return IWARI.header(seats=tuple(pos["seats"]), seed=seed, position=pos, options=options)


def start(options: dict[str, str] | None = None, **kwargs: Any) -> Any:
    """The state of a :func:`position` (``options`` are game options)."""
    pos = position(**kwargs)
    return GAME.setup(IWARI.header(seats=tuple(pos["seats"]), position=pos, options=options))


def from_seed(seed: int, seats: tuple[str, ...] = SEATS3, **options: str) -> Any:
    """The start of a game from ``seed``."""
    return IWARI.from_seed(seed, seats, **options)


def play(state: Any, *moves: str | Event) -> tuple[Any, tuple[Any, ...]]:
    """See :meth:`tribes.testing.Harness.play`."""
    return IWARI.play(state, *moves)


def refused(state: Any, move: str | Event, rule: str | None = None) -> IllegalMove:
    """See :meth:`tribes.testing.Harness.refused`."""
    return IWARI.refused(state, move, rule)


def territory_points(effects: Iterable[Any]) -> dict[int, tuple[int, ...]]:
    """Territory (0: the long road) -> points, for the tent scorings that gave anybody points."""
    return {e.territory: e.points for e in effects_of(effects, TerritoryScored) if any(e.points)}


def connection_points(effects: Iterable[Any]) -> dict[int, tuple[int, ...]]:
    """Connection -> points, for the connection scorings that gave anybody points."""
    return {e.connection: e.points for e in effects_of(effects, ConnectionScored) if any(e.points)}


def settlements(effects: Iterable[Any]) -> list[tuple[int, tuple[int, ...]]]:
    """(tribe, spaces) of each settlement scored, sorted."""
    return sorted((e.tribe, tuple(sorted(e.spaces))) for e in effects_of(effects, SettlementScored))


def hand(state: Any, seat: int) -> str:
    """A seat's hand as letters in terrain order."""
    return "".join(t.letter * n for t, n in zip(TERRAINS, state.hands[seat], strict=True))


def letters(cards: Iterable[Any]) -> str:
    """Cards (or empty slots, ``-``) as letters."""
    return "".join(c.letter if c is not None else "-" for c in cards)


def tribe_tents(state: Any, tribe: int) -> list[int]:
    """The spaces of ``tribe``'s tents."""
    return [space for space, owner in enumerate(state.tents) if space and owner == tribe + 1]


def refill(state: Any, source: str = "deck") -> tuple[Any, tuple[Any, ...]]:
    """Draw (from ``source``) while the active player is refilling."""
    effects: list[Any] = []
    seat = state.to_move
    while not state.over and state.phase is Phase.REFILL and state.to_move == seat:
        state, more = play(state, f"draw {source}")
        effects.extend(more)
    return state, tuple(effects)


def turn(state: Any, *moves: str) -> tuple[Any, tuple[Any, ...]]:
    """``moves`` (a play, feats, third-tribe moves...), then a refill from the deck."""
    state, effects = play(state, *moves)
    state, more = refill(state)
    return state, effects + more


# --- scenarios that reach a scoring ---------------------------------------------------------------


def last_seat(seats: tuple[str, ...]) -> str:
    """The last seat (the last to play in a round that the first seat started)."""
    return seats[-1]


def final(
    seats: tuple[str, ...] = SEATS3,
    options: dict[str, str] | None = None,
    move: str = "14 tent57 t",
    extra: tuple[str, ...] = (),
    **kwargs: Any,
) -> tuple[Any, tuple[Any, ...]]:
    """Final scoring, reached at once: the start player is the first seat, the last seat is to
    move with the deck already run out once and one card left in it. The last seat plays ``move``
    (by default a tent alone in territory 14, worth 1 point to it), then ``extra`` (e.g. a feat),
    passes the third tribe in a 2-player game, and draws the last card: the deck runs out the
    second time at the end of the round (I14)."""
    last = last_seat(seats)
    hands = {last: "ttt", **kwargs.pop("hands", {})}
    pos = position(
        seats,
        hands=hands,
        to_move=last,
        start=seats[0],
        deck="d",
        deck_outs=1,
        **kwargs,
    )
    state = GAME.setup(IWARI.header(seats=tuple(pos["seats"]), position=pos, options=options))
    moves = [move, *extra]
    if len(seats) == 2:
        moves.append("third pass")
    state, effects = play(state, *moves)
    state, more = play(state, "draw deck")
    return state, effects + more


def half(
    seats: tuple[str, ...] = SEATS3,
    options: dict[str, str] | None = None,
    move: str = "15 tent61 d",
    extra: tuple[str, ...] = (),
    **kwargs: Any,
) -> tuple[Any, tuple[Any, ...]]:
    """Half-journey scoring, reached at once: the first seat (start player) plays ``move`` (by
    default a tent alone in territory 15, worth 1 point to it), then ``extra``, passes the third
    tribe in a 2-player game, and draws the only card of the deck (I13)."""
    first = seats[0]
    hands = {first: "ddd", **kwargs.pop("hands", {})}
    pos = position(seats, hands=hands, to_move=first, start=first, deck="t", **kwargs)
    state = GAME.setup(IWARI.header(seats=tuple(pos["seats"]), position=pos, options=options))
    moves = [move, *extra]
    if len(seats) == 2:
        moves.append("third pass")
    state, effects = play(state, *moves)
    state, more = play(state, "draw deck")
    return state, effects + more


# --- maps -----------------------------------------------------------------------------------------


def map_data() -> dict[str, Any]:
    """The standard map's JSON data (a fresh copy, to alter)."""
    data: dict[str, Any] = json.loads(
        (resources.files("tribes.games.iwari") / "data" / "map.json").read_text()
    )
    return data


def big_territory_map(directory: Path, extra: int = 7) -> str:
    """The standard map with ``extra`` more tent spaces (64, 65, ...) in territory 5, so that
    one territory can hold 7 or more tents; the new spaces have no paths. Returns its path."""
    data = map_data()
    first = len(data["tent_spaces"]) + 1
    new = list(range(first, first + extra))
    for t in data["territories"]:
        if t["id"] == 5:
            t["tent_spaces"] = [*t["tent_spaces"], *new]
    data["tent_spaces"] += [{"id": s, "territory": 5, "x": 1, "y": 1} for s in new]
    path = directory / "big.json"
    path.write_text(json.dumps(data))
    return str(path)
