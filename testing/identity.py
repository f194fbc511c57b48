"""The identity check of the conformance kit: a state's digest is its declared identity, not
its Python shape (``tribes.core.game.State``).

A state's digest (:func:`tribes.events.codec.state_hash`) covers its identity document
(:func:`tribes.events.codec.identity`): its fields, the caches and those at their declared
default left out. So a field added to a state with a default that changes no outcome (a
variant flag, off) changes no digest, no baseline and no transcript. The check adds that field:
:func:`with_field` makes a test double of a state's class with one field more, and
:class:`GameWithField` plays a game whose every state carries it.
"""

from __future__ import annotations

from typing import Any

import attrs

from tribes.core.events import Effect, Event
from tribes.core.game import Game
from tribes.core.header import Header
from tribes.events import codec
from tribes.testing.playouts import Playout, fail

FIELD = "identity_probe"
"""The name of the field the test double adds (an int, default 0)."""


def double_of(cls: type) -> type:
    """A subclass of the attrs class ``cls`` with one field more, :data:`FIELD` (an int,
    keyword-only, default 0): the class as a later version of the game might declare it (made
    once a class)."""
    made = _DOUBLES.get(cls)
    if made is None:
        added = {FIELD: attrs.field(default=0, kw_only=True)}
        made = _DOUBLES[cls] = attrs.make_class(
            f"{cls.__name__}WithField", added, bases=(cls,), frozen=True
        )
    return made


_DOUBLES: dict[type, type] = {}


def with_field(state: Any, value: int = 0) -> Any:
    """``state`` as an instance of :func:`double_of` its class, its new field set to ``value``
    (every other field, caches too, the same objects)."""
    real = without_field(state)
    return double_of(type(real))(**_fields(real), **{FIELD: value})


def without_field(state: Any) -> Any:
    """A state of the game's own class with the fields of ``state`` (a double's, or already
    the game's): what its reducer is given."""
    cls = type(state)
    if FIELD not in attrs.fields_dict(cls):
        return state
    return cls.__mro__[1](**_fields(state, cls.__mro__[1]))


def _fields(state: Any, cls: type | None = None) -> dict[str, Any]:
    fields = attrs.fields(cls or type(state))
    return {a.alias: getattr(state, a.name) for a in fields if a.init}


class GameWithField:
    """``game`` as played by a version of it whose states have one field more (set to
    ``value``): its setup and reducer give the states :func:`with_field` makes; everything
    else is the game's."""

    def __init__(self, game: Game[Any], value: int = 0) -> None:
        self.game = game
        self.value = value

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def setup(self, header: Header) -> Any:
        return with_field(self.game.setup(header), self.value)

    def apply(self, state: Any, event: Event) -> tuple[Any, tuple[Effect, ...]]:
        after, effects = self.game.apply(without_field(state), event)
        return with_field(after, self.value), effects


def check_identity(run: Playout) -> None:
    """A state's digest is its declared identity: at every few steps, the state with a field
    added at its default (a test double of its class) has the same digest, and the same with
    the field set otherwise a different one. The game's states must be attrs classes (their
    fields and defaults are the declaration)."""
    game = run.game
    for step in run.steps[:: max(1, len(run.steps) // 8)] + run.steps[-1:]:
        state = step.state
        if not attrs.has(type(state)):
            raise fail(
                game.name,
                f"its states are {type(state).__name__} objects, not attrs classes: a state's "
                "identity is declared by its fields' defaults",
            )
        where = run.where(step.index)
        digest = codec.state_hash(state)
        if codec.state_hash(with_field(state)) != digest:
            raise fail(
                where, f"a field added at its default ({FIELD}=0) changed the state's digest"
            )
        if codec.state_hash(with_field(state, 1)) == digest:
            raise fail(
                where, f"a field set to other than its default ({FIELD}=1) changed no digest"
            )
