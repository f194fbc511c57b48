"""The explicit registry of games. Adding a game is one line here; nothing registers itself."""

from __future__ import annotations

import importlib

from tribes.core.errors import CorruptLog, UnknownGame

TYPE_CHECKING = False
if TYPE_CHECKING:  # ``tribes --help`` reads names(): neither ``typing`` nor the contract for it
    from tribes.core.events import EventTable
    from tribes.core.game import Game

_MODULES: dict[str, str] = {
    "clans": "tribes.games.clans",
    "hunters": "tribes.games.hunters",
    "iwari": "tribes.games.iwari",
}


def names() -> list[str]:
    """Every registered game name, sorted."""
    return sorted(_MODULES)


def get(name: str) -> Game:
    """The game called ``name``; raises UnknownGame listing the known ones."""
    module = _MODULES.get(name)
    if module is None:
        raise UnknownGame(f"unknown game '{name}'; known games: {', '.join(names())}")
    game: Game = importlib.import_module(module).GAME
    return game


def event_table(name: str) -> EventTable:
    """The event table of a log's game, as the log reader asks for it."""
    return get_for_log(name).events


def get_for_log(name: str, path: str | None = None) -> Game:
    """The game of a log; an unknown one is a log error, not a usage error."""
    try:
        return get(name)
    except UnknownGame as exc:
        raise CorruptLog(f"the log is of an {exc.message}", path=path) from None
