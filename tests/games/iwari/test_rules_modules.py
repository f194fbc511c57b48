"""Iwari rules I19–I21: the feats and expeditions modules and the map variants (written from
games/iwari/rules.md)."""

from __future__ import annotations

import attrs
import pytest

from tribes.games.iwari.board import expeditions, load
from tribes.games.iwari.events import ExpeditionCompleted, FeatEarned, TerritoryScored
from tribes.games.iwari.state import ExpeditionCard, Phase
from tribes.testing.iwari import (
    GAME,
    SEATS2,
    SEATS3,
    connection_points,
    effects_of,
    final,
    from_seed,
    half,
    header_for,
    play,
    position,
    refused,
    settlements,
    start,
    territory_points,
    tribe_tents,
    turn,
)

FEATS = {"feats": "on"}
UNION, DISCOVERY, HONOUR, RESPECT = range(4)
"""Indexes of the feat kinds in ``feats_left``."""


def feats_game(**kwargs):
    return start(options=FEATS, **kwargs)


# --- I19: feats ----------------------------------------------------------------------------------


def test_i19_union_first_and_second_player():
    """I19: Union (2): the first and the second player to complete a settlement each place one
    in a territory of that settlement."""
    state = feats_game(
        hands={"ann": "ttt", "bob": "ttt", "cy": "fff"},
        tents={"ann": [16, 17, 18], "bob": [27, 28, 29], "cy": [44, 45, 46]},
    )
    assert state.feats_left == (2, 2, 1, 1)
    state, effects = play(state, "5 tent19 t")
    assert effects_of(effects, FeatEarned) == [FeatEarned(seat=0, kind="union", options=(5,))]
    assert state.phase is Phase.FEAT and state.to_move == 0
    state, _ = turn(state, "feat union 5")
    assert state.factors[5] == 2
    state, effects = play(state, "7 tent30 t")
    assert effects_of(effects, FeatEarned) == [FeatEarned(seat=1, kind="union", options=(7,))]
    state, _ = turn(state, "feat union 7")
    assert state.factors[7] == 2
    state, effects = play(state, "11 tent47 f")
    assert effects_of(effects, FeatEarned) == []
    assert state.phase is Phase.REFILL
    assert state.feats_left[UNION] == 0
    assert state.earned == (("union",), ("union",), ())


def test_i19_union_in_a_territory_of_the_settlement():
    """I19: Union: ... place one in a territory of that settlement (one crossing a border
    offers both territories)."""
    state = feats_game(hands={"ann": "ttt"}, tents={"ann": [1, 2, 18]})
    state, effects = play(state, "5 tent19 t")
    assert effects_of(effects, FeatEarned) == [FeatEarned(seat=0, kind="union", options=(1, 5))]
    assert refused(state, "feat union 6").rule == "I19"
    assert refused(state, "feat discovery 1").rule == "I19"
    state, _ = play(state, "feat union 1")
    assert state.factors[1] == 2 and state.factors[5] == 1
    assert state.phase is Phase.REFILL


def test_i19_each_kind_at_most_once_per_player():
    """I19 Ruling: a player earns each kind at most once (the second union stays for another
    player)."""
    state = feats_game(
        hands={"ann": "ttt", "bob": "ttt", "cy": "ttt"},
        tents={"ann": [16, 17, 18, 27, 28, 29], "bob": [8, 9, 10]},
    )
    state, _ = turn(state, "5 tent19 t", "feat union 5")
    state, _ = turn(state, "swap t deck")
    state, _ = turn(state, "swap t deck")
    state, effects = play(state, "7 tent30 t")
    assert effects_of(effects, FeatEarned) == []
    assert state.phase is Phase.REFILL
    state, _ = turn(state)
    state, effects = play(state, "3 tent11 t")
    assert effects_of(effects, FeatEarned) == [FeatEarned(seat=1, kind="union", options=(3,))]


def test_i19_decline():
    """I19 Ruling: a pending decision of that player, which may also decline."""
    state = feats_game(hands={"ann": "ttt"}, tents={"ann": [16, 17, 18]})
    state, _ = play(state, "5 tent19 t")
    state, _ = play(state, "feat union none")
    assert set(state.factors[1:]) == {1}
    assert state.phase is Phase.REFILL and state.to_move == 0


def test_i19_pending_feat_comes_first():
    """I19 Ruling: a player who earns a feat places it at once."""
    state = feats_game(hands={"ann": "ttt"}, tents={"ann": [16, 17, 18]})
    state, _ = play(state, "5 tent19 t")
    assert refused(state, "draw deck").rule == "I19"


def test_i19_factor_for_later_tent_scorings():
    """I19: each feat raises the scoring factor (normally 1) of the territory it is placed in by
    1, for every later scoring of it (tents of a territory)."""
    state, effects = half(
        options=FEATS,
        move="5 tent19 t",
        extra=("feat union 5",),
        hands={"ann": "ttt"},
        tents={"ann": [16, 17, 18], "bob": [22]},
    )
    assert territory_points(effects) == {5: (8, 0, 0), 6: (0, 1, 0)}
    assert state.scores == (8, 1, 0)


def test_i19_discovery_first_and_second_player():
    """I19: Discovery (2): the first and the second player to place a tent on the last empty tent
    space of a territory each place one in any other territory."""
    state = feats_game(
        hands={"ann": "ggg", "bob": "ccc", "cy": "ddd"},
        tents={"bob": [1, 51], "cy": [2, 14], "ann": [13, 50]},
    )
    state, effects = play(state, "1 tent3 g")
    others = tuple(t for t in range(1, 16) if t != 1)
    assert effects_of(effects, FeatEarned) == [FeatEarned(seat=0, kind="discovery", options=others)]
    assert refused(state, "feat discovery 1").rule == "I19"
    state, _ = turn(state, "feat discovery 6")
    assert state.factors[6] == 2
    state, effects = play(state, "4 tent15 c")
    others = tuple(t for t in range(1, 16) if t != 4)
    assert effects_of(effects, FeatEarned) == [FeatEarned(seat=1, kind="discovery", options=others)]
    state, _ = turn(state, "feat discovery 7")
    assert state.factors[7] == 2
    state, effects = play(state, "12 tent52 d")
    assert effects_of(effects, FeatEarned) == []
    assert state.feats_left[DISCOVERY] == 0


def test_i19_discovery_at_most_once_per_player():
    """I19 Ruling: a player earns each kind at most once (the second discovery stays for another
    player)."""
    state = feats_game(
        hands={"ann": "ggg", "bob": "ddd", "cy": "ttt"},
        tents={"bob": [1, 14], "cy": [2, 15, 50, 51]},
    )
    state, _ = turn(state, "1 tent3 g", "feat discovery 6")
    state, _ = turn(state, "swap d deck")
    state, _ = turn(state, "swap t deck")
    state, effects = play(state, "4 tent13 gg")
    assert tribe_tents(state, 0) == [3, 13]
    assert effects_of(effects, FeatEarned) == []
    state, _ = turn(state)
    state, effects = play(state, "12 tent52 d")
    others = tuple(t for t in range(1, 16) if t != 12)
    assert effects_of(effects, FeatEarned) == [FeatEarned(seat=1, kind="discovery", options=others)]


def test_i19_discovery_factor():
    """I19: each feat raises the scoring factor of the territory it is placed in by 1, for every
    later scoring of it."""
    state, effects = half(
        options=FEATS,
        move="1 tent3 g",
        extra=("feat discovery 6",),
        hands={"ann": "ggg"},
        tents={"bob": [1, 22], "cy": [2]},
    )
    assert territory_points(effects) == {1: (3, 3, 3), 6: (0, 2, 0)}
    assert state.scores == (3, 5, 3)


def test_i19_honour_land_connection():
    """I19: Honour (1): the first player to hold totem majority in both territories of a land
    connection places it on such a connection."""
    state = feats_game(
        hands={"ann": "fff", "bob": "ggg"},
        tents={"ann": [16, 22], "bob": [27, 32]},
        totems={"ann": {5: 1}, "bob": {7: 1}},
    )
    state, effects = play(state, "6 totem f")
    assert effects_of(effects, FeatEarned) == [FeatEarned(seat=0, kind="honour", options=(6,))]
    assert refused(state, "feat honour 2").rule == "I19"
    state, _ = turn(state, "feat honour 6")
    assert state.link_factors[6] == 2
    assert state.feats_left[HONOUR] == 0
    state, effects = play(state, "8 totem g")  # bob: majority on land connection 9
    assert effects_of(effects, FeatEarned) == []


def test_i19_respect_water_connection():
    """I19: Respect (1): the same for a water connection."""
    state = feats_game(
        hands={"ann": "ccc", "bob": "ccc"},
        tents={"ann": [16, 40], "bob": [12, 13]},
        totems={"ann": {5: 1}, "bob": {3: 1}},
    )
    state, effects = play(state, "10 totem c")
    assert effects_of(effects, FeatEarned) == [FeatEarned(seat=0, kind="respect", options=(10,))]
    state, _ = turn(state, "feat respect 10")
    assert state.link_factors[10] == 2
    state, effects = play(state, "4 totem c")  # bob: majority on water connection 5
    assert effects_of(effects, FeatEarned) == []
    assert state.feats_left == (2, 2, 1, 0)


def test_i19_honour_factor_for_totem_scoring():
    """I19: each feat raises the scoring factor of the connection it is placed on by 1, for every
    later scoring of it (totems of a connection)."""
    state, effects = final(
        options=FEATS,
        move="6 totem f",
        extra=("feat honour 6",),
        hands={"cy": "fff"},
        tents={"cy": [16, 22]},
        totems={"cy": {5: 1}},
    )
    assert connection_points(effects) == {6: (0, 0, 4)}
    assert state.scores == (0, 0, 6)


def test_i19_feats_off_by_default():
    """I19: feats are an optional module."""
    state = start(hands={"ann": "ttt"}, tents={"ann": [16, 17, 18]})
    state, effects = play(state, "5 tent19 t")
    assert effects_of(effects, FeatEarned) == []
    assert state.phase is Phase.REFILL


def test_i19_third_tribe_earns_no_feat():
    """I19: the first and the second player to complete a settlement (the third tribe is not a
    player)."""
    state = start(seats=SEATS2, options=FEATS, hands={"ann": "ftt"}, tents={"third": [16, 17, 18]})
    state, _ = play(state, "6 tent22 f")
    state, effects = play(state, "third 5 tent19 t")
    assert effects_of(effects, FeatEarned) == []
    assert state.feats_left[UNION] == 2


# --- I20: expeditions ----------------------------------------------------------------------------


def with_cards(state, *ids):
    return attrs.evolve(state, expeditions=tuple(ExpeditionCard(id=i) for i in ids))


def test_i20_three_dealt_face_up():
    """I20: 3 are dealt face up at setup (Ruling)."""
    known = {e.id for e in expeditions()}
    for seed in range(5):
        dealt = [c.id for c in from_seed(seed, expeditions="on").expeditions]
        assert len(dealt) == len(set(dealt)) == 3
        assert set(dealt) <= known
    assert from_seed(0).expeditions == ()


def test_i20_dealt_when_starting_from_a_position():
    """I20 with I7: 3 are dealt face up at setup — also when the game starts from a position with
    the module on."""
    state = GAME.setup(header_for(position(SEATS3), expeditions="on"))
    dealt = [c.id for c in state.expeditions]
    assert len(set(dealt)) == 3
    assert set(dealt) <= {e.id for e in expeditions()}
    assert GAME.setup(header_for(position(SEATS3))).expeditions == ()  # not without the module


def test_i20_first_second_nobody_else():
    """I20: the first player to complete a mission scores the first circle at once, the second
    scores the second, nobody else scores it."""
    state = with_cards(
        start(
            hands={"ann": "ccc", "bob": "ccc", "cy": "ttt"},
            tents={"ann": [12], "bob": [16], "cy": [39]},
        ),
        "water-reach",
    )
    state, effects = turn(state, "4 tent13 c")
    assert effects_of(effects, ExpeditionCompleted) == [
        ExpeditionCompleted(seat=0, card="water-reach", points=4)
    ]
    assert state.scores == (4, 0, 0)
    state, effects = turn(state, "10 tent40 c")
    assert effects_of(effects, ExpeditionCompleted) == [
        ExpeditionCompleted(seat=1, card="water-reach", points=2)
    ]
    state, effects = turn(state, "14 tent57 t")
    assert effects_of(effects, ExpeditionCompleted) == []
    assert state.scores == (4, 2, 0)
    assert state.expeditions[0].claimed == (0, 1)


@pytest.mark.parametrize(
    ("card", "hand", "tents", "totems", "move", "points"),
    [
        ("five-terrains", "ddd", {"ann": [1, 8, 13, 22]}, {}, "12 tent50 d", 6),
        ("long-settlement", "ttt", {"ann": [16, 17, 18, 19, 20]}, {}, "5 tent21 t", 6),
        ("two-settlements", "ttt", {"ann": [16, 17, 18, 19, 27, 28, 29]}, {}, "7 tent30 t", 7),
        ("last-space-desert", "ddd", {"bob": [50, 51]}, {}, "12 tent52 d", 4),
        ("totem-chain", "ttt", {"ann": [16, 22, 27]}, {5: 1, 6: 1}, "7 totem t", 6),
        ("water-reach", "ccc", {"ann": [12]}, {}, "4 tent13 c", 4),
        ("six-territories", "ddd", {"ann": [1, 8, 13, 16, 22]}, {}, "12 tent50 d", 5),
        ("majority-three", "ttt", {"ann": [1, 4]}, {}, "3 tent8 t", 5),
    ],
)
def test_i20_each_mission(card, hand, tents, totems, move, points):
    """I20: the first player to complete a mission scores the first circle at once
    (data/expeditions.json)."""
    assert {e.id: e.points[0] for e in expeditions()}[card] == points
    layout = {"tents": tents} | ({"totems": {"ann": totems}} if totems else {})
    state = with_cards(start(hands={"ann": hand}, **layout), card)
    state, effects = turn(state, move)
    assert effects_of(effects, ExpeditionCompleted) == [
        ExpeditionCompleted(seat=0, card=card, points=points)
    ]
    assert state.scores == (points, 0, 0)


def test_i20_third_tribe_completes_nothing():
    """I20: the first player to complete a mission scores (the third tribe is no player)."""
    state = with_cards(
        start(seats=SEATS2, hands={"ann": "tcc"}, tents={"third": [12]}), "water-reach"
    )
    state, effects = turn(state, "5 tent16 t", "third 4 tent13 cc")
    assert tribe_tents(state, 2) == [12, 13]
    assert effects_of(effects, ExpeditionCompleted) == []
    assert state.scores == (0, 0, 0)
    assert state.expeditions[0].claimed == ()


def test_i20_undealt_cards_do_not_score():
    """I20: 3 are dealt face up at setup: only those can be completed."""
    state = with_cards(start(hands={"ann": "ccc"}, tents={"ann": [12]}), "five-terrains")
    state, effects = turn(state, "4 tent13 c")
    assert effects_of(effects, ExpeditionCompleted) == []
    assert state.scores == (0, 0, 0)


# --- I21: map variants ---------------------------------------------------------------------------


def test_i21_floating_lands_connections_are_paths():
    """I21: floating-lands — connections also act as paths between their two tent spaces, for
    settlements."""
    tents = {"ann": [20, 21, 23, 24]}
    state, effects = final(options={"variant": "floating-lands"}, tents=tents)
    assert settlements(effects) == [(0, (20, 21, 23, 24))]
    assert state.scores == (2 + 2 + 4, 0, 1)
    _, plain = final(tents=tents)
    assert settlements(plain) == []


def test_i21_glacial_mass():
    """I21: glacial-mass — connections 1 and 11 join the same two territories."""
    m = load("standard", ["glacial-mass"])
    assert {m.connection(11).a, m.connection(11).b} == {1, 2}
    layout = {"tents": {"ann": [1, 4]}, "totems": {"ann": {1: 1, 2: 1}}}
    state, effects = final(options={"variant": "glacial-mass"}, **layout)
    assert connection_points(effects) == {1: (2, 0, 0), 11: (2, 0, 0)}
    assert state.scores == (6, 0, 1)
    _, plain = final(**layout)
    assert connection_points(plain) == {1: (2, 0, 0)}


def test_i21_glacial_mass_connection_11_leaves_6_and_10():
    """I21: glacial-mass — connection 11 joins territories 1 and 2 (no longer 6 and 10)."""
    layout = {"tents": {"ann": [22, 40]}, "totems": {"ann": {6: 1, 10: 1}}}
    _, moved = final(options={"variant": "glacial-mass"}, **layout)
    assert connection_points(moved) == {}
    _, plain = final(**layout)
    assert connection_points(plain) == {11: (2, 0, 0)}


def test_i21_long_road():
    """I21: long-road — at the end, the tent majority on the purple road's spaces scores as if
    it were a territory (I12)."""
    state, effects = final(
        options={"variant": "long-road"}, tents={"ann": [17, 19, 21], "bob": [23]}
    )
    road = [e for e in effects_of(effects, TerritoryScored) if e.territory == 0]
    assert road == [TerritoryScored(territory=0, points=(4, 3, 0))]
    assert territory_points(effects) == {0: (4, 3, 0), 5: (3, 0, 0), 6: (0, 1, 0), 14: (0, 0, 1)}
    assert state.scores == (7, 4, 1)


def test_i21_long_road_only_at_the_end():
    """I21: long-road — at the end (not at half-journey)."""
    state, effects = half(
        options={"variant": "long-road"}, tents={"ann": [17, 19, 21], "bob": [23]}
    )
    assert 0 not in territory_points(effects)
    assert state.scores == (4, 1, 0)


def test_i21_variants_combine():
    """I21: map variants (options of `tribes new`), several at once."""
    state, effects = final(
        options={"variant": "floating-lands,long-road"}, tents={"ann": [20, 21, 23, 24]}
    )
    assert settlements(effects) == [(0, (20, 21, 23, 24))]
    assert territory_points(effects)[0] == (2, 0, 0)  # 21 and 23 are on the road
    assert state.scores == (2 + 2 + 4 + 2, 0, 1)


def test_i21_long_road_in_a_two_player_game():
    """I21 with I11: variants work in a 2-player game (the third tribe on the long road)."""
    state, effects = final(
        seats=SEATS2, options={"variant": "long-road"}, tents={"third": [17, 19], "ann": [21]}
    )
    assert territory_points(effects)[0] == (2, 0, 3)
    assert state.scores == (2 + 2, 1, 3 + 3)


def test_i19_union_for_a_new_settlement_beside_an_old_one():
    """I19 Union: "the first and the second player to complete a settlement" — a player whose
    settlement was already on the map (a starting position) earns it by completing another; a
    play that only lengthens the old settlement completes none."""
    state = feats_game(hands={"ann": "ttt"}, tents={"ann": [16, 17, 18, 19, 27, 28, 29]})
    _, effects = play(state, "5 tent20 t")
    assert effects_of(effects, FeatEarned) == []
    state, effects = play(state, "7 tent30 t")
    assert effects_of(effects, FeatEarned) == [FeatEarned(seat=0, kind="union", options=(7,))]
