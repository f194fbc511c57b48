"""The Iwari state and how a game starts from the seed (I2–I6); a start from a position (I7) is
read in ``positions``."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Any

import attrs

from tribes.core.builders import evolver
from tribes.core.prng import Chance
from tribes.core.reprs import fields_repr
from tribes.events.codec import CACHE
from tribes.games.iwari.board import TERRAINS, Map, Terrain, expeditions, load
from tribes.games.iwari.situations import Situations, situations

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


@attrs.frozen(kw_only=True)
class PendingFeat:
    kind: str
    options: tuple[int, ...]

    __repr__ = fields_repr


@attrs.frozen(kw_only=True)
class ExpeditionCard:
    id: str
    claimed: tuple[int, ...] = ()
    """Seats that completed it, in order: the first scored the first circle."""

    __repr__ = fields_repr


@attrs.frozen(kw_only=True, slots=False)
class IwariState:
    """Everything about an Iwari game at one point.

    Tribe ``i < players`` is seat ``i``'s; in a 2-player game tribe 2 is the neutral third tribe.
    Tents are kept by tent space (0 empty, else tribe + 1), totems by territory and tribe.

    Not slotted (``slots=False``): a move builds a new state of these 30 fields, and attrs'
    frozen ``__init__`` stores a field into the instance's dict ~3x cheaper than into a slot
    (``object.__setattr__``) (issue 19: -10% instructions a game). Still frozen: assigning a
    field raises. A move changes a state with :data:`evolve`.
    """

    map_source: str
    players: int
    deck: tuple[Terrain, ...]
    """Top card first."""
    display: tuple[Terrain | None, ...]
    hands: tuple[Hand, ...]
    tents: tuple[int, ...]
    totems: tuple[tuple[int, ...], ...]
    tent_supply: tuple[int, ...]
    totem_supply: tuple[int, ...]
    scores: tuple[int, ...]
    start: int
    to_move: int
    discard: tuple[Terrain, ...] = ()
    covered: tuple[int, ...] = ()
    seed: int = 0
    """The log's seed: the reshuffle at half-journey (in the reducer, which is given no header)
    draws from its stream "reshuffle-1" through ``chance``."""
    variants: tuple[str, ...] = ()
    feats_on: bool = False
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
    map: Map = attrs.field(
        default=attrs.Factory(lambda self: load(self.map_source, self.variants), takes_self=True),
        eq=False,
        repr=False,
        metadata={CACHE: True},
    )
    """A cache of ``load(map_source, variants)``: every rule looks at the map."""
    situations: Situations = attrs.field(
        default=attrs.Factory(
            lambda self: situations(self.map, self.tents, self.totems), takes_self=True
        ),
        eq=False,
        repr=False,
        metadata={CACHE: True},
    )
    """A cache of each territory's situation code (``situations``), kept up to date by plays:
    legal moves look a territory's plays up by it."""

    __repr__ = fields_repr

    @classmethod
    def from_fields(cls, **fields: Any) -> IwariState:
        """A state from its serialized fields (the codec calls this); the map is looked up."""
        return cls(**fields)

    @property
    def chance(self) -> Chance:
        """The log's chance (its seed's named streams), for the draws the reducer makes."""
        return Chance(self.seed)

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


evolve = evolver(IwariState)
"""``evolve(state, to_move=1, ...)``: the state with these fields changed, every other one carried
(``attrs.evolve``, made fast by ``core.builders``): how the reducer makes each new state."""


def tribes_for(players: int) -> int:
    return players + 1 if players == 2 else players


def start_deck(players: int) -> list[Terrain]:
    removed = REMOVED[players]
    return [t for t, n in zip(TERRAINS, DECK_COUNTS, strict=True) for _ in range(n - removed)]


def from_seed(
    game_map: Map, chance: Chance, players: int, *, feats: bool, with_expeditions: bool
) -> IwariState:
    """I4: shuffle, deal 3 cards each (seat order, three at a time), 4 to the display.
    I5: cover one connection of each peak symbol for the player count. I6: random start player."""
    deck = list(chance.shuffled("deck", start_deck(players)))
    hands = []
    for _ in range(players):
        dealt, deck = deck[:HAND], deck[HAND:]
        hands.append(hand_of(dealt))
    display, deck = deck[:DISPLAY], deck[DISPLAY:]
    covering = chance.stream("mountains")
    covered = []
    for peak in game_map.mountains.get(players, ()):
        choices = [c.id for c in game_map.connections if c.peaks == peak]
        covered.append(choices[covering.below(len(choices))])
    cards = dealt_expeditions(chance, with_expeditions)
    start = chance.below("start", players)
    state = fresh(
        game_map, players, deck, display, hands, tuple(sorted(covered)), start, feats, cards
    )
    return attrs.evolve(state, seed=chance.seed)


def dealt_expeditions(chance: Chance, with_expeditions: bool) -> tuple[ExpeditionCard, ...]:
    """I20: three expedition cards face up, drawn from the seed (from a position too)."""
    if not with_expeditions:
        return ()
    dealt = chance.shuffled("expeditions", [e.id for e in expeditions()])[:3]
    return tuple(ExpeditionCard(id=card) for card in dealt)


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


def hand_of(cards: Sequence[Terrain]) -> Hand:
    """A hand as its count of cards of each terrain (a dealt hand, a position's hand)."""
    return tuple(sum(1 for c in cards if c is t) for t in TERRAINS)  # type: ignore[return-value]  # 5 counts
