"""Scoring you can follow (issue 29): each scoring effect says what it counted in the rules'
words, with the rules' ids — ``river of 2 tiles completed: 2 tiles + 5 fish = 7 (H9): ann +7`` —
as ``tribes log`` prints it, and what it says adds up to its points."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tribes.games.hunters.events import FeatureScored
from tribes.replay import logs

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "hunters"
NAMES = sorted(p.stem for p in FIXTURES.glob("*.json"))


def _lines(cli, name: str) -> str:
    return cli.ok("log", FIXTURES / f"{name}.json")


def test_a_river_says_its_tiles_and_the_fish_of_its_lakes(cli):
    """H9: 1 a tile, 1 a fish of the lakes at its ends, a lake at both ends once."""
    text = _lines(cli, "river-both-ends-one-lake")
    assert "river of 6 tiles completed: 6 tiles + 3 fish = 9 (H9): bob +9" in text


def test_a_forest_says_its_pieces_and_its_mushroom_patches(cli):
    """H10, H20: 2 a forest piece, 2 a mushroom patch."""
    text = _lines(cli, "bonus-completes-gold-forest")
    assert (
        "forest of 4 tiles completed: 2 × (4 forest pieces + 1 mushroom patch) = 10 (H10, H20)"
        in text
    )


def test_a_meadow_says_its_animals_and_what_the_tigers_ate(cli):
    """H17: 2 a deer, mammoth and aurochs, each tiger eating a deer; H19: the fire."""
    text = _lines(cli, "tigers-and-fire")
    assert (
        "meadow of 3 tiles at the end: 2 × (2 deer − 1 eaten by 1 tiger) = 2 (H17): ann +2" in text
    )
    assert (
        "meadow of 6 tiles at the end: 2 × 1 deer = 2 (H17); the fire: 2 tigers eat nothing (H19): bob +2"
        in text
    )


def test_the_shrine_says_whose_hunter_took_the_meadow(cli):
    """H22: a hunter on the shrine's meadow piece takes the whole meadow."""
    text = _lines(cli, "shrine-beats-majority")
    assert re.search(
        r"meadow of \d+ tiles at the end: 2 × \([^)]*\) = 6 \(H17, H21\); "
        r"ann's hunter on the shrine takes it all \(H22\): ann \+6",
        text,
    ), text


def test_a_river_system_says_its_fish(cli):
    """H16: 1 a fish of the system, for the most huts."""
    text = _lines(cli, "huts-joined-through-lake")
    assert re.search(r"river system of \d+ tiles at the end: (\d+) fish = \1 \(H16\)", text), text


@pytest.mark.parametrize("name", NAMES)
def test_what_a_scoring_counted_adds_up_to_its_points(name):
    """Every scoring of every fixture: its points are what the rules make of what it says it
    counted, and its line says so with a rule id."""
    opened = logs.open_log(FIXTURES / f"{name}.json")
    seats = opened.log.header.seats
    for step in logs.steps_of(opened.game, opened.log):
        for e in step.effects:
            if not isinstance(e, FeatureScored):
                continue
            if e.type == "river":
                expected = len(e.tiles) + e.fish
            elif e.type == "forest":
                expected = 2 * (e.pieces + e.mushrooms)
                assert e.pieces >= len(e.tiles)
            elif e.type == "system":
                expected = e.fish
            else:
                eaten = 0 if e.fire else min(e.deer, e.tigers)
                expected = 2 * (e.deer - eaten + e.mammoths + e.aurochs)
            assert e.points == expected, (name, step.index, e)
            line = e.describe(seats)
            assert re.search(rf"= {e.points} \(H\d+", line), line
            assert {(x, y) for x, y, _ in e.features} == set(e.tiles), e
