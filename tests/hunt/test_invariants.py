"""Invariants of each built-in game, read from its rules, hunted for with small budgets: what the
rules conserve, what is bounded, what never goes below zero. Each hunt is seeded (the same games
every run); ``tribes.testing.invariants.assert_never`` fails with the shrunk case if one is found."""

from __future__ import annotations

import pytest

from tribes.testing.invariants import assert_never

INVARIANTS = [
    # C12, C2: 12 chips, each in the epochs' stacks or taken by a seat
    ("clans", "sum(chips) + chips_left != 12"),
    # C3: five epochs
    ("clans", "epoch < 1 or epoch > 5"),
    # C14, C22: points are only ever added
    ("clans", "min(scores) < 0 or min(track) < 0"),
    # C11 on the standard board: the villages of one move border the emptied territory and none
    # borders another, and no territory has four such neighbours
    ("clans", "len(VillageFounded) > 3"),
    # I3: 21 tents and 8 totems a tribe, never more, never fewer than none
    (
        "iwari",
        "max(supply.p1) > 21 or max(supply.p2) > 21 or supply.p1.totems > 8 or min(supply.p1) < 0",
    ),
    # I4, I10: a hand of at most 3 cards, a display of at most 4
    ("iwari", "len(hands.p1) > 3 or len(hands.p2) > 3 or len(display) > 4"),
    # I12-I17: points are only ever added
    ("iwari", "min(scores) < 0 or deck < 0"),
    # H2: 5 tribe members and 2 huts a player, never more, never fewer than none
    ("hunters", "supply.p1.members > 5 or supply.p2.huts > 2 or min(supply.p1) < 0"),
    # H3: 78 land tiles (one drawn at the start) and 12 bonus tiles, the stacks only shrink
    ("hunters", "stack < 0 or stack > 77 or bonus_stack < 0 or bonus_stack > 12"),
    ("hunters", "min(scores) < 0"),
]


@pytest.mark.parametrize(("game", "expression"), INVARIANTS)
def test_invariant_holds_in_a_hunt(game: str, expression: str) -> None:
    assert_never(game, expression, games_budget=24 if game == "clans" else 8, seats=2)


def test_a_violation_fails_with_the_shrunk_case() -> None:
    with pytest.raises(AssertionError) as failed:
        assert_never("clans", "len(VillageFounded) >= 3", games_budget=400, seats=3)
    text = str(failed.value)
    assert text.startswith("'len(VillageFounded) >= 3' holds at event ")
    assert "shrunk to:" in text and '"shrink"' in text and '"position"' in text


def test_a_game_without_positions_fails_with_the_game_itself() -> None:
    with pytest.raises(AssertionError) as failed:
        assert_never("dice", "max(scores) >= 20", games_budget=50)
    assert "the game (it has no shrunk form)" in str(failed.value)
