"""Hunters and Gatherers H1–H4 (components, setup, positions) and H23 (views), written from
games/hunters/rules.md and the contract only."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hunters_helpers import (
    TILE_DATA,
    TILES,
    check_layout,
    doc,
    find,
    game,
    header,
    pieces,
    position,
    start,
    supply,
)

from tribes.core.errors import BadData, BadOption, BadPosition, TribesError, UsageError

START = 56
"""The start tile (kind "start"): N meadow, E and S one forest with gold, W a river into a lake."""

# --- H1: the tiles ------------------------------------------------------------------------------


def test_h1_the_tile_file_holds_1_start_78_land_and_12_bonus_tiles():
    kinds = Counter(t["kind"] for t in TILE_DATA["tiles"])
    assert kinds == {"start": 1, "land": 78, "bonus": 12}
    assert [t["id"] for t in TILE_DATA["tiles"] if t["kind"] == "start"] == [START]


def test_h1_the_game_deals_every_land_and_bonus_tile():
    """H1/H3: 78 land tiles (one drawn at once, the rest in the stack) and 12 bonus tiles."""
    d = doc(start(seed=5))
    assert d["stack"] + len(d["removed"]) + 1 == 78
    assert d["bonus_stack"] == 12
    assert d["drawn"] in {t for t, v in TILES.items() if v["kind"] == "land"}


def test_h1_a_tile_file_that_fails_validation_is_refused(tmp_path):
    """H1 (contract, option tiles=PATH): a river side must be 3 parts, bank river bank."""
    data = json.loads(json.dumps(TILE_DATA))
    first = data["tiles"][0]
    assert first["edges"][0] == "R"
    first["sides"][0] = first["sides"][0][:2]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    with pytest.raises((BadData, BadOption)):
        start(options={"tiles": str(bad)})


def test_h1_a_tile_file_without_a_start_tile_is_refused(tmp_path):
    data = json.loads(json.dumps(TILE_DATA))
    data["tiles"] = [t for t in data["tiles"] if t["kind"] != "start"]
    bad = tmp_path / "nostart.json"
    bad.write_text(json.dumps(data))
    with pytest.raises((BadData, BadOption)):
        start(options={"tiles": str(bad)})


def test_h1_a_lake_must_be_a_lake_feature_of_the_same_tile(tmp_path):
    data = json.loads(json.dumps(TILE_DATA))
    river = next(f for f in data["tiles"][0]["features"] if f["type"] == "river")
    river["lake"] = 77
    bad = tmp_path / "nolake.json"
    bad.write_text(json.dumps(data))
    with pytest.raises((BadData, BadOption)):
        start(options={"tiles": str(bad)})


def test_h1_a_valid_copy_of_the_tile_file_is_played(tmp_path):
    copy = tmp_path / "copy.json"
    copy.write_text(json.dumps(TILE_DATA))
    a = doc(start(seed=3, options={"tiles": str(copy)}))
    b = doc(start(seed=3))
    assert a == b


# --- H2: each player's pieces -------------------------------------------------------------------


@pytest.mark.parametrize("seats", [("ann", "bob"), ("ann", "bob", "cy", "dee", "eve")])
def test_h2_each_player_has_5_members_and_2_huts(seats):
    d = doc(start(seats=seats, seed=2), seats)
    assert supply(d) == dict.fromkeys(seats, (5, 2))
    assert d["pieces"] == []
    assert d["scores"] == dict.fromkeys(seats, 0)


@pytest.mark.parametrize("seats", [("ann",), ("a", "b", "c", "d", "e", "f")])
def test_h2_two_to_five_players(seats):
    with pytest.raises(UsageError):
        start(seats=seats)


def test_h2_pieces_on_the_board_come_out_of_the_supply():
    """H2/H4: supply = 5 members and 2 huts less what is on the board."""
    pos = position(
        [(0, 0, START, 0)],
        pieces=[(0, 0, 1, "gatherer", "bob"), (0, 0, 8, "hut", "bob"), (0, 0, 0, "hunter", "ann")],
        stack=[34, 62],
    )
    d = doc(start(pos))
    assert supply(d) == {"ann": (4, 2), "bob": (4, 1)}


# --- H3: setup ---------------------------------------------------------------------------------


def test_h3_the_start_tile_lies_face_up_at_the_origin():
    d = doc(start(seed=11))
    assert d["tiles"] == [{"x": 0, "y": 0, "tile": START, "rotation": 0}]
    assert d["over"] is False
    assert d["pending"] is None
    assert d["winners"] == []


def test_h3_the_start_player_is_drawn_at_random():
    """H3: random start player: over a few seeds both seats start."""
    starters = {doc(start(seed=s))["to_move"] for s in range(1, 40)}
    assert starters == {"ann", "bob"}


def test_h3_the_land_stack_is_shuffled():
    drawn = {doc(start(seed=s))["drawn"] for s in range(1, 40)}
    assert len(drawn) > 5


def test_h3_the_same_seed_gives_the_same_game():
    assert doc(start(seed=99)) == doc(start(seed=99))
    state = start(seed=99)
    g = game()
    moves = g.legal_moves(state)
    assert moves
    first = g.apply(state, moves[0])[0]
    second = g.apply(start(seed=99), moves[0])[0]
    assert doc(first) == doc(second)


# --- H4: positions -----------------------------------------------------------------------------


def test_h4_a_position_sets_tiles_pieces_stacks_and_scores():
    pos = position(
        [(0, 0, 35, 0), (1, 0, 34, 0)],
        pieces=[(1, 0, 2, "hunter", "bob")],
        stack=[62, 61, 37],
        bonus=[81, 80],
        scores={"ann": 3, "bob": 4},
        to_move="bob",
    )
    d = doc(start(pos))
    assert d["tiles"] == pos["tiles"]
    assert pieces(d) == [(1, 0, 2, "hunter", "bob")]
    assert d["drawn"] == 62
    assert d["stack"] == 2
    assert d["bonus_stack"] == 2
    assert d["scores"] == {"ann": 3, "bob": 4}
    assert d["to_move"] == "bob"
    assert d["removed"] == []


def test_h4_to_move_defaults_to_the_first_seat_and_scores_to_zero():
    pos = position([(0, 0, 35, 0)], stack=[34, 62])
    del pos["to_move"]
    d = doc(start(pos))
    assert d["to_move"] == "ann"
    assert d["scores"] == {"ann": 0, "bob": 0}


def test_h4_the_start_tile_need_not_be_placed():
    d = doc(start(position([(5, 5, 35, 0)], stack=[34, 62])))
    assert [t["tile"] for t in d["tiles"]] == [35]


def test_h4_without_a_stack_the_unplaced_land_tiles_are_shuffled():
    d = doc(start(position([(0, 0, 35, 0), (1, 0, 34, 0)])))
    assert d["stack"] + 1 + len(d["removed"]) == 76
    assert d["drawn"] not in (34, 35)
    assert d["bonus_stack"] == 12


def _bad(pos):
    with pytest.raises(BadPosition) as info:
        start(pos)
    return info.value.message


def test_h4_a_side_that_does_not_match_is_refused():
    # 34 turned once shows its forest north: its west side is meadow against 35's forest.
    pos = position([(0, 0, 35, 0), (1, 0, 34, 1)], stack=[62], check=False)
    with pytest.raises(AssertionError):
        check_layout([(0, 0, 35, 0), (1, 0, 34, 1)])
    assert "tiles[1]" in _bad(pos)


def test_h4_a_tile_that_touches_no_earlier_tile_is_refused():
    pos = position([(0, 0, 35, 0), (3, 3, 34, 0)], stack=[62], check=False)
    assert "tiles[1]" in _bad(pos)


def test_h4_a_tile_placed_twice_is_refused():
    pos = position([(0, 0, 61, 0), (1, 0, 61, 0)], stack=[62], check=False)
    _bad(pos)


def test_h4_two_tiles_on_one_cell_are_refused():
    pos = position([(0, 0, 61, 0), (0, 0, 62, 0)], stack=[35], check=False)
    _bad(pos)


def test_h4_an_unknown_tile_is_refused():
    _bad(position([(0, 0, 500, 0)], stack=[62], check=False))
    _bad(position([(0, 0, 61, 0)], stack=[500], check=False))


def test_h4_a_rotation_out_of_range_is_refused():
    _bad(position([(0, 0, 61, 4)], stack=[62], check=False))


def test_h4_a_stack_tile_already_placed_is_refused():
    _bad(position([(0, 0, 61, 0)], stack=[61, 62]))


def test_h4_a_piece_of_the_wrong_kind_is_refused():
    _bad(position([(0, 0, 35, 0)], pieces=[(0, 0, 0, "gatherer", "ann")], stack=[62]))
    _bad(position([(0, 0, 35, 0)], pieces=[(0, 0, 1, "hunter", "ann")], stack=[62]))


def test_h4_a_member_on_a_lake_is_refused():
    _bad(position([(0, 0, START, 0)], pieces=[(0, 0, 8, "fisher", "ann")], stack=[62]))


def test_h4_a_piece_on_an_empty_cell_or_missing_feature_is_refused():
    _bad(position([(0, 0, 35, 0)], pieces=[(1, 0, 0, "hunter", "ann")], stack=[62]))
    _bad(position([(0, 0, 35, 0)], pieces=[(0, 0, 7, "hunter", "ann")], stack=[62]))


def test_h4_two_members_in_one_joined_feature_are_refused():
    tiles = [(0, 0, 35, 0), (1, 0, 34, 0)]  # 35's east forest meets 34's west forest
    _bad(
        position(
            tiles,
            pieces=[(0, 0, 1, "gatherer", "ann"), (1, 0, 3, "gatherer", "bob")],
            stack=[62],
        )
    )


def test_h4_two_huts_in_one_river_system_are_refused():
    # 52 (river west-east) against the start tile's west river: one system with its lake.
    tiles = [(0, 0, START, 0), (-1, 0, 52, 0)]
    _bad(position(tiles, pieces=[(0, 0, 8, "hut", "ann"), (-1, 0, 1, "hut", "bob")], stack=[62]))


def test_h4_a_seat_with_more_than_its_pieces_on_the_board_is_refused():
    # Tile 14: three separate forests, a spring river and two meadows: six features.
    assert 14 in find("RFFF", where=lambda t: len(t["features"]) == 6)
    tiles = [(0, 0, 14, 0)]
    six = [
        (0, 0, 3, "gatherer", "ann"),
        (0, 0, 4, "gatherer", "ann"),
        (0, 0, 5, "gatherer", "ann"),
        (0, 0, 1, "fisher", "ann"),
        (0, 0, 0, "hunter", "ann"),
        (0, 0, 2, "hunter", "ann"),
    ]
    _bad(position(tiles, pieces=six, stack=[57]))
    # five is fine
    d = doc(start(position(tiles, pieces=six[:5], stack=[57])))
    assert supply(d)["ann"] == (0, 2)


def test_h4_an_unknown_seat_is_refused():
    _bad(position([(0, 0, 35, 0)], pieces=[(0, 0, 0, "hunter", "zed")], stack=[62]))
    _bad(position([(0, 0, 35, 0)], stack=[62], to_move="zed"))


def test_h4_an_empty_stack_ends_the_game_at_once():
    """H4 (contract): an empty stack with no tile to draw: over at once, final scoring run."""
    pos = position([(0, 0, 62, 0)], pieces=[(0, 0, 0, "hunter", "bob")], stack=[], bonus=[])
    d = doc(start(pos))
    assert d["over"] is True
    assert d["drawn"] is None
    assert d["to_move"] is None
    assert d["scores"] == {"ann": 0, "bob": 2}
    assert d["winners"] == ["bob"]


def test_h4_the_header_checks_the_position():
    with pytest.raises(TribesError):
        header(position([(0, 0, 35, 0), (1, 0, 34, 1)], stack=[62], check=False))


# --- H23: views ---------------------------------------------------------------------------------


def _view_state(stack):
    pos = position(
        [(0, 0, 35, 0), (1, 0, 38, 0)],
        pieces=[(1, 0, 2, "hunter", "bob"), (0, 0, 1, "gatherer", "ann")],
        stack=stack,
        bonus=[81, 80, 79],
        scores={"ann": 2, "bob": 5},
    )
    return start(pos)


def test_h23_everyone_sees_tiles_pieces_supplies_scores_and_the_drawn_tile():
    state = _view_state([62, 61, 37])
    full = doc(state)
    for viewer in (None, 0, 1):
        seen = doc(state, viewer=viewer)
        for key in ("tiles", "pieces", "supply", "scores", "drawn", "to_move", "removed"):
            assert seen[key] == full[key], (viewer, key)
    assert full["drawn"] == 62


def test_h23_the_stacks_show_as_counts():
    d = doc(_view_state([62, 61, 37]))
    assert d["stack"] == 2
    assert d["bonus_stack"] == 3


@pytest.mark.parametrize("viewer", ["all", None, 0, 1])
def test_h23_nobody_sees_the_order_of_the_stacks(viewer):
    a = doc(_view_state([62, 61, 37]), viewer=viewer)
    b = doc(_view_state([62, 37, 61]), viewer=viewer)
    assert a == b
    rendered_a = game().render(_view_state([62, 61, 37]), ("ann", "bob"), viewer)
    rendered_b = game().render(_view_state([62, 37, 61]), ("ann", "bob"), viewer)
    assert rendered_a == rendered_b


def test_h4_removed_tiles_of_a_position_stay_out_of_the_game():
    d = doc(start(position([(0, 0, 35, 0)], removed=[33])))
    assert d["removed"][0] == 33  # (and any tile that fitted nowhere when drawn)
    assert d["stack"] + 1 + len(d["removed"]) == 78 - 1
    assert d["drawn"] != 33


def test_h4_a_tile_both_placed_and_removed_is_refused():
    _bad(position([(0, 0, 35, 0)], stack=[62], removed=[35]))


def test_h4_a_tile_both_in_the_stack_and_removed_is_refused():
    _bad(position([(0, 0, 35, 0)], stack=[62, 61], removed=[61]))


@pytest.mark.parametrize(
    ("patch", "field"),
    [
        ({"tiles": 5}, "tiles"),
        ({"tiles": []}, "tiles"),
        ({"tiles": [{"y": 0, "tile": 35, "rotation": 0}]}, "tiles[0]"),
        ({"tiles": [{"x": "0", "y": 0, "tile": 35, "rotation": 0}]}, "tiles[0]"),
        ({"tiles": [{"x": 0.5, "y": 0, "tile": 35, "rotation": 0}]}, "tiles[0]"),
        ({"tiles": [{"x": 0, "y": 0, "tile": 35, "rotation": -1}]}, "tiles[0]"),
        ({"tiles": [{"x": 0, "y": 0, "tile": "35", "rotation": 0}]}, "tiles[0]"),
        ({"pieces": {}}, "pieces"),
        (
            {"pieces": [{"x": 1, "y": 0, "feature": 2, "kind": "wizard", "seat": "bob"}]},
            "pieces[0]",
        ),
        (
            {"pieces": [{"x": 1, "y": 0, "feature": "2", "kind": "hunter", "seat": "bob"}]},
            "pieces[0]",
        ),
        ({"stack": 3}, "stack"),
        ({"stack": [62, 80]}, "stack[1]"),  # a bonus tile in the land stack
        ({"stack": [62, 56]}, "stack[1]"),  # the start tile
        ({"bonus_stack": [81, 81]}, "bonus_stack[1]"),
        ({"scores": {"zed": 3}}, "scores"),
        ({"scores": {"ann": -3}}, "scores"),
        ({"scores": {"ann": "3"}}, "scores"),
        ({"to_move": 0}, "to_move"),
        ({"removed": [999]}, "removed[0]"),
        ({"removed": [33, 33]}, "removed[1]"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_h4_a_malformed_position_names_the_field(patch, field):
    pos = position(
        [(0, 0, 35, 0), (1, 0, 38, 0)],
        pieces=[(1, 0, 2, "hunter", "bob")],
        stack=[62, 61],
        bonus=[81],
    )
    pos.update(patch)
    assert field in _bad(pos)


def _mutated(tmp_path, change):
    data = json.loads(json.dumps(TILE_DATA))
    change(data)
    path = tmp_path / "tiles.json"
    path.write_text(json.dumps(data))
    return str(path)


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.update(tiles=3),
        lambda d: d["tiles"][1].update(kind="start"),  # two start tiles
        lambda d: d["tiles"][1].update(id=0),  # an id twice
        lambda d: d["tiles"][1].update(edges="MRFX"),
        lambda d: d["tiles"][1].update(sides=d["tiles"][1]["sides"][:3]),
        lambda d: d["tiles"][0]["sides"].__setitem__(1, [99]),  # no feature 99
        lambda d: d["tiles"][0]["sides"].__setitem__(2, [2]),  # a forest side holding a meadow
        lambda d: d["tiles"][0]["sides"].__setitem__(0, [0, 2, 2]),  # no river in the middle
        lambda d: d["tiles"][0]["features"].append({"id": 0, "type": "meadow"}),  # id twice
        lambda d: d["tiles"][0]["features"][0].update(type="desert"),
        lambda d: d["tiles"][0]["features"][5].update(fish=-1),
        lambda d: d["tiles"][0]["features"][1].update(lake=0),  # names a meadow
        lambda d: d["tiles"][0]["sides"].__setitem__(1, [8]),  # a lake on a side
        lambda d: d.update(tiles=[t for t in d["tiles"] if t["kind"] != "land"]),
    ],
)
def test_h1_a_malformed_tile_file_is_refused(tmp_path, change):
    with pytest.raises((BadData, BadOption)):
        start(options={"tiles": _mutated(tmp_path, change)})


# --- what the start caused: event 0 -------------------------------------------------------------

FITS_NOWHERE_AT_THE_START = {
    "seats": ["ann", "bob"],
    "tiles": [
        {"x": 0, "y": 0, "tile": 61, "rotation": 0},
        {"x": 1, "y": 0, "tile": 62, "rotation": 0},
    ],
    "stack": [13, 17, 30],
    "bonus_stack": [],
}
"""Every open cell needs a meadow, and 13 and 17 are rivers on every side: both fit nowhere."""


def test_h5_tiles_removed_at_the_start_are_told_at_event_0(cli):
    """H5: a drawn tile that fits nowhere is removed; when that happens at the start, before any
    event, ``log`` says so on the line of the start (event 0), and ``log --json`` too."""
    log = cli.from_position(FITS_NOWHERE_AT_THE_START, game="hunters")
    assert cli.show_json(log, "--at", "0")["removed"] == [13, 17]
    start_line, *rest = cli.ok("log", log).splitlines()
    said = " ".join(start_line.split())
    assert said == "0 - start tile 13 fits nowhere: removed; tile 17 fits nowhere: removed"
    assert rest == []
    (record,) = [json.loads(line) for line in cli.ok("log", log, "--json").splitlines()]
    assert record["index"] == 0 and record["event"] is None
    assert [(e["type"], e["tile"]) for e in record["effects"]] == [
        ("TileRemoved", 13),
        ("TileRemoved", 17),
    ]
    cli.ok("act", log, cli.moves(log)[0])
    lines = cli.ok("log", log).splitlines()
    assert [line.split()[0] for line in lines] == ["0", "1"]  # the start stays, event 1 follows


def test_h5_a_removed_tile_of_the_position_itself_is_no_effect():
    """A position's own ``removed`` tiles were removed before it: the start tells only those its
    first draw removes."""
    doc = dict(FITS_NOWHERE_AT_THE_START, stack=[17, 30], removed=[13])
    state = start(doc)
    effects = game().setup_effects(header(doc), state)
    assert state.removed == (13, 17)
    assert [e.describe(["ann", "bob"]) for e in effects] == ["tile 17 fits nowhere: removed"]


def test_h14_a_position_over_at_once_tells_its_scoring_at_event_0(cli):
    """H14: a position whose stack holds nothing that fits is over at once, and the start's
    line tells the end as any last move would (the final scoring, the winners)."""
    doc = dict(FITS_NOWHERE_AT_THE_START, stack=[13, 17])
    log = cli.from_position(doc, game="hunters")
    (line,) = cli.ok("log", log).splitlines()
    assert "tile 13 fits nowhere: removed; tile 17 fits nowhere: removed" in line
    assert "game over: ann 0, bob 0; ann and bob win" in line
