"""Clans (Leo Colovini, 2002) for 2 to 4 players: the rules of ``rules.md`` in this package."""

from __future__ import annotations

from collections.abc import Mapping

from tribes.core.bots import RandomBot
from tribes.core.game import BotFactory, Facts, GameBase, Option, Viewer
from tribes.games.clans import board, hiding, notation, pictures, positions, render, rules, views
from tribes.games.clans.board import Board, Colour
from tribes.games.clans.bots import GreedyBot
from tribes.games.clans.events import EVENTS, HutsMoved, OrderChosen
from tribes.games.clans.state import ClansState

__all__ = ["GAME", "Board", "ClansGame", "ClansState", "Colour", "HutsMoved", "OrderChosen"]


class ClansGame(GameBase[ClansState]):
    """Clans: what is particular to it; the rest comes from GameBase and the modules."""

    name = "clans"
    title = "Clans"
    rules_version = 1
    events = EVENTS
    facts = Facts(
        rule_letter="C",
        min_seats=2,
        max_seats=4,
        hidden="each player's clan colour, until the end (C23)",
        chance=True,
        options=(Option("board", board.STANDARD, "PATH"),),
    )
    bots: Mapping[str, BotFactory[ClansState]] = {"random": RandomBot, "greedy": GreedyBot}
    diff_order = ("huts", "villages", "track", "scores", "chips", "chips_left", "epoch")
    """A move's changes in the order it causes them: huts moved (and removed), villages
    founded, the points they score, the chips their founders take, the epoch turning."""
    rules = rules
    notation = notation
    views = views
    rendering = render
    pictures = pictures
    positions = positions
    hiding = hiding

    def visible_scores(self, state: ClansState, viewer: Viewer) -> tuple[int | None, ...]:
        return views.visible_scores(state, viewer)


GAME = ClansGame()
