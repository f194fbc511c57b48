"""Hunters and Gatherers' tile files (the `tiles` option): every problem one line naming the tile and
the field; a valid file taken, a bad one refused as a log is made."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from tribes.core.errors import BadData, BadOption
from tribes.games import hunters
from tribes.games.hunters import board
from tribes.replay import logs

GAME = hunters.GAME
DATA = json.loads((Path(hunters.__file__).parent / "data" / "tiles.json").read_text())


def _with(change: Any) -> dict[str, Any]:
    data = copy.deepcopy(DATA)
    change(data)
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["tiles"][0].update(edges="RMF"), "tile 0: edges: 4 letters"),
        (lambda d: d["tiles"][0].update(kind="castle"), "tile 0: kind: one of start"),
        (lambda d: d["tiles"][0]["sides"][0].pop(), "tile 0: sides[0]: a river side is 3 parts"),
        (lambda d: d["tiles"][0]["sides"][1].append(9), "feature 9 is not a feature of the tile"),
        (lambda d: d["tiles"][0]["features"][1].update(lake=3), "tile 0: feature 1: lake: 3 is"),
        (lambda d: d["tiles"][2]["features"].append({"id": 0, "type": "meadow"}), "used twice"),
        (lambda d: d["tiles"][56].update(kind="land"), "exactly 1 start tile, found 0"),
        (lambda d: d["tiles"][3].update(id=2), "tile 2: id: used twice"),
        (lambda d: d["tiles"][4]["features"][2].update(animals={"unicorn": 1}), "animals"),
        (lambda d: d["tiles"][5]["features"][0].update(gold=True), "gold: not a field of a meadow"),
        (lambda d: d["tiles"][30]["features"][0].update(animals={"deer": -1}), "deer: a whole"),
        (lambda d: d["tiles"][14]["features"][1].update(type="forest"), "tile 14: sides[0]"),
    ],
)
def test_engine_tile_file_problems_are_one_line_naming_tile_and_field(
    change: Any, message: str
) -> None:
    with pytest.raises(BadData) as error:
        board.validate(_with(change), "test")
    assert message in error.value.message
    assert "\n" not in error.value.message


def test_engine_tile_option_takes_a_valid_file_and_refuses_a_bad_one(tmp_path: Path) -> None:
    good = tmp_path / "tiles.json"
    good.write_text(json.dumps(DATA))
    assert GAME.check_options({"tiles": str(good)}) == {"tiles": str(good)}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(_with(lambda d: d["tiles"][7].update(edges="XXXX"))))
    with pytest.raises(BadOption) as error:  # the file is read, and checked, as a log is made
        logs.header(GAME, seats=["ann", "bob"], seed=1, options={"tiles": str(bad)})
    assert error.value.message.startswith("option tiles: tile 7: edges")
    with pytest.raises(BadOption):
        GAME.check_options({"board": "x"})
