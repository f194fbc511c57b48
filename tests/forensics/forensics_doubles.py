"""Test doubles of Clans with one rule changed on purpose (never the real game): what ``tribes
regress`` must find after a rule fix."""

from __future__ import annotations

from typing import Any

import attrs

from tribes.core.errors import IllegalMove
from tribes.core.events import Effect, Event
from tribes.games.clans import ClansGame
from tribes.games.clans.board import COLOUR_NAMES
from tribes.games.clans.events import HutsMoved, VillageFounded


class ThirdVillageScoresMore(ClansGame):
    """C14 changed: the colours of the 3rd village score one point more each."""

    def apply(self, state: Any, event: Event) -> tuple[Any, tuple[Effect, ...]]:
        after, effects = ClansGame.apply(state, event)
        third = [e for e in effects if isinstance(e, VillageFounded) and e.number == 3]
        if not third or not third[0].scored:
            return after, effects
        track = list(after.track)  # a point a colour, in the order of the colours (C2)
        for name in third[0].scored:
            track[COLOUR_NAMES.index(name)] += 1
        return attrs.evolve(after, track=tuple(track)), effects


class SourceForbidden(ClansGame):
    """C8 changed: huts may never leave ``territory``."""

    def __init__(self, territory: int) -> None:
        self.territory = territory

    def apply(self, state: Any, event: Event) -> tuple[Any, tuple[Effect, ...]]:
        if isinstance(event, HutsMoved) and event.source == self.territory:
            raise IllegalMove(f"huts never leave territory {self.territory} here", rule="C8")
        return ClansGame.apply(state, event)


class NextRulesVersion(ClansGame):
    """The same rules under the next rules version."""

    rules_version = ClansGame.rules_version + 1
