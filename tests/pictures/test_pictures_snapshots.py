"""Each game's SVG of a few fixture states, pinned with syrupy (review a changed snapshot by eye:
``tribes show FIXTURE --at N --svg -o x.svg`` and open it). The board or map, drawn the same in
every state, is pinned once per game (Hunters and Gatherers has none: its area is its tiles);
the states pin the parts that change, one element a line, the panel's after the board's."""

from __future__ import annotations

import pytest
from pictures_testing import load

from tribes.core.game import EVERYTHING, SPECTATOR

STATIC = {"clans": "board", "iwari": "map"}
CASES = [
    ("clans", "twelfth-and-thirteenth", -1, SPECTATOR),
    ("clans", "epoch-boundary-order-a", "pending", 0),
    ("clans", "doomed-with-strife", -1, EVERYTHING),
    ("iwari", "full-game-4p-expeditions", 60, 1),
    ("iwari", "variant-glacial-mass", -1, EVERYTHING),
    ("iwari", "feat-honour-first", -1, SPECTATOR),
    ("hunters", "tigers-and-fire", -1, SPECTATOR),
    ("hunters", "huts-joined-through-lake", -1, SPECTATOR),
]


def lines(markup: str) -> str:
    return markup.replace("><", ">\n<")


@pytest.mark.parametrize("game_name", sorted(STATIC))
def test_board_drawing(game_name: str, snapshot) -> None:
    game, log, steps = load(game_name, "full-game-3p" if game_name == "clans" else "full-game-2p")
    parts = dict(game.picture(steps[0].state, log.header.seats, SPECTATOR).parts)
    assert lines(parts[STATIC[game_name]]) == snapshot


@pytest.mark.parametrize(
    ("game_name", "name", "at", "viewer"), CASES, ids=[f"{c[1]}-{c[2]}" for c in CASES]
)
def test_state_drawing(game_name, name, at, viewer, snapshot) -> None:
    game, log, steps = load(game_name, name)
    if at == "pending":
        at = next(s.index for s in steps if game.pending(s.state) is not None)
    step = steps[at]
    picture = game.picture(step.state, log.header.seats, viewer, step.event)
    drawn = "\n".join(
        f"## {key}\n{lines(markup)}"
        for key, markup in picture.parts
        if key != STATIC.get(game_name)
    )
    panel = picture.panel
    if panel is not None:  # beside the board: the seats, the chart, the cards, the drawn tile
        drawn += f"\n# panel {panel.width}x{panel.height}\n" + "\n".join(
            f"## {key}\n{lines(markup)}" for key, markup in panel.parts
        )
    assert f"{picture.width}x{picture.height}\n{drawn}" == snapshot
