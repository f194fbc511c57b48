"""The Iwari state and how a game starts: from the seed (I2–I6) or from a position (I7)."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Any

import attrs

from tribes.core.errors import BadPosition
from tribes.core.positions import check_keys, same_seats, seat_of
from tribes.core.prng import Stream
from tribes.events.codec import CACHE
from tribes.games.iwari.board import BY_LETTER, TERRAINS, Map, Terrain, expeditions, load

DECK_COUNTS = (13, 12, 11, 11, 10)
"""I2: cards of each terrain, in Terrain order."""
REMOVED = {2: 2, 3: 2, 4: 1, 5: 0}
"""I2: cards of each terrain taken out by player count."""
HAND = 3
DISPLAY = 4
TENTS = 21
TOTEMS = 8
FEATS = (("union", 2), ("discovery", 2), ("honour", 1), ("respect", 1))
FEAT_KINDS = tuple(kind for kind, _ in FEATS)

Hand = tuple[int, int, int, int, int]
"""Cards in a hand by terrain (Terrain order): cards of a terrain are alike."""


class Phase(enum.Enum):
    """Where a turn is: what the active player decides next."""

    ACTION = "action"
    FEAT = "feat"
    THIRD = "third"
    REFILL = "refill"


@attrs.frozen
class PendingFeat:
    kind: str
    options: tuple[int, ...]


@attrs.frozen
class ExpeditionCard:
    id: str
    claimed: tuple[int, ...] = ()
    """Seats that completed it, in order: the first scored the first circle."""


@attrs.frozen(kw_only=True)
class IwariState:
    """Everything about an Iwari game at one point.

    Tribe ``i < players`` is seat ``i``'s; in a 2-player game tribe 2 is the neutral third tribe.
    Tents are kept by tent space (0 empty, else tribe + 1), totems by territory and tribe.
    """

    map_source: str
    seed: int = 0
    """The log's seed: the reshuffle at half-journey draws from it (stream "reshuffle-1")."""
    variants: tuple[str, ...] = ()
    feats_on: bool = False
    players: int
    deck: tuple[Terrain, ...]
    """Top card first."""
    display: tuple[Terrain | None, ...]
    discard: tuple[Terrain, ...] = ()
    hands: tuple[Hand, ...]
    tents: tuple[int, ...]
    totems: tuple[tuple[int, ...], ...]
    tent_supply: tuple[int, ...]
    totem_supply: tuple[int, ...]
    covered: tuple[int, ...] = ()
    scores: tuple[int, ...]
    start: int
    to_move: int
    phase: Phase = Phase.ACTION
    played: int = 0
    """Cards the active player played this turn (the third tribe may follow 1 or 2, I11)."""
    deck_outs: int = 0
    """Times the deck ran out (I13, I14)."""
    half_due: bool = False
    """The deck ran out for the first time this turn: reshuffle and score after the refill."""
    ending: bool = False
    over: bool = False
    factors: tuple[int, ...] = ()
    """Feat factor by territory id (slot 0 unused), I19."""
    link_factors: tuple[int, ...] = ()
    """Feat factor by connection id (slot 0 unused)."""
    feats_left: tuple[int, ...] = ()
    earned: tuple[tuple[str, ...], ...] = ()
    """Feat kinds each seat has earned (each at most once)."""
    pending_feats: tuple[PendingFeat, ...] = ()
    expeditions: tuple[ExpeditionCard, ...] = ()
    map: Map = attrs.field(default=None, eq=False, repr=False, metadata={CACHE: True})  # type: ignore[assignment]
    """A cache of ``load(map_source, variants)``: every rule looks at the map."""

    def __attrs_post_init__(self) -> None:
        if self.map is None:
            object.__setattr__(self, "map", load(self.map_source, self.variants))

    @classmethod
    def from_fields(cls, **fields: Any) -> IwariState:
        """A state from its serialized fields (the codec calls this); the map is looked up."""
        return cls(**fields)

    @property
    def tribes(self) -> int:
        return len(self.tent_supply)

    def tents_in(self, territory: int) -> list[int]:
        """Tents per tribe in a territory."""
        counts = [0] * self.tribes
        for space in self.map.territory(territory).spaces:
            owner = self.tents[space]
            if owner:
                counts[owner - 1] += 1
        return counts


def tribes_for(players: int) -> int:
    return players + 1 if players == 2 else players


def start_deck(players: int) -> list[Terrain]:
    removed = REMOVED[players]
    return [t for t, n in zip(TERRAINS, DECK_COUNTS, strict=True) for _ in range(n - removed)]


def from_seed(
    game_map: Map, seed: int, players: int, *, feats: bool, with_expeditions: bool
) -> IwariState:
    """I4: shuffle, deal 3 cards each (seat order, three at a time), 4 to the display.
    I5: cover one connection of each peak symbol for the player count. I6: random start player."""
    deck = list(Stream(seed, "deck").shuffled(start_deck(players)))
    hands = []
    for _ in range(players):
        dealt, deck = deck[:HAND], deck[HAND:]
        hands.append(_hand(dealt))
    display, deck = deck[:DISPLAY], deck[DISPLAY:]
    covering = Stream(seed, "mountains")
    covered = []
    for peak in game_map.mountains.get(players, ()):
        choices = [c.id for c in game_map.connections if c.peaks == peak]
        covered.append(choices[covering.below(len(choices))])
    cards = _dealt(seed, with_expeditions)
    start = Stream(seed, "start").below(players)
    state = fresh(
        game_map, players, deck, display, hands, tuple(sorted(covered)), start, feats, cards
    )
    return attrs.evolve(state, seed=seed)


def _dealt(seed: int, with_expeditions: bool) -> tuple[ExpeditionCard, ...]:
    """I20: three expedition cards face up, drawn from the seed (from a position too)."""
    if not with_expeditions:
        return ()
    dealt = Stream(seed, "expeditions").shuffled([e.id for e in expeditions()])[:3]
    return tuple(ExpeditionCard(card) for card in dealt)


def fresh(
    game_map: Map,
    players: int,
    deck: Sequence[Terrain],
    display: Sequence[Terrain | None],
    hands: Sequence[Hand],
    covered: tuple[int, ...],
    start: int,
    feats: bool,
    cards: tuple[ExpeditionCard, ...] = (),
) -> IwariState:
    tribes = tribes_for(players)
    return IwariState(
        map_source=game_map.source,
        map=game_map,
        variants=game_map.variants,
        feats_on=feats,
        players=players,
        deck=tuple(deck),
        display=tuple(display) + (None,) * (DISPLAY - len(display)),
        hands=tuple(hands),
        tents=(0,) * (game_map.spaces + 1),
        totems=((0,) * tribes,) * (len(game_map.territories) + 1),
        tent_supply=(TENTS,) * tribes,
        totem_supply=(TOTEMS,) * tribes,
        covered=covered,
        scores=(0,) * tribes,
        start=start,
        to_move=start,
        factors=(1,) * (len(game_map.territories) + 1),
        link_factors=(1,) * (len(game_map.connections) + 1),
        feats_left=tuple(n for _, n in FEATS) if feats else (0,) * len(FEATS),
        earned=((),) * players,
        expeditions=cards,
    )


def _hand(cards: Sequence[Terrain]) -> Hand:
    return tuple(sum(1 for c in cards if c is t) for t in TERRAINS)  # type: ignore[return-value]


# --- positions (I7) -------------------------------------------------------------------------------

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
}


def from_position(
    game_map: Map,
    position: Any,
    seats: Sequence[str],
    *,
    feats: bool,
    seed: int = 0,
    with_expeditions: bool = False,
) -> IwariState:
    """A state from a position document (see the README), or BadPosition saying what is wrong."""
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
    hands = [_hand(_cards(hands_data[n], f"the hand of {n}")) for n in names]
    if any(sum(h) > HAND for h in hands):
        raise BadPosition(f"a hand holds at most {HAND} cards")
    deck = _cards(position["deck"], "the deck")
    display = _cards(position["display"], "the display", allow_empty=True)
    if len(display) > DISPLAY:
        raise BadPosition(f"the display holds at most {DISPLAY} cards")
    discard = _cards(position.get("discard", ""), "the discard pile")
    tents = [0] * (game_map.spaces + 1)
    for tribe, spaces in _per_tribe(position.get("tents", {}), tribe_names).items():
        for space in spaces:
            if not (isinstance(space, int) and 1 <= space <= game_map.spaces):
                raise BadPosition(
                    f"unknown tent space {space!r}; spaces are 1 to {game_map.spaces}"
                )
            if tents[space]:
                raise BadPosition(f"tent space {space} holds two tents")
            tents[space] = tribe + 1
    totems = [[0] * tribes for _ in range(len(game_map.territories) + 1)]
    for tribe, per_territory in _per_tribe(
        position.get("totems", {}), tribe_names, mapping=True
    ).items():
        for key, count in per_territory.items():
            if not (str(key).isdigit() and 1 <= int(key) <= len(game_map.territories)):
                raise BadPosition(f"unknown territory '{key}' for totems")
            if not isinstance(count, int) or count < 0:
                raise BadPosition(f"totems must be counted by whole numbers, got {count!r}")
            totems[int(key)][tribe] = count
    for territory in game_map.territories:
        counts = [0] * tribes
        for space in territory.spaces:
            if tents[space]:
                counts[tents[space] - 1] += 1
        if sum(totems[territory.id]) > max(counts):
            raise BadPosition(
                f"territory {territory.id} holds {sum(totems[territory.id])} totems but no tribe has more "
                f"than {max(counts)} tents there (I8)"
            )
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
        c not in range(1, len(game_map.connections) + 1) for c in covered
    ):
        raise BadPosition("'covered' must list connection numbers")
    used = sum(map(sum, hands)) + len(deck) + len(display) + len(discard)
    if used != len(start_deck(players)):
        raise BadPosition(
            f"hands, deck, display and discard hold {used} cards; a {players}-player game has "
            f"{len(start_deck(players))}"
        )
    have = [
        sum(h[i] for h in hands) + sum(1 for c in (*deck, *display, *discard) if c is t)
        for i, t in enumerate(TERRAINS)
    ]
    want = [n - REMOVED[players] for n in DECK_COUNTS]
    if have != want:
        listed = ", ".join(f"{n} {t.letter}" for t, n in zip(TERRAINS, want, strict=True))
        found = ", ".join(f"{n} {t.letter}" for t, n in zip(TERRAINS, have, strict=True))
        raise BadPosition(f"a {players}-player game has {listed} cards; the position has {found}")
    deck_outs = position.get("deck_outs", 0)
    if deck_outs not in (0, 1):
        raise BadPosition("'deck_outs' is 0 or 1 (the times the deck already ran out)")
    state = fresh(
        game_map,
        players,
        deck,
        display,
        hands,
        tuple(sorted(covered)),
        start,
        feats,
        _dealt(seed, with_expeditions),
    )
    return attrs.evolve(
        state,
        seed=seed,
        to_move=to_move,
        discard=tuple(discard),
        tents=tuple(tents),
        totems=tuple(tuple(row) for row in totems),
        tent_supply=tuple(TENTS - n for n in placed_tents),
        totem_supply=tuple(TOTEMS - n for n in placed_totems),
        scores=tuple(_points(state_scores.get(n, 0)) for n in tribe_names),
        deck_outs=deck_outs,
    )


def _points(value: Any) -> int:
    if not isinstance(value, int) or value < 0:
        raise BadPosition(f"scores must be whole numbers of 0 or more, got {value!r}")
    return value


def _cards(value: Any, what: str, allow_empty: bool = True) -> list[Terrain]:
    """Cards as a string of terrain letters (t f g c d), e.g. "ttg"."""
    if not isinstance(value, str) or any(ch not in BY_LETTER for ch in value):
        raise BadPosition(f"{what} must be terrain letters (t f g c d), got {value!r}")
    return [BY_LETTER[ch] for ch in value]


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
