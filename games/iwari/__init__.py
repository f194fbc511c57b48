"""Iwari (Michael Schacht, 2020) for 2 to 5 players: the rules of ``rules.md`` in this package."""

from __future__ import annotations

from collections.abc import Mapping

from tribes.core.bots import RandomBot
from tribes.core.errors import BadData, BadOption
from tribes.core.game import BotFactory, Facts, GameBase, Option
from tribes.games.iwari import board, hiding, notation, pictures, positions, render, rules, views
from tribes.games.iwari.bots import GreedyBot
from tribes.games.iwari.events import EVENTS
from tribes.games.iwari.state import IwariState

__all__ = ["GAME", "IwariGame", "IwariState"]

ON_OFF = ("on", "off")


class IwariGame(GameBase[IwariState]):
    """Iwari: what is particular to it; the rest comes from GameBase and the modules."""

    name = "iwari"
    title = "Iwari"
    rules_version = 1
    events = EVENTS
    facts = Facts(
        rule_letter="I",
        min_seats=2,
        max_seats=5,
        hidden="each player's hand and the order of the deck (I22)",
        chance=True,
        private_moves=True,
        options=(
            Option("map", board.STANDARD, "PATH"),
            Option("feats", "off", "on|off", ON_OFF),
            Option("expeditions", "off", "on|off", ON_OFF),
            Option(
                "variant",
                "",
                f"{'|'.join(board.VARIANTS)} (comma-separated)",
                board.VARIANTS,
                many=True,
            ),
        ),
    )
    bots: Mapping[str, BotFactory[IwariState]] = {"random": RandomBot, "greedy": GreedyBot}
    diff_order = ("tents", "totems", "covered", "supply", "hands", "discard", "display", "deck")
    """A play's changes in the order it causes them: pieces placed, the cards paid, the card
    taken; then what the game's other fields say (scorings, feats), the scores last."""
    rules = rules
    notation = notation
    views = views
    rendering = render
    pictures = pictures
    positions = positions
    hiding = hiding

    def validate_options(self, options: Mapping[str, str]) -> None:
        variants = [v for v in options["variant"].split(",") if v]
        try:  # the map file itself is checked when a log is made (it is carried in the header)
            board.load(board.STANDARD, variants)
        except BadData as exc:
            raise BadOption(f"option variant: {exc.message}") from None


GAME = IwariGame()
