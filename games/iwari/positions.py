"""Iwari positions (I7): a state read from a position document, and the position of any state.

A position written by :func:`position` gives its state back: the cards where they are (deck and
discard in order, the display with its empty slots), the pieces, the scores, where the turn is
(its phase, the cards played, the feats waiting to be placed), the half-journey scored or not,
the end under way, the feats earned and placed, the expeditions and who completed them. The
older, shorter form is read as it always was: a turn about to begin, no feat earned, the
expeditions (with ``expeditions=on``) dealt from the seed.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import attrs

from tribes.core.errors import BadPosition
from tribes.core.positions import (
    POSITION_OPTIONS,
    check_keys,
    drop_items,
    lowered,
    numbered,
    objects,
    runs,
    same_seats,
    seat_of,
    whole,
)
from tribes.core.prng import Chance
from tribes.games.iwari.board import BY_LETTER, TERRAINS, Map, Terrain, expeditions
from tribes.games.iwari.state import (
    DECK_COUNTS,
    DISPLAY,
    FEAT_KINDS,
    FEATS,
    HAND,
    REMOVED,
    TENTS,
    TOTEMS,
    ExpeditionCard,
    IwariState,
    PendingFeat,
    Phase,
    dealt_expeditions,
    fresh,
    hand_of,
    start_deck,
    tribes_for,
)

_KEYS = {
    "seats",
    "to_move",
    "start",
    "hands",
    "deck",
    "display",
    "discard",
    "tents",
    "totems",
    "scores",
    "covered",
    "deck_outs",
    "phase",
    "played",
    "half_journey_scored",
    "ending",
    "over",
    "feats",
    "expeditions",
}
EMPTY_SLOT = "-"
"""An empty display slot in a position's ``display`` (the deck ran out)."""
_TERRITORY_FEATS = ("union", "discovery")
_CONNECTION_FEATS = ("honour", "respect")


def from_position(
    game_map: Map,
    position: Any,
    seats: Sequence[str],
    *,
    feats: bool,
    chance: Chance,
    with_expeditions: bool = False,
) -> IwariState:
    """A state from a position document (see docs/games/iwari.md), or BadPosition saying what
    is wrong."""
    check_keys(position, "Iwari", _KEYS, ("seats", "to_move", "hands", "deck", "display"))
    names = same_seats(position, seats)
    players = len(names)
    tribes = tribes_for(players)
    tribe_names = [*names, "third"][:tribes]
    to_move = seat_of(position["to_move"], names, "to_move")
    start = seat_of(position.get("start", position["to_move"]), names, "start")
    hands_data = position["hands"]
    if not isinstance(hands_data, dict) or set(hands_data) != set(names):
        raise BadPosition("'hands' must give every seat its cards")
    hands = [hand_of(_cards(hands_data[n], f"the hand of {n}")) for n in names]
    if any(sum(h) > HAND for h in hands):
        raise BadPosition(f"a hand holds at most {HAND} cards")
    deck = _cards(position["deck"], "the deck")
    display = _display(position["display"])
    discard = _cards(position.get("discard", ""), "the discard pile")
    tents = _tents(game_map, position.get("tents", {}), tribe_names)
    totems = _totems(game_map, position.get("totems", {}), tribe_names, tents)
    placed_tents = [sum(1 for t in tents if t == tribe + 1) for tribe in range(tribes)]
    placed_totems = [sum(row[tribe] for row in totems) for tribe in range(tribes)]
    for tribe in range(tribes):
        if placed_tents[tribe] > TENTS or placed_totems[tribe] > TOTEMS:
            raise BadPosition(
                f"{tribe_names[tribe]} has more than {TENTS} tents or {TOTEMS} totems on the map"
            )
    state_scores = position.get("scores", {})
    if not isinstance(state_scores, dict) or not set(state_scores) <= set(tribe_names):
        raise BadPosition("'scores' must map seats (and 'third') to points")
    covered = position.get("covered", [])
    if not isinstance(covered, list) or any(
        type(c) is not int or c not in range(1, len(game_map.connections) + 1) for c in covered
    ):
        raise BadPosition("'covered' must list connection numbers")
    cards = [*deck, *(c for c in display if c is not None), *discard]
    _check_cards(players, hands, cards)
    deck_outs = position.get("deck_outs", 0)
    if deck_outs not in (0, 1, 2):
        raise BadPosition("'deck_outs' is 0, 1 or 2 (the times the deck already ran out)")
    if deck_outs == 2 and deck:
        raise BadPosition("the deck ran out twice (deck_outs 2): it holds no card")
    state = fresh(
        game_map,
        players,
        deck,
        display,
        hands,
        tuple(sorted(covered)),
        start,
        feats,
        dealt_expeditions(chance, with_expeditions),
    )
    state = attrs.evolve(
        state,
        seed=chance.seed,
        to_move=to_move,
        discard=tuple(discard),
        tents=tuple(tents),
        totems=tuple(tuple(row) for row in totems),
        tent_supply=tuple(TENTS - n for n in placed_tents),
        totem_supply=tuple(TOTEMS - n for n in placed_totems),
        scores=tuple(_points(state_scores.get(n, 0)) for n in tribe_names),
        deck_outs=deck_outs,
    )
    if "expeditions" in position:
        state = attrs.evolve(
            state, expeditions=_expeditions(position["expeditions"], names, with_expeditions)
        )
    if "feats" in position:
        state = _feats(state, game_map, position["feats"], names)
    return _turn(state, position)


def position(state: IwariState, seats: Sequence[str]) -> dict[str, Any]:
    """The position document of ``state``: :func:`from_position` of it (with the same options
    and seed) is ``state``."""
    names = [*seats, "third"][: state.tribes]
    doc: dict[str, Any] = {
        "seats": list(seats),
        "to_move": seats[state.to_move],
        "start": seats[state.start],
        "hands": {name: _letters(state.hands[i]) for i, name in enumerate(seats)},
        "deck": "".join(c.letter for c in state.deck),
        "display": "".join(EMPTY_SLOT if c is None else c.letter for c in state.display),
        "discard": "".join(c.letter for c in state.discard),
        "tents": {
            name: [s for s in range(1, len(state.tents)) if state.tents[s] == tribe + 1]
            for tribe, name in enumerate(names)
        },
        "totems": {
            name: {str(t): row[tribe] for t, row in enumerate(state.totems) if t and row[tribe]}
            for tribe, name in enumerate(names)
        },
        "scores": dict(zip(names, state.scores, strict=True)),
        "covered": list(state.covered),
        "deck_outs": state.deck_outs,
        "phase": state.phase.value,
        "played": state.played,
        "half_journey_scored": state.deck_outs >= 1 and not state.half_due,
        "ending": state.ending,
        "over": state.over,
    }
    if state.feats_on:
        doc["feats"] = {
            "earned": {name: list(state.earned[i]) for i, name in enumerate(seats)},
            "territories": {str(t): f for t, f in enumerate(state.factors) if t and f > 1},
            "connections": {str(c): f for c, f in enumerate(state.link_factors) if c and f > 1},
            "pending": [{"kind": f.kind, "options": list(f.options)} for f in state.pending_feats],
        }
    if state.expeditions:
        doc["expeditions"] = [
            {"card": c.id, "claimed": [seats[s] for s in c.claimed]} for c in state.expeditions
        ]
    options = {
        "feats": "on" if state.feats_on else None,
        "expeditions": "on" if state.expeditions else None,
        "variant": ",".join(state.variants) or None,
    }
    chosen = {k: v for k, v in options.items() if v is not None}
    if chosen:
        doc[POSITION_OPTIONS] = chosen
    return doc


def simpler(position: Any) -> Iterator[Any]:
    """Positions one step simpler (for ``tribes shrink``): a tent or a totem gone, fewer
    points, fewer connections covered, fewer feats placed. Cards stay: every card of the game
    is somewhere."""
    for key in ("tents", "totems"):
        empty = [k for k, v in (position.get(key) or {}).items() if not v]
        if empty:
            yield drop_items(position, (key,), empty)
    for tribe, spaces in sorted((position.get("tents") or {}).items()):
        for i in reversed(range(len(spaces) if isinstance(spaces, list) else 0)):
            yield drop_items(position, ("tents", tribe), [i])
    for tribe in sorted(position.get("totems") or {}):
        yield from lowered(position, ("totems", tribe))
    yield from lowered(position, ("scores",))
    for run in runs(len(position.get("covered") or [])):
        yield drop_items(position, ("covered",), run)
    for where in ("territories", "connections"):
        yield from _fewer_feats(position, where)


def _fewer_feats(position: Any, where: str) -> Iterator[Any]:
    """A feat fewer on one territory or connection: its factor one less (gone at 1)."""
    feats = position.get("feats") or {}
    placed = feats.get(where) or {}
    for key in sorted(placed):
        factor = placed[key]
        fewer = {k: v for k, v in placed.items() if k != key}
        if isinstance(factor, int) and factor > 2:
            fewer[key] = factor - 1
        yield {**position, "feats": {**feats, where: fewer}}


def _letters(hand: Sequence[int]) -> str:
    return "".join(t.letter * n for t, n in zip(TERRAINS, hand, strict=True))


# --- checks ---------------------------------------------------------------------------------------


def _turn(state: IwariState, position: dict[str, Any]) -> IwariState:
    """Where the turn stands: its phase, the cards played, the half-journey, the end."""
    try:
        phase = Phase(position.get("phase", Phase.ACTION.value))
    except ValueError:
        listed = ", ".join(p.value for p in Phase)
        raise BadPosition(f"unknown phase {position.get('phase')!r}; phases: {listed}") from None
    played = whole(position.get("played", 0), "'played'", HAND)
    scored = position.get("half_journey_scored", state.deck_outs >= 1)
    ending, over = position.get("ending", False), position.get("over", False)
    for key, value in (("half_journey_scored", scored), ("ending", ending), ("over", over)):
        if not isinstance(value, bool):
            raise BadPosition(f"'{key}' is true or false, not {value!r}")
    if phase is Phase.ACTION and played:
        raise BadPosition("a turn in phase 'action' has played no card yet ('played' 0)")
    if phase is Phase.THIRD and not (state.players == 2 and played in (1, 2)):
        raise BadPosition(
            "the third tribe plays after a play of 1 or 2 cards in a 2-player game (I11)"
        )
    if (phase is Phase.FEAT) != bool(state.pending_feats):
        raise BadPosition("phase 'feat' goes with the feats to place ('feats.pending'), and only")
    if scored and not state.deck_outs:
        raise BadPosition("the half-journey is scored once the deck ran out (deck_outs 1; I13)")
    due = state.deck_outs >= 1 and not scored
    if due and not (state.deck_outs == 1 and phase is Phase.REFILL and not state.deck):
        raise BadPosition(
            "the half-journey waits to be scored only in the refill in which the deck first "
            "ran out (deck_outs 1, an empty deck, phase 'refill'; I13)"
        )
    if over and (phase is not Phase.ACTION or not ending):
        raise BadPosition("a game that is over is in phase 'action' with 'ending' true (I14)")
    return attrs.evolve(state, phase=phase, played=played, half_due=due, ending=ending, over=over)


def _check_cards(players: int, hands: Sequence[tuple[int, ...]], cards: list[Terrain]) -> None:
    used = sum(map(sum, hands)) + len(cards)
    if used != len(start_deck(players)):
        raise BadPosition(
            f"hands, deck, display and discard hold {used} cards; a {players}-player game has "
            f"{len(start_deck(players))}"
        )
    have = [sum(h[i] for h in hands) + cards.count(t) for i, t in enumerate(TERRAINS)]
    want = [n - REMOVED[players] for n in DECK_COUNTS]
    if have != want:
        listed = ", ".join(f"{n} {t.letter}" for t, n in zip(TERRAINS, want, strict=True))
        found = ", ".join(f"{n} {t.letter}" for t, n in zip(TERRAINS, have, strict=True))
        raise BadPosition(f"a {players}-player game has {listed} cards; the position has {found}")


def _tents(game_map: Map, value: Any, tribe_names: list[str]) -> list[int]:
    tents = [0] * (game_map.spaces + 1)
    for tribe, spaces in _per_tribe(value, tribe_names).items():
        for space in spaces:
            if not (type(space) is int and 1 <= space <= game_map.spaces):  # true is no space
                raise BadPosition(
                    f"unknown tent space {space!r}; spaces are 1 to {game_map.spaces}"
                )
            if tents[space]:
                raise BadPosition(f"tent space {space} holds two tents")
            tents[space] = tribe + 1
    return tents


def _totems(game_map: Map, value: Any, tribe_names: list[str], tents: list[int]) -> list[list[int]]:
    tribes = len(tribe_names)
    totems = [[0] * tribes for _ in range(len(game_map.territories) + 1)]
    for tribe, per_territory in _per_tribe(value, tribe_names, mapping=True).items():
        territories = len(game_map.territories)
        unknown = "unknown territory '{key}' for totems"
        for key, count in numbered(per_territory, territories, "territory", unknown):
            if type(count) is not int or count < 0:
                raise BadPosition(f"totems must be counted by whole numbers, got {count!r}")
            totems[key][tribe] = count
    for territory in game_map.territories:
        counts = [0] * tribes
        for space in territory.spaces:
            if tents[space]:
                counts[tents[space] - 1] += 1
        if sum(totems[territory.id]) > max(counts):
            raise BadPosition(
                f"territory {territory.id} holds {sum(totems[territory.id])} totems but no tribe "
                f"has more than {max(counts)} tents there (I8)"
            )
    return totems


def _feats(state: IwariState, game_map: Map, value: Any, names: list[str]) -> IwariState:
    """I19: the feats each seat earned, the factors placed and the feats still to place."""
    if not state.feats_on:
        raise BadPosition("'feats' in a game without feats (--option feats=on)")
    if not isinstance(value, dict) or not set(value) <= {
        "earned",
        "territories",
        "connections",
        "pending",
    }:
        raise BadPosition("'feats' is {earned, territories, connections, pending}")
    earned_of = value.get("earned", {})
    if not isinstance(earned_of, dict) or not set(earned_of) <= set(names):
        raise BadPosition("feats.earned must map seats to the feats they earned")
    earned = []
    for name in names:
        kinds = earned_of.get(name, [])
        if (
            not isinstance(kinds, list)
            or any(k not in FEAT_KINDS for k in kinds)
            or len(set(kinds)) != len(kinds)
        ):
            raise BadPosition(
                f"feats.earned.{name}: a list of feats, each once ({', '.join(FEAT_KINDS)})"
            )
        earned.append(tuple(kinds))
    left = []
    for kind, most in FEATS:
        taken = sum(kind in kinds for kinds in earned)
        if taken > most:
            raise BadPosition(f"{taken} {kind} feats earned; the game has {most} (I19)")
        left.append(most - taken)
    factors = _factors(value.get("territories", {}), len(game_map.territories), "territories")
    links = _factors(value.get("connections", {}), len(game_map.connections), "connections")
    for kinds, placed, where in (
        (_TERRITORY_FEATS, factors, "territories"),
        (_CONNECTION_FEATS, links, "connections"),
    ):
        available = sum(k in kinds for seat_kinds in earned for k in seat_kinds)
        if sum(f - 1 for f in placed) > available:
            raise BadPosition(f"feats.{where}: more feats placed than earned ({available})")
    pending = _pending_feats(value.get("pending", []), earned[state.to_move], game_map)
    return attrs.evolve(
        state,
        earned=tuple(earned),
        feats_left=tuple(left),
        factors=tuple(factors),
        link_factors=tuple(links),
        pending_feats=pending,
    )


def _factors(value: Any, count: int, where: str) -> list[int]:
    factors = [1] * (count + 1)
    if not isinstance(value, dict):
        raise BadPosition(f"feats.{where} must map ids to feat factors")
    unknown = f"feats.{where}: unknown id '{{key}}'; ids are 1 to {count}"
    for key, factor in numbered(value, count, f"feats.{where}: id", unknown):
        factors[key] = whole(factor, f"feats.{where}.{key}", 1 + sum(n for _, n in FEATS))
        if factor < 1:
            raise BadPosition(f"feats.{where}.{key}: a factor is 1 or more")
    return factors


def _pending_feats(value: Any, earned: tuple[str, ...], game_map: Map) -> tuple[PendingFeat, ...]:
    pending = []
    for where, item in objects(value, "feats.pending", ("kind", "options")):
        kind, options = item["kind"], item["options"]
        if kind not in earned:
            raise BadPosition(f"{where}: '{kind}' is no feat the player to move earned")
        ids = len(game_map.connections if kind in _CONNECTION_FEATS else game_map.territories)
        if not isinstance(options, list) or not all(
            isinstance(o, int) and not isinstance(o, bool) and 1 <= o <= ids for o in options
        ):
            raise BadPosition(f"{where}: options must list ids from 1 to {ids}")
        pending.append(PendingFeat(kind=kind, options=tuple(options)))
    return tuple(pending)


def _expeditions(value: Any, names: list[str], on: bool) -> tuple[ExpeditionCard, ...]:
    """I20: the three expedition cards face up and the seats that completed each, in order."""
    if not on:
        if value:
            raise BadPosition("'expeditions' in a game without them (--option expeditions=on)")
        return ()
    known = [e.id for e in expeditions()]
    cards = []
    for where, item in objects(value, "expeditions", ("card", "claimed")):
        if item["card"] not in known:
            raise BadPosition(f"{where}: unknown card {item['card']!r}; cards: {', '.join(known)}")
        claimed = item["claimed"]
        if (
            not isinstance(claimed, list)
            or len(claimed) > 2
            or len(set(map(str, claimed))) != len(claimed)
        ):
            raise BadPosition(f"{where}: claimed lists at most 2 seats, each once (I20)")
        seats = tuple(seat_of(s, names, f"{where}: claimed seat") for s in claimed)
        cards.append(ExpeditionCard(id=item["card"], claimed=seats))
    if len(cards) != 3 or len({c.id for c in cards}) != len(cards):
        raise BadPosition("'expeditions' lists the 3 cards face up, each once (I20)")
    return tuple(cards)


def _points(value: Any) -> int:
    if type(value) is not int or value < 0:
        raise BadPosition(f"scores must be whole numbers of 0 or more, got {value!r}")
    return value


def _cards(value: Any, what: str) -> list[Terrain]:
    """Cards as a string of terrain letters (t f g c d), e.g. "ttg"."""
    if not isinstance(value, str) or any(ch not in BY_LETTER for ch in value):
        raise BadPosition(f"{what} must be terrain letters (t f g c d), got {value!r}")
    return [BY_LETTER[ch] for ch in value]


def _display(value: Any) -> list[Terrain | None]:
    """The display: a letter a slot, ``-`` for an empty one; slots left out are empty."""
    if not isinstance(value, str) or any(ch not in BY_LETTER and ch != EMPTY_SLOT for ch in value):
        raise BadPosition(
            f"the display must be terrain letters (t f g c d, - an empty slot), got {value!r}"
        )
    if len(value) > DISPLAY:
        raise BadPosition(f"the display holds at most {DISPLAY} cards")
    return [None if ch == EMPTY_SLOT else BY_LETTER[ch] for ch in value]


def _per_tribe(value: Any, names: list[str], mapping: bool = False) -> dict[int, Any]:
    if not isinstance(value, dict) or not set(value) <= set(names):
        raise BadPosition(f"pieces must be given per tribe: {', '.join(names)}")
    out = {}
    for name, items in value.items():
        if mapping and not isinstance(items, dict):
            raise BadPosition(f"totems of {name} must map territories to counts")
        if not mapping and not isinstance(items, list):
            raise BadPosition(f"tents of {name} must list tent spaces")
        out[names.index(name)] = items
    return out
