"""Bonus Dice, the example game of tribes: a plugin in a distribution of its own (entry point
``tribes.games``), its rules in ``rules.md`` beside this module."""

from __future__ import annotations

from tribes.core.game import Facts, GameBase
from tribes_dice import hiding, notation, pictures, render, rules, views
from tribes_dice.bots import BOTS
from tribes_dice.events import EVENTS
from tribes_dice.state import DiceState

__all__ = ["GAME", "DiceGame"]


class DiceGame(GameBase[DiceState]):
    """Bonus Dice: what is particular to it; the rest comes from GameBase and the modules."""

    name = "dice"
    title = "Bonus Dice"
    rules_version = 1
    events = EVENTS
    facts = Facts(
        min_seats=2,
        max_seats=4,
        hidden="each player's bonus card, until the end (D2)",
        chance=True,
        rule_letter="D",
    )
    bots = BOTS
    rules = rules
    notation = notation
    views = views
    rendering = render
    pictures = pictures
    hiding = hiding


GAME = DiceGame()
