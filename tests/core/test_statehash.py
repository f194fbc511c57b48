"""The digests of a replay's states made step after step (``statehash.Steps``, what ``baseline``
and ``regress`` hash every state with) are the codec's, at every step of every game: the
identity (``codec.state_hash``) and the full form (``codec.legacy_state_hash``)."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from tribes import games
from tribes.core.engine import steps
from tribes.events import codec
from tribes.events.statehash import Steps
from tribes.replay import simulate
from tribes.testing.identity import GameWithField


def replayed(game: Any, log: Any) -> list[Any]:
    """Every state of ``log``, from the start: the engine's own replay."""
    return [step.state for step in steps(game, log.header, log.events)]


@pytest.mark.parametrize("name", games.names())
@pytest.mark.parametrize("full", [False, True])
def test_every_step_of_every_game_has_the_codecs_digest(name: str, full: bool) -> None:
    game = games.get(name)
    hashed = codec.legacy_state_hash if full else codec.state_hash
    for seed in range(4):
        log = simulate.play_game(game, seed, game.facts.min_seats + seed % 2).log
        for played in (game, GameWithField(game), GameWithField(game, 7)):
            states = replayed(played, log)
            steps = Steps(full=full)
            assert [steps.digest(s).hex() for s in states] == [hashed(s) for s in states]


@attrs.frozen
class Inner:
    n: int
    rest: tuple[int, ...] = ()


@attrs.frozen
class Shaped:
    rows: tuple[Any, ...]
    inner: Inner
    label: str = "x"


def test_a_field_changed_in_place_of_a_shared_one_is_packed_again() -> None:
    """Only the very object the state before held is taken as packed: an equal-looking new
    object, an element replaced, a row added or removed, a field back at its default."""
    shared = Inner(1, (2, 3))
    states = [
        Shaped((shared, (1, 2), 5), shared),
        Shaped((shared, (1, 2), 5), shared, "y"),
        Shaped((Inner(1, (2, 4)), (1, 2), 5), shared),
        Shaped((shared, (1, 2)), Inner(9)),
        Shaped((shared, (1, 2), 6, Inner(0)), Inner(9), "x"),
        Shaped([], Inner(9)),
    ]
    for full in (False, True):
        steps = Steps(full=full)
        hashed = codec.legacy_state_hash if full else codec.state_hash
        assert [steps.digest(s).hex() for s in states] == [hashed(s) for s in states]


def test_a_value_of_no_attrs_class_takes_the_codecs_walk() -> None:
    steps = Steps()
    assert steps.digest({"a": 1}).hex() == codec.state_hash({"a": 1})
