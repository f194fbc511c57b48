"""Iwari (Michael Schacht, 2020) for 2 to 5 players: the rules of ``rules/iwari.md``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tribes.core.bots import RandomBot
from tribes.core.errors import BadData, BadOption, BadPosition
from tribes.core.events import Effect, Event
from tribes.core.game import BotFactory, Viewer
from tribes.core.header import Header
from tribes.games.iwari import board as board_module
from tribes.games.iwari import notation, render, rules, state, views
from tribes.games.iwari.board import Map
from tribes.games.iwari.bots import GreedyBot
from tribes.games.iwari.events import EVENTS
from tribes.games.iwari.state import IwariState

__all__ = ["GAME", "IwariGame", "IwariState"]

RULES_VERSION = 1
OPTIONS = {"map": board_module.STANDARD, "feats": "off", "expeditions": "off", "variant": ""}


class IwariGame:
    """The Iwari implementation of the Game protocol."""

    name = "iwari"
    title = "Iwari"
    rules_version = RULES_VERSION
    events = EVENTS
    state_type = IwariState
    min_seats = 2
    max_seats = 5
    bots: Mapping[str, BotFactory] = {"random": RandomBot, "greedy": GreedyBot}
    diff_whole = ("pending",)
    file_options: Mapping[str, str] = {"map": "map file"}
    """Options that name a file: the library reads it at ``new`` into ``header.files``."""

    def check_options(self, options: Mapping[str, str]) -> dict[str, str]:
        unknown = set(options) - set(OPTIONS)
        if unknown:
            raise BadOption(
                f"iwari takes no option '{sorted(unknown)[0]}'; options: map=PATH, feats=on|off, "
                f"expeditions=on|off, variant={'|'.join(board_module.VARIANTS)} (comma-separated)"
            )
        merged = {**OPTIONS, **options}
        for flag in ("feats", "expeditions"):
            if merged[flag] not in ("on", "off"):
                raise BadOption(f"option {flag} is on or off, not '{merged[flag]}'")
        try:
            board_module.load(board_module.STANDARD, _variants(merged))
        except BadData as exc:
            raise BadOption(f"option variant: {exc.message}") from None
        return {k: v for k, v in merged.items() if v != OPTIONS[k]}

    def map(self, header: Header) -> Map:
        text = header.files.get("map")
        if text is None:
            return board_module.load(board_module.STANDARD, _variants(header.options))
        label = header.options.get("map", "map")
        return board_module.from_text(text, label, _variants(header.options))

    def setup(self, header: Header) -> IwariState:
        game_map = self.map(header)
        feats = header.options.get("feats") == "on"
        expeditions = header.options.get("expeditions") == "on"
        if header.position is not None:
            return state.from_position(
                game_map,
                header.position,
                header.seats,
                feats=feats,
                seed=header.seed,
                with_expeditions=expeditions,
            )
        return state.from_seed(
            game_map, header.seed, len(header.seats), feats=feats, with_expeditions=expeditions
        )

    def seats_of_position(self, position: Any) -> list[str]:
        if not isinstance(position, dict) or not isinstance(position.get("seats"), list):
            raise BadPosition("the position needs 'seats', a list of names")
        return [str(n) for n in position["seats"]]

    def to_move(self, s: IwariState) -> int | None:
        return None if s.over else s.to_move

    def is_over(self, s: IwariState) -> bool:
        return s.over

    def legal_moves(self, s: IwariState) -> list[Event]:
        return rules.legal_moves(s)

    def check(self, s: IwariState, event: Event) -> None:
        rules.check(s, event)

    def apply(self, s: IwariState, event: Event) -> tuple[IwariState, tuple[Effect, ...]]:
        return rules.apply(s, event)

    def parse_move(self, s: IwariState, text: str) -> Event:
        return notation.parse(text)

    def format_move(self, event: Event) -> str:
        return notation.format(event)

    def document(self, s: IwariState, seats: Sequence[str], viewer: Viewer) -> dict[str, Any]:
        return views.document(s, seats, viewer)

    def render(self, s: IwariState, seats: Sequence[str], viewer: Viewer, width: int = 100) -> str:
        return render.render(s, seats, viewer, width)

    def phrase(self, path: tuple[str | int, ...], old: Any, new: Any) -> str | None:
        return views.phrase(path, old, new)


def _variants(options: Mapping[str, str]) -> list[str]:
    return [v for v in options.get("variant", "").split(",") if v]


GAME = IwariGame()
