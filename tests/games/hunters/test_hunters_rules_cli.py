"""Hunters and Gatherers through the CLI: a game from a position end to end, and bad input —
illegal moves, bad notation, bad positions and tile files — as one line on stderr, exit 1 (2 for a
usage error such as a bad option file) and a byte-identical log."""

from __future__ import annotations

import json
import re

import pytest
from hunters_helpers import TILE_DATA, cli_log, position

START = 56

# The start tile; 0 drawn (unturned east of it: its west forest meets the start tile's forest).
BASE = position([(0, 0, START, 0)], pieces=[(0, 0, 1, "gatherer", "bob")], stack=[0, 62, 61])


@pytest.fixture
def log(cli):
    return cli_log(cli, BASE)


def _names_rule(line: str, *rules: str) -> None:
    found = re.findall(r"\((H\d+)\)", line)
    assert found, line
    assert found[-1] in rules, line


def test_a_game_from_a_position_plays_end_to_end(cli, log):
    assert "1,0N" in cli.moves(log)
    cli.ok("act", log, "1,0N+g3")
    doc = cli.show_json(log)
    assert doc["game"] == "hunters"
    assert doc["events"] == 1
    assert doc["to_move"] == "bob"
    assert doc["drawn"] == 62
    assert doc["stack"] == 1
    assert {"x": 1, "y": 0, "feature": 3, "kind": "gatherer", "seat": "ann"} in doc["pieces"]
    assert doc["supply"]["ann"] == {"members": 4, "huts": 2}
    out = cli.ok("log", log)
    assert "1,0N+g3" in out
    cli.ok("verify", log)
    cli.ok("show", log)


def test_act_plays_to_the_end_and_show_names_the_winners(cli):
    path = cli_log(cli, position([(0, 0, 35, 0)], stack=[34], bonus=[]))
    cli.ok("act", path, "1,0N+g3")
    doc = cli.show_json(path)
    assert doc["over"] is True
    assert doc["scores"] == {"ann": 4, "bob": 0}
    assert doc["winners"] == ["ann"]
    assert cli.moves(path) == []


def test_a_tile_off_the_frontier(cli, log):
    _names_rule(cli.fails_untouched(log, "act", log, "5,5N"), "H5")
    _names_rule(cli.fails_untouched(log, "act", log, "1,1N"), "H5")
    _names_rule(cli.fails_untouched(log, "act", log, "0,0N"), "H5")


def test_a_side_that_does_not_match(cli, log):
    # 0 turned three times shows its river west, against the start tile's forest
    line = cli.fails_untouched(log, "act", log, "1,0W")
    _names_rule(line, "H5")


def test_a_piece_on_an_occupied_feature(cli, log):
    _names_rule(cli.fails_untouched(log, "act", log, "1,0N+g4"), "H6")


def test_a_tribe_member_on_a_lake(cli, log):
    _names_rule(cli.fails_untouched(log, "act", log, "1,0N+f8"), "H6")


def test_a_piece_of_the_wrong_kind_or_a_missing_feature(cli, log):
    _names_rule(cli.fails_untouched(log, "act", log, "1,0N+g0"), "H6")
    _names_rule(cli.fails_untouched(log, "act", log, "1,0N+h9"), "H6")


def test_a_piece_with_an_empty_supply(cli):
    five = [
        (0, 0, 3, "gatherer", "ann"),
        (0, 0, 4, "gatherer", "ann"),
        (0, 0, 5, "gatherer", "ann"),
        (0, 0, 1, "fisher", "ann"),
        (0, 0, 0, "hunter", "ann"),
    ]
    path = cli_log(cli, position([(0, 0, 14, 0)], pieces=five, stack=[34, 62]))
    _names_rule(cli.fails_untouched(path, "act", path, "1,0N+h0"), "H6")
    cli.ok("act", path, "1,0N")


def test_a_hut_with_no_hut_left(cli):
    huts = [(0, 0, 1, "hut", "ann"), (0, 0, 3, "hut", "ann")]
    path = cli_log(cli, position([(0, 0, 17, 0)], pieces=huts, stack=[70, 62]))
    _names_rule(cli.fails_untouched(path, "act", path, "1,0W+hut3"), "H6")


def test_a_move_while_a_bonus_tile_is_pending_that_is_not_its_placement(cli):
    path = cli_log(cli, position([(0, 0, 35, 0), (1, 0, 38, 0)], stack=[34, 62], bonus=[81]))
    cli.ok("act", path, "2,0N")
    assert cli.show_json(path)["pending"]["tile"] == 81
    # where 81 does not fit (turned once, its forest faces 34's meadow), though 62 would
    line = cli.fails_untouched(path, "act", path, "3,0E")
    _names_rule(line, "H5", "H13")
    cli.ok("act", path, "0,-1S")


def test_a_batch_with_a_late_illegal_move_appends_nothing(cli, log):
    before = log.read_bytes()
    line = cli.fails("act", log, "1,0N", "5,5N")
    assert "event 2" in line
    assert log.read_bytes() == before


def test_a_move_after_the_end(cli):
    path = cli_log(cli, position([(0, 0, 35, 0)], stack=[34]))
    cli.ok("act", path, "1,0N")
    line = cli.fails_untouched(path, "act", path, "0,-1N")
    assert "over" in line or "end" in line


def test_bad_notation(cli, log):
    line = cli.fails_untouched(log, "act", log, "1to0")
    assert "a Hunters and Gatherers move is X,YR" in line


def _new(cli, doc, name="bad.tribes"):
    pos = cli.path(f"{name}.json")
    pos.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return cli.path(name), pos


@pytest.mark.parametrize(
    ("doc", "words"),
    [
        (position([(0, 0, 35, 0), (1, 0, 34, 1)], stack=[62], check=False), "tiles[1]"),
        (position([(0, 0, 35, 0), (4, 4, 34, 0)], stack=[62], check=False), "tiles[1]"),
        (position([(0, 0, 35, 0)], pieces=[(0, 0, 0, "gatherer", "ann")], stack=[62]), "pieces"),
        (position([(0, 0, START, 0)], pieces=[(0, 0, 8, "fisher", "ann")], stack=[62]), "pieces"),
        (position([(0, 0, 35, 0)], stack=[999]), "stack"),
        (position([(0, 0, 999, 0)], stack=[62], check=False), "tiles"),
    ],
)
def test_an_invalid_position_is_one_line_and_no_log(cli, doc, words):
    path, pos = _new(cli, doc)
    line = cli.fails("new", "hunters", "--position", pos, "-o", path)
    assert "position" in line
    assert words in line
    assert not path.exists()


def test_a_position_that_is_not_json(cli):
    path, pos = _new(cli, "{not json")
    cli.fails("new", "hunters", "--position", pos, "-o", path)
    assert not path.exists()


def test_an_invalid_tile_file_is_refused(cli):
    """The tile file is an option file: the README says a bad option file is a usage error (2)."""
    data = json.loads(json.dumps(TILE_DATA))
    data["tiles"][0]["sides"][0] = [0, 1]
    bad = cli.path("tiles.json")
    bad.write_text(json.dumps(data))
    path = cli.path("g.tribes")
    cli.fails("new", "hunters", "--option", f"tiles={bad}", "--seed", 1, "-o", path, code=2)
    assert not path.exists()


def test_a_valid_tile_file_is_carried_in_the_log(cli):
    good = cli.path("tiles.json")
    good.write_text(json.dumps(TILE_DATA))
    path = cli.path("g.tribes")
    cli.ok("new", "hunters", "--option", f"tiles={good}", "--seed", 1, "-o", path)
    good.unlink()  # a log never reads the option file again
    assert cli.moves(path)


def test_moves_during_a_pending_bonus_tile_are_its_placements(cli):
    path = cli_log(cli, position([(0, 0, 35, 0), (1, 0, 38, 0)], stack=[34, 62], bonus=[81]))
    cli.ok("act", path, "2,0N")
    doc = cli.show_json(path)
    assert sorted(cli.moves(path)) == sorted(doc["pending"]["options"])
    assert "0,-1S+g1" in doc["pending"]["options"]


def test_every_player_sees_the_same_board(cli, log):
    full = cli.show_json(log)
    for who in ("ann", "bob", "spectator"):
        seen = cli.show_json(log, "--as", who)
        for key in ("tiles", "pieces", "supply", "scores", "drawn", "stack", "bonus_stack"):
            assert seen[key] == full[key], (who, key)


def test_a_move_with_a_negative_coordinate_is_a_move_not_an_option(cli, log):
    """The contract's notation has negative coordinates (``0,-1E``, ``-2,3W``): ``tribes act``
    takes ``-1,0E`` (0 turned once: its river faces east into the start tile's river) as a move.
    The river, between 0's lake of 2 fish and the start tile's lake of 1, is complete: 5."""
    cli.ok("act", log, "-1,0E+f1")
    doc = cli.show_json(log)
    assert doc["tiles"][-1] == {"x": -1, "y": 0, "tile": 0, "rotation": 1}
    assert doc["scores"] == {"ann": 5, "bob": 0}
