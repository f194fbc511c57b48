"""Hunters and Gatherers H13 (gold and bonus tiles) and the bonus tile in the last turn (H14),
written from games/hunters/rules.md, the sheet and the contract only.

The base: 35 (forest east only) – 38 (forest E–W with gold); 34 (forest west only) drawn closes a
forest of 3 pieces (6 points) with one nugget at (2,0).

Bonus tiles used (data sides N E S W): 81 MFFM forest 1 E and S with mushrooms; 90 MMFM forest 1
south only; 86 RRRR all river (fits nowhere on a board without rivers); 79 MFFM the shrine.
"""

from __future__ import annotations

from hunters_helpers import (
    bonus_earned,
    doc,
    feature,
    find,
    game,
    legal,
    named,
    pieces,
    play,
    position,
    refused,
    removed_tiles,
    scorings,
    shows,
    start,
    supply,
)

from tribes.core.errors import GameOver

BASE = [(0, 0, 35, 0), (1, 0, 38, 0)]


def _gold(pcs=(), stack=(34, 62, 37), bonus=(81, 87), tiles=BASE):
    return start(position(tiles, pieces=pcs, stack=list(stack), bonus=list(bonus)))


def test_bonus_tiles_the_scenarios_rely_on():
    assert find("MFFM", kind="bonus") == [79, 81, 84]
    assert feature(81, 1).get("mushrooms") and feature(79, 0).get("shrine")
    assert find("RRRR", kind="bonus") == [86]
    assert shows(90, 1) == "MMMF"  # turned once, 90's forest faces west
    assert shows(81, 2) == "FMMF"


# --- H13: gold earns a bonus tile ------------------------------------------------------------


def test_h13_a_completed_forest_with_gold_earns_the_placer_a_bonus_tile():
    state, effects = play(_gold(), "2,0N+g3")
    assert scorings(effects) == [("forest", 6, ("ann",))]
    assert bonus_earned(effects) == [("ann", 81)]
    d = doc(state)
    assert d["to_move"] == "ann"
    assert set(d["pending"]) == {"seat", "decision", "tile", "options"}
    assert d["pending"]["seat"] == "ann"
    assert d["pending"]["decision"] == "bonus"
    assert d["pending"]["tile"] == 81
    assert d["drawn"] == 81
    assert d["bonus_stack"] == 1
    assert d["over"] is False


def test_h13_the_placer_draws_the_bonus_whoever_scores():
    """The sheet: if blue completes red's forest, red scores and blue gets the bonus tile."""
    state, effects = play(_gold([(1, 0, 1, "gatherer", "bob")]), "2,0N")
    assert scorings(effects) == [("forest", 6, ("bob",))]
    assert bonus_earned(effects) == [("ann", 81)]
    assert doc(state)["pending"]["seat"] == "ann"


def test_h13_gold_counts_with_no_gatherer_in_the_forest():
    """Ruling: the gold counts whether or not anyone's gatherer is in that forest."""
    state, effects = play(_gold(), "2,0N")
    assert bonus_earned(effects) == [("ann", 81)]
    assert doc(state)["pending"]["tile"] == 81


def test_h13_a_forest_without_gold_earns_nothing():
    state = start(position([(0, 0, 35, 0)], stack=[34, 62], bonus=[81]))
    state, effects = play(state, "1,0N")
    assert bonus_earned(effects) == []
    d = doc(state)
    assert d["pending"] is None
    assert d["to_move"] == "bob"
    assert d["bonus_stack"] == 1


def test_h13_the_pending_options_are_the_legal_placements_of_the_bonus_tile():
    state, _ = play(_gold(), "2,0N")
    options = doc(state)["pending"]["options"]
    assert sorted(options) == sorted(legal(state))
    assert "0,-1S" in options  # 81 turned twice, its meadows south and east, above 35
    assert "3,0E" not in options  # turned once its forest faces west, against 34's meadow


def test_h13_the_bonus_tile_is_placed_by_the_rules_of_h5():
    state, _ = play(_gold(), "2,0N")
    # H13 places it "by the rules of H5–H7": either rule id names the problem
    assert refused(state, "3,0E").rule in {"H5", "H13"}
    assert refused(state, "5,5N").rule in {"H5", "H13"}
    assert refused(state, "1,0N").rule in {"H5", "H13"}


def test_h13_a_piece_may_go_on_the_bonus_tile():
    state, _ = play(_gold(), "2,0N", "0,-1S+g1")
    d = doc(state)
    assert pieces(d) == [(0, -1, 1, "gatherer", "ann")]
    assert supply(d)["ann"] == (4, 2)
    assert d["tiles"][-1] == {"x": 0, "y": -1, "tile": 81, "rotation": 2}
    assert d["pending"] is None
    assert d["to_move"] == "bob"
    assert d["drawn"] == 62


def test_h13_the_bonus_piece_follows_h6():
    """A member placed on the land tile of the turn and one on the bonus tile: both from supply,
    and not on a joined feature that holds a member."""
    state, _ = play(_gold([(0, 0, 0, "hunter", "bob")]), "2,0N+g3")
    # 81 above 35: its meadow (south side) joins 35's meadow, where bob's hunter stands
    assert refused(state, "0,-1S+h0").rule == "H6"
    state, _ = play(state, "0,-1S+g1")
    assert supply(doc(state))["ann"] == (4, 2)


def test_h13_a_placed_bonus_tile_is_a_land_tile_from_then_on():
    """bob's 37 (forest north only) turned twice fits above 81's north forest: a cell that
    touches 81 alone."""
    state, _ = play(_gold(stack=(34, 37, 62)), "2,0N", "0,-1S")
    assert "0,-2S" in legal(state)
    state, _ = play(state, "0,-2S+g0")
    assert doc(state)["tiles"][-1] == {"x": 0, "y": -2, "tile": 37, "rotation": 2}


def test_h13_one_bonus_tile_for_two_gold_forests_completed_at_once():
    """41 (forests 1 east and 2 west, separate) closes 35 – 38 (gold, ann) west and 39 (gold,
    bob) – 34 east at once: both score, one bonus tile."""
    tiles = [
        (-2, 0, 35, 0),
        (-1, 0, 38, 0),
        (-1, -1, 61, 0),
        (0, -1, 62, 0),
        (1, -1, 37, 0),
        (1, 0, 39, 0),
        (2, 0, 34, 0),
    ]
    pcs = [(-1, 0, 1, "gatherer", "ann"), (1, 0, 1, "gatherer", "bob")]
    state = start(position(tiles, pieces=pcs, stack=[41, 36], bonus=[81, 87]))
    state, effects = play(state, "0,0N")
    assert scorings(effects) == [("forest", 6, ("ann",)), ("forest", 6, ("bob",))]
    assert bonus_earned(effects) == [("ann", 81)]
    assert doc(state)["bonus_stack"] == 1
    option = doc(state)["pending"]["options"][0]
    state, effects = play(state, option)
    assert bonus_earned(effects) == []
    d = doc(state)
    assert d["pending"] is None
    assert d["to_move"] == "bob"
    assert d["bonus_stack"] == 1


def test_h13_a_bonus_tile_completing_a_gold_forest_earns_no_other():
    """No chain: 90 (bonus) turned once closes 36 – 40 (gold, bob's gatherer) below: bob
    scores 6, nobody draws another bonus tile."""
    tiles = [*BASE, (0, 1, 36, 3), (1, 1, 40, 0)]
    state = _gold([(1, 1, 1, "gatherer", "bob")], bonus=(90, 81), tiles=tiles)
    state, effects = play(state, "2,0N+g3")
    assert scorings(effects) == [("forest", 6, ("ann",))]
    assert bonus_earned(effects) == [("ann", 90)]
    state, effects = play(state, "2,1E")
    assert scorings(effects) == [("forest", 6, ("bob",))]
    assert bonus_earned(effects) == []
    d = doc(state)
    assert d["pending"] is None
    assert d["to_move"] == "bob"
    assert d["bonus_stack"] == 1
    assert d["scores"] == {"ann": 6, "bob": 6}
    assert supply(d) == {"ann": (5, 2), "bob": (5, 2)}


def test_h13_a_bonus_tile_that_fits_nowhere_is_removed_and_the_next_drawn():
    state, effects = play(_gold(bonus=(86, 81)), "2,0N")
    assert removed_tiles(effects) == [(86, True)]
    assert bonus_earned(effects)[-1] == ("ann", 81)
    d = doc(state)
    assert d["pending"]["tile"] == 81
    assert d["removed"] == [86]
    assert d["bonus_stack"] == 0


def test_h13_no_bonus_tile_when_the_bonus_stack_is_empty():
    state, effects = play(_gold(bonus=()), "2,0N+g3")
    assert scorings(effects) == [("forest", 6, ("ann",))]
    d = doc(state)
    assert d["pending"] is None
    assert d["to_move"] == "bob"
    assert d["drawn"] == 62


def test_h13_no_bonus_tile_when_the_only_one_left_fits_nowhere():
    state, effects = play(_gold(bonus=(86,)), "2,0N")
    assert removed_tiles(effects) == [(86, True)]
    d = doc(state)
    assert d["pending"] is None
    assert d["to_move"] == "bob"
    assert d["removed"] == [86]


def test_h13_a_piece_on_the_bonus_tile_scores_and_returns_at_once():
    """The bonus tile scores what it completes like any tile (H7): 90 closes 36 – 40 below with
    ann's gatherer on its own forest piece: 6 points, and the gatherer is home again."""
    tiles = [*BASE, (0, 1, 36, 3), (1, 1, 40, 0)]
    state = _gold(bonus=(90, 81), tiles=tiles)
    state, _ = play(state, "2,0N")
    state, effects = play(state, "2,1E+g1")
    assert scorings(effects) == [("forest", 6, ("ann",))]
    assert supply(doc(state))["ann"] == (5, 2)


# --- H14: the last land tile and its bonus ----------------------------------------------------------


def test_h14_a_bonus_tile_earned_in_the_last_turn_is_still_placed():
    state, effects = play(_gold(stack=(34,)), "2,0N+g3")
    d = doc(state)
    assert d["over"] is False
    assert d["stack"] == 0
    assert d["pending"]["tile"] == 81
    assert named(effects, "GameEnded") == []
    state, effects = play(state, "0,-1S")
    d = doc(state)
    assert d["over"] is True
    assert named(effects, "GameEnded")
    assert d["bonus_stack"] == 1  # H14: unused bonus tiles stay unused
    assert d["winners"] == ["ann"]


def test_h14_no_move_after_the_end():
    state, _ = play(_gold(stack=(34,)), "2,0N+g3", "0,-1S")
    g = game()
    assert list(g.legal_moves(state)) == []
    ev = g.parse_move(state, "0,1N")
    try:
        g.check(state, ev)
    except GameOver:
        pass
    else:
        raise AssertionError("a move after the end was accepted")


def test_h14_the_last_land_tiles_bonus_tile_fitting_nowhere_ends_the_game():
    state, effects = play(_gold(stack=(34,), bonus=(86,)), "2,0N")
    assert removed_tiles(effects) == [(86, True)]
    d = doc(state)
    assert d["over"] is True
    assert d["pending"] is None
    assert d["removed"] == [86]


def test_h5_the_land_tile_drawn_after_a_bonus_tile_may_fit_nowhere_too():
    """After ann's bonus tile, bob's land tile 13 (all river) fits nowhere: removed, 62 drawn."""
    state, _ = play(_gold(stack=(34, 13, 62), bonus=(81,)), "2,0N")
    state, effects = play(state, "0,-1S")
    assert removed_tiles(effects) == [(13, False)]
    d = doc(state)
    assert d["to_move"] == "bob"
    assert d["drawn"] == 62
    assert d["removed"] == [13]


def test_h14_the_last_land_tile_with_gold_and_no_bonus_tile_left_ends_the_game():
    state, effects = play(_gold(stack=(34,), bonus=()), "2,0N+g3")
    d = doc(state)
    assert d["over"] is True
    assert d["pending"] is None
    assert d["scores"] == {"ann": 6, "bob": 0}
    assert named(effects, "GameEnded")
