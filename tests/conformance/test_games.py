"""Every registered game, the same checks: seeded random playouts replay to the same states,
legal moves are empty exactly when the game is over, codecs round-trip, inputs never change."""

from __future__ import annotations

import copy

import pytest

from tribes import games
from tribes.core.engine import steps
from tribes.events import codec, logfile
from tribes.events.logfile import GameLog
from tribes.replay import logs
from tribes.testing import Harness

SEEDS = range(1, 9)


def playout(game, seed: int, seats: int):  # type: ignore[no-untyped-def]
    """A random legal game: its log and every state built move by move."""
    played = Harness(game).random_game(seed, [f"s{i}" for i in range(seats)], stream="conformance")
    return played.log, played.states


def cases():  # type: ignore[no-untyped-def]
    for name in games.names():
        game = games.get(name)
        for seed in SEEDS:
            seats = game.facts.min_seats + seed % (game.facts.max_seats - game.facts.min_seats + 1)
            yield pytest.param(name, seed, seats, id=f"{name}-seed{seed}-{seats}p")


@pytest.mark.parametrize(("name", "seed", "seats"), list(cases()))
def test_replay_equals_play(name: str, seed: int, seats: int) -> None:
    game = games.get(name)
    log, states = playout(game, seed, seats)
    replayed = [s.state for s in steps(game, log.header, log.events)]
    assert [codec.state_hash(s) for s in replayed] == [codec.state_hash(s) for s in states]
    assert replayed == states


@pytest.mark.parametrize(("name", "seed", "seats"), list(cases()))
def test_legal_moves_empty_exactly_when_over(name: str, seed: int, seats: int) -> None:
    game = games.get(name)
    _, states = playout(game, seed, seats)
    for state in states:
        assert (not game.legal_moves(state)) == game.is_over(state)
        assert (game.to_move(state) is None) == game.is_over(state)
    assert game.is_over(states[-1])


@pytest.mark.parametrize(("name", "seed", "seats"), list(cases()))
def test_apply_never_mutates_its_input(name: str, seed: int, seats: int) -> None:
    game = games.get(name)
    log, states = playout(game, seed, seats)
    for state, event in zip(states, log.events, strict=False):
        before = copy.deepcopy(state)
        plain = codec.unstructure(state)
        game.apply(state, event)
        game.legal_moves(state)
        assert state == before
        assert codec.unstructure(state) == plain


@pytest.mark.parametrize(("name", "seed", "seats"), list(cases())[::3])
def test_states_and_events_round_trip(name: str, seed: int, seats: int) -> None:
    game = games.get(name)
    log, states = playout(game, seed, seats)
    versions = game.events.versions()
    for state in states:
        plain = codec.unstructure(state)
        assert codec.structure(plain, type(state)) == state
        assert codec.structure(codec.from_json(codec.to_json(plain)), type(state)) == state
    for before, event in zip(states, log.events, strict=False):
        wire = codec.unpack_all(b"".join(codec.pack(v) for v in codec.event_to_wire(event)))
        assert codec.event_from_wire(game.events, wire, versions) == event
        as_json = codec.from_json(codec.event_json_line(event))
        assert codec.event_from_dict(game.events, as_json, versions) == event
        # notation is read against the state just before the event: a game whose notation
        # depends on the state (a drawn tile, a hand) reads it there and nowhere else
        assert game.parse_move(before, game.format_move(event)) == event


@pytest.mark.parametrize(("name", "seed", "seats"), list(cases())[::3])
def test_logs_round_trip_through_both_forms(name: str, seed: int, seats: int) -> None:
    game = games.get(name)
    log, _ = playout(game, seed, seats)
    log = GameLog(header=log.header, events=log.events, checkpoints=logs.checkpoints(game, log, ()))
    data = logfile.encode(log)
    back, end = logfile.decode(data, games.event_table)
    assert back == log
    assert end.size == len(data)
    from_json = logfile.read_json_text(logfile.to_json_text(log))
    assert from_json.header == log.header
    assert from_json.checkpoints == log.checkpoints
    assert [codec.event_from_dict(game.events, e, {}) for e in from_json.items] == list(log.events)
    logs.steps_of(game, back)  # checkpoints verify
