"""Clans (Leo Colovini, 2002) for 2 to 4 players: the rules of ``rules/clans.md``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from tribes.core.bots import RandomBot
from tribes.core.errors import BadOption, BadPosition
from tribes.core.events import Effect, Event
from tribes.core.game import BotFactory, Viewer
from tribes.core.header import Header
from tribes.games.clans import board as board_module
from tribes.games.clans import notation, render, rules, state, views
from tribes.games.clans.board import Board, Colour
from tribes.games.clans.bots import GreedyBot
from tribes.games.clans.events import EVENTS, HutsMoved, OrderChosen
from tribes.games.clans.state import ClansState

__all__ = ["GAME", "Board", "ClansGame", "ClansState", "Colour", "HutsMoved", "OrderChosen"]

RULES_VERSION = 1
OPTIONS = {"board": board_module.STANDARD}


class ClansGame:
    """The Clans implementation of the Game protocol."""

    name = "clans"
    title = "Clans"
    rules_version = RULES_VERSION
    events = EVENTS
    state_type = ClansState
    min_seats = 2
    max_seats = 4
    bots: Mapping[str, BotFactory] = {"random": RandomBot, "greedy": GreedyBot}
    diff_whole = ("pending",)
    file_options: Mapping[str, str] = {"board": "board file"}
    """Options that name a file: the library reads it at ``new`` into ``header.files``."""

    def check_options(self, options: Mapping[str, str]) -> dict[str, str]:
        unknown = set(options) - set(OPTIONS)
        if unknown:
            raise BadOption(f"clans takes no option '{sorted(unknown)[0]}'; options: board=PATH")
        merged = {**OPTIONS, **options}
        return {k: v for k, v in merged.items() if v != OPTIONS[k]}

    def board(self, header: Header) -> Board:
        text = header.files.get("board")
        if text is None:
            return board_module.load()
        return board_module.from_text(text, header.options.get("board", "board"))

    def setup(self, header: Header) -> ClansState:
        board = self.board(header)
        if header.position is not None:
            start = state.from_position(board, header.position, header.seats)
        else:
            start = state.from_seed(board, header.seed, len(header.seats))
        if not rules.has_move(start):
            start = attrs.evolve(start, over=True)
        return start

    def check_position(self, position: Any, seats: Sequence[str]) -> None:
        state.from_position(board_module.load(), position, seats)

    def seats_of_position(self, position: Any) -> list[str]:
        if not isinstance(position, dict) or "seats" not in position:
            raise BadPosition("the position needs 'seats'")
        return state._names(position["seats"])

    def to_move(self, s: ClansState) -> int | None:
        return None if s.over else s.to_move

    def is_over(self, s: ClansState) -> bool:
        return s.over

    def legal_moves(self, s: ClansState) -> list[Event]:
        return rules.legal_moves(s)

    def check(self, s: ClansState, event: Event) -> None:
        rules.check(s, event)

    def apply(self, s: ClansState, event: Event) -> tuple[ClansState, tuple[Effect, ...]]:
        return rules.apply(s, event)

    def parse_move(self, s: ClansState, text: str) -> Event:
        return notation.parse(text)

    def format_move(self, event: Event) -> str:
        return notation.format(event)

    def document(self, s: ClansState, seats: Sequence[str], viewer: Viewer) -> dict[str, Any]:
        return views.document(s, seats, viewer)

    def render(self, s: ClansState, seats: Sequence[str], viewer: Viewer, width: int = 100) -> str:
        return render.render(s, seats, viewer, width)

    def phrase(self, path: tuple[str | int, ...], old: Any, new: Any) -> str | None:
        return views.phrase(path, old, new)


GAME = ClansGame()
