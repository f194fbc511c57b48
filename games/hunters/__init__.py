"""Carcassonne: Hunters and Gatherers (Klaus-Jürgen Wrede, 2002) for 2 to 5 players: the rules
of ``rules/hunters.md``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tribes.core.bots import RandomBot
from tribes.core.errors import BadData, BadOption, BadPosition
from tribes.core.events import Effect, Event
from tribes.core.game import BotFactory, Viewer
from tribes.core.header import Header
from tribes.games.hunters import board as board_module
from tribes.games.hunters import notation, render, rules, state, views
from tribes.games.hunters.board import TileSet
from tribes.games.hunters.bots import GreedyBot
from tribes.games.hunters.events import EVENTS
from tribes.games.hunters.state import HuntersState

__all__ = ["GAME", "HuntersGame", "HuntersState"]

RULES_VERSION = 1
OPTIONS = {"tiles": board_module.STANDARD}


class HuntersGame:
    """The Hunters and Gatherers implementation of the Game protocol."""

    name = "hunters"
    title = "Carcassonne: Hunters and Gatherers"
    rules_version = RULES_VERSION
    events = EVENTS
    state_type = HuntersState
    min_seats = 2
    max_seats = 5
    bots: Mapping[str, BotFactory] = {"random": RandomBot, "greedy": GreedyBot}
    diff_whole = ("pending", "pieces", "features")

    def check_options(self, options: Mapping[str, str]) -> dict[str, str]:
        unknown = set(options) - set(OPTIONS)
        if unknown:
            raise BadOption(f"hunters takes no option '{sorted(unknown)[0]}'; options: tiles=PATH")
        merged = {**OPTIONS, **options}
        try:
            self.tiles(merged)
        except BadData as exc:
            raise BadOption(f"option tiles: {exc.message}") from None
        return {k: v for k, v in merged.items() if v != OPTIONS[k]}

    def tiles(self, options: Mapping[str, str]) -> TileSet:
        return board_module.load(options.get("tiles", board_module.STANDARD))

    def setup(self, header: Header) -> HuntersState:
        tiles = self.tiles(header.options)
        if header.position is not None:
            return state.from_position(tiles, header.position, header.seats, header.seed)
        return state.from_seed(tiles, header.seed, len(header.seats))

    def seats_of_position(self, position: Any) -> list[str]:
        if not isinstance(position, dict) or not isinstance(position.get("seats"), list):
            raise BadPosition("the position needs 'seats', a list of names")
        return [str(n) for n in position["seats"]]

    def to_move(self, s: HuntersState) -> int | None:
        return None if s.over else s.to_move

    def is_over(self, s: HuntersState) -> bool:
        return s.over

    def legal_moves(self, s: HuntersState) -> list[Event]:
        return rules.legal_moves(s)

    def check(self, s: HuntersState, event: Event) -> None:
        rules.check(s, event)

    def apply(self, s: HuntersState, event: Event) -> tuple[HuntersState, tuple[Effect, ...]]:
        return rules.apply(s, event)

    def outcome(self, s: HuntersState) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return rules.outcome(s)

    def parse_move(self, s: HuntersState, text: str) -> Event:
        return notation.parse(text)

    def format_move(self, event: Event) -> str:
        return notation.format(event)

    def document(self, s: HuntersState, seats: Sequence[str], viewer: Viewer) -> dict[str, Any]:
        return views.document(s, seats, viewer)

    def render(
        self, s: HuntersState, seats: Sequence[str], viewer: Viewer, width: int = 100
    ) -> str:
        return render.render(s, seats, viewer, width)

    def phrase(self, path: tuple[str | int, ...], old: Any, new: Any) -> str | None:
        return views.phrase(path, old, new)


GAME = HuntersGame()
