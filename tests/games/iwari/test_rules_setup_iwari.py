"""Iwari rules I1–I7: components, setup and positions (written from games/iwari/rules.md)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from tribes.core.errors import BadOption, BadPosition
from tribes.games.iwari.board import TERRAINS, Terrain, load
from tribes.games.iwari.state import Phase
from tribes.replay import logs
from tribes.testing.iwari import (
    GAME,
    SEATS2,
    SEATS3,
    SEATS4,
    SEATS5,
    connection_points,
    counts,
    final,
    from_seed,
    hand,
    header_for,
    letters,
    play,
    position,
    refill,
    start,
    total,
    tribe_tents,
)

SEEDS = range(40)
ALL_SEATS = {2: SEATS2, 3: SEATS3, 4: SEATS4, 5: SEATS5}
PEAKS = {1: (3, 10), 2: (2, 8), 3: (4, 12), 4: (7, 15)}
"""The standard map's two connections of each mountain symbol."""


def cards_by_terrain(state) -> tuple[int, ...]:
    """Every card of the game, wherever it is, counted by terrain."""
    found = Counter(c for c in (*state.deck, *state.display, *state.discard) if c is not None)
    return tuple(found[t] + sum(h[i] for h in state.hands) for i, t in enumerate(TERRAINS))


# --- I1: the map ---------------------------------------------------------------------------------


def test_i1_standard_map_structure():
    """I1: territories, each of one terrain, with tent spaces; 18 numbered connections over land
    or water; 8 connections carry a mountain symbol of 1, 2, 3 or 4 peaks (two of each)."""
    m = load()
    assert len(m.territories) == 15
    assert {t.terrain for t in m.territories} == set(Terrain)
    assert all(t.spaces for t in m.territories)
    assert m.spaces == 63
    assert [c.id for c in m.connections] == list(range(1, 19))
    assert {c.id for c in m.connections if c.water} == {5, 10, 13, 17}
    peaks = Counter(c.peaks for c in m.connections if c.peaks)
    assert peaks == {1: 2, 2: 2, 3: 2, 4: 2}


def test_i1_paths_join_spaces_inside_and_across_borders():
    """I1: printed paths join tent spaces, inside a territory and across some borders."""
    m = load()
    assert 17 in m.links[16] and 18 in m.links[17]  # inside territory 5
    assert 18 in m.links[2]  # territory 1 to territory 5
    assert 23 not in m.links[21]  # connection 6's ends are not joined by a path


def test_i1_any_valid_map_file(tmp_path, standard_map_data):
    """I1: the engine takes any map file that passes validation."""
    data = standard_map_data
    data["territories"][5]["terrain"] = "desert"  # territory 6 becomes a desert
    path = tmp_path / "other.json"
    path.write_text(json.dumps(data))
    state = start(hands={"ann": "dtt"}, options={"map": str(path)})
    state, _ = play(state, "6 tent22 d")
    assert tribe_tents(state, 0) == [22]


def test_i1_invalid_map_file_refused(tmp_path, standard_map_data):
    """I1: ... a map file that passes validation (one that does not is refused)."""
    data = standard_map_data
    data["paths"].append([1, 999])
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(BadOption, match="path 1-999"):  # read when a log is made
        logs.header(GAME, seats=["ann", "bob"], seed=1, options={"map": str(path)})


# --- I2: the deck --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "expected", "size"),
    [
        (2, (11, 10, 9, 9, 8), 47),
        (3, (11, 10, 9, 9, 8), 47),
        (4, (12, 11, 10, 10, 9), 52),
        (5, (13, 12, 11, 11, 10), 57),
    ],
)
def test_i2_deck_size_by_player_count(players, expected, size):
    """I2: 57 cards: 13 tundra, 12 forest, 11 glacier, 11 coast, 10 desert. With 4 players
    remove 1 card of each terrain (52); with 2 or 3 players remove 2 of each (47); with 5 use
    all 57."""
    state = from_seed(3, ALL_SEATS[players])
    assert cards_by_terrain(state) == expected
    assert sum(expected) == size
    assert counts(players) == expected


def test_i2_position_with_the_wrong_deck_refused():
    """I2: with 2 or 3 players remove 2 cards of each terrain (47 cards, not 52)."""
    pos = position(SEATS3)
    pos["deck"] += "tfgcd"
    with pytest.raises(BadPosition):
        GAME.setup(header_for(pos))


# --- I3: supplies --------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_i3_supplies(players):
    """I3: each player (and the third tribe of a 2-player game) has 21 tents and 8 totems."""
    state = from_seed(1, ALL_SEATS[players])
    tribes = players + 1 if players == 2 else players
    assert state.tent_supply == (21,) * tribes
    assert state.totem_supply == (8,) * tribes
    assert state.scores == (0,) * tribes


# --- I4: the deal --------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_i4_deal(players):
    """I4: shuffle the deck. Deal 3 cards to each player; lay 4 cards face up as the display."""
    state = from_seed(5, ALL_SEATS[players])
    assert [sum(h) for h in state.hands] == [3] * players
    assert len(state.display) == 4
    assert None not in state.display
    assert len(state.deck) == total(players) - 3 * players - 4
    assert state.discard == ()


def test_i4_deck_is_shuffled():
    """I4: shuffle the deck (different seeds, different orders; the same seed, the same)."""
    states = [from_seed(seed) for seed in range(6)]
    orders = {letters(state.deck) for state in states}
    assert len(orders) == 6
    # each a shuffle of the same cards: with the hands and the display, the whole deck of I2
    for state in states:
        cards = letters(state.deck) + letters(state.display)
        cards += "".join(hand(state, seat) for seat in range(3))
        whole = "".join(c * n for c, n in zip("tfgcd", counts(3), strict=True))
        assert sorted(cards) == sorted(whole)
    assert letters(from_seed(4).deck) == letters(states[4].deck)


# --- I5: mountains -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "symbols"), [(2, (1, 2, 3, 4)), (3, (1, 2, 3)), (4, (1, 2)), (5, (1,))]
)
def test_i5_one_connection_of_each_listed_symbol_covered(players, symbols):
    """I5: for each peak type listed for the player count (2 players: 1, 2, 3, 4; 3: 1, 2, 3;
    4: 1, 2; 5: 1), cover one of the two connections with that symbol."""
    for seed in range(10):
        covered = set(from_seed(seed, ALL_SEATS[players]).covered)
        assert len(covered) == len(symbols)
        for peak in symbols:
            assert len(covered & set(PEAKS[peak])) == 1
        assert covered <= {c for p in symbols for c in PEAKS[p]}


def test_i5_choice_is_random():
    """I5: ... cover one of the two connections with that symbol, chosen at random."""
    seen = {peak: set() for peak in PEAKS}
    for seed in SEEDS:
        covered = set(from_seed(seed, SEATS2).covered)
        for peak, pair in PEAKS.items():
            seen[peak] |= covered & set(pair)
    assert seen == {peak: set(pair) for peak, pair in PEAKS.items()}


def test_i5_covered_connection_never_scores():
    """I5: covered connections never score."""
    layout = {
        "tents": {"ann": [16, 22]},
        "totems": {"ann": {5: 1, 6: 1}},
    }
    _, open_effects = final(**layout)
    assert connection_points(open_effects) == {6: (2, 0, 0)}
    state, effects = final(covered=[6], **layout)
    assert connection_points(effects) == {}
    assert state.scores == (2, 0, 1)  # one tent in 5 and one in 6; cy's tent in 14


# --- I6: start player ----------------------------------------------------------------------------


def test_i6_random_start_player():
    """I6: random start player."""
    starts = {from_seed(seed).start for seed in SEEDS}
    assert starts == {0, 1, 2}
    for seed in range(5):
        state = from_seed(seed)
        assert state.to_move == state.start
        assert GAME.to_move(state) == state.start


def test_i6_clockwise():
    """I6: clockwise (seat order)."""
    state = start(hands={"bob": "ttt", "cy": "ttt"}, to_move="bob", start="bob")
    assert GAME.to_move(state) == 1
    state, _ = play(state, "3 tent8 t")
    state, _ = refill(state)
    assert GAME.to_move(state) == 2
    state, _ = play(state, "7 tent27 t")
    state, _ = refill(state)
    assert GAME.to_move(state) == 0
    assert state.phase is Phase.ACTION


# --- I7: positions -------------------------------------------------------------------------------


def test_i7_position_is_taken_as_given():
    """I7: a game may start from a position (pieces on the map, hands, deck order, display,
    scores)."""
    pos = position(
        SEATS2,
        hands={"ann": "tcc", "bob": "dd"},
        to_move="bob",
        start="ann",
        display="fgc",
        deck="dtg",
        tents={"ann": [16, 17], "bob": [22], "third": [40]},
        totems={"ann": {5: 2}},
        scores={"ann": 7, "third": 3},
        covered=[4],
    )
    state = GAME.setup(header_for(pos))
    assert hand(state, 0) == "tcc" and hand(state, 1) == "dd"
    assert state.to_move == 1 and state.start == 0
    assert letters(state.display) == "fgc-"
    assert letters(state.deck) == "dtg"
    assert len(state.discard) == 47 - 5 - 3 - 3
    assert tribe_tents(state, 0) == [16, 17]
    assert tribe_tents(state, 1) == [22]
    assert tribe_tents(state, 2) == [40]
    assert state.totems[5] == (2, 0, 0)
    assert state.tent_supply == (19, 20, 20)
    assert state.totem_supply == (6, 8, 8)
    assert state.scores == (7, 0, 3)
    assert state.covered == (4,)


@pytest.mark.parametrize(
    ("kwargs", "change"),
    [
        ({"tents": {"ann": [16], "bob": [16]}}, {}),  # two tents on one space
        ({"tents": {"ann": [64]}}, {}),  # no such space
        ({"tents": {"ann": list(range(1, 23))}}, {}),  # 22 tents
        ({"totems": {"ann": {16: 1}}}, {}),  # no such territory
        ({"tents": {"ann": list(range(16, 22))}, "totems": {"ann": {5: 9}}}, {}),  # 9 totems
        ({}, {"to_move": "zed"}),
        ({"hands": {"ann": "tfgc"}}, {}),  # a hand of 4
        ({"display": "tfgcd"}, {}),  # a display of 5
        ({"covered": [19]}, {}),
        ({"deck_outs": 2}, {}),
        ({"scores": {"ann": -1}}, {}),
        ({}, {"colour": "red"}),  # unknown key
        ({}, {"deck": "t"}),  # cards missing
    ],
)
def test_i7_invalid_position_refused(kwargs, change):
    """I7: [a position] is validated and refused with a clear message otherwise."""
    pos = position(SEATS3, **kwargs) | change
    with pytest.raises(BadPosition) as info:
        GAME.setup(header_for(pos))
    assert info.value.message


def test_i7_totems_without_tents_refused():
    """I7 with I8: a position is validated — and no totem stands where there is no tent (nor
    more totems than the most tents of a single tribe there), so such a position is refused."""
    for totems in ({"ann": {"6": 1}}, {"ann": {"5": 2}}):
        pos = position(SEATS3, tents={"ann": [16]}) | {"totems": totems}
        with pytest.raises(BadPosition):
            GAME.setup(header_for(pos))
