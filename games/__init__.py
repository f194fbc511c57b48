"""The registry of games: the built-in ones, listed here, and plugins — games installed as
distributions of their own, each naming its Game in the entry-point group ``tribes.games``::

    [project.entry-points."tribes.games"]
    dice = "tribes_dice:GAME"

A built-in name is looked up without reading any distribution's metadata (``show`` starts fast);
the entry points are read once, when a name is not built in or every name is asked for. A plugin
that cannot be loaded, or whose object is no Game, is one clear error naming the entry point.
"""

from __future__ import annotations

import functools
import importlib
import os
import sys

from tribes.core.errors import CorruptLog, UnknownGame, UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:  # ``tribes --help`` reads names(): neither ``typing`` nor the contract for it
    from collections.abc import Iterable
    from importlib.metadata import EntryPoint
    from typing import Any

    from tribes.core.events import EventTable
    from tribes.core.game import Game

GROUP = "tribes.games"
"""The entry-point group that games of other distributions register in."""

_MODULES: dict[str, str] = {
    "clans": "tribes.games.clans",
    "hunters": "tribes.games.hunters",
    "iwari": "tribes.games.iwari",
}

BUILT_IN: tuple[str, ...] = tuple(sorted(_MODULES))
"""The games that ship with tribes, sorted: what tests of the built-in games (their fixtures,
snapshots, rules) iterate, whatever plugins are installed besides."""


def _contract() -> tuple[str, ...]:
    """Every attribute the Game contract names: a plugin's object lacking one is no Game."""
    from tribes.core.game import Game  # noqa: PLC0415  start-up: the contract only when a plugin is loaded

    return tuple(sorted({*Game.__annotations__, *(n for n in vars(Game) if not n.startswith("_"))}))


def entry_points(group: str) -> Iterable[EntryPoint]:
    """The installed entry points of ``group``, read only when asked for (``importlib.metadata``
    is not imported to run a built-in game)."""
    from importlib import metadata  # noqa: PLC0415  start-up: importlib.metadata only for plugins

    return metadata.entry_points(group=group)


@functools.cache
def _plugins() -> dict[str, EntryPoint]:
    """The entry points of group ``tribes.games`` by name, built-in names left out (a plugin
    cannot replace a built-in game). Read once: installed distributions do not change while
    the program runs."""
    found: dict[str, EntryPoint] = {}
    for point in entry_points(group=GROUP):
        if point.name not in _MODULES:
            found.setdefault(point.name, point)
    return found


@functools.cache
def installed_names() -> tuple[str, ...]:
    """The names in group ``tribes.games`` of the distributions on ``sys.path``, read from their
    ``entry_points.txt`` as it is written: ``tribes --help`` lists them, and importing
    ``importlib.metadata`` (and ``typing`` with it) would cost it more than all else it does."""
    found: set[str] = set()
    for entry in sys.path:
        try:
            listing = os.listdir(entry or ".")
        except OSError:
            continue
        for item in listing:
            if not item.endswith((".dist-info", ".egg-info")):
                continue
            try:
                with open(os.path.join(entry, item, "entry_points.txt"), encoding="utf-8") as f:
                    text = f.read()
            except OSError:
                continue
            section = ""
            for line in text.splitlines():
                line = line.strip()
                if line.startswith("["):
                    section = line.strip("[] ")
                elif section == GROUP and "=" in line:
                    found.add(line.split("=", 1)[0].strip())
    return tuple(sorted(found - set(_MODULES)))


def plugins() -> list[str]:
    """The names of the installed plugin games, sorted."""
    return list(installed_names())


def names() -> list[str]:
    """Every registered game name, sorted: the built-in games and the plugins."""
    return sorted({*BUILT_IN, *installed_names()})


def get(name: str) -> Game[Any]:
    """The game called ``name``; raises UnknownGame listing the known ones, or UsageError in
    one line for a plugin that cannot be loaded."""
    module = _MODULES.get(name)
    if module is not None:
        game: Game[Any] = importlib.import_module(module).GAME
        return game
    point = _plugins().get(name)
    if point is None:
        raise UnknownGame(f"unknown game '{name}'; known games: {', '.join(names())}")
    return _load(point)


@functools.cache
def _load(point: EntryPoint) -> Game[Any]:
    """The Game a plugin's entry point names, checked to be one (its name too)."""
    where = f"game plugin '{point.name}' ({point.value}"
    where += f", from {point.dist.name} {point.dist.version})" if point.dist else ")"
    try:
        loaded = point.load()
    except Exception as exc:  # noqa: BLE001  any failure of a third party's import is its, said in one line
        detail = str(exc).splitlines()[0] if str(exc) else ""
        raise UsageError(f"{where} cannot be loaded: {type(exc).__name__}: {detail}") from None
    missing = [attr for attr in _contract() if not hasattr(loaded, attr)]
    if missing:
        raise UsageError(
            f"{where} is no Game: it has no {', '.join(missing[:3])}"
            + (f" (and {len(missing) - 3} more)" if len(missing) > 3 else "")
        )
    if loaded.name != point.name:
        raise UsageError(f"{where} is a game called '{loaded.name}', not '{point.name}'")
    game: Game[Any] = loaded
    return game


def loadable() -> list[Game[Any]]:
    """Every registered game that loads, for a command over all of them (``tribes rules``): a
    plugin that cannot be loaded is left out there, and is one line where it is named."""
    found: list[Game[Any]] = []
    for name in names():
        try:
            found.append(get(name))
        except UsageError:
            if name in _MODULES:
                raise
    return found


def event_table(name: str) -> EventTable:
    """The event table of a log's game, as the log reader asks for it."""
    return get_for_log(name).events


def get_for_log(name: str, path: str | None = None) -> Game[Any]:
    """The game of a log; an unknown one is a log error, not a usage error."""
    try:
        return get(name)
    except UnknownGame as exc:
        raise CorruptLog(f"the log is of an {exc.message}", path=path) from None
