"""Clans events (what a player decided) and effects (what the rules made of it).

Wire tags and names are fixed forever: never renumber or rename them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

import attrs

from tribes.core.events import Effect, Event, EventTable
from tribes.games.clans.board import COLOUR_NAMES


@attrs.frozen(kw_only=True)
class HutsMoved(Event):
    """All huts of ``source`` moved onto the adjacent ``target`` (C8). Notation ``12-13``."""

    TAG = 1
    NAME = "move"
    RULES = ("C8",)

    source: int
    target: int


@attrs.frozen(kw_only=True)
class OrderChosen(Event):
    """The active player's order for the villages one move founded across an epoch boundary or
    past the 12th (C18, C19): ``villages`` in founding order. Notation ``order 37 21``."""

    TAG = 2
    NAME = "order"
    RULES = ("C18",)

    villages: tuple[int, ...]


def _huts(huts: Sequence[int]) -> str:
    parts = [f"{n} {name}" for n, name in zip(huts, COLOUR_NAMES, strict=True) if n]
    return ", ".join(parts) or "no huts"


@attrs.frozen(kw_only=True)
class VillageFounded(Effect):
    """Village number ``number`` (1..12) founded in ``epoch``: its huts after strife, its value,
    and the colours that scored it (none when doomed)."""

    RULES = ("C11", "C12", "C14", "C16")
    WHEN: ClassVar[Mapping[str, str]] = {"C16": "number == 12"}

    territory: int
    number: int
    epoch: int
    founder: int
    huts: tuple[int, ...]
    value: int
    scored: tuple[str, ...]

    def describe(self, seats: Sequence[str]) -> str:
        who = f"{', '.join(self.scored)} +{self.value}" if self.scored else "nobody scores"
        return (
            f"village {self.number} at {self.territory} (epoch {self.epoch}, {_huts(self.huts)}): "
            f"{who}; chip to {seats[self.founder]}"
        )


@attrs.frozen(kw_only=True)
class StrifeRemoved(Effect):
    """All five colours met: the lone huts of ``colours`` left the game (C13)."""

    RULES = ("C13",)

    territory: int
    colours: tuple[str, ...]

    def describe(self, seats: Sequence[str]) -> str:
        return f"strife at {self.territory}: lone {', '.join(self.colours)} removed"


@attrs.frozen(kw_only=True)
class VillageDoomed(Effect):
    """Founded on unfavourable terrain: scores nothing, its ``huts`` leave the board (C15)."""

    RULES = ("C15",)

    territory: int
    terrain: str
    huts: int

    def describe(self, seats: Sequence[str]) -> str:
        return f"village at {self.territory} doomed on {self.terrain}: {self.huts} hut{'' if self.huts == 1 else 's'} removed"


@attrs.frozen(kw_only=True)
class VillageUnscored(Effect):
    """A village beyond the 12th: no chip, no points, no strife; its huts stay (C19)."""

    RULES = ("C19",)

    territory: int
    number: int

    def describe(self, seats: Sequence[str]) -> str:
        return f"village {self.number} at {self.territory} is beyond the 12th: it scores nothing"


@attrs.frozen(kw_only=True)
class EpochBegan(Effect):
    RULES = ("C12",)

    epoch: int

    def describe(self, seats: Sequence[str]) -> str:
        return f"epoch {self.epoch} begins"


@attrs.frozen(kw_only=True)
class OrderAwaited(Effect):
    """The move founded villages whose order changes the outcome; ``seat`` must choose (C18)."""

    RULES = ("C18",)

    seat: int
    villages: tuple[int, ...]

    def describe(self, seats: Sequence[str]) -> str:
        listed = " ".join(map(str, self.villages))
        return f"{seats[self.seat]} must choose the order of villages {listed}"


@attrs.frozen(kw_only=True)
class GameEnded(Effect):
    """The game is over (C20, C21): final scores per seat (track + chips) and the winners."""

    RULES = ("C20", "C21", "C22")
    WHEN: ClassVar[Mapping[str, str]] = {
        "C20": 'reason == "the 12th village is founded"',
        "C21": 'reason == "no legal move is left"',
    }

    reason: str
    clans: tuple[str, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]

    def describe(self, seats: Sequence[str]) -> str:
        totals = ", ".join(f"{seats[i]} ({self.clans[i]}) {s}" for i, s in enumerate(self.scores))
        won = " and ".join(seats[i] for i in self.winners)
        return f"game over ({self.reason}): {totals}; {won} {'win' if len(self.winners) > 1 else 'wins'}"


EVENTS = EventTable(
    [HutsMoved, OrderChosen],
    effects=[
        VillageFounded,
        StrifeRemoved,
        VillageDoomed,
        VillageUnscored,
        EpochBegan,
        OrderAwaited,
        GameEnded,
    ],
    uncounted={
        "C1": "the board is data, read at setup: no event applies it",
        "C2": "the components: data, no event applies them",
        "C3": "the epoch chart is data; an epoch's turn is counted as C12",
        "C4": "the huts are dealt at setup, before any event",
        "C5": "the clan cards are dealt at setup, before any event",
        "C6": "the start player is drawn at setup; turns pass at every move",
        "C7": "a starting position is read at setup, before any event",
        "C9": "a refusal: a log holds no refused event (tribes shrink --refused C9 finds one)",
        "C10": "a move of 7 or more onto 7 or more shows no effect of its own",
        "C17": "villages of one epoch founded together show as several VillageFounded of one event",
        "C23": "a view: who sees which colour changes no state",
    },
)
