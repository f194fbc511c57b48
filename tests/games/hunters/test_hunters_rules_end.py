"""Hunters and Gatherers H14–H18: the end, unfinished features, huts, hunters, the winner
(written from games/hunters/rules.md, the sheet's examples and the contract only).

Every scenario ends the game at once: the stack holds only the drawn tile, so the move played is
the last land tile's (H14) and final scoring follows.

Tiles used (data sides N E S W): 61 MMMM (mammoth), 62 MMMM (deer), 65 FFMF (meadow 1 south
only, a tiger), 31 FMMF (meadow 1 E and S, a tiger), 35 MFMM (meadow 0 N S W, a mammoth),
36 MMFM (meadow 0 N E W, an aurochs), 37 FMMM (meadow 1 E S W, a deer), 34 MMMF (meadows 0 N,
1 E, 2 S with a deer), 75 MFFM (meadow 0 N W, nothing), 52 MRMR (meadow 0 north with a deer,
river, meadow 2 south), 1 MRFR (rivers 1 and 5 into a lake of 3 fish), 2 MRFF (a lake of 1),
13 RRRR (four rivers into a lake of 2 fish), 50 RMRM, 51 and 53 MRMR, 72 RFRF (rivers).
"""

from __future__ import annotations

import pytest
from hunters_helpers import (
    animals,
    doc,
    features,
    game,
    legal,
    named,
    pieces,
    play,
    position,
    refused,
    removed_tiles,
    scorings,
    start,
    supply,
)

from tribes.core.errors import GameOver, IllegalMove


def _end(tiles, last, pcs=(), scores=None, to_move="ann", seats=("ann", "bob"), bonus=()):
    """A position whose stack holds only ``last``: the next move is the last of the game."""
    return start(
        position(
            tiles,
            pieces=pcs,
            stack=[last],
            bonus=list(bonus),
            scores=scores,
            to_move=to_move,
            seats=seats,
        )
    )


def test_animals_the_scenarios_rely_on():
    assert animals(61, 0) == {"mammoth": 1} and animals(62, 0) == {"deer": 1}
    assert animals(65, 1) == {"tiger": 1} and animals(31, 1) == {"tiger": 1}
    assert animals(35, 0) == {"mammoth": 1} and animals(36, 0) == {"aurochs": 1}
    assert animals(37, 1) == {"deer": 1} and animals(75, 0) == {}
    assert animals(52, 0) == {"deer": 1} and animals(52, 2) == {}


# --- H14: the end ------------------------------------------------------------------------------


def test_h14_the_game_ends_after_the_turn_of_the_last_land_tile():
    state, effects = play(_end([(0, 0, 35, 0)], 34), "1,0N")
    d = doc(state)
    assert d["over"] is True
    assert d["to_move"] is None
    assert d["drawn"] is None
    assert d["pending"] is None
    assert d["stack"] == 0
    assert legal(state) == []
    assert len(named(effects, "GameEnded")) == 1


def test_h14_not_over_while_land_tiles_are_left():
    state = start(position([(0, 0, 35, 0)], stack=[34, 62]))
    state, effects = play(state, "1,0N")
    assert doc(state)["over"] is False
    assert named(effects, "GameEnded") == []


def test_h14_unused_bonus_tiles_stay_unused():
    state, _ = play(_end([(0, 0, 35, 0)], 34, bonus=(81, 80, 79)), "1,0N")
    d = doc(state)
    assert d["over"] is True
    assert d["bonus_stack"] == 3


def test_h14_when_the_last_tiles_fit_nowhere_the_game_ends_after_the_last_placed():
    """Ruling: after 57 east of 14 every open side is river or forest; 61 and 62 (all meadow)
    fit nowhere and are removed: the game is over."""
    state = start(position([(0, 0, 14, 0)], stack=[57, 61, 62]))
    state, effects = play(state, "1,0N")
    assert removed_tiles(effects) == [(61, False), (62, False)]
    d = doc(state)
    assert d["over"] is True
    assert d["removed"] == [61, 62]
    assert named(effects, "GameEnded")


def test_h14_a_move_after_the_end_is_refused():
    state, _ = play(_end([(0, 0, 35, 0)], 34), "1,0N")
    g = game()
    ev = g.parse_move(state, "0,-1N")
    with pytest.raises(GameOver) as info:
        g.check(state, ev)
    assert isinstance(info.value, IllegalMove)
    with pytest.raises(GameOver):
        g.apply(state, ev)


# --- H15: unfinished forests and rivers ------------------------------------------------------------


def test_h15_unfinished_forests_and_rivers_score_nothing_their_members_go_home():
    """ann's gatherer in 35's open forest, bob's fisher on 52's open river."""
    tiles = [(0, 0, 35, 0)]
    state = _end(tiles, 52, pcs=[(0, 0, 1, "gatherer", "ann")], to_move="bob")
    state, _ = play(state, "0,-1N+f1")
    d = doc(state)
    assert d["over"] is True
    assert d["scores"] == {"ann": 0, "bob": 0}
    assert d["pieces"] == []
    assert supply(d) == {"ann": (5, 2), "bob": (5, 2)}


def test_h15_hunters_and_huts_stay_for_the_final_scoring():
    tiles = [(0, 0, 1, 0)]
    pcs = [(0, 0, 8, "hut", "bob"), (0, 0, 0, "hunter", "bob"), (0, 0, 3, "gatherer", "ann")]
    state, _ = play(_end(tiles, 62, pcs=pcs), "0,-1N")
    d = doc(state)
    assert pieces(d) == [(0, 0, 0, "hunter", "bob"), (0, 0, 8, "hut", "bob")]
    assert supply(d) == {"ann": (5, 2), "bob": (4, 1)}
    # bob: 3 fish for the hut; 62's deer in the meadow of 1's north side for the hunter
    assert d["scores"] == {"ann": 0, "bob": 3 + 2}


# --- H16: huts ---------------------------------------------------------------------------------


def test_h16_a_hut_scores_1_per_fish_of_its_open_system():
    state, effects = play(_end([(0, 0, 1, 0)], 62, pcs=[(0, 0, 8, "hut", "ann")]), "0,-1N")
    assert doc(state)["scores"] == {"ann": 3, "bob": 0}
    assert (3, ("ann",)) in [(p, w) for _, p, w in scorings(effects)]


def test_h16_a_hut_scores_a_complete_river_system_too():
    """The sheet's river (2 – 52 – 0, lakes of 1 and 2 fish) completed in the last turn: ann's
    fisher scores 6 at once, bob's hut 3 at the end."""
    tiles = [(0, 0, 2, 0), (1, 0, 52, 0)]
    state, _ = play(_end(tiles, 0, pcs=[(1, 0, 1, "hut", "bob")]), "2,0W+f1")
    assert doc(state)["scores"] == {"ann": 6, "bob": 3}


# 1 (lake of 3) with 52 east and 2 (lake of 1, turned to face west) beyond; 53 far west,
# reached through meadows 61, 62, 34 above; 51 placed last joins 1's west river to 53.
JOINED = [
    (0, 0, 1, 0),
    (1, 0, 52, 0),
    (2, 0, 2, 2),
    (0, -1, 61, 0),
    (-1, -1, 62, 0),
    (-2, -1, 34, 0),
    (-2, 0, 53, 0),
]


def test_h16_systems_joined_through_a_lake_tie_and_both_score_every_fish():
    """Lakes do not break a system: ann's hut (east of the lake of 3) and bob's (on 53) are in
    one system of 3 + 1 fish once 51 joins 53 to the lake's other river: both score 4."""
    pcs = [(1, 0, 1, "hut", "ann"), (-2, 0, 1, "hut", "bob")]
    state, _ = play(_end(JOINED, 51, pcs=pcs), "-1,0N")
    d = doc(state)
    assert d["scores"] == {"ann": 4, "bob": 4}
    assert d["winners"] == ["ann", "bob"]
    system = [f for f in features(d, "system") if f.get("fish") == 4]
    assert len(system) == 1
    assert system[0]["pieces"] == {"ann": 1, "bob": 1}


def test_h16_a_hut_in_a_system_counts_the_lakes_joined_through_it():
    """Before 51, bob's system is 53 alone: no fish. A last tile elsewhere leaves it so."""
    pcs = [(1, 0, 1, "hut", "ann"), (-2, 0, 1, "hut", "bob")]
    state, _ = play(_end(JOINED, 37, pcs=pcs), "0,-2N")
    assert doc(state)["scores"] == {"ann": 4, "bob": 0}


def test_h16_the_most_huts_score_alone():
    """13 (four rivers into a lake of 2 fish) placed last joins four open rivers: ann's huts on
    two of them, bob's on a third: ann 2, bob nothing."""
    tiles = [
        (0, -1, 50, 0),
        (1, -1, 61, 0),
        (1, 0, 52, 0),
        (1, 1, 34, 0),
        (0, 1, 72, 0),
        (-1, 1, 35, 0),
        (-1, 0, 51, 0),
    ]
    pcs = [(0, -1, 1, "hut", "ann"), (1, 0, 1, "hut", "ann"), (0, 1, 1, "hut", "bob")]
    state, _ = play(_end(tiles, 13, pcs=pcs), "0,0N")
    assert doc(state)["scores"] == {"ann": 2, "bob": 0}


# --- H17: hunters -----------------------------------------------------------------------------


def test_h17_sheet_example_1_deer_1_mammoth_1_tiger_gives_2():
    """The sheet's animals exactly; the layout is ours: 61 (mammoth), 65 (tiger) above it, and
    62 (deer) placed last east of 61 with ann's hunter."""
    state, effects = play(_end([(0, 0, 61, 0), (0, -1, 65, 0)], 62), "1,0N+h0")
    assert doc(state)["scores"] == {"ann": 2, "bob": 0}
    assert (2, ("ann",)) in [(p, w) for _, p, w in scorings(effects)]


def test_h17_sheet_example_2_deer_2_mammoths_1_aurochs_1_tiger_gives_8():
    """61 (mammoth), 62 (deer), 35 (mammoth, turned twice: forest west), 37 (deer, turned twice:
    forest south), 65 (tiger) above 61, and 36 (aurochs) placed last at (1,1)."""
    tiles = [(0, 0, 61, 0), (1, 0, 62, 0), (-1, 0, 35, 2), (0, 1, 37, 2), (0, -1, 65, 0)]
    state, _ = play(_end(tiles, 36), "1,1N+h0")
    d = doc(state)
    assert d["scores"] == {"ann": 8, "bob": 0}
    meadow = [f for f in features(d, "meadow") if len(f["tiles"]) == 6]
    assert len(meadow) == 1
    assert meadow[0]["animals"]["mammoth"] == 2
    assert meadow[0]["animals"]["aurochs"] == 1


def test_h17_sheet_example_1_deer_2_tigers_gives_0_and_costs_nothing():
    """62 (deer), 65 (tiger) above, 31 (tiger, turned once: meadow south and west) east.
    ann already has 5 points: extra tigers take none away."""
    tiles = [(0, 0, 62, 0), (0, -1, 65, 0)]
    state, _ = play(_end(tiles, 31, scores={"ann": 5, "bob": 0}), "1,0E+h1")
    assert doc(state)["scores"] == {"ann": 5, "bob": 0}


def test_h17_tigers_never_touch_mammoths():
    state, _ = play(_end([(0, -1, 65, 0)], 61), "0,0N+h0")
    assert doc(state)["scores"] == {"ann": 2, "bob": 0}


def test_h17_a_deer_and_a_mammoth_score_2_each():
    state, _ = play(_end([(0, 0, 35, 0)], 62), "0,-1N+h0")
    # 35's mammoth and 62's deer: one meadow
    assert doc(state)["scores"] == {"ann": 4, "bob": 0}


# 75 (meadow 0 N W, ann's hunter) with 37 (deer) west; 34 east (its north meadow 0 under 62,
# deer, bob's hunter); 36 (aurochs, bob's hunter) above 37; 61 (mammoth) placed last at (0,-1)
# joins them all: 2 deer, 1 mammoth, 1 aurochs = 8.
THREE_MEADOWS = [
    (0, 0, 75, 0),
    (1, 0, 34, 0),
    (1, -1, 62, 0),
    (-1, 0, 37, 0),
    (-1, -1, 36, 0),
]


def test_h17_the_most_hunters_score_alone():
    pcs = [(0, 0, 0, "hunter", "ann"), (1, -1, 0, "hunter", "bob"), (-1, -1, 0, "hunter", "bob")]
    state, effects = play(_end(THREE_MEADOWS, 61, pcs=pcs), "0,-1N")
    assert doc(state)["scores"] == {"ann": 0, "bob": 8}
    assert (8, ("bob",)) in [(p, w) for _, p, w in scorings(effects)]


def test_h17_tied_hunters_each_score_in_full():
    pcs = [(0, 0, 0, "hunter", "ann"), (1, -1, 0, "hunter", "bob")]
    state, _ = play(_end(THREE_MEADOWS, 61, pcs=pcs), "0,-1N")
    assert doc(state)["scores"] == {"ann": 8, "bob": 8}


def test_h17_a_river_bounds_a_meadow():
    """52 below 62 (bob's hunter): 52's north bank joins 62, its south bank is another meadow."""
    state = _end([(0, 0, 62, 0)], 52, pcs=[(0, 0, 0, "hunter", "bob")])
    assert refused(state, "0,1N+h0").rule == "H6"
    state, _ = play(state, "0,1N+h2")
    assert doc(state)["scores"] == {"ann": 0, "bob": 4}


def test_h17_a_forest_bounds_a_meadow():
    """34's three meadows are apart: its deer (south meadow) is not in its north meadow."""
    state, _ = play(_end([(0, 0, 35, 0)], 34), "1,0N+h0")
    assert doc(state)["scores"] == {"ann": 0, "bob": 0}


# --- H18: the winner ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("scores", "winners"),
    [
        ({"ann": 3, "bob": 7}, ["bob"]),
        ({"ann": 9, "bob": 2}, ["ann"]),
        ({"ann": 5, "bob": 5}, ["ann", "bob"]),
    ],
)
def test_h18_the_highest_score_wins_ties_share(scores, winners):
    state, _ = play(_end([(0, 0, 35, 0)], 62, scores=scores), "0,-1N")
    d = doc(state)
    assert d["scores"] == scores
    assert d["winners"] == winners


def test_h18_three_players_two_share_the_victory():
    seats = ("ann", "bob", "cy")
    scores = {"ann": 4, "bob": 4, "cy": 1}
    state, _ = play(_end([(0, 0, 35, 0)], 62, scores=scores, seats=seats), "0,-1N")
    d = doc(state, seats)
    assert d["winners"] == ["ann", "bob"]


def test_h18_no_winners_before_the_end():
    state = start(position([(0, 0, 35, 0)], stack=[62, 61], scores={"ann": 9, "bob": 0}))
    assert doc(state)["winners"] == []


def test_h15_final_scorings_are_marked_final_and_completions_not():
    """Contract: FeatureScored for completions, and with final=True for final scoring."""
    tiles = [(0, 0, 35, 0)]
    state, effects = play(_end(tiles, 34, pcs=[(0, 0, 0, "hunter", "bob")]), "1,0N+g3")
    done = named(effects, "FeatureScored")
    assert [bool(e.final) for e in done if e.points == 4] == [False]
    assert [bool(e.final) for e in done if e.points == 2] == [True]  # 35's mammoth
    assert doc(state)["scores"] == {"ann": 4, "bob": 2}
    assert all(e.describe(("ann", "bob")) for e in effects)


def test_h14_a_position_whose_last_tiles_fit_nowhere_is_over_at_once():
    state = start(position([(0, 0, 14, 0)], stack=[61, 62], pieces=[(0, 0, 2, "hunter", "bob")]))
    d = doc(state)
    assert d["over"] is True
    assert d["removed"] == [61, 62]
    assert d["drawn"] is None
    assert d["scores"] == {"ann": 0, "bob": 0}  # 14's tiger meadow: nothing to hunt
    assert d["winners"] == ["ann", "bob"]


def test_h6_sheet_three_meadows_joined_leave_no_hunter_for_the_placer():
    """The sheet: three hunters in three meadows; the new tile joins them, and the player who
    placed it may not put a hunter there."""
    pcs = [(0, 0, 0, "hunter", "ann"), (1, -1, 0, "hunter", "bob"), (-1, -1, 0, "hunter", "bob")]
    state = _end(THREE_MEADOWS, 61, pcs=pcs)
    assert refused(state, "0,-1N+h0").rule == "H6"
