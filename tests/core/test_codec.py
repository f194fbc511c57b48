"""The codec: a converter made by a function, strict primitives, the state hash's one walk equal
to its definition, and errors that keep their data."""

from __future__ import annotations

from enum import Enum
from typing import Any, NamedTuple

import attrs
import cattrs
import pytest

from tribes import games
from tribes.core.errors import CorruptLog, LogError, UncommittedTail
from tribes.events import codec
from tribes.replay import simulate


@attrs.frozen
class Board:
    tiles: tuple[str, ...]
    turn: int


@pytest.mark.parametrize("value", [True, "12", 12.9, 12.0])
def test_an_int_field_takes_only_an_int(value: Any) -> None:
    with pytest.raises(cattrs.BaseValidationError):
        codec.make_converter().structure({"tiles": [], "turn": value}, Board)


def test_text_with_a_lone_surrogate_is_refused() -> None:
    with pytest.raises(ValueError, match="surrogate"):
        codec.from_json('{"a": "\\ud800"}')
    with pytest.raises(ValueError, match="allows"):
        codec.from_json('{"a": NaN}')
    assert codec.from_json('{"a": "\\ud83d\\ude00"}') == {"a": "\U0001f600"}  # a pair is fine


def test_log_errors_keep_their_data_when_context_is_added() -> None:
    bare = CorruptLog("is corrupt: its check byte does not match")
    placed = bare.placed(path="g.tribes", record="the record after event 3", offset=40, index=3)
    assert isinstance(placed, CorruptLog)
    assert (placed.path, placed.record, placed.offset, placed.index) == (
        "g.tribes",
        "the record after event 3",
        40,
        3,
    )
    assert placed.reason == bare.reason
    assert placed.message == (
        "g.tribes: the record after event 3 (byte 40) is corrupt: its check byte does not match"
    )
    within = placed.within("verify")
    assert within.offset == 40 and within.message.startswith("verify: g.tribes:")
    tail = UncommittedTail("2 records after the last commit, at byte 9", records=2, offset=9)
    moved = tail.placed(path="g.tribes")
    assert isinstance(moved, UncommittedTail) and moved.records == 2 and moved.offset == 9
    assert isinstance(moved, LogError) and moved.message.startswith("g.tribes: 2 records")


def reference_bytes(value: Any) -> bytes:
    """What a state hash is defined over: the canonical msgpack of the converter's plain data."""
    return codec.pack(codec.canonical(codec.converter().unstructure(value)))


@pytest.mark.parametrize("name", games.names())
def test_the_state_hash_walk_gives_the_bytes_of_its_definition_at_every_step(name: str) -> None:
    game = games.get(name)
    for seed in range(3):
        result = simulate.play_game(game, seed, game.facts.min_seats + seed)
        state = game.setup(result.log.header)
        for event in (None, *result.log.events):
            if event is not None:
                state, _ = game.apply(state, event)
            assert codec.pack(codec.canonical_plain(state)) == reference_bytes(state)


class Colour(Enum):
    RED = "red"


class Pair(NamedTuple):
    a: int
    b: str


@attrs.frozen
class Odd:
    colour: Colour
    board: Board
    by_number: dict[int, tuple[int, ...]]
    pair: Pair
    rows: tuple[tuple[int, ...], ...]
    mixed: list[Any]


@attrs.frozen
class Nothing:
    pass


@attrs.frozen
class One:
    only: tuple[Nothing, ...]


def test_the_state_hash_walk_takes_attrs_classes_of_no_and_one_field() -> None:
    value = One(only=(Nothing(), Nothing()))
    assert codec.pack(codec.canonical_plain(value)) == reference_bytes(value)
    assert codec.canonical_plain(value) == {"only": [{}, {}]}


def test_the_state_hash_walk_takes_odd_values_as_the_converter_does() -> None:
    """Enums by value, an attrs class inside another, int keys as text in text order, a
    NamedTuple, tables and lists of dicts: the same bytes."""
    value = Odd(
        colour=Colour.RED,
        board=Board(tiles=("meadow", "lake"), turn=4),
        by_number={10: (1, 2), 9: (), 1: (3,)},
        pair=Pair(1, "x"),
        rows=((1, 2), (3, 4)),
        mixed=[{"b": 1, "a": [{"d": None, "c": True}]}, (1, (2, [3]))],
    )
    assert codec.pack(codec.canonical_plain(value)) == reference_bytes(value)
    assert codec.canonical_plain(value)["by_number"] == {"1": (3,), "10": (1, 2), "9": ()}
