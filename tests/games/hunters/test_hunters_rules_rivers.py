"""Hunters and Gatherers H8–H9: rivers, when they are complete and what they score (written
from games/hunters/rules.md, the sheet's examples and the contract only).

Tiles used (data sides N E S W):
- 2 MRFF: river 1 on E into lake 8 (1 fish). 0 RMFF: river 1 on N into lake 8 (2 fish).
- 1 MRFR: rivers 1 (E) and 5 (W) both into lake 8 (3 fish); meadow 0 N, forest 3 S.
- 52, 48 MRMR: one river W–E. 15, 16, 18, 19 MRRM: one river turning E–S.
- 14 RFFF: a spring on N (river 1, no lake). 56 (start): river 3 on W into lake 8 (1 fish).
- 17 RRRR: river 1 N–E and river 3 S–W, no lakes. 27 MRRF: river 1 E–S, forest 3 W.
"""

from __future__ import annotations

from hunters_helpers import (
    doc,
    feature,
    features,
    pieces,
    play,
    position,
    refused,
    scorings,
    shows,
    start,
    supply,
)

START = 56


def test_river_tiles_the_scenarios_rely_on():
    assert feature(2, 1) == {"id": 1, "type": "river", "lake": 8} and feature(2, 8)["fish"] == 1
    assert feature(0, 1)["lake"] == 8 and feature(0, 8)["fish"] == 2
    assert feature(1, 1)["lake"] == feature(1, 5)["lake"] == 8 and feature(1, 8)["fish"] == 3
    assert "lake" not in feature(14, 1) and "lake" not in feature(17, 1)
    assert [shows(t, 0) for t in (15, 16, 18, 19)] == ["MRRM"] * 4


# --- H9: the sheet's example ----------------------------------------------------------------


def _sheet_river(pieces_=(), stack=(0, 62)):
    """2 (lake of 1 fish, river east) – 52 – ... the third tile, 0 (lake of 2 fish, river north),
    turned three times so its river faces west, goes at (2,0)."""
    return start(position([(0, 0, 2, 0), (1, 0, 52, 0)], pieces=pieces_, stack=list(stack)))


def test_h9_sheet_example_three_tiles_and_lakes_of_1_and_2_fish_give_6():
    state, effects = play(_sheet_river(), "2,0W+f1")
    assert scorings(effects) == [("river", 6, ("ann",))]
    assert doc(state)["scores"] == {"ann": 6, "bob": 0}


def test_h9_sheet_example_two_pieces_and_one_fish_give_3():
    """The sheet: "red 3 points (two river pieces and one fish)": 14's spring turned to face
    east into the start tile's river, which runs into a lake of 1 fish."""
    state = start(position([(0, 0, START, 0)], stack=[14, 62]))
    assert shows(14, 1)[1] == "R"
    state, effects = play(state, "-1,0E+f1")
    assert scorings(effects) == [("river", 3, ("ann",))]


def test_h9_the_river_scores_whoever_placed_the_tile():
    """The sheet: blue's tile completes the river holding red's fisher; red scores."""
    state = _sheet_river([(1, 0, 1, "fisher", "bob")])
    state, effects = play(state, "2,0W")
    assert scorings(effects) == [("river", 6, ("bob",))]
    assert doc(state)["scores"] == {"ann": 0, "bob": 6}


def test_h9_a_complete_river_without_fishers_scores_nobody():
    state, effects = play(_sheet_river(), "2,0W")
    assert all(points == 0 or not winners for _, points, winners in scorings(effects))
    assert doc(state)["scores"] == {"ann": 0, "bob": 0}


# --- H8: complete rivers ---------------------------------------------------------------------


def test_h8_a_river_with_an_open_end_is_not_complete():
    state = start(position([(0, 0, 2, 0)], stack=[52, 62]))
    state, effects = play(state, "1,0N+f1")
    assert scorings(effects) == []
    d = doc(state)
    assert pieces(d) == [(1, 0, 1, "fisher", "ann")]
    assert supply(d)["ann"] == (4, 2)
    river = [f for f in features(d, "river") if [1, 0] in f["tiles"] or (1, 0) in f["tiles"]]
    assert len(river) == 1 and river[0]["complete"] is False
    assert river[0]["pieces"] == {"ann": 1}


def test_h8_a_spring_ends_a_river():
    """14's spring (north) and 0 turned twice above it, its river into a lake of 2 fish facing
    south: 2 tiles + 2 fish."""
    state = start(position([(0, 0, 14, 0)], stack=[0, 62]))
    assert shows(0, 2)[2] == "R"
    state, effects = play(state, "0,-1S+f1")
    assert scorings(effects) == [("river", 4, ("ann",))]
    assert doc(state)["scores"]["ann"] == 4


def test_h8_a_loop_is_complete():
    """Four MRRM tiles turned 0, 1, 2, 3 round a corner: a loop of 4 tiles, no lake: 4."""
    tiles = [(0, 0, 15, 0), (1, 0, 16, 1), (1, 1, 18, 2)]
    state = start(position(tiles, stack=[19, 62]))
    state, effects = play(state, "0,1W+f1")
    assert scorings(effects) == [("river", 4, ("ann",))]


def test_h8_a_lake_does_not_join_the_rivers_that_run_into_it():
    """1's two rivers run into one lake. Bob's fisher on 52 east of it holds river 1 only:
    a fisher on river 5 is fine, on river 1 not."""
    state = start(position([(1, 0, 52, 0)], pieces=[(1, 0, 1, "fisher", "bob")], stack=[1, 62]))
    assert refused(state, "0,0N+f1").rule == "H6"
    play(state, "0,0N+f5")


def test_h8_a_river_ends_at_a_lake_whatever_the_other_rivers_of_that_lake():
    """1 – 52 – 0: river 1 of tile 1 runs from its lake (3 fish) to 0's lake (2 fish): complete,
    although river 5 of tile 1, into the same lake, is open: 3 tiles + 5 fish."""
    state = start(position([(0, 0, 1, 0), (1, 0, 52, 0)], stack=[0, 62]))
    state, effects = play(state, "2,0W+f1")
    assert scorings(effects) == [("river", 8, ("ann",))]


def test_h8_a_river_between_two_lakes_is_complete_both_lakes_count():
    state, _ = play(_sheet_river(), "2,0W+f1")
    d = doc(state)
    river = [f for f in features(d, "river") if len(f["tiles"]) == 3]
    assert len(river) == 1 and river[0]["complete"] is True


# --- H9: counting -------------------------------------------------------------------------


def test_h9_a_lake_at_both_ends_counts_once():
    """Tile 1's rivers 1 (east) and 5 (west) run into its lake of 3 fish; 5 tiles carry the
    river round the north from one to the other: 6 tiles + 3 fish = 9 (not 12)."""
    tiles = [(0, 0, 1, 0), (1, 0, 15, 2), (1, -1, 16, 1), (0, -1, 48, 0), (-1, -1, 18, 0)]
    state = start(position(tiles, stack=[19, 62]))
    state, effects = play(state, "-1,0W+f1")
    assert scorings(effects) == [("river", 9, ("ann",))]


def test_h9_a_loop_through_two_pieces_of_one_tile_counts_that_tile_once():
    """Ruling: 17 holds two river pieces (N–E and S–W); six tiles round it join them in one
    figure-of-eight loop: 7 tiles, 7 points (not 8)."""
    tiles = [
        (-1, -1, 16, 0),
        (0, -1, 15, 1),
        (-1, 0, 18, 3),
        (0, 0, 17, 0),
        (1, 0, 19, 1),
        (1, 1, 21, 2),
    ]
    state = start(position(tiles, stack=[27, 62]))
    assert shows(27, 3)[:2] == "RR"
    state, effects = play(state, "0,1W+f1")
    assert scorings(effects) == [("river", 7, ("ann",))]


def test_h9_the_fisher_returns_after_scoring():
    """H9/H12: placed, scored and returned in one turn."""
    state, _ = play(_sheet_river(), "2,0W+f1")
    d = doc(state)
    assert d["pieces"] == []
    assert supply(d)["ann"] == (5, 2)


def test_h9_majority_of_fishers_scores_a_joined_river():
    """52 (ann's fisher) and 53 (bob's fisher) are two rivers until 48 between them joins them,
    closing nothing; then a 1–1 tie: both score the complete river in full."""
    # 2 (lake 1) – 52 (ann) – [48] – 53 (bob) – 0 turned west (lake 2): 5 tiles + 3 fish = 8
    tiles = [
        (0, 0, 2, 0),
        (1, 0, 52, 0),
        (1, 1, 62, 0),
        (2, 1, 61, 0),
        (3, 1, 37, 1),
        (3, 0, 53, 0),
        (4, 0, 0, 3),
    ]
    pcs = [(1, 0, 1, "fisher", "ann"), (3, 0, 1, "fisher", "bob")]
    state = start(position(tiles, pieces=pcs, stack=[48, 36]))
    state, effects = play(state, "2,0N")
    assert scorings(effects) == [("river", 8, ("ann", "bob"))]
    assert doc(state)["scores"] == {"ann": 8, "bob": 8}


def test_h9_the_most_fishers_score_a_river_alone():
    """Three rivers, ann's on 52 and 53, bob's on 51, joined by ann's 48 (still open) and then
    bob's 49, which closes it between lakes of 1 and 2 fish: 7 tiles + 3 fish = 10 for ann's
    two fishers; bob's one scores nothing. All three go home."""
    tiles = [
        (0, 0, 2, 0),
        (1, 0, 52, 0),
        (1, 1, 62, 0),
        (2, 1, 61, 0),
        (3, 1, 36, 0),
        (3, 0, 53, 0),
        (4, 1, 34, 3),
        (5, 1, 35, 1),
        (5, 0, 51, 0),
        (6, 0, 0, 3),
    ]
    pcs = [(1, 0, 1, "fisher", "ann"), (3, 0, 1, "fisher", "ann"), (5, 0, 1, "fisher", "bob")]
    state = start(position(tiles, pieces=pcs, stack=[48, 49, 37]))
    state, effects = play(state, "2,0N")
    assert scorings(effects) == []
    state, effects = play(state, "4,0N")
    assert scorings(effects) == [("river", 10, ("ann",))]
    d = doc(state)
    assert d["scores"] == {"ann": 10, "bob": 0}
    assert d["pieces"] == []
    assert supply(d) == {"ann": (5, 2), "bob": (5, 2)}
