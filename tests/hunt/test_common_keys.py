"""The common keys of a step's document read alone (``core.views.common_value``, what ``find`` and
``hunt`` read when an expression needs only ``scores``, ``over``…) are the document's own."""

from __future__ import annotations

import pytest

from tribes import games
from tribes.core import views
from tribes.core.game import EVERYTHING
from tribes.replay.query import at_step
from tribes.replay.simulate import match, play_game, seed_of


@pytest.mark.parametrize("name", ["clans", "hunters", "iwari", "dice"])
def test_each_common_key_alone_is_the_documents(name: str) -> None:
    game = games.get(name)
    log = play_game(game, seed_of(2, 0), match(game)).log
    header = log.header
    state = game.setup(header)
    for index, event in enumerate(log.events, start=1):
        state, effects = game.apply(state, event)
        if index % 7 and index != len(log.events):
            continue
        whole = views.step_document(game, header, index, state, EVERYTHING)
        step = at_step(game, header, index, state, event, effects)
        for key in (*views.COMMON_KEYS, "game", "events"):
            alone = views.common_value(game, state, header.seats, EVERYTHING, key)
            assert key in step and step[key] == whole[key], (key, index)
            if key in views.COMMON_KEYS:
                assert alone == whole[key], (key, index)
    assert whole["over"] is True and whole["winners"]
