"""Hunters and Gatherers H19–H22: the bonus tiles' powers (fire, mushrooms, aurochs, shrine),
written from games/hunters/rules.md, the sheet and the contract only.

Bonus tiles placed in positions count as land tiles (H13: a placed bonus tile is a land tile
from then on). Tiles (data sides N E S W): 80 MMMM fire and a tiger; 81 MFFM forest 1 (E, S)
with mushrooms; 79 MFFM meadow 0 (N, W) with the shrine and a tiger; 65 FFMF meadow 1 (south
only) with a tiger; 32 FMMF meadow 1 (E, S) with a tiger; 52 MRMR meadow 0 (deer) – river –
meadow 2; 36 MMFM meadow 0 with an aurochs.
"""

from __future__ import annotations

from hunters_helpers import (
    animals,
    doc,
    features,
    has,
    play,
    position,
    refused,
    scorings,
    shows,
    start,
    supply,
)


def _end(tiles, last, pcs=(), scores=None, bonus=()):
    return start(position(tiles, pieces=pcs, stack=[last], bonus=list(bonus), scores=scores))


def test_power_tiles_the_scenarios_rely_on():
    assert has(80, 0, "fire") and animals(80, 0) == {"tiger": 1}
    assert has(81, 1, "mushrooms")
    assert has(79, 0, "shrine") and animals(79, 0) == {"tiger": 1}
    assert animals(32, 1) == {"tiger": 1} and shows(32, 1) == "FFMM"


# --- H19: fire -------------------------------------------------------------------------------

# 65 (tiger) above 80 (fire, tiger); 52 turned once east of 80: its south bank (meadow 2) faces
# west into 80's meadow, its north bank (meadow 0, a deer) east into 32's tiger meadow.
FIRE = [(0, -1, 65, 0), (0, 0, 80, 0), (1, 0, 52, 1), (2, 0, 32, 1)]


def test_h19_no_tiger_counts_in_a_meadow_with_the_fire():
    """62's deer with two tigers and the fire: the deer scores 2 (without fire: 0)."""
    state, _ = play(_end(FIRE, 62), "-1,0N+h0")
    d = doc(state)
    assert d["scores"]["ann"] == 2
    meadow = [f for f in features(d, "meadow") if [0, 0] in f["tiles"] or (0, 0) in f["tiles"]]
    assert len(meadow) == 1 and meadow[0].get("fire") is True


def test_h19_the_fire_stays_in_its_own_meadow():
    """Across 52's river, bob's meadow (a deer, 32's tiger) has no fire: 0."""
    state, _ = play(_end(FIRE, 62, pcs=[(1, 0, 0, "hunter", "bob")]), "-1,0N+h0")
    assert doc(state)["scores"] == {"ann": 2, "bob": 0}


def test_h19_the_fire_tile_placed_as_a_bonus_tile_works_too():
    """35 (mammoth, ann's hunter) under 62 (deer) under 65 (tiger): mammoth 2, the deer eaten.
    ann closes 35 – 38 (gold) – 34 with the last land tile and puts the bonus tile 80 (fire and
    a tiger) west of 35: no tiger counts, mammoth and deer score 4."""
    tiles = [(0, 0, 35, 0), (1, 0, 38, 0), (0, -1, 62, 0), (0, -2, 65, 0)]
    state = start(position(tiles, pieces=[(0, 0, 0, "hunter", "ann")], stack=[34], bonus=[80]))
    state, _ = play(state, "2,0N")
    assert doc(state)["pending"]["tile"] == 80
    state, _ = play(state, "-1,0N")
    d = doc(state)
    assert d["over"] is True
    assert d["scores"] == {"ann": 4, "bob": 0}


def test_h19_without_the_fire_the_tigers_eat():
    """The same meadow, the bonus tile 84 (no fire) elsewhere: mammoth 2, the deer eaten."""
    tiles = [(0, 0, 35, 0), (1, 0, 38, 0), (0, -1, 62, 0), (0, -2, 65, 0)]
    state = start(position(tiles, pieces=[(0, 0, 0, "hunter", "ann")], stack=[34], bonus=[84]))
    state, _ = play(state, "2,0N")
    assert doc(state)["pending"]["tile"] == 84
    # 84 (mammoth and tiger, meadow N and W) east of 34, its west meadow on 34's east meadow
    state, _ = play(state, "3,0N")
    assert doc(state)["scores"] == {"ann": 2, "bob": 0}


# --- H20: mushrooms ---------------------------------------------------------------------------


def test_h20_each_mushroom_patch_adds_2_to_its_completed_forest():
    """81's forest (E, S) closed by 34 east and 37 (forest north only) south: 3 pieces and a
    mushroom patch: 6 + 2 = 8."""
    state = start(position([(0, 0, 81, 0), (1, 0, 34, 0)], stack=[37, 62], bonus=[]))
    state, effects = play(state, "0,1N+g0")
    assert scorings(effects) == [("forest", 8, ("ann",))]
    assert doc(state)["scores"]["ann"] == 8


def test_h20_mushrooms_in_an_unfinished_forest_score_nothing():
    state = _end([(0, 0, 81, 0)], 34, pcs=[(0, 0, 1, "gatherer", "ann")])
    state, _ = play(state, "1,0N")
    d = doc(state)
    assert d["over"] is True
    assert d["scores"]["ann"] == 0
    assert supply(d)["ann"] == (5, 2)


# --- H21: aurochs -----------------------------------------------------------------------------


def test_h21_an_aurochs_scores_2_and_no_tiger_eats_it():
    state, _ = play(_end([(0, -1, 65, 0)], 36), "0,0N+h0")
    assert doc(state)["scores"] == {"ann": 2, "bob": 0}


def test_h21_a_tiger_eats_a_deer_not_the_aurochs():
    """36 (aurochs) and 62 (deer) with 65's tiger: the deer goes, the aurochs scores: 2."""
    state, _ = play(_end([(0, -1, 65, 0), (0, 0, 36, 0)], 62), "1,0N+h0")
    assert doc(state)["scores"] == {"ann": 2, "bob": 0}


# --- H22: the shrine --------------------------------------------------------------------------

# 79 (the shrine) at the origin, 37 (deer) west of it, 34 east (its north meadow under 62, deer,
# bob's hunter); 36 (aurochs, bob's hunter) above 37; 61 (mammoth) placed last at (0,-1) joins
# them: 2 deer, 1 mammoth, 1 aurochs and the shrine's tiger: (1 + 1 + 1) x 2 = 6.
SHRINE = [(0, 0, 79, 0), (1, 0, 34, 0), (1, -1, 62, 0), (-1, 0, 37, 0), (-1, -1, 36, 0)]
BOBS = [(1, -1, 0, "hunter", "bob"), (-1, -1, 0, "hunter", "bob")]


def test_h22_a_hunter_on_the_shrine_meadow_piece_scores_the_meadow_alone():
    """ann's one hunter on the shrine beats bob's two: ann 6, bob nothing."""
    state, _ = play(_end(SHRINE, 61, pcs=[(0, 0, 0, "hunter", "ann"), *BOBS]), "0,-1N")
    d = doc(state)
    assert d["scores"] == {"ann": 6, "bob": 0}
    assert d["winners"] == ["ann"]


def test_h22_a_hunter_elsewhere_in_the_shrine_meadow_has_no_power():
    """ann's hunter on 37's piece of the same meadow: bob's majority scores."""
    state, _ = play(_end(SHRINE, 61, pcs=[(-1, 0, 1, "hunter", "ann"), *BOBS]), "0,-1N")
    assert doc(state)["scores"] == {"ann": 0, "bob": 6}


def test_h22_without_a_hunter_on_the_shrine_the_majority_scores():
    state, _ = play(_end(SHRINE, 61, pcs=BOBS), "0,-1N")
    assert doc(state)["scores"] == {"ann": 0, "bob": 6}


def test_h22_placing_the_shrine_hunter_follows_h6():
    """Ruling: the shrine drawn as a bonus tile above 35, whose meadow holds bob's hunter: no
    hunter of ann's may go on the shrine meadow."""
    tiles = [(0, 0, 35, 0), (1, 0, 38, 0)]
    state = start(position(tiles, pieces=[(0, 0, 0, "hunter", "bob")], stack=[34, 62], bonus=[79]))
    state, _ = play(state, "2,0N")
    assert doc(state)["pending"]["tile"] == 79
    assert shows(79, 2)[2] == "M"
    assert refused(state, "0,-1S+h0").rule == "H6"
    play(state, "0,-1S")
