"""Errors keep their data when context is added: a caller can read the rule, the move and the
event number of an illegal move however many places have prefixed its message."""

from __future__ import annotations

import pytest

from tribes import games
from tribes.core.engine import play
from tribes.core.errors import CorruptLog, IllegalMove
from tribes.replay import logs


def test_a_placed_illegal_move_keeps_reason_rule_move_and_index():
    error = IllegalMove("territory 12 holds 8 huts", rule="C9").at("12-13", 41)
    assert (error.reason, error.rule, error.move, error.index) == (
        "territory 12 holds 8 huts",
        "C9",
        "12-13",
        41,
    )
    assert str(error) == "illegal move '12-13' at event 41: territory 12 holds 8 huts (C9)"


def test_context_prefixes_the_message_and_keeps_every_attribute():
    error = IllegalMove("no", rule="I8").at("pass", 3).within("game.tribes")
    assert isinstance(error, IllegalMove)
    assert (error.rule, error.move, error.index) == ("I8", "pass", 3)
    assert error.message == "game.tribes: illegal move 'pass' at event 3: no (I8)"
    corrupt = CorruptLog("bad", path="a.tribes", index=7).within("while reading")
    assert isinstance(corrupt, CorruptLog) and corrupt.index == 7 and corrupt.path == "a.tribes"


def test_an_illegal_event_in_a_replay_names_its_index_and_rule():
    game = games.get("clans")
    head = logs.header(game, seats=["ann", "bob"], seed=5)
    state = game.setup(head)
    with pytest.raises(IllegalMove) as caught:
        play(game, state, game.parse_move(state, "1-99"), 4)
    assert caught.value.index == 4 and caught.value.rule == "C1" and caught.value.move == "1-99"
