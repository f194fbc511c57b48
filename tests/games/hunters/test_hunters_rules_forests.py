"""Hunters and Gatherers H10–H12: complete forests, majorities, members going home (written
from games/hunters/rules.md, the sheet's examples and the contract only).

Tiles used (data sides N E S W):
- 35 MFMM (forest 1 east only), 34 MMMF (forest 3 west only), 36 MMFM (forest 1 south only):
  no gold.
- 38, 39, 40 MFMF: forest 1 on E and W, with gold. 63 FFMF: forest 0 (gold) on N, E and W.
- 0 RMFF: two forests, 3 (S) and 4 (W). 33 FMMF: forest 0 N and W. 42 FFMM: forest 0 N and E.
  77 MFFM: forest 1 E and S (all three with gold).
- 61, 62 MMMM: one meadow (mammoth / deer). 37 FMMM: forest 0 north only, meadow 1.
"""

from __future__ import annotations

from hunters_helpers import (
    doc,
    feature,
    features,
    find,
    pieces,
    play,
    position,
    returned,
    scored_cells,
    scorings,
    start,
    supply,
)


def test_forest_tiles_the_scenarios_rely_on():
    assert [feature(t, 1).get("gold", False) for t in (35, 36)] == [False, False]
    assert not feature(34, 3).get("gold")
    assert all(feature(t, 1)["gold"] for t in (38, 39, 40))
    assert find("MFMF", where=lambda t: t["sides"][1] == t["sides"][3]) == [38, 39, 40, 60]
    assert feature(63, 0)["gold"] and feature(0, 3)["type"] == feature(0, 4)["type"] == "forest"


def _two(pieces_=(), to_move="ann"):
    """35 (forest east) at the origin; 34 (forest west) drawn: unturned at (1,0) it closes a
    forest of 2 pieces, no gold."""
    return start(position([(0, 0, 35, 0)], pieces=pieces_, stack=[34, 62, 61], to_move=to_move))


# --- H10: complete forests -------------------------------------------------------------------------


def test_h10_a_forest_surrounded_by_meadow_scores_2_per_piece():
    state, effects = play(_two(), "1,0N+g3")
    assert scorings(effects) == [("forest", 4, ("ann",))]
    assert doc(state)["scores"] == {"ann": 4, "bob": 0}


def test_h10_a_forest_with_an_open_side_does_not_score():
    state = start(position([(0, 0, 35, 0)], stack=[38, 62]))
    state, effects = play(state, "1,0N+g1")
    assert scorings(effects) == []
    forest = features(doc(state), "forest")
    assert len(forest) == 1 and forest[0]["complete"] is False


def test_h10_the_features_list_shows_a_complete_forest():
    state, _ = play(_two(), "1,0N+g3")
    forest = features(doc(state), "forest")
    assert len(forest) == 1
    assert sorted(tuple(c) for c in forest[0]["tiles"]) == [(0, 0), (1, 0)]
    assert forest[0]["complete"] is True
    assert not forest[0]["pieces"] or not any(forest[0]["pieces"].values())


def test_h10_a_tile_holding_two_pieces_of_one_forest_gives_4():
    """Ruling: 0's two forests (south 3, west 4) are joined round the corner by 33, 42 and 77:
    one complete forest of 5 pieces on 4 tiles: 0 gives 4, the others 2 each: 10 (not 8).
    The bonus stack is empty, so the gold earns nothing."""
    tiles = [(0, 1, 33, 0), (-1, 1, 42, 0), (-1, 0, 77, 0)]
    state = start(position(tiles, stack=[0, 62], bonus=[]))
    state, effects = play(state, "0,0N+g3")
    assert scorings(effects) == [("forest", 10, ("ann",))]
    assert doc(state)["scores"]["ann"] == 10


def test_h10_gold_scores_nothing_sheet_forest_of_5_gives_red_10():
    """The sheet: a completed forest with several gold nuggets: "2 points each, red gets 10"
    (and only one bonus tile). The sheet's picture is not in the seed text, only its numbers:
    approximated by a straight forest of 5 pieces, 35 – 38 – [40] – 39 – 34, three of them with a
    nugget, linked by the meadows 61, 62, 37 above; ann (red) has the only gatherer, on 38. The
    bonus stack is empty here; one bonus tile for many nuggets is tested in H13."""
    state = start(_sheet_five([(-1, 0, 1, "gatherer", "ann")]))
    state, effects = play(state, "0,0N")
    assert scorings(effects) == [("forest", 10, ("ann",))]
    assert doc(state)["scores"] == {"ann": 10, "bob": 0}


def _sheet_five(pcs, bonus=()):
    tiles = [
        (-2, 0, 35, 0),
        (-1, 0, 38, 0),
        (-1, -1, 61, 0),
        (0, -1, 62, 0),
        (1, -1, 37, 0),
        (1, 0, 39, 0),
        (2, 0, 34, 0),
    ]
    return position(tiles, pieces=pcs, stack=[40, 36], bonus=list(bonus))


# --- H11: majority ---------------------------------------------------------------------------------


def test_h11_sheet_joined_forest_tie_both_score_10():
    """The sheet: the new tile joins previously separate forests holding red's and blue's
    gatherers: both score 10. Approximated (the picture is not in the seed text) by the 5-piece
    forest above, with ann's gatherer west of the joining tile 40 and bob's east of it."""
    pcs = [(-1, 0, 1, "gatherer", "ann"), (1, 0, 1, "gatherer", "bob")]
    state, effects = play(start(_sheet_five(pcs)), "0,0N")
    assert scorings(effects) == [("forest", 10, ("ann", "bob"))]
    assert doc(state)["scores"] == {"ann": 10, "bob": 10}


def test_h11_sheet_joined_forest_red_majority_alone_scores_12():
    """The sheet: red has the majority in the joined forest and alone scores 12, so 6 pieces.
    Approximated (the picture is not in the seed text): 63 (one forest on N, E and W) joins three
    forests, 35 – 38 (ann) west, 36 (ann) north and 39 (bob) – 34 east, bridged by the meadows
    61 and 62; ann 2 gatherers against bob's 1."""
    tiles = [
        (-2, 0, 35, 0),
        (-1, 0, 38, 0),
        (-1, -1, 61, 0),
        (0, -1, 36, 0),
        (1, -1, 62, 0),
        (1, 0, 39, 0),
        (2, 0, 34, 0),
    ]
    pcs = [
        (-1, 0, 1, "gatherer", "ann"),
        (0, -1, 1, "gatherer", "ann"),
        (1, 0, 1, "gatherer", "bob"),
    ]
    state = start(position(tiles, pieces=pcs, stack=[63, 37], bonus=[]))
    state, effects = play(state, "0,0N")
    assert scorings(effects) == [("forest", 12, ("ann",))]
    d = doc(state)
    assert d["scores"] == {"ann": 12, "bob": 0}
    assert supply(d) == {"ann": (5, 2), "bob": (5, 2)}


def test_h11_who_placed_the_tile_does_not_matter():
    state, effects = play(_two([(0, 0, 1, "gatherer", "bob")]), "1,0N")
    assert scorings(effects) == [("forest", 4, ("bob",))]
    assert doc(state)["scores"] == {"ann": 0, "bob": 4}


def test_h11_three_players_tie_at_the_top_the_rest_nothing():
    seats = ("ann", "bob", "cy")
    pcs = [(-1, 0, 1, "gatherer", "ann"), (1, 0, 1, "gatherer", "bob")]
    pos = _sheet_five(pcs)
    pos["seats"] = list(seats)
    state = start(pos)
    state, effects = play(state, "0,0N")
    assert scorings(effects, seats) == [("forest", 10, ("ann", "bob"))]
    assert doc(state, seats)["scores"] == {"ann": 10, "bob": 10, "cy": 0}


# --- H12: members go home --------------------------------------------------------------------------


def test_h12_members_in_a_completed_forest_go_back_to_supply():
    pcs = [(-1, 0, 1, "gatherer", "ann"), (1, 0, 1, "gatherer", "bob")]
    state = start(_sheet_five(pcs))
    assert supply(doc(state)) == {"ann": (4, 2), "bob": (4, 2)}
    state, _ = play(state, "0,0N")
    d = doc(state)
    assert d["pieces"] == []
    assert supply(d) == {"ann": (5, 2), "bob": (5, 2)}


def test_h12_placed_scored_and_returned_in_one_turn():
    state, _ = play(_two(), "1,0N+g3")
    d = doc(state)
    assert d["pieces"] == []
    assert supply(d)["ann"] == (5, 2)
    assert d["scores"]["ann"] == 4


def test_h12_a_member_in_an_unfinished_forest_stays():
    state = start(position([(0, 0, 35, 0)], pieces=[(0, 0, 1, "gatherer", "bob")], stack=[38, 62]))
    state, _ = play(state, "1,0N")
    d = doc(state)
    assert pieces(d) == [(0, 0, 1, "gatherer", "bob")]
    assert supply(d)["bob"] == (4, 2)


def test_h12_hunters_never_return():
    """ann's hunter on 35's meadow stays when 35's forest completes."""
    state, _ = play(_two([(0, 0, 0, "hunter", "ann")]), "1,0N")
    d = doc(state)
    assert pieces(d) == [(0, 0, 0, "hunter", "ann")]
    assert supply(d)["ann"] == (4, 2)


def test_h12_huts_never_return_fishers_do():
    """The sheet's river (2 – 52 – 0) completed: bob's hut on 52 stays, ann's fisher returns."""
    state = start(
        position([(0, 0, 2, 0), (1, 0, 52, 0)], pieces=[(1, 0, 1, "hut", "bob")], stack=[0, 62])
    )
    state, effects = play(state, "2,0W+f1")
    assert scorings(effects) == [("river", 6, ("ann",))]
    d = doc(state)
    assert pieces(d) == [(1, 0, 1, "hut", "bob")]
    assert supply(d) == {"ann": (5, 2), "bob": (5, 1)}
    assert d["scores"] == {"ann": 6, "bob": 0}


def test_h12_a_returned_member_can_be_placed_again_next_turn():
    """ann has one member left; it closes 14's east forest with 34, scores, returns, and she
    places it again on her next turn."""
    four = [
        (0, 0, 4, "gatherer", "ann"),
        (0, 0, 5, "gatherer", "ann"),
        (0, 0, 1, "fisher", "ann"),
        (0, 0, 0, "hunter", "ann"),
    ]
    state = start(position([(0, 0, 14, 0)], pieces=four, stack=[34, 62, 61, 37]))
    assert supply(doc(state))["ann"] == (1, 2)
    state, effects = play(state, "1,0N+g3")
    assert scorings(effects) == [("forest", 4, ("ann",))]
    assert supply(doc(state))["ann"] == (1, 2)
    state, _ = play(state, "2,0N", "1,-1N+h0")
    assert supply(doc(state))["ann"] == (0, 2)
    assert (1, -1, 0, "hunter", "ann") in pieces(doc(state))


def test_h12_the_scoring_effect_names_the_tiles_and_the_members_sent_home():
    pcs = [(-1, 0, 1, "gatherer", "ann"), (1, 0, 1, "gatherer", "bob")]
    _, effects = play(start(_sheet_five(pcs)), "0,0N")
    assert scored_cells(effects) == [[(-2, 0), (-1, 0), (0, 0), (1, 0), (2, 0)]]
    assert returned(effects) == [("ann", "bob")]
    assert all(e.describe(("ann", "bob")) for e in effects)
