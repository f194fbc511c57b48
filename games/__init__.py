"""The explicit registry of games. Adding a game is one line here; nothing registers itself."""

from __future__ import annotations

import importlib

from tribes.core.errors import UnknownGame
from tribes.core.game import Game

_MODULES: dict[str, str] = {
    "clans": "tribes.games.clans",
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


def event_table(name: str):  # type: ignore[no-untyped-def]
    """The event table of a game, as the log reader asks for it."""
    try:
        return get(name).events
    except UnknownGame as exc:
        from tribes.core.errors import CorruptLog

        raise CorruptLog(f"the log is of an {exc.message}") from None
