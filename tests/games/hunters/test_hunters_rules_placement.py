"""Hunters and Gatherers H5–H7: drawing and placing a tile, placing a piece, scoring at once
(written from games/hunters/rules.md and the contract only).

Tiles used (data sides N E S W):
- 35 MFMM: forest 1 on the east side only; meadow 0 (mammoth) on N, S, W.
- 34 MMMF: meadows 0 (N), 1 (E), 2 (S, deer), forest 3 on the west side only.
- 36 MMFM: meadow 0 (aurochs) on N, E, W; forest 1 on the south side only.
- 38 MFMF: meadow 0 (deer) N, forest 1 (gold) E and W, meadow 2 S.
- 14 RFFF: a spring river 1 on N with banks 0 and 2 (tiger); forests 3 (E), 4 (S), 5 (W).
- 57 RFFF: river 1 into lake 8 (2 fish) on N; forest 3 (E), forest 4 (S and W, gold).
- 17 RRRR: river 1 N–E, river 3 S–W (no lakes); meadows 0 (middle), 2 (NE), 4 (SW).
- 70 RRFF: spring 1 on N, spring 3 on E, forest 5 on S and W.
- 0 RMFF: river 1 into lake 8 (2 fish) on N; meadows 0 (NW bank) and 2 (NE bank and E);
  forest 3 (S), forest 4 (W).
- 52 MRMR: meadow 0 (deer) N, river 1 W–E, meadow 2 S.
- 56 (start) MFFR: meadow 0 (mammoth) N, forest 1 (gold) E and S, river 3 on W into lake 8.
"""

from __future__ import annotations

import pytest
from hunters_helpers import (
    doc,
    feature,
    find,
    legal,
    move,
    named,
    pieces,
    placements,
    play,
    position,
    refused,
    removed_tiles,
    scorings,
    shows,
    start,
    supply,
)

START = 56


def test_tiles_the_scenarios_rely_on():
    assert find("MFMM") == [35]
    assert find("MMMF") == [34]
    assert find("MMFM") == [36]
    assert 38 in find("MFMF", where=lambda t: feature(t["id"], 1).get("gold"))
    assert shows(34, 0) == "MMMF" and shows(34, 1) == "FMMM"
    assert feature(14, 1) == {"id": 1, "type": "river"}  # a spring: no lake, one side
    assert feature(0, 8)["type"] == "lake" and feature(0, 8)["fish"] == 2


# --- H5: draw and place -----------------------------------------------------------------------


def _pair(drawn=34, more=(62, 61, 37)):
    """35 alone at the origin (forest east), ``drawn`` to place."""
    return start(position([(0, 0, 35, 0)], stack=[drawn, *(t for t in more if t != drawn)]))


def test_h5_the_drawn_tile_is_the_top_of_the_stack():
    d = doc(_pair())
    assert d["drawn"] == 34
    assert d["stack"] == 3


def test_h5_a_placed_tile_joins_the_layout_and_the_next_player_draws():
    state, _ = play(_pair(), "1,0N")
    d = doc(state)
    assert d["tiles"][-1] == {"x": 1, "y": 0, "tile": 34, "rotation": 0}
    assert d["to_move"] == "bob"
    assert d["drawn"] == 62
    assert d["stack"] == 2


def test_h5_a_tile_must_touch_a_placed_tile_along_a_side():
    state = _pair(drawn=62)
    assert refused(state, "1,1N").rule == "H5"  # a corner alone does not count
    assert refused(state, "-1,-1N").rule == "H5"
    assert refused(state, "5,0N").rule == "H5"


def test_h5_a_cell_that_is_taken_is_refused():
    assert refused(_pair(drawn=62), "0,0N").rule == "H5"


def test_h5_forest_must_meet_forest():
    state = _pair()
    # turned once, 34 shows its forest north and a meadow west, against 35's forest
    assert shows(34, 1)[3] == "M"
    assert refused(state, "1,0E").rule == "H5"
    play(state, "1,0N")


def test_h5_meadow_must_meet_meadow():
    state = _pair()
    # 34 at (0,-1): unturned its south side is a meadow against 35's north meadow; turned
    # three times its forest faces south, against that meadow
    assert shows(34, 3)[2] == "F"
    assert refused(state, "0,-1W").rule == "H5"
    play(state, "0,-1N")


def test_h5_river_must_meet_river():
    state = start(position([(0, 0, START, 0)], stack=[62, 61]))
    assert refused(state, "-1,0N").rule == "H5"  # 62 is all meadow, the start tile's west a river


def test_h5_every_touching_side_must_match():
    """(1,0) touches 35's forest (west) and 61's meadow (north): 36 (forest south only) fits
    turned once (forest west, meadow north), not unturned (meadow west)."""
    tiles = [(0, 0, 35, 0), (0, -1, 62, 0), (1, -1, 61, 0)]
    state = start(position(tiles, stack=[36, 37]))
    assert shows(36, 1)[0] == "M" and shows(36, 1)[3] == "F"
    assert shows(36, 0)[0] == "M" and shows(36, 0)[3] == "M"
    assert refused(state, "1,0N").rule == "H5"
    play(state, "1,0E")


def test_h5_the_tile_may_be_rotated_every_fitting_placement_is_legal():
    """The placements without a piece are exactly every cell and rotation where it fits."""
    tiles = [(0, 0, 35, 0)]
    state = start(position(tiles, stack=[34, 62]))
    want = placements(tiles, 34)
    # (1,0): forest west only unturned; (0,-1), (-1,0), (0,1): any of the 3 rotations that
    # keep the forest off the touching side
    assert len(want) == 1 + 3 + 3 + 3
    assert {m for m in legal(state) if "+" not in m} == want


def test_h5_legal_moves_are_placements_times_optional_pieces():
    """No piece on the board: every placement of 34 takes nothing, a hunter on any of its three
    meadows or a gatherer on its forest."""
    state = start(position([(0, 0, 35, 0)], stack=[34, 62]))
    moves = legal(state)
    assert len(moves) == len(set(moves)) == 10 * 5


def test_h5_the_play_area_is_unbounded():
    state = start(position([(1000, -1000, 35, 0)], stack=[34, 62]))
    state, _ = play(state, "1001,-1000N", "999,-1000N")
    assert [(t["x"], t["y"]) for t in doc(state)["tiles"]] == [
        (1000, -1000),
        (1001, -1000),
        (999, -1000),
    ]


def test_h5_a_tile_that_fits_nowhere_is_removed_at_setup():
    """Around 14 every side is river or forest: 61 (all meadow) fits nowhere."""
    tiles = [(0, 0, 14, 0)]
    assert not placements(tiles, 61)
    d = doc(start(position(tiles, stack=[61, 57, 35])))
    assert d["removed"] == [61]
    assert d["drawn"] == 57
    assert d["stack"] == 1


def test_h5_a_tile_that_fits_nowhere_is_removed_and_the_next_drawn():
    tiles = [(0, 0, 14, 0)]
    state = start(position(tiles, stack=[57, 61, 62, 35]))
    assert placements([*tiles, (1, 0, 57, 0)], 35)
    state, effects = play(state, "1,0N")
    assert removed_tiles(effects) == [(61, False), (62, False)]
    d = doc(state)
    assert d["removed"] == [61, 62]
    assert d["drawn"] == 35
    assert d["stack"] == 0
    assert d["to_move"] == "bob"
    assert d["over"] is False
    assert all(e.describe(("ann", "bob")) for e in named(effects, "TileRemoved"))


# --- H6: a piece on the tile just placed -----------------------------------------------------------

# 0 placed east of the start tile, unturned: its west forest 4 meets the start tile's forest 1.
AT = (1, 0, 0)


def _h6(pieces_=(), stack=(0, 62, 61)):
    return start(position([(0, 0, START, 0)], pieces=pieces_, stack=list(stack)))


@pytest.mark.parametrize(
    ("kind", "fid"),
    [("gatherer", 3), ("gatherer", 4), ("fisher", 1), ("hunter", 0), ("hunter", 2)],
)
def test_h6_a_member_goes_on_a_feature_of_its_kind(kind, fid):
    state, _ = play(_h6(), move(*AT, kind, fid))
    d = doc(state)
    assert pieces(d) == [(1, 0, fid, kind, "ann")]
    assert supply(d) == {"ann": (4, 2), "bob": (5, 2)}


@pytest.mark.parametrize("fid", [1, 8])
def test_h6_a_hut_goes_on_a_river_or_a_lake(fid):
    state, _ = play(_h6(), move(*AT, "hut", fid))
    d = doc(state)
    assert pieces(d) == [(1, 0, fid, "hut", "ann")]
    assert supply(d) == {"ann": (5, 1), "bob": (5, 2)}


def test_h6_placing_a_piece_is_optional():
    state, _ = play(_h6(), "1,0N")
    d = doc(state)
    assert d["pieces"] == []
    assert supply(d)["ann"] == (5, 2)


@pytest.mark.parametrize(
    ("kind", "fid"),
    [
        ("gatherer", 0),  # a meadow
        ("gatherer", 1),  # a river
        ("fisher", 3),  # a forest
        ("fisher", 0),
        ("hunter", 3),
        ("hunter", 1),
        ("hut", 0),
        ("hut", 4),
    ],
)
def test_h6_a_piece_on_a_feature_of_the_wrong_kind_is_refused(kind, fid):
    assert refused(_h6(), move(*AT, kind, fid)).rule == "H6"


@pytest.mark.parametrize("kind", ["fisher", "gatherer", "hunter"])
def test_h6_never_a_tribe_member_on_a_lake(kind):
    assert refused(_h6(), move(*AT, kind, 8)).rule == "H6"


def test_h6_a_feature_the_tile_lacks_is_refused():
    assert refused(_h6(), move(*AT, "gatherer", 9)).rule == "H6"
    assert refused(_h6(), move(*AT, "hut", 5)).rule == "H6"


@pytest.mark.parametrize("owner", ["ann", "bob"])
def test_h6_not_on_a_forest_that_joined_holds_a_member(owner):
    state = _h6([(0, 0, 1, "gatherer", owner)])
    assert refused(state, move(*AT, "gatherer", 4)).rule == "H6"
    play(state, move(*AT, "gatherer", 3))  # 0's south forest is another forest


def test_h6_a_member_far_away_in_the_joined_meadow_still_blocks():
    """61 (bob's hunter) – 62 – then 37 east of 62: 37's meadow joins bob's meadow two tiles away."""
    tiles = [(0, 0, 61, 0), (1, 0, 62, 0)]
    state = start(position(tiles, pieces=[(0, 0, 0, "hunter", "bob")], stack=[37, 35]))
    assert refused(state, "2,0N+h1").rule == "H6"
    play(state, "2,0N")


def test_h6_a_member_in_another_feature_of_the_tile_does_not_block():
    """The start tile's river holds bob's fisher; 0's forest meets the start tile's forest, not
    its river: a fisher on 0's own river is fine."""
    state = _h6([(0, 0, 3, "fisher", "bob")])
    play(state, move(*AT, "fisher", 1))


def test_h6_not_a_hut_in_a_river_system_that_holds_a_hut():
    """52 west of the start tile: its river joins the start tile's river and lake."""
    state = _h6([(0, 0, 8, "hut", "bob")], stack=(52, 62))
    assert refused(state, "-1,0N+hut1").rule == "H6"
    play(state, "-1,0N+f1")  # huts and fishers do not block each other


def test_h6_a_fisher_does_not_block_a_hut():
    state = _h6([(0, 0, 3, "fisher", "bob")], stack=(52, 62))
    assert refused(state, "-1,0N+f1").rule == "H6"
    state, _ = play(state, "-1,0N+hut1")
    assert pieces(doc(state)) == [(-1, 0, 1, "hut", "ann"), (0, 0, 3, "fisher", "bob")]


# ann's five members all on tile 14: three gatherers, a fisher and a hunter.
FIVE_ON_14 = [
    (0, 0, 3, "gatherer", "ann"),
    (0, 0, 4, "gatherer", "ann"),
    (0, 0, 5, "gatherer", "ann"),
    (0, 0, 1, "fisher", "ann"),
    (0, 0, 0, "hunter", "ann"),
]


def test_h6_no_member_left_no_member_placed():
    """34 east of 14: its meadows 0, 1, 2 join nothing, yet ann has no member left."""
    state = start(position([(0, 0, 14, 0)], pieces=FIVE_ON_14, stack=[34, 62]))
    assert supply(doc(state))["ann"] == (0, 2)
    assert refused(state, "1,0N+h0").rule == "H6"
    assert refused(state, "1,0N+h2").rule == "H6"
    assert [m for m in legal(state) if "+" in m] == []
    play(state, "1,0N")  # she still places tiles


def test_h6_no_hut_left_no_hut_placed():
    """ann's huts on 17's two rivers. 70 turned three times east of 17: its spring 1 faces west
    into 17's river, its spring 3 faces north, a system of its own."""
    huts = [(0, 0, 1, "hut", "ann"), (0, 0, 3, "hut", "ann")]
    state = start(position([(0, 0, 17, 0)], pieces=huts, stack=[70, 62]))
    assert shows(70, 3)[3] == "R" and shows(70, 3)[0] == "R"
    assert supply(doc(state))["ann"] == (5, 0)
    assert refused(state, "1,0W+hut3").rule == "H6"
    play(state, "1,0W+f3")


def test_h6_a_piece_goes_to_the_player_who_placed_the_tile():
    state = start(position([(0, 0, 35, 0)], stack=[34, 62], to_move="bob"))
    state, _ = play(state, "1,0N+h0")
    assert pieces(doc(state)) == [(1, 0, 0, "hunter", "bob")]
    assert supply(doc(state))["bob"] == (4, 2)


# --- H7: score what the tile completed ---------------------------------------------------------------


def test_h7_a_completed_forest_scores_in_the_same_turn():
    state = start(position([(0, 0, 35, 0)], stack=[34, 62]))
    state, effects = play(state, "1,0N+g3")
    assert scorings(effects) == [("forest", 4, ("ann",))]
    assert doc(state)["scores"] == {"ann": 4, "bob": 0}


def test_h7_a_tile_that_completes_a_river_and_a_forest_scores_both():
    """The sheet's river (2 with a 1-fish lake, 52, then 0 with a 2-fish lake) completed by 0
    turned three times at (2,0); 0's west forest, now facing south, closes on 37's north
    forest at (2,1), where bob's gatherer stands."""
    tiles = [(0, 0, 2, 0), (1, 0, 52, 0), (1, 1, 62, 0), (2, 1, 37, 0)]
    state = start(position(tiles, pieces=[(2, 1, 0, "gatherer", "bob")], stack=[0, 61], bonus=[]))
    assert shows(0, 3) == "MFFR"
    state, effects = play(state, "2,0W+f1")
    assert scorings(effects) == [("forest", 4, ("bob",)), ("river", 6, ("ann",))]
    d = doc(state)
    assert d["scores"] == {"ann": 6, "bob": 4}
    assert d["pieces"] == []


def test_h7_nothing_completed_nothing_scored():
    state = start(position([(0, 0, 35, 0)], stack=[38, 62]))
    state, effects = play(state, "1,0N+g1")  # 38's forest runs on east: open
    assert scorings(effects) == []
    assert doc(state)["scores"] == {"ann": 0, "bob": 0}
    assert pieces(doc(state)) == [(1, 0, 1, "gatherer", "ann")]


def test_h6_banks_join_bank_to_bank_across_a_turned_river_tile():
    """52 (north bank 0 with a deer, south bank 2) with bob's hunter on its south bank; 53
    turned twice east of it: its data-north bank 0 now lies south and joins bob's meadow, its
    bank 2 (a mammoth) lies north and joins 52's empty north bank."""
    state = start(
        position([(0, 0, 52, 0)], pieces=[(0, 0, 2, "hunter", "bob")], stack=[53], bonus=[])
    )
    assert shows(53, 2) == "MRMR"
    assert refused(state, "1,0S+h0").rule == "H6"
    state, _ = play(state, "1,0S+h2")
    d = doc(state)
    assert d["over"] is True
    assert d["scores"] == {"ann": 4, "bob": 0}  # 52's deer and 53's mammoth, north of the river


def test_h6_no_hut_on_a_lake_whose_other_river_holds_one():
    """bob's hut on 52, whose river runs into river 1 of tile 1: tile 1's lake and its other
    river 5 are in the same system."""
    state = start(position([(1, 0, 52, 0)], pieces=[(1, 0, 1, "hut", "bob")], stack=[1, 62]))
    assert refused(state, "0,0N+hut8").rule == "H6"
    assert refused(state, "0,0N+hut5").rule == "H6"
    assert refused(state, "0,0N+hut1").rule == "H6"
    play(state, "0,0N+f5")


def test_h5_turns_follow_the_seat_order():
    seats = ("ann", "bob", "cy")
    state = start(position([(0, 0, 35, 0)], stack=[34, 62, 61, 37], seats=seats))
    order = [doc(state, seats)["to_move"]]
    for move_ in ("1,0N", "0,-1N", "-1,0N"):
        state, _ = play(state, move_)
        order.append(doc(state, seats)["to_move"])
    assert order == ["ann", "bob", "cy", "ann"]
