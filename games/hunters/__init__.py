"""Carcassonne: Hunters and Gatherers (Klaus-Jürgen Wrede, 2002) for 2 to 5 players: the rules
of ``rules.md`` in this package."""

from __future__ import annotations

from collections.abc import Mapping

from tribes.core.bots import RandomBot
from tribes.core.events import Effect
from tribes.core.game import BotFactory, Facts, GameBase, Option
from tribes.core.header import Header
from tribes.games.hunters import board, hiding, notation, pictures, positions, render, rules, views
from tribes.games.hunters.bots import GreedyBot
from tribes.games.hunters.events import EVENTS
from tribes.games.hunters.state import HuntersState

__all__ = ["GAME", "HuntersGame", "HuntersState"]


class HuntersGame(GameBase[HuntersState]):
    """Hunters and Gatherers: what is particular to it; the rest comes from GameBase and the
    modules."""

    name = "hunters"
    title = "Carcassonne: Hunters and Gatherers"
    rules_version = 1
    events = EVENTS
    facts = Facts(
        rule_letter="H",
        min_seats=2,
        max_seats=5,
        hidden="the order of the land and bonus stacks (H23)",
        chance=True,
        options=(Option("tiles", board.STANDARD, "PATH"),),
    )
    bots: Mapping[str, BotFactory[HuntersState]] = {"random": RandomBot, "greedy": GreedyBot}
    diff_whole = ("pending", "pieces", "features")
    diff_order = ("tiles", "pieces", "supply", "features", "scores", "removed", "bonus_stack")
    """A turn's changes in the order it causes them: the tile placed, a piece put on it, the
    features scored and the pieces sent home, a tile removed, then the next tile drawn."""
    rules = rules
    notation = notation
    views = views
    rendering = render
    pictures = pictures
    positions = positions
    hiding = hiding

    def setup_effects(self, header: Header, state: HuntersState) -> tuple[Effect, ...]:
        return rules.setup_effects(header, state)


GAME = HuntersGame()
