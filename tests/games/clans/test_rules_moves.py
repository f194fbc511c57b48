"""Clans rules C8–C11: moving huts and founding villages (written from games/clans/rules.md)."""

from __future__ import annotations

import pytest

from tribes.games.clans.events import HutsMoved, VillageFounded
from tribes.testing.clans import (
    BOARD,
    EMPTY,
    GAME,
    effects_of,
    from_seed,
    huts,
    move,
    moves,
    neighbours,
    refused,
    start,
    total_huts,
)

# Two occupied territories far from the scenarios, so that the game goes on.
FILLER = {59: {"green": 1}, 60: {"green": 1}}


# --- C8: a move ------------------------------------------------------------------------------


def test_c8_all_huts_move_and_the_source_empties():
    """C8: take all huts from one territory (the source) and put them on an adjacent,
    non-empty territory (the target). The source is then empty."""
    state = start({1: {"red": 2, "blue": 1}, 2: {"yellow": 1}, 3: {"black": 1}, **FILLER})
    state, effects = move(state, 1, 2)
    assert state.huts[1] == EMPTY
    assert state.huts[2] == huts(red=2, yellow=1, blue=1)
    assert state.huts[3] == huts(black=1)
    assert total_huts(state) == 7
    assert not effects_of(effects, VillageFounded)


def test_c8_exactly_one_move_then_the_next_player():
    """C8: The active player makes exactly one move."""
    state = start({1: {"red": 1}, 2: {"yellow": 1}, 3: {"black": 1}, 4: {"blue": 1}, **FILLER})
    assert GAME.to_move(state) == 0
    state, _ = move(state, 1, 2)
    assert GAME.to_move(state) == 1


def test_c8_initial_legal_moves_are_every_adjacent_pair():
    """C8: ... put them on an adjacent, non-empty territory. At the start every territory holds
    one hut, so every ordered pair of adjacent territories is a move, and nothing else."""
    state = from_seed(9)
    expected = {(a, b) for a in range(1, 61) for b in neighbours(a)}
    assert len(expected) == 2 * 136
    assert moves(state) == expected
    assert len(GAME.legal_moves(state)) == len(expected)


def test_c8_cannot_move_onto_an_empty_territory():
    """C8: the target must be adjacent and non-empty."""
    state = start({1: {"red": 1}, 2: {"yellow": 1}, **FILLER})
    assert 6 in neighbours(1)
    exc = refused(state, HutsMoved(source=1, target=6))
    assert exc.rule == "C8"
    assert (1, 6) not in moves(state)


def test_c8_target_must_be_adjacent():
    """C8: put them on an adjacent, non-empty territory."""
    state = start({1: {"red": 1}, 2: {"yellow": 1}, 3: {"blue": 1}, **FILLER})
    assert not BOARD.adjacent(1, 3)
    # C8 asks for an adjacent target and C1 defines adjacency: either id names the rule.
    assert refused(state, HutsMoved(source=1, target=3)).rule in {"C1", "C8"}
    assert refused(state, HutsMoved(source=1, target=59)).rule in {"C1", "C8"}


def test_c8_a_move_needs_two_different_territories():
    """C8: take all huts from one territory (the source) and put them on an adjacent one (the
    target): 1-1 names one territory twice, and the refusal says that, not "not adjacent"."""
    state = start({1: {"red": 1}, 2: {"yellow": 1}, **FILLER})
    exc = refused(state, HutsMoved(source=1, target=1))
    assert exc.rule == "C8"
    assert "a move needs two different territories" in exc.message
    assert "adjacent" not in exc.message


def test_c8_cannot_move_across_a_lake():
    """C1/C8: borders across a lake do not count, so huts cannot cross it."""
    # 2 and 7 share a lake border; 7 stays next to 13 and 2 next to 3.
    state = start({2: {"red": 1}, 3: {"blue": 1}, 7: {"yellow": 1}, 13: {"green": 1}})
    assert refused(state, HutsMoved(source=2, target=7)).rule in {"C1", "C8"}
    assert refused(state, HutsMoved(source=7, target=2)).rule in {"C1", "C8"}


def test_c8_can_move_across_a_river():
    """C1: borders over land and rivers count."""
    a, b = sorted(next(iter(BOARD.rivers)))
    state = start({a: {"red": 1}, b: {"blue": 1}})
    assert (a, b) in moves(state) and (b, a) in moves(state)
    GAME.check(state, HutsMoved(source=a, target=b))


def test_c8_empty_source_cannot_move():
    """C8: take all huts from one territory (the source) — an empty territory has none."""
    state = start({1: {"red": 1}, 2: {"yellow": 1}, **FILLER})
    assert refused(state, HutsMoved(source=6, target=1)).rule == "C8"


def test_c8_source_cannot_be_its_own_target_or_off_the_board():
    """C8: the target is an adjacent territory (not the source itself, not off the board)."""
    state = start({1: {"red": 1}, 2: {"yellow": 1}, **FILLER})
    refused(state, HutsMoved(source=1, target=1))
    refused(state, HutsMoved(source=1, target=61))
    refused(state, HutsMoved(source=0, target=1))


def test_c8_source_stays_empty_for_the_rest_of_the_game():
    """C8: The source is then empty, and stays empty for the rest of the game (nothing can move
    onto an empty territory)."""
    state = start({1: {"red": 1}, 2: {"yellow": 1}, 3: {"blue": 1}, 6: {"black": 1}, **FILLER})
    state, _ = move(state, 2, 3)  # 2 empties
    assert state.huts[2] == EMPTY
    assert refused(state, HutsMoved(source=1, target=2)).rule == "C8"
    assert all(target != 2 for _, target in moves(state))


# --- C9: groups of 7 or more -----------------------------------------------------------------


@pytest.mark.parametrize("group", [{"red": 7}, {"red": 3, "green": 2, "black": 2}, {"red": 12}])
def test_c9_group_of_seven_cannot_move(group):
    """C9: A source holding 7 or more huts cannot move; huts may still move onto it."""
    state = start({1: group, 2: {"blue": 1}, 3: {"yellow": 1}, **FILLER})
    assert refused(state, HutsMoved(source=1, target=2)).rule == "C9"
    assert (1, 2) not in moves(state)
    assert (2, 1) in moves(state)
    state, _ = move(state, 2, 1)
    assert state.huts[1] == huts(**group, blue=1)


def test_c9_group_of_six_can_move():
    """C9: only a source of 7 or more is stuck."""
    state = start({1: {"red": 6}, 2: {"blue": 1}, 3: {"yellow": 1}, **FILLER})
    assert (1, 2) in moves(state)
    state, _ = move(state, 1, 2)
    assert state.huts[2] == huts(red=6, blue=1)


def test_c9_group_grown_to_seven_is_stuck():
    """C9: a group that reaches 7 by a move cannot move any more."""
    board = {1: {"red": 4}, 2: {"blue": 3}, 3: {"yellow": 1}, 4: {"black": 1}, **FILLER}
    state = start(board)
    state, _ = move(state, 1, 2)  # 2 now holds 7
    assert refused(state, HutsMoved(source=2, target=3)).rule == "C9"
    assert (3, 2) in moves(state)


# --- C10: the 7+ exception -------------------------------------------------------------------


def _big(a: int, b: int) -> dict[int, dict[str, int]]:
    """Territory 1 holds ``a`` huts, its neighbour 2 holds ``b``; 3 (next to 2) holds one."""
    first = {"red": min(a, 12), "yellow": max(a - 12, 0)}
    second = {"blue": min(b, 12), "black": max(b - 12, 0)}
    return {1: first, 2: second, 3: {"green": 1}, **FILLER}


def test_c10_seven_onto_larger_seven_plus_is_allowed():
    """C10: a source of 7 or more may move onto an adjacent target that also holds 7 or more
    and holds at least as many huts as the source."""
    state = start(_big(7, 8))
    assert (1, 2) in moves(state)
    state, _ = move(state, 1, 2)
    assert state.huts[1] == EMPTY
    assert state.huts[2] == huts(red=7, blue=8)


def test_c10_larger_group_cannot_move_onto_smaller_seven_plus():
    """C10: ... holds at least as many huts as the source (8 cannot move onto 7)."""
    state = start(_big(7, 8))
    assert (2, 1) not in moves(state)
    assert refused(state, HutsMoved(source=2, target=1)).rule in {"C9", "C10"}


@pytest.mark.parametrize("size", [7, 9])
def test_c10_equal_groups_either_way(size):
    """C10: when both hold the same number, either may move onto the other."""
    state = start(_big(size, size))
    assert {(1, 2), (2, 1)} <= moves(state)
    after, _ = move(state, 2, 1)
    assert after.huts[1] == huts(red=size, blue=size)
    after, _ = move(state, 1, 2)
    assert after.huts[2] == huts(red=size, blue=size)


@pytest.mark.parametrize("smaller", [1, 6])
def test_c10_refused_onto_fewer_than_seven(smaller):
    """C10: the target must also hold 7 or more (8 cannot move onto a group of 1 or 6)."""
    state = start(_big(8, smaller))
    assert (1, 2) not in moves(state)
    assert refused(state, HutsMoved(source=1, target=2)).rule in {"C9", "C10"}
    assert (2, 1) in moves(state)


def test_c10_exception_is_never_forced():
    """C10: Ruling: this is allowed, never forced."""
    state = start(_big(7, 8))
    assert {(1, 2), (3, 2), (59, 60), (60, 59)} <= moves(state)
    state, _ = move(state, 59, 60)
    assert state.huts[1] == huts(red=7) and state.huts[2] == huts(blue=8)


# --- C11: villages ---------------------------------------------------------------------------


def test_c11_isolated_target_becomes_a_village():
    """C11: After the move, every occupied territory whose adjacent territories are all empty
    becomes a village."""
    state = start({1: {"red": 1}, 2: {"blue": 1}, **FILLER})
    state, effects = move(state, 2, 1)  # 1's neighbours 2, 6, 7 are all empty now
    founded = effects_of(effects, VillageFounded)
    assert [(v.territory, v.number) for v in founded] == [(1, 1)]
    assert [v.territory for v in state.villages] == [1]


def test_c11_single_hut_village():
    """C11: ... becomes a village — even a single hut."""
    # 1 (forest) holds one red hut; its only occupied neighbour is 2.
    state = start({1: {"red": 1}, 2: {"blue": 1}, 3: {"yellow": 1}, 4: {"green": 1}, **FILLER})
    state, effects = move(state, 2, 3)
    founded = effects_of(effects, VillageFounded)
    assert [(v.territory, v.huts, v.value) for v in founded] == [(1, huts(red=1), 1 + 1)]
    assert state.track == (2, 0, 0, 0, 0)
    assert state.huts[1] == huts(red=1)


def test_c11_lake_counts_as_empty():
    """C11: Lakes and the board edge count as empty."""
    # 2 borders 1, 3 and 8, and 7 across a lake; 7 stays occupied (next to 13).
    state = start({2: {"red": 1}, 3: {"blue": 1}, 7: {"yellow": 1}, 13: {"green": 1}})
    state, effects = move(state, 3, 2)
    founded = effects_of(effects, VillageFounded)
    assert [v.territory for v in founded] == [2]
    assert state.huts[7] == huts(yellow=1)


def test_c11_occupied_neighbour_prevents_a_village():
    """C11: only territories whose adjacent territories are all empty become villages."""
    state = start({1: {"red": 1}, 2: {"blue": 1}, 6: {"yellow": 1}, **FILLER})
    state, effects = move(state, 2, 1)  # 1 still borders 6
    assert not effects_of(effects, VillageFounded)
    assert state.villages == () or not state.villages


def test_c11_villages_never_move_and_nothing_moves_onto_them():
    """C11: Villages never move and nothing can move onto them."""
    state = start({1: {"red": 1}, 2: {"blue": 1}, 3: {"yellow": 1}, 4: {"green": 1}, **FILLER})
    state, _ = move(state, 2, 3)  # village at 1
    assert all(1 not in pair for pair in moves(state))
    for n in neighbours(1):
        refused(state, HutsMoved(source=1, target=n))
        refused(state, HutsMoved(source=n, target=1))


def test_c11_village_in_a_position_is_not_movable():
    """C11 / C7: an occupied territory with only empty neighbours is a village."""
    state = start({1: {"red": 3}, **FILLER}, chips={"ann": 1})
    assert all(1 not in pair for pair in moves(state))
    assert moves(state) == {(59, 60), (60, 59)}
