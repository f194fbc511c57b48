"""Clans rules C1–C7: components, setup and positions (written from games/clans/rules.md)."""

from __future__ import annotations

import copy
import json
from collections import Counter
from importlib import resources

import pytest

from tribes.core.errors import BadData, BadOption, BadPosition
from tribes.core.game import EVERYTHING, SPECTATOR
from tribes.core.header import Header
from tribes.games.clans import board as board_module
from tribes.games.clans.board import COLOURS, Colour
from tribes.replay import logs
from tribes.testing.clans import (
    BOARD,
    CLANS,
    GAME,
    NAMES,
    SEATS2,
    SEATS3,
    from_seed,
    header_for,
    huts,
    move,
    position,
    start,
)

SEEDS = range(12)


def _data(name: str) -> dict:
    return json.loads((resources.files("tribes.games.clans") / "data" / name).read_text())


@pytest.fixture
def board_data() -> dict:
    return _data("board.json")


@pytest.fixture
def chart_data() -> dict:
    return _data("epochs.json")


def _without(data: dict, territory: int) -> dict:
    """``data`` with every border of ``territory`` removed."""
    out = copy.deepcopy(data)
    for key in ("adjacent", "rivers", "lakes"):
        out[key] = [p for p in out.get(key, []) if territory not in p]
    return out


# --- C1: the board ---------------------------------------------------------------------------


def test_c1_default_board_passes_validation(board_data, chart_data):
    """C1: 60 territories, each of one terrain, grouped into 12 regions of 5."""
    board = board_module.validate(board_data, chart_data, "test")
    assert [t.id for t in board.territories] == list(range(1, 61))
    assert {t.terrain for t in board.territories} == {"forest", "mountain", "steppe", "grassland"}
    regions = Counter(t.region for t in board.territories)
    assert len(regions) == 12
    assert set(regions.values()) == {5}


def test_c1_adjacency_is_the_listed_pairs(board_data):
    """C1: two territories are adjacent when the board lists them so; rivers count."""
    listed = {frozenset(p) for p in board_data["adjacent"]}
    for a in range(1, 61):
        for b in range(1, 61):
            if a != b:
                assert BOARD.adjacent(a, b) == (frozenset((a, b)) in listed), (a, b)
    for a, b in board_data["rivers"]:
        assert BOARD.adjacent(a, b)
        assert b in BOARD.neighbours[a] and a in BOARD.neighbours[b]


def test_c1_no_adjacency_across_a_lake(board_data):
    """C1: borders across a lake and the board's edge do not count."""
    assert board_data["lakes"]
    for a, b in board_data["lakes"]:
        assert not BOARD.adjacent(a, b)
        assert b not in BOARD.neighbours[a]


def test_c1_board_listing_a_lake_border_as_adjacent_is_refused(board_data, chart_data):
    """C1: borders across a lake do not count (a board claiming both is broken)."""
    a, b = board_data["lakes"][0]
    board_data["adjacent"].append([a, b])
    with pytest.raises(BadData):
        board_module.validate(board_data, chart_data, "test")


def test_c1_board_of_59_territories_is_refused(board_data, chart_data):
    """C1: the engine takes any board file that passes validation (60 territories ...)."""
    data = _without(board_data, 60)
    data["territories"] = [t for t in data["territories"] if t["id"] != 60]
    with pytest.raises(BadData):
        board_module.validate(data, chart_data, "test")


def test_c1_territory_without_neighbour_is_refused(board_data, chart_data):
    """C1: ... no territory without a neighbour."""
    with pytest.raises(BadData):
        board_module.validate(_without(board_data, 1), chart_data, "test")


def test_c1_disconnected_map_is_refused(board_data, chart_data):
    """C1: ... a connected map."""
    row = {t["id"]: t["r"] for t in board_data["territories"]}
    data = copy.deepcopy(board_data)
    for key in ("adjacent", "rivers"):
        data[key] = [p for p in data[key] if (row[p[0]] <= 0) == (row[p[1]] <= 0)]
    # Sanity: every territory still has a neighbour, so only connectedness is broken.
    touched = {t for p in data["adjacent"] for t in p}
    assert touched == set(range(1, 61))
    with pytest.raises(BadData):
        board_module.validate(data, chart_data, "test")


def test_c1_region_of_wrong_size_is_refused(board_data, chart_data):
    """C1: ... 60 territories in 12 regions of 5."""
    data = copy.deepcopy(board_data)
    first = next(t for t in data["territories"] if t["id"] == 1)
    other = next(t for t in data["territories"] if t["region"] != first["region"])
    first["region"] = other["region"]
    with pytest.raises(BadData):
        board_module.validate(data, chart_data, "test")


def test_c1_another_valid_board_file_can_be_loaded(board_data, tmp_path):
    """C1: the engine takes any board file that passes validation, so a user with the real
    map can load it."""
    board_data["name"] = "my-map"
    for t in board_data["territories"]:
        t["terrain"] = "forest" if t["terrain"] == "mountain" else t["terrain"]
    good = tmp_path / "good.json"
    good.write_text(json.dumps(board_data))
    assert GAME.check_options({"board": str(good)}) == {"board": str(good)}
    header = Header(
        game="clans",
        rules_version=1,
        seed=3,
        seats=SEATS2,
        options={"board": str(good)},
        files={"board": good.read_text()},  # as tribes new carries it
    )
    state = GAME.setup(header)
    assert all(sum(h) == 1 for h in state.huts[1:])
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(_without(board_data, 1)))
    with pytest.raises(BadOption):
        logs.header(GAME, seats=SEATS2, seed=3, options={"board": str(bad)})


# --- C2: components --------------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_c2_sixty_huts_twelve_of_each_colour(seed):
    """C2: 60 huts, 12 in each of 5 colours: red, yellow, green, blue, black."""
    state = from_seed(seed)
    assert [c.value for c in COLOURS] == ["red", "yellow", "green", "blue", "black"]
    per_colour = [sum(h[i] for h in state.huts[1:]) for i in range(5)]
    assert per_colour == [12] * 5


def test_c2_twelve_village_chips():
    """C2: 12 village chips, each worth 1 point at the end."""
    state = from_seed(1)
    doc = GAME.document(state, SEATS3, EVERYTHING)
    assert doc["chips_left"] == 12
    assert doc["chips"] == {"ann": 0, "bob": 0, "cy": 0}
    assert sum(e.chips for e in BOARD.epochs) == 12


# --- C3: the epoch chart ---------------------------------------------------------------------


def test_c3_epoch_chart():
    """C3: 5 epochs, each with a number of chips (4, 3, 2, 2, 1), a bonus (1, 2, 3, 4, 5),
    favourable and unfavourable terrains. In epoch 5 every terrain is favourable."""
    epochs = BOARD.epochs
    assert [e.number for e in epochs] == [1, 2, 3, 4, 5]
    assert [e.chips for e in epochs] == [4, 3, 2, 2, 1]
    assert [e.bonus for e in epochs] == [1, 2, 3, 4, 5]
    assert epochs[0].favourable == {"forest"} and epochs[0].unfavourable == {"mountain"}
    assert epochs[1].favourable == {"mountain"} and epochs[1].unfavourable == {"grassland"}
    assert epochs[2].favourable == {"steppe"} and epochs[2].unfavourable == {"forest"}
    assert epochs[3].favourable == {"grassland"} and epochs[3].unfavourable == {"steppe"}
    assert epochs[4].favourable == {"forest", "mountain", "steppe", "grassland"}
    assert epochs[4].unfavourable == frozenset()


# --- C4: dealing the huts --------------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_c4_every_territory_one_hut_each_region_one_of_each_colour(seed):
    """C4: Each region gets one hut of each colour, dealt at random to its 5 territories:
    every territory starts with exactly one hut."""
    state = from_seed(seed)
    by_region: dict[int, list[int]] = {}
    for t in BOARD.territories:
        h = state.huts[t.id]
        assert sum(h) == 1, (t.id, h)
        by_region.setdefault(t.region, []).append(h.index(1))
    assert len(by_region) == 12
    for region, colours in by_region.items():
        assert sorted(colours) == [0, 1, 2, 3, 4], region


def test_c4_deal_is_random():
    """C4: ... dealt at random to its 5 territories."""
    deals = [from_seed(seed).huts for seed in SEEDS]
    assert len(set(deals)) == len(deals)  # every seed of these deals another board
    # in every region, each territory gets several colours over the seeds: not a fixed pattern
    for t in BOARD.territories:
        assert len({deal[t.id].index(1) for deal in deals}) >= 2, t.id
    # The same seed deals the same board, in another game object's setup too.
    assert from_seed(5).huts == CLANS.from_seed(5, SEATS3).huts == deals[list(SEEDS).index(5)]


def _empty_handed(state, seats) -> list[str]:
    """What is not as at the start of a game: markers on 0, no chips, no village, epoch 1."""
    doc = CLANS.document(state, seats)
    wrong = []
    if doc["track"] != dict.fromkeys(NAMES, 0) or state.track != (0, 0, 0, 0, 0):
        wrong.append(f"track {doc['track']}")
    if doc["chips"] != dict.fromkeys(seats, 0) or tuple(state.chips) != (0,) * len(seats):
        wrong.append(f"chips {doc['chips']}")
    if (state.epoch, doc["epoch"], doc["chips_left"], state.founded) != (1, 1, 12, 0):
        wrong.append(f"epoch {state.epoch}, {doc['chips_left']} chips left")
    if state.villages or doc["villages"]:
        wrong.append(f"villages {doc['villages']}")
    if state.pending is not None or doc["pending"] is not None or GAME.is_over(state):
        wrong.append("not waiting for the first move")
    if doc["scores"] != dict.fromkeys(seats, 0):
        wrong.append(f"scores {doc['scores']}")
    return wrong


@pytest.mark.parametrize("seats", [SEATS2, SEATS3, ("ann", "bob", "cy", "dee")])
def test_c4_game_starts_empty_handed(seats):
    """Setup: scoring markers at the start of the track, no chips taken, epoch 1 — for every
    seed and number of seats, in the state and in what ``show --json`` says of it."""
    for seed in SEEDS:
        assert _empty_handed(from_seed(seed, seats), seats) == [], seed
    # the check sees a game that is not at its start: chips, track and villages of a position
    board = {1: {"red": 1}, 30: {"blue": 1}, 59: {"green": 1}, 60: {"green": 1}}
    later = start(board, chips={"ann": 1, "bob": 1}, track={"red": 3})
    wrong = [what.split()[0] for what in _empty_handed(later, SEATS2)]
    assert wrong == ["track", "chips", "epoch", "villages", "scores"]


# --- C5: clan cards --------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [SEATS2, SEATS3, ("ann", "bob", "cy", "dee")])
def test_c5_players_get_distinct_colours(seats):
    """C5: Each player gets one clan card (a colour) at random."""
    for seed in SEEDS:
        clans = from_seed(seed, seats).clans
        assert len(clans) == len(seats)
        assert all(isinstance(c, Colour) for c in clans)
        assert len(set(clans)) == len(seats)


def test_c5_clan_cards_are_dealt_at_random():
    """C5: Each player gets one clan card (a colour) at random."""
    deals = [from_seed(seed, SEATS2).clans for seed in range(40)]
    for seat in (0, 1):
        assert {clans[seat] for clans in deals} == set(COLOURS), seat  # every colour comes up
    assert len(set(deals)) >= 10  # and many pairs of them


def test_c5_leftover_cards_stay_unseen():
    """C5: The cards left over are set aside unseen."""
    state = from_seed(4, SEATS2)
    for viewer in (0, 1, SPECTATOR, EVERYTHING):
        doc = GAME.document(state, SEATS2, viewer)
        assert set(doc["clans"]) <= set(SEATS2)
        assert len(doc["clans"]) <= 2


def test_c5_all_colours_play_whatever_the_number_of_players():
    """C5: All 5 colours are on the board whatever the number of players; colours that nobody
    holds still move, found villages and score on the track."""
    state = from_seed(0, SEATS2)
    assert all(sum(h[i] for h in state.huts[1:]) == 12 for i in range(5))
    # Ann is red, Bob blue: a yellow-and-green village scores on the track for nobody's colour.
    state = start(
        {1: {"yellow": 1}, 2: {"green": 1}, 59: {"black": 1}, 60: {"black": 1}},
        clans={"ann": "red", "bob": "blue"},
    )
    assert (2, 1) in {(e.source, e.target) for e in GAME.legal_moves(state)}
    state, _ = move(state, 2, 1)  # village at 1 (forest, epoch 1): 2 + 1
    assert state.track == (0, 3, 3, 0, 0)


# --- C6: start player ------------------------------------------------------------------------


def test_c6_start_player_is_random():
    """C6: The start player is chosen at random."""
    starters = {GAME.to_move(from_seed(seed)) for seed in range(40)}
    assert starters == {0, 1, 2}


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_c6_play_goes_clockwise(seed):
    """C6: play goes clockwise (seat order)."""
    state = from_seed(seed)
    first = GAME.to_move(state)
    for turn in range(7):
        assert GAME.to_move(state) == (first + turn) % 3
        state, _ = GAME.apply(state, GAME.legal_moves(state)[0])


# --- C7: positions ---------------------------------------------------------------------------


def test_c7_position_is_loaded():
    """C7: A game may instead start from a position: hut counts per territory and colour, clan
    cards, start player, epoch, chips taken, track scores."""
    state = start(
        {1: {"red": 2, "blue": 1}, 2: {"black": 3}, 40: {"green": 1}, 41: {"yellow": 4}},
        seats=SEATS3,
        clans={"ann": "yellow", "bob": "black", "cy": "red"},
        to_move="cy",
        chips={"ann": 2, "bob": 2, "cy": 1},
        track={"red": 7, "black": 12, "green": 3},
    )
    assert state.huts[1] == huts(red=2, blue=1)
    assert state.huts[2] == huts(black=3)
    assert state.huts[40] == huts(green=1)
    assert state.huts[41] == huts(yellow=4)
    assert sum(sum(h) for h in state.huts[1:]) == 11
    assert state.clans == (Colour.YELLOW, Colour.BLACK, Colour.RED)
    assert GAME.to_move(state) == 2
    assert tuple(state.chips) == (2, 2, 1)
    assert state.track == (7, 0, 3, 0, 12)
    assert state.epoch == 2  # 5 chips taken: the 4 of epoch 1 and one of epoch 2


@pytest.mark.parametrize(
    ("taken", "epoch"), [(0, 1), (3, 1), (4, 2), (6, 2), (7, 3), (8, 3), (9, 4), (10, 4), (11, 5)]
)
def test_c7_chips_taken_decide_the_epoch(taken, epoch):
    """C7: ... epoch, chips taken (C12: when an epoch's last chip is taken, the next begins)."""
    state = start(
        {1: {"red": 1}, 2: {"blue": 1}}, chips={"ann": taken - taken // 2, "bob": taken // 2}
    )
    assert state.epoch == epoch
    assert GAME.document(state, SEATS2, EVERYTHING)["chips_left"] == 12 - taken


def _refused_position(pos: dict, *says: str) -> BadPosition:
    """The BadPosition that ``pos`` is refused with; its message says each of ``says`` (the
    offending value and what is wrong with it, not just any refusal)."""
    with pytest.raises(BadPosition) as caught:
        GAME.setup(header_for(pos))
    for words in says:
        assert words in str(caught.value), (words, str(caught.value))
    return caught.value


def test_c7_thirteen_huts_of_a_colour_are_refused():
    """C7: The position is validated (no more than 12 huts of a colour, ...)."""
    _refused_position(position({1: {"red": 7}, 2: {"red": 6}}), "13 red huts", "only 12")
    # Twelve is fine.
    assert sum(h[0] for h in start({1: {"red": 6}, 2: {"red": 6}}).huts[1:]) == 12


@pytest.mark.parametrize("territory", ["61", "0", "-3", "forest"])
def test_c7_unknown_territory_is_refused(territory):
    """C7: The position is validated (... known territories, ...)."""
    pos = position({1: {"red": 1}, 2: {"blue": 1}})
    pos["huts"][territory] = {"green": 1}
    _refused_position(pos, f"unknown territory '{territory}'", "1 to 60")


def test_c7_unknown_colour_is_refused():
    """C7: The position is validated and refused with a clear message otherwise."""
    _refused_position(
        position({1: {"red": 1}, 2: {"purple": 1}}), "unknown colour 'purple'", ", ".join(NAMES)
    )


def test_c7_negative_hut_count_is_refused():
    """C7: hut counts per territory and colour are validated."""
    _refused_position(
        position({1: {"red": 1}, 2: {"blue": -1, "green": 2}}),
        "territory 2: blue huts",
        "got -1",
    )


def test_c7_duplicate_clan_colour_is_refused():
    """C7/C5: clan cards are distinct, one per colour."""
    _refused_position(
        position({1: {"red": 1}, 2: {"blue": 1}}, clans={"ann": "red", "bob": "red"}),
        "two seats hold the same clan colour",
    )


def test_c7_unknown_clan_colour_or_seat_is_refused():
    """C7: clan cards and start player are validated."""
    _refused_position(
        position({1: {"red": 1}, 2: {"blue": 1}}, clans={"ann": "red", "bob": "pink"}),
        "unknown colour 'pink'",
    )
    _refused_position(
        position({1: {"red": 1}, 2: {"blue": 1}}, to_move="zed"), "to_move 'zed' is not a seat"
    )


def test_c7_too_few_chips_for_the_villages_is_refused():
    """C7 / C11 / C12: an occupied territory whose neighbours are all empty is a village, and
    each village took a chip: a position with more villages than chips taken is refused."""
    board = {1: {"red": 1}, 30: {"blue": 1}, 59: {"green": 1}, 60: {"green": 1}}
    _refused_position(position(board, chips={"ann": 1}), "2 territories are villages")
    state = start(board, chips={"ann": 1, "bob": 1})
    assert state.epoch == 1
    assert state.founded == 2


def test_c7_too_many_chips_are_refused():
    """C2 / C7: there are 12 village chips."""
    _refused_position(
        position({1: {"red": 1}, 2: {"blue": 1}}, chips={"ann": 7, "bob": 6}),
        "13 chips taken",
        "at most 11",
    )
    _refused_position(
        position({1: {"red": 1}, 2: {"blue": 1}}, chips={"ann": -1}), "chips of ann", "got -1"
    )


def test_c7_colours_are_named_as_in_the_rules():
    """C2: the five colours, and position documents name them."""
    assert NAMES == ("red", "yellow", "green", "blue", "black")
