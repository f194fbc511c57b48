"""C7 with the full position form (``tribes position`` writes it): the villages with their epochs
and values, a pending order (C18, C19) and a finished game, each checked against what play can
leave on the board."""

from __future__ import annotations

from typing import Any

import pytest

from tribes.core.errors import BadPosition
from tribes.testing.clans import BOARD, GAME, SEATS3, header_for, order, position

EPOCHS = BOARD.slot_epochs


def twelfth_pending(**change: Any) -> dict[str, Any]:
    """One move left 19 and 35 lone with 11 chips taken: the 12th and 13th villages, whose
    order ann must choose (the demo's finish, shrunk)."""
    doc = position({19: {"yellow": 1}, 35: {"blue": 1}}, seats=SEATS3)
    return {
        **doc,
        "chips": {"ann": 3, "bob": 4, "cy": 4},
        "villages": [],
        "order": [19, 35],
    } | change


def setup(doc: dict[str, Any]) -> Any:
    return GAME.setup(header_for(doc))


def test_c7_c19_a_pending_order_is_part_of_a_position() -> None:
    state = setup(twelfth_pending())
    pending = GAME.pending(state)
    assert pending is not None and pending.decision == "order"
    assert [GAME.format_move(m) for m in GAME.legal_moves(state)] == ["order 19 35", "order 35 19"]
    after, _ = order(state, 35, 19)
    assert after.over and [v.number for v in after.villages] == [12, 13]
    assert after.villages[0].territory == 35 and after.villages[0].value == 1 + 5  # C16


def test_c7_c19_a_finished_game_is_a_position() -> None:
    """12 chips with the villages listed: the game is over, the 12th village founded (C20)."""
    after, _ = order(setup(twelfth_pending()), 19, 35)
    doc = GAME.position(after, SEATS3)
    assert sum(doc["chips"].values()) == 12 and "order" not in doc
    again = setup(doc)
    assert again == after and again.over


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"order": [19]}, "two or more territories"),
        ({"order": [19, 12]}, "territory 12 is no village to found"),
        ({"chips": {"ann": 1}}, "every order of villages 19 35 gives the same outcome"),
        ({"villages": [{"territory": 19, "number": 1, "huts": {}}]}, "holds {'yellow': 1}"),
        (
            {
                "villages": [
                    {"territory": 19, "number": 1, "epoch": 1, "huts": {"yellow": 1}, "value": 9}
                ]
            },
            "worth 1, not 9",
        ),
        (
            {
                "villages": [
                    {"territory": 19, "number": 1, "epoch": 2, "huts": {"yellow": 1}, "value": 1}
                ]
            },
            "founded in epoch 1, not 2",
        ),
        (
            {"villages": [{"territory": 19, "number": 12, "huts": {"yellow": 1}}]},
            "number 12 with 11 chips taken",
        ),
        (
            {"villages": [{"territory": 19, "number": 1, "huts": {"yellow": 1}, "value": 1}]},
            "epoch and value are both given or both null",
        ),
        (
            {"order": None, "villages": []},
            "territory 19 holds huts and all its neighbours are empty",
        ),
        ({"chips": {"ann": 12}, "order": None, "villages": []}, "must include the 12th"),
        ({"villages": [{"territory": 19}]}, "an object of territory, number"),
    ],
)
def test_c7_a_full_position_is_checked_against_play(change: dict[str, Any], message: str) -> None:
    doc = {k: v for k, v in twelfth_pending(**change).items() if v is not None}
    with pytest.raises(BadPosition) as info:
        setup(doc)
    assert message in info.value.message


def test_c15_a_doomed_village_has_an_empty_territory() -> None:
    """Village 1 founded on a mountain in epoch 1 (unfavourable) lost its huts: its territory is
    empty, its value 0; listed so, the position is valid."""
    mountain = next(t.id for t in BOARD.territories if t.terrain == "mountain")
    village = {
        "territory": mountain,
        "number": 1,
        "epoch": EPOCHS[0],
        "huts": {"red": 2},
        "value": 0,
    }
    doc = twelfth_pending(villages=[village])
    doc["chips"] = {"ann": 4, "bob": 4, "cy": 3}
    state = setup(doc)
    assert state.villages[0].huts == (2, 0, 0, 0, 0) and not state.totals[mountain]
    shown = GAME.document(state, SEATS3, "all")["villages"][0]
    assert shown["doomed"] is True and shown["value"] == 0
