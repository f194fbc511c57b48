"""Iwari events (what a player decided) and effects (what the rules made of it).

A turn is several decisions: a play (or an exchange, or a pass when neither is possible), the
feats it earned, the third tribe's play in a 2-player game, then one draw per card of the refill.
Wire tags and names are fixed forever: never renumber or rename them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

import attrs

from tribes.core.events import Effect, Event, EventTable
from tribes.core.game import EVERYTHING, Viewer
from tribes.core.views import count
from tribes.games.iwari.board import Terrain

TOTEM_PIECE = 0
"""In ``pieces``: a totem; any other number is a tent on that tent space."""
FROM_DECK = 0
"""As a draw's ``source``: the top of the deck; 1..4 are the display's slots."""
DECLINED = 0
"""As a feat's ``target``: the feat is declined (I19)."""
LONG_ROAD = 0
"""As a scored ``territory``: the long road of the variant (I21)."""


@attrs.frozen(kw_only=True)
class CardsPlayed(Event):
    """I8: ``cards`` paid for ``pieces`` (in order) placed in ``territory``."""

    TAG = 1
    NAME = "play"
    RULES = ("I8",)

    territory: int
    pieces: tuple[int, ...]
    cards: tuple[Terrain, ...]


@attrs.frozen(kw_only=True)
class ThirdTribePlayed(Event):
    """I11: a regular play for the neutral third tribe, from the active player's hand."""

    TAG = 2
    NAME = "third"
    RULES = ("I11",)

    territory: int
    pieces: tuple[int, ...]
    cards: tuple[Terrain, ...]


@attrs.frozen(kw_only=True)
class ThirdTribePassed(Event):
    """I11: the active player leaves the third tribe be this turn."""

    TAG = 3
    NAME = "third-pass"


@attrs.frozen(kw_only=True)
class CardExchanged(Event):
    """I9: ``card`` discarded, one card drawn from ``source`` (FROM_DECK or a display slot)."""

    TAG = 4
    NAME = "exchange"
    RULES = ("I9",)

    card: Terrain
    source: int


@attrs.frozen(kw_only=True)
class CardDrawn(Event):
    """I10: one card of the refill, from ``source`` (FROM_DECK or a display slot)."""

    TAG = 5
    NAME = "draw"
    RULES = ("I10",)

    source: int


@attrs.frozen(kw_only=True)
class TurnPassed(Event):
    """Ruling: a player who can neither play nor exchange passes."""

    TAG = 6
    NAME = "pass"


@attrs.frozen(kw_only=True)
class FeatPlaced(Event):
    """I19: the earned feat ``kind`` placed on ``target`` (a territory, or a connection for
    honour and respect); DECLINED declines it."""

    TAG = 7
    NAME = "feat"
    RULES = ("I19",)
    WHEN: ClassVar[Mapping[str, str]] = {"I19": "target != 0"}

    kind: str
    target: int


def _tribe(tribes: Sequence[str], tribe: int) -> str:
    return tribes[tribe] if tribe < len(tribes) else "the third tribe"


@attrs.frozen(kw_only=True)
class PiecesPlaced(Effect):
    RULES = ("I8",)

    tribe: int
    territory: int
    tents: tuple[int, ...]
    totems: int

    def describe(self, seats: Sequence[str]) -> str:
        parts = [f"tent on {s}" for s in self.tents] + (["totem"] * self.totems)
        return f"{_tribe(seats, self.tribe)}: {', '.join(parts)} in territory {self.territory}"


@attrs.frozen(kw_only=True)
class CardTaken(Effect):
    """I9, I10: ``seat`` took ``card`` from ``source`` (FROM_DECK or a display slot); for a
    display slot, ``refill`` is the deck's card that took its place (None: the deck was empty).
    The display is public; a card from the deck is seen by its drawer only (I22)."""

    RULES = ("I10",)

    seat: int
    source: int
    card: Terrain
    refill: Terrain | None = None

    def describe(self, seats: Sequence[str]) -> str:
        return self.describe_for(seats, EVERYTHING)

    def describe_for(self, seats: Sequence[str], viewer: Viewer) -> str:
        who = seats[self.seat]
        if self.source == FROM_DECK:
            seen = viewer in (EVERYTHING, self.seat)
            return f"{who} draws {_a(self.card.value) if seen else 'a card'} from the deck"
        taken = f"{who} takes {_a(self.card.value)} from display slot {self.source}"
        if self.refill is None:
            return f"{taken}; the deck is empty, the slot stays empty"
        return f"{taken}; {_a(self.refill.value)} from the deck fills it"


def _a(word: str) -> str:
    return f"an {word}" if word[0] in "aeiou" else f"a {word}"


@attrs.frozen(kw_only=True)
class DeckRanOut(Effect):
    """The deck is empty: the first time brings half-journey scoring, the second the end."""

    RULES = ("I13", "I14")
    WHEN: ClassVar[Mapping[str, str]] = {"I13": "time == 1", "I14": "time == 2"}

    time: int

    def describe(self, seats: Sequence[str]) -> str:
        return "the deck runs out" + (
            " for the first time" if self.time == 1 else " again: the journey ends"
        )


@attrs.frozen(kw_only=True)
class DeckReshuffled(Effect):
    RULES = ("I13",)

    cards: int

    def describe(self, seats: Sequence[str]) -> str:
        return f"the discard pile ({count(self.cards, 'card')}) is shuffled into a new deck"


@attrs.frozen(kw_only=True)
class TerritoryScored(Effect):
    """I12: the tent scoring of one territory (``points`` per tribe, 0 for tribes without)."""

    RULES = ("I12",)

    territory: int
    points: tuple[int, ...]

    def describe(self, seats: Sequence[str]) -> str:
        gains = ", ".join(f"{_tribe(seats, i)} +{p}" for i, p in enumerate(self.points) if p)
        where = "the long road" if self.territory == LONG_ROAD else f"territory {self.territory}"
        return f"{where}: {gains or 'nobody scores'}"


@attrs.frozen(kw_only=True)
class ConnectionScored(Effect):
    """I16: totem majority on both ends of a connection."""

    RULES = ("I16",)

    connection: int
    points: tuple[int, ...]

    def describe(self, seats: Sequence[str]) -> str:
        gains = ", ".join(f"{_tribe(seats, i)} +{p}" for i, p in enumerate(self.points) if p)
        return f"connection {self.connection}: {gains}"


@attrs.frozen(kw_only=True)
class SettlementScored(Effect):
    """I17: 4 or more tents of one tribe joined by paths."""

    RULES = ("I17",)

    tribe: int
    spaces: tuple[int, ...]

    def describe(self, seats: Sequence[str]) -> str:
        return f"settlement of {_tribe(seats, self.tribe)} ({len(self.spaces)} tents): +{len(self.spaces)}"


@attrs.frozen(kw_only=True)
class ScoringBegan(Effect):
    """``stage`` is "half-journey" or "final"."""

    RULES = ("I13", "I15")
    WHEN: ClassVar[Mapping[str, str]] = {
        "I13": 'stage == "half-journey"',
        "I15": 'stage == "final"',
    }

    stage: str

    def describe(self, seats: Sequence[str]) -> str:
        return f"{self.stage} scoring"


@attrs.frozen(kw_only=True)
class EndTriggered(Effect):
    RULES = ("I14",)

    reason: str

    def describe(self, seats: Sequence[str]) -> str:
        return f"the end is near ({self.reason}): the round is played out"


@attrs.frozen(kw_only=True)
class FeatEarned(Effect):
    RULES = ("I19",)

    seat: int
    kind: str
    options: tuple[int, ...]

    def describe(self, seats: Sequence[str]) -> str:
        where = "connections" if self.kind in ("honour", "respect") else "territories"
        listed = " ".join(map(str, self.options))
        return f"{seats[self.seat]} earns the {self.kind} feat: place it on one of {where} {listed}, or decline"


@attrs.frozen(kw_only=True)
class ExpeditionCompleted(Effect):
    RULES = ("I20",)

    seat: int
    card: str
    points: int

    def describe(self, seats: Sequence[str]) -> str:
        return f"{seats[self.seat]} completes expedition '{self.card}': +{self.points}"


@attrs.frozen(kw_only=True)
class GameEnded(Effect):
    RULES = ("I18",)

    scores: tuple[int, ...]
    winners: tuple[int, ...]

    def describe(self, seats: Sequence[str]) -> str:
        totals = ", ".join(f"{_tribe(seats, i)} {s}" for i, s in enumerate(self.scores))
        won = " and ".join(seats[i] for i in self.winners)
        return f"game over: {totals}; {won} {'win' if len(self.winners) > 1 else 'wins'}"


EVENTS = EventTable(
    [
        CardsPlayed,
        ThirdTribePlayed,
        ThirdTribePassed,
        CardExchanged,
        CardDrawn,
        TurnPassed,
        FeatPlaced,
    ],
    effects=[
        PiecesPlaced,
        CardTaken,
        DeckRanOut,
        DeckReshuffled,
        TerritoryScored,
        ConnectionScored,
        SettlementScored,
        ScoringBegan,
        EndTriggered,
        FeatEarned,
        ExpeditionCompleted,
        GameEnded,
    ],
    uncounted={
        "I1": "the map is data, read at setup: no event applies it",
        "I2": "the cards are data, read at setup: no event applies them",
        "I3": "the supplies are dealt at setup, before any event",
        "I4": "the deck is shuffled and dealt at setup, before any event",
        "I5": "the mountains are placed at setup, before any event",
        "I6": "the start player is drawn at setup; turns pass at every move",
        "I7": "a starting position is read at setup, before any event",
        "I21": "a map variant is an option of the game, not something an event does",
        "I22": "a view: who sees which cards changes no state",
    },
)
