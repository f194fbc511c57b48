"""The codec's plain path (``plain.plain_value``, ``plain.plain_data``) gives what the cattrs
converter gives, value for value and type for type, wherever it answers: every event and header
of random games of every built-in game, both ways; and it leaves every bad value to the
converter, so that what is wrong is said as ever."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from tribes import games
from tribes.core import engine
from tribes.core.header import Header
from tribes.core.pictures import Picture
from tribes.events import codec
from tribes.events import plain as plain_path
from tribes.games.iwari.board import Terrain
from tribes.testing.playouts import playout


def typed(value: Any) -> Any:
    """``value`` with the type of every part beside it: equal only if equal and alike."""
    if isinstance(value, list | tuple):
        return (type(value), [typed(v) for v in value])
    if isinstance(value, dict):
        return (dict, [(typed(k), typed(v)) for k, v in value.items()])
    return (type(value), value)


def _same_data(value: Any) -> None:
    plain = plain_path.plain_data(value)
    assert plain is not plain_path.NOT_PLAIN, value
    assert typed(plain) == typed(codec.converter().unstructure(value))


def _same_value(data: Any, cls: Any) -> Any:
    plain = plain_path.plain_value(data, cls)
    assert plain is not plain_path.NOT_PLAIN, (data, cls)
    made = codec.converter().structure(data, cls)
    assert plain == made and typed(attrs.asdict(plain)) == typed(attrs.asdict(made))
    return plain


@pytest.mark.parametrize("name", games.BUILT_IN)
def test_events_and_headers_both_ways(name: str) -> None:
    played = playout(name, seed=5).played
    header = played.log.header
    _same_data(header)
    assert _same_value(codec.converter().unstructure(header), Header) == header
    for event in played.log.events:
        _same_data(event)
        for field in attrs.fields(type(event)):
            _same_data(getattr(event, field.name))
        assert codec.event_to_wire(event) == codec.converter().unstructure(
            [type(event).TAG, *(getattr(event, n) for n in codec.field_names(type(event)))]
        )
        assert _same_value(codec.converter().unstructure(event), type(event)) == event


@pytest.mark.parametrize("name", games.BUILT_IN)
def test_effects_both_ways(name: str) -> None:
    """Every effect of random games (``log --json`` and expressions read them as data), those
    with tuples of fixed length too (Hunters' ``FeatureScored.tiles``: the converter keeps each
    cell a tuple), without the converter."""
    game = games.get(name)
    for seed in (5, 6):
        played = playout(name, seed=seed).played
        for step in engine.steps(game, played.log.header, played.log.events):
            for effect in step.effects:
                _same_data(effect)
                assert _same_value(codec.converter().unstructure(effect), type(effect)) == effect


def test_a_header_with_everything() -> None:
    header = Header(
        game="clans",
        rules_version=2,
        seed=7,
        seats=("ann", "bob"),
        options={"board": "x.json"},
        position={"huts": [[1, 2], (3, 4)], "who": None, "f": 1.5},
        meta={"event": "club", "round": (1, 2)},
        schema={"HutsMoved": 1},
        files={"board": "{}"},
    )
    _same_data(header)
    _same_value(codec.converter().unstructure(header), Header)


@pytest.mark.parametrize(
    ("data", "kind"),
    [
        (True, int),
        (1, bool),
        (1.0, int),
        ("\ud800", str),
        ("abc", tuple[int, ...]),
        ({"a": 1}, tuple[int, ...]),
        ([1, "2"], tuple[int, ...]),
        ({1: "a"}, dict[str, str]),
        ("lake", Terrain),
        (["forest", 3], tuple[Terrain, ...]),
        ({"game": "clans"}, Header),
        ({"game": "c", "rules_version": 1, "seed": 1, "seats": ["a"], "extra": 1}, Header),
        ({"game": "c", "rules_version": 1, "seed": 1, "seats": "ab"}, Header),
        ([1, 2], Header),
        (frozenset({1}), tuple[int, ...]),
    ],
)
def test_a_bad_or_odd_value_is_left_to_the_converter(data: Any, kind: Any) -> None:
    """Declined by the plain path: the converter refuses it (and says so as ever), or takes it
    its own way (text as a tuple of letters, a set as a tuple)."""
    assert plain_path.plain_value(data, kind) is plain_path.NOT_PLAIN
    try:
        made = codec.converter().structure(data, kind)
    except Exception as refused:
        with pytest.raises(type(refused)) as again:
            codec.structure(data, kind)
        assert codec.why(again.value) == codec.why(refused)
    else:
        assert codec.structure(data, kind) == made


def test_a_class_within_itself_is_the_converters() -> None:
    assert (
        plain_path.plain_value({"width": 1, "height": 1, "parts": []}, Picture)
        is plain_path.NOT_PLAIN
    )
    picture = codec.structure({"width": 1, "height": 1, "parts": [["a", "<g/>"]]}, Picture)
    assert picture == Picture(1, 1, (("a", "<g/>"),))


def test_what_it_does_not_take_is_the_converters() -> None:
    assert plain_path.plain_data(frozenset({1})) is plain_path.NOT_PLAIN
    assert plain_path.plain_data(b"x") is plain_path.NOT_PLAIN
    state = playout("clans", seed=1).played.states[0]  # a state has cache fields
    assert plain_path.plain_data(state) is plain_path.NOT_PLAIN
    assert codec.unstructure(state) == codec.converter().unstructure(state)
