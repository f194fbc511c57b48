"""Every state of every built-in game has a position (``tribes position``): a game set up
from it — with the same options, and the same or another seed — shows the same document to
every viewer and has the same legal moves; with the same seed it is the very state. Random
legal playouts reach pending decisions and ends too, and a test checks that they do."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tribes import games
from tribes.core import views
from tribes.core.game import Game
from tribes.events import codec
from tribes.replay import logs

PROPERTIES = settings.get_profile("tribes-properties")
OPTIONS: dict[str, list[dict[str, str]]] = {
    "iwari": [
        {},
        {"feats": "on"},
        {"expeditions": "on", "variant": "long-road,floating-lands"},
        {"feats": "on", "expeditions": "on", "variant": "glacial-mass"},
    ],
}


def viewers(seats: int) -> list[Any]:
    """Everything, a spectator, the first seat and the last (each sees its own hidden part)."""
    return ["all", None, 0, seats - 1]


def same_game(game: Game, state: Any, seats: list[str], options: dict[str, str], seed: int) -> None:
    """The position of ``state``, through JSON, set up with ``seed`` and with another seed.
    What ``state`` shows and its moves are computed once, for both seeds to match."""
    position = codec.from_json(codec.to_json(game.position(state, seats)))
    documents = [views.document(game, state, seats, viewer) for viewer in viewers(len(seats))]
    moves = [game.format_move(m) for m in game.legal_moves(state)]
    for other in (seed, seed ^ 0x5EED):
        head = logs.header(game, seats=seats, seed=other, options=options, position=position)
        again = game.setup(head)
        if other == seed:
            assert again == state
            assert codec.state_hash(again) == codec.state_hash(state)
        again_documents = [views.document(game, again, seats, v) for v in viewers(len(seats))]
        assert again_documents == documents
        assert [game.format_move(m) for m in game.legal_moves(again)] == moves


@pytest.mark.parametrize("name", games.BUILT_IN)
@settings(PROPERTIES, max_examples=12)
@given(seed=st.integers(0, 2**64 - 1), data=st.data())
def test_the_position_of_any_state_gives_the_state_back(name: str, seed: int, data: Any) -> None:
    game = games.get(name)
    count = data.draw(st.integers(game.facts.min_seats, game.facts.max_seats), label="seats")
    options = data.draw(st.sampled_from(OPTIONS.get(name, [{}])), label="options")
    seats = [f"s{i}" for i in range(count)]
    head = logs.header(game, seats=seats, seed=seed, options=options)
    state = game.setup(head)
    picks = random.Random(seed)
    stride = data.draw(st.integers(1, 4), label="stride")
    for index in itertools.count():
        pending = game.pending(state)
        kind = pending.decision if pending else "over" if game.is_over(state) else "turn"
        if kind != "turn" or index % stride == 0:  # every decision and the end; turns by stride
            same_game(game, state, seats, options, seed)
        moves = game.legal_moves(state)
        if not moves:
            break
        state, _ = game.apply(state, moves[picks.randrange(len(moves))])


@pytest.mark.parametrize(
    ("name", "kinds"),
    [
        ("clans", {"order", "over"}),
        ("hunters", {"bonus", "over"}),
        ("iwari", {"feat", "third", "refill", "over"}),
    ],
)
def test_every_pending_decision_and_the_end_have_positions(name: str, kinds: set[str]) -> None:
    """Seeded random playouts (with feats and expeditions where the game has them) until each
    pending decision of the game and its end were met, each given back by its position."""
    game = games.get(name)
    options = OPTIONS.get(name, [{}])[-1]
    met: set[str] = set()
    for seed in range(60):
        seats = [f"s{i}" for i in range(game.facts.min_seats + seed % 2)]
        state = game.setup(logs.header(game, seats=seats, seed=seed, options=options))
        picks = random.Random(seed)
        while True:
            pending = game.pending(state)
            kind = pending.decision if pending else "over" if game.is_over(state) else None
            if kind in kinds and kind not in met:
                same_game(game, state, seats, options, seed)
                met.add(kind)
            moves = game.legal_moves(state)
            if not moves:
                break
            state, _ = game.apply(state, moves[picks.randrange(len(moves))])
        if met == kinds:
            return
    raise AssertionError(f"{name}: playouts never met {sorted(kinds - met)}")
