"""Bonus Dice bots: ``random``, and ``careful``, which banks at 8 turn points or more."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tribes.core.bots import GreedyBot, RandomBot
from tribes.core.events import Event
from tribes.core.game import BotFactory
from tribes_dice.events import Stopped


class CarefulBot(GreedyBot):
    def worth(self, state: Any, move: Event) -> Any:
        stopping = isinstance(move, Stopped)
        return stopping == (state.turn_points >= 8)


BOTS: Mapping[str, BotFactory[Any]] = {"random": RandomBot, "careful": CarefulBot}
