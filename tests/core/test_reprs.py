"""The shared ``__repr__`` (``core/reprs.py``) writes what attrs writes for the same class: every
attrs object of a random game of each built-in game (its log, header, events, states, effects,
steps, facts), and hand-made classes with each kind of field attrs treats apart."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

import attrs
import pytest

from tribes import games
from tribes.core.events import Effect, Event
from tribes.core.reprs import fields_repr
from tribes.testing.playouts import playout


@functools.cache
def _attrs_twin(cls: type) -> type:
    """A plain attrs class of the same name and fields, its ``__repr__`` written by attrs."""
    fields = {a.name: attrs.field(repr=a.repr, init=a.init) for a in attrs.fields(cls)}
    twin = attrs.make_class(cls.__name__, fields, slots=False, init=False, eq=False)
    twin.__qualname__ = cls.__qualname__
    return twin


def attrs_repr(obj: Any) -> str:
    """What attrs' own ``__repr__`` writes for ``obj`` (its fields' values shown as they are)."""
    twin = _attrs_twin(type(obj))
    copy = object.__new__(twin)
    for field in attrs.fields(type(obj)):
        if hasattr(obj, field.name):
            copy.__dict__[field.name] = getattr(obj, field.name)
    return repr(copy)


def attrs_objects(value: Any, seen: set[int]) -> Iterator[Any]:
    """Every attrs object in ``value``, ``value`` included, once each."""
    if id(value) in seen:
        return
    seen.add(id(value))
    if attrs.has(type(value)):
        yield value
        for field in attrs.fields(type(value)):
            yield from attrs_objects(getattr(value, field.name, None), seen)
    elif isinstance(value, list | tuple | frozenset | set):
        for item in value:
            yield from attrs_objects(item, seen)
    elif isinstance(value, dict):
        for item in value.values():
            yield from attrs_objects(item, seen)


@pytest.mark.parametrize("name", games.BUILT_IN)
def test_a_games_objects_are_written_as_attrs_writes_them(name: str) -> None:
    played = playout(name, seed=3).played
    game = games.get(name)
    seen: set[int] = set()
    objects = [*attrs_objects((played.log, played.steps, game.facts), seen)]
    shared = [o for o in objects if type(o).__repr__ is fields_repr]
    assert {type(o).__name__ for o in shared} >= {"Header", "GameLog", "Step", "Facts"}
    assert any(isinstance(o, Event) for o in shared) and any(isinstance(o, Effect) for o in shared)
    for obj in shared:
        assert repr(obj) == attrs_repr(obj)


@attrs.define
class _Kinds:
    shown: int
    hidden: int = attrs.field(repr=False)
    told: str = attrs.field(repr=lambda text: f"<{len(text)} letters>")
    later: Any = attrs.field(init=False)
    own: list[Any] = attrs.field(factory=list)

    __repr__ = fields_repr


@attrs.define
class _AttrsKinds:  # the same fields, the repr attrs writes
    shown: int
    hidden: int = attrs.field(repr=False)
    told: str = attrs.field(repr=lambda text: f"<{len(text)} letters>")
    later: Any = attrs.field(init=False)
    own: list[Any] = attrs.field(factory=list)


def test_hidden_custom_unset_and_recursive_fields() -> None:
    ours, theirs = _Kinds(1, 2, "abc"), _AttrsKinds(1, 2, "abc")
    assert repr(ours) == "_Kinds(shown=1, told=<3 letters>, later=NOTHING, own=[])"
    assert repr(ours) == repr(theirs).replace("_AttrsKinds", "_Kinds")
    for value in (ours, theirs):  # each inside its own repr, twice
        value.own.append(value)
        value.later = ("x", value)
    assert repr(ours) == "_Kinds(shown=1, told=<3 letters>, later=('x', ...), own=[...])"
    assert repr(ours) == repr(theirs).replace("_AttrsKinds", "_Kinds")


def test_an_event_class_takes_it_unless_it_writes_its_own() -> None:
    @attrs.frozen(kw_only=True)
    class Shown(Event):
        n: int

    @attrs.frozen(kw_only=True)
    class Own(Event):
        def __repr__(self) -> str:
            return "own"

    assert Shown.__repr__ is fields_repr
    assert repr(Shown(n=3)) == "Shown(n=3)"
    assert repr(Own()) == "own"
