"""In a notebook (issue 29): a state with its game and seats, a step and a cursor display as the
board, as python-chess boards do — rendered here through IPython's own display formatter, the
one Jupyter uses, so what a notebook would show is what is checked."""

from __future__ import annotations

import html
import subprocess
import sys
from pathlib import Path

import pytest
from IPython.core.formatters import DisplayFormatter

from tribes.core.game import SPECTATOR
from tribes.replay import logs
from tribes.replay.cursor import Cursor
from tribes.replay.notebook import board

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
SVG, HTML = "image/svg+xml", "text/html"


def shown(obj: object) -> dict[str, str]:
    data, _ = DisplayFormatter().format(obj)
    return data


@pytest.mark.parametrize(
    "path", ["clans/full-game-3p.json", "hunters/full-game-2p.json", "iwari/full-game-2p.json"]
)
def test_a_cursor_shows_its_board_with_its_event_and_move(path):
    cursor = Cursor.open(FIXTURES / path)
    cursor.seek(7)
    data = shown(cursor)
    step = cursor.step
    assert data[SVG] == cursor.game.svg(step.state, cursor.seats, "all", step.event, step.effects)
    move = cursor.game.format_move(step.event)
    seat = cursor.seats[step.seat]
    assert f"event 7 of {len(cursor)}: {seat} {move}" in data[HTML]
    assert data[HTML].count("<svg") == 1 and data[HTML].endswith("</svg>\n</div>")
    for effect in step.effects:
        assert html.escape(effect.describe(cursor.seats)) in data[HTML]
    assert f"at 7 of {len(cursor)}" in data["text/plain"]  # not <...Cursor at 0x...>
    cursor.seek(0)
    assert "the start" in shown(cursor)[HTML]


def test_a_state_and_a_step_with_their_game_and_seats_show_as_the_board():
    opened = logs.open_log(FIXTURES / "hunters" / "full-game-2p.json")
    game, seats = opened.game, opened.log.header.seats
    steps = logs.steps_of(game, opened.log)
    state = shown(board(game, steps[30].state, seats))
    assert state[SVG] == game.svg(steps[30].state, seats, "all")
    scoring = next(s for s in steps if any(type(e).__name__ == "FeatureScored" for e in s.effects))
    step = shown(board(game, scoring, seats))
    assert 'class="scored"' in step[SVG]  # what the step scored, marked
    assert f"event {scoring.index}: " in step[HTML]
    assert "completed: " in step[HTML]  # its effects, under its caption
    picture = shown(game.picture(steps[30].state, seats, SPECTATOR))
    assert picture[SVG].startswith("<svg")


def test_a_spectator_s_board_in_a_notebook_hides_what_a_spectator_may_not_see():
    opened = logs.open_log(FIXTURES / "iwari" / "full-game-2p.json")
    game, seats = opened.game, opened.log.header.seats
    step = logs.steps_of(game, opened.log)[10]
    everything = shown(board(game, step, seats))[SVG]
    spectator = shown(board(game, step, seats, SPECTATOR))[SVG]
    assert everything != spectator  # the hands
    assert spectator == game.svg(step.state, seats, SPECTATOR, step.event, step.effects)


def test_the_cli_never_loads_the_notebook_module(tmp_path):
    """Start-up cost: ``tribes show`` and ``log`` import nothing a notebook needs."""
    log = FIXTURES / "hunters" / "full-game-2p.json"
    code = (
        "import sys\n"
        "from tribes.cli import run\n"
        f"sys.argv = ['tribes', 'show', {str(log)!r}, '--svg']\n"
        "try:\n    run()\nexcept SystemExit:\n    pass\n"
        "assert 'tribes.replay.notebook' not in sys.modules\n"
        "assert 'IPython' not in sys.modules\n"
        "print('clean', file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "clean" in done.stderr, done.stderr
