"""H4 with the full position form (``tribes position`` writes it): the tile drawn (a bonus tile
drawn is the pending H13 decision) and the end of the game, checked against what play reaches."""

from __future__ import annotations

from typing import Any

import pytest

from tribes import games
from tribes.core.errors import BadPosition
from tribes.replay import logs

GAME = games.get("hunters")
SEATS = ["ann", "bob", "cy"]


def tile(x: int, y: int, t: int, r: int) -> dict[str, int]:
    return {"x": x, "y": y, "tile": t, "rotation": r}


def case(**change: Any) -> dict[str, Any]:
    """cy is to place tile 14 and complete a forest with gold; the bonus tile 86 on top of the
    bonus stack then fits nowhere (the shrunk planted case of the shrink tests)."""
    return {
        "seats": SEATS,
        "to_move": "cy",
        "tiles": [tile(0, 0, 56, 0), tile(-1, 0, 71, 3), tile(-1, 1, 41, 3), tile(-2, 1, 61, 2)],
        "pieces": [],
        "stack": [],
        "bonus_stack": [86, 88],
        "removed": [],
        "drawn": 14,
        "over": False,
    } | change


def setup(doc: dict[str, Any]) -> Any:
    return GAME.setup(logs.header(GAME, seats=SEATS, seed=1, position=doc))


def test_h4_h13_the_drawn_tile_and_a_pending_bonus_tile() -> None:
    state = setup(case())
    assert state.drawn == 14 and GAME.pending(state) is None
    after, effects = GAME.apply(state, GAME.parse_move(state, "-1,-1E+g3"))
    assert [type(e).__name__ for e in effects][-2:] == ["TileRemoved", "BonusEarned"]
    assert GAME.pending(after).decision == "bonus"
    again = setup(GAME.position(after, SEATS))
    assert again == after and GAME.pending(again).details == {"tile": 88}


def test_h14_a_finished_game_is_a_position_and_is_not_scored_again() -> None:
    doc = case(drawn=None, over=True, scores={"cy": 6}, bonus_stack=[])
    state = setup(doc)
    assert state.over and state.scores == (0, 0, 6) and not GAME.legal_moves(state)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"drawn": 86, "bonus_stack": [88]},
            "tile 86 fits nowhere: it is removed, never drawn (H5)",
        ),
        ({"drawn": 56}, "tile 56 is already in tiles[0]"),
        ({"drawn": None}, "null only when the game is over"),
        ({"over": True}, "no tile drawn and its stack is empty (H14)"),
        (
            {
                "over": True,
                "drawn": None,
                "pieces": [{"x": -1, "y": 0, "feature": 3, "kind": "gatherer", "seat": "ann"}],
            },
            "went home at the end (H15)",
        ),
        ({"over": "yes"}, "position over: true or false"),
    ],
)
def test_h4_a_full_position_is_checked_against_play(change: dict[str, Any], message: str) -> None:
    with pytest.raises(BadPosition) as info:
        setup(case(**change))
    assert message in info.value.message
