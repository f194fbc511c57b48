"""A field added to a game's state is one edit (issue 30): every move carries it.

Each built-in game's state class is given a test double, a subclass with one field more; every
fixture log of the game and a few seeded random games are played from a double of their start,
and every state the reducer makes, through every event type and every effect type of the game
(the end of the game among them), must be a double still holding that field. A reducer that
built a state by naming its fields (a class call, a list of arguments) would drop the field, and
fail here; ``evolve`` (``core.builders``) and ``attrs.evolve`` carry it."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path
from typing import Any

import attrs
import pytest

from tribes import games
from tribes.core.events import Effect, Event
from tribes.core.game import Game
from tribes.games.iwari.events import TurnPassed
from tribes.replay import logs, simulate

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
GAMES = ("clans", "hunters", "iwari")
NOTE = "carried"


def double_class(cls: type) -> type:
    """``cls`` with one field more, ``note`` (a default, so nothing else changes)."""
    return attrs.make_class(
        f"{cls.__name__}Double",
        {"note": attrs.field(default="not carried", kw_only=True)},
        bases=(cls,),
        frozen=True,
        slots="__slots__" in vars(cls),
    )


def as_double(state: Any) -> Any:
    """``state`` as an instance of its class's double, holding ``note``."""
    cls = type(state)
    fields = {f.alias: getattr(state, f.name) for f in attrs.fields(cls)}
    return double_class(cls)(**fields, note=NOTE)


def games_of(game: Game[Any], name: str) -> list[tuple[Any, tuple[Event, ...]]]:
    """(header, events) of every fixture log of the game and of four seeded random games."""
    played = []
    for path in sorted((FIXTURES / name).glob("*.json")):
        opened = logs.open_log(path)
        played.append((opened.log.header, opened.log.events))
    for seats in (2, 3):
        how = simulate.match(game, ("random",), seats=seats, options={})
        for index in range(2):
            log = simulate.play_game(game, simulate.seed_of(seats, index), how).log
            played.append((log.header, log.events))
    return played


def _no_cards(state: Any) -> Any:
    return attrs.evolve(state, hands=tuple((0,) * 5 for _ in state.hands))


ASIDE: dict[str, list[tuple[Any, Event]]] = {"iwari": [(_no_cards, TurnPassed())]}
"""The moves no fixture or random game makes, from a state changed to allow them: Iwari's pass
(I8: only with no play and no exchange, which the random games never meet)."""


@pytest.mark.parametrize("name", GAMES)
def test_a_field_added_to_the_state_is_carried_by_every_move(name: str) -> None:
    game = games.get(name)
    events_seen: set[type[Event]] = set()
    effects_seen: set[type[Effect]] = set()
    ends = 0
    for header, events in games_of(game, name):
        state = as_double(game.setup(header))
        double = type(state)
        for index, event in enumerate(events):
            state, effects = game.apply(state, event)
            where = f"{name}: {type(event).__name__} at event {index}"
            assert type(state) is double, f"{where} made a {type(state).__name__}"
            assert state.note == NOTE, f"{where} dropped the added field"
            events_seen.add(type(event))
            effects_seen.update(map(type, effects))
        ends += game.is_over(state)
    for changed, event in ASIDE.get(name, []):
        start = changed(as_double(game.setup(header)))
        state, effects = game.apply(start, event)
        assert type(state) is type(start) and state.note == NOTE, type(event).__name__
        events_seen.add(type(event))
        effects_seen.update(map(type, effects))
    table = games.event_table(name)
    assert events_seen == set(table.by_tag.values())
    assert effects_seen == set(table.effects.values())
    assert ends


def _attrs_classes(name: str) -> list[type]:
    """Every attrs class defined in a module of the game's package."""
    package = importlib.import_module(f"tribes.games.{name}")
    found = []
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        for value in vars(module).values():
            if isinstance(value, type) and attrs.has(value) and value.__module__ == module.__name__:
                found.append(value)
    return found


@pytest.mark.parametrize("name", GAMES)
def test_every_attrs_class_of_a_game_is_keyword_only(name: str) -> None:
    """STYLE.md: states, their parts, events and a game's data are built by name, so a field
    added or moved never shifts the others (a positional call would)."""
    classes = _attrs_classes(name)
    assert len(classes) >= 5
    positional = [
        f"{cls.__qualname__}.{field.name}"
        for cls in classes
        for field in attrs.fields(cls)
        if field.init and not field.kw_only
    ]
    assert not positional, f"{name}: fields that are not keyword-only: {', '.join(positional)}"
