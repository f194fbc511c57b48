"""Hunters and Gatherers through the CLI: illegal placements and pieces, bad notation, a move
while a bonus tile waits or after the end, invalid positions and tile files: one line on stderr
naming the rule, exit 1 (2 for an option), and the log byte-identical."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tribes.testing.cli import Cli

ROOT = Path(__file__).parents[3]
FIXTURES = ROOT / "fixtures" / "hunters"


def tile(x: int, y: int, t: int, r: int = 0) -> dict[str, int]:
    return {"x": x, "y": y, "tile": t, "rotation": r}


BASE: dict[str, Any] = {
    "seats": ["ann", "bob"],
    "tiles": [tile(0, 0, 56)],
    "pieces": [{"x": 0, "y": 0, "feature": 1, "kind": "gatherer", "seat": "bob"}],
    "stack": [2, 30, 31],
    "bonus_stack": [81],
}
"""The start tile with bob's gatherer on its forest; ann draws tile 2 (meadow, river into a lake
of 1 fish, forest with gold on south and west)."""


def new_from(cli: Cli, position: dict[str, Any], name: str = "g.tribes") -> Path:
    pos = cli.path(f"{name}.pos.json")
    pos.write_text(json.dumps(position))
    path = cli.path(name)
    cli.ok("new", "hunters", "--position", pos, "--seed", 1, "-o", path)
    return path


@pytest.mark.parametrize(
    ("move", "message"),
    [
        ("5,5N", "the cell (5, 5) touches no placed tile along a side (H5)"),
        ("0,0N", "the cell (0, 0) holds a tile already (H5)"),
        ("1,0S", "the west side is river, the tile at (0, 0) shows forest there (H5)"),
        ("1,0N+g3", "that forest holds a tribe member already (H6)"),
        ("1,0N+h8", "a tribe member never stands on a lake; feature 8 of tile 2 is a lake (H6)"),
        ("1,0N+f8", "a tribe member never stands on a lake; feature 8 of tile 2 is a lake (H6)"),
        ("1,0N+g9", "tile 2 has no feature 9 (its features: 0, 1, 2, 3, 8) (H6)"),
        ("1,0N+f3", "a fisher stands on a river; feature 3 of tile 2 is a forest (H6)"),
        ("1,0N+hut0", "a hut stands on a river or a lake; feature 0 of tile 2 is a meadow (H6)"),
    ],
)
def test_engine_cli_an_illegal_move_is_one_line_and_changes_nothing(
    cli: Cli, move: str, message: str
) -> None:
    path = new_from(cli, BASE)
    line = cli.fails_untouched(path, "act", path, move)
    assert line == f"tribes: illegal move '{move}' at event 1: {message}"


def test_engine_cli_legal_moves_pass(cli: Cli) -> None:
    path = new_from(cli, BASE)
    moves = cli.moves(path)
    assert "1,0N+hut8" in moves and "1,0N+f1" in moves and "1,0N+g3" not in moves
    cli.ok("act", path, "1,0N+hut8")
    document = json.loads(cli.ok("show", path, "--json"))
    assert document["supply"]["ann"] == {"members": 5, "huts": 1}
    assert document["pieces"][-1] == {"x": 1, "y": 0, "feature": 8, "kind": "hut", "seat": "ann"}


def test_engine_cli_bad_notation(cli: Cli) -> None:
    path = new_from(cli, BASE)
    line = cli.fails_untouched(path, "act", path, "1,0 north")
    assert "a Hunters and Gatherers move is X,YR with R one of N E S W" in line


def test_engine_cli_a_piece_with_an_empty_supply(cli: Cli) -> None:
    kinds = [(0, "hunter"), (2, "hunter"), (4, "hunter"), (6, "hunter"), (1, "fisher")]
    position = {
        "seats": ["ann", "bob"],
        "tiles": [tile(0, 0, 13)],
        "pieces": [{"x": 0, "y": 0, "feature": f, "kind": k, "seat": "ann"} for f, k in kinds],
        "stack": [17, 30],
        "bonus_stack": [],
    }
    path = new_from(cli, position)
    line = cli.fails_untouched(path, "act", path, "1,0N+f1")
    assert line.endswith("no tribe members left in supply for a fisher (H6)")
    assert not [m for m in cli.moves(path) if "+" in m and "+hut" not in m]


def test_engine_cli_while_a_bonus_tile_waits_only_its_placement_is_taken(cli: Cli) -> None:
    fixture = json.loads((FIXTURES / "gold-two-forests-one-bonus.json").read_text())
    path = new_from(cli, fixture["header"]["position"])
    cli.ok("act", path, "1,0N")
    document = json.loads(cli.ok("show", path, "--json"))
    assert document["pending"]["decision"] == "bonus"
    assert document["pending"]["tile"] == 81
    assert "0,1N" in document["pending"]["options"]
    line = cli.fails_untouched(path, "act", path, "5,5N")
    assert line == (
        "tribes: illegal move '5,5N' at event 2: bonus tile 81 is to be placed now: "
        "the cell (5, 5) touches no placed tile along a side (H13)"
    )
    line = cli.fails_untouched(path, "act", path, "0,1N+g9")
    assert "tile 81 has no feature 9" in line


def test_engine_cli_a_move_after_the_end(cli: Cli) -> None:
    fixture = json.loads((FIXTURES / "tigers-and-fire.json").read_text())
    path = new_from(cli, fixture["header"]["position"])
    cli.ok("act", path, "-1,1N")
    assert cli.moves(path) == []
    line = cli.fails_untouched(path, "act", path, "3,0N")
    assert (
        line
        == "tribes: illegal move '3,0N' at event 2: the game is over: no tile is left to place (H14)"
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"tiles": [tile(0, 0, 56), tile(-1, 0, 61)]}, "the east side is meadow"),
        ({"pieces": [{"x": 0, "y": 0, "feature": 8, "kind": "fisher", "seat": "bob"}]}, "lake"),
        ({"stack": [2, 2]}, "tile 2 is already in stack[0]"),
    ],
)
def test_engine_cli_an_invalid_position_is_one_line(
    cli: Cli, change: dict[str, Any], message: str
) -> None:
    pos = cli.path("pos.json")
    pos.write_text(json.dumps({**BASE, **change}))
    line = cli.fails("new", "hunters", "--position", pos, "-o", cli.path("g.tribes"))
    assert line.startswith("tribes: position ")
    assert message in line
    assert not cli.path("g.tribes").exists()


def test_engine_cli_an_invalid_tile_file_is_one_line(cli: Cli) -> None:
    data = json.loads((ROOT / "games" / "hunters" / "data" / "tiles.json").read_text())
    data["tiles"][3]["sides"][1] = [2]
    bad = cli.path("tiles.json")
    bad.write_text(json.dumps(data))
    line = cli.fails(
        "new", "hunters", "--option", f"tiles={bad}", "-o", cli.path("g.tribes"), code=2
    )
    assert line == (
        "tribes: option tiles: tile 3: sides[1]: a river side is 3 parts: meadow, river, "
        "meadow; got meadow"
    )
    line = cli.fails("new", "hunters", "--option", "colour=red", "-o", cli.path("g.tribes"), code=2)
    assert "hunters takes no option 'colour'; options: tiles=PATH" in line
