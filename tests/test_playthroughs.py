"""Golden playthroughs: every fixture log of the built-in games replayed step by step against its
snapshot; each fixture canonical and naming its case. What each fixture shows of its game's rules
is tested with the game (``tests/games/<game>/test_<game>_fixtures.py``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tribes import games
from tribes.core import engine
from tribes.events import codec
from tribes.replay import logs
from tribes.replay.playthrough import milestones

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
ALL = sorted(p for p in FIXTURES.glob("*/*") if p.suffix in (".json", ".tribes"))
"""Every built-in game's fixture logs, ``fixtures/<game>/*.json`` (or ``.tribes``): a game added
to the built-in registry is pinned as soon as its fixtures are there, and fails below until they
are (a plugin game pins its own logs with the ``tribes_playthrough`` fixture)."""

FULL_GAME = 30
"""A fixture of more events than this is a full game, pinned compactly: legal moves, effects and
digest at every step, the board at the start, a quarter, half-way, three quarters and the end.
The edge cases (a few events each) keep the board at every step."""


def _id(path: Path) -> str:
    return f"{path.parent.name}-{path.stem}"


# --- golden transcripts ---------------------------------------------------------------------------


@pytest.mark.parametrize("path", ALL, ids=_id)
def test_playthrough(path: Path, tribes_playthrough: Any) -> None:
    """Through the pytest plugin that users get (entry point pytest11, fixture tribes_playthrough),
    one snapshot file per log: ``__snapshots__/test_playthroughs/test_playthrough[GAME-NAME].txt``."""
    opened = logs.open_log(path)
    events = opened.log.events
    full = len(events) > FULL_GAME
    blocks = tribes_playthrough(path, compact=full, moves=True)
    # what was pinned is this log, step by step, whatever the snapshot holds: one block per
    # step, each naming its event and the state that the engine reaches there
    assert len(blocks) == len(events) + 1
    game, seats = opened.game, opened.log.header.seats
    for step, text in zip(engine.steps(game, opened.log.header, events), blocks, strict=True):
        lines = text.splitlines()
        move = game.format_move(step.event) if step.event is not None else "start"
        who = seats[step.seat] if step.seat is not None else "-"
        assert lines[0] == f"event {step.index}: {who} {move}"
        assert f"  digest: {codec.state_hash(step.state)}" in lines
        assert [line for line in lines if line.startswith("  effect: ")] == [
            f"  effect: {e.describe(seats)}" for e in step.effects
        ]
        shown = any(line.startswith("  board") for line in lines)
        assert shown == (not full or step.index in milestones(len(blocks)))


def test_every_built_in_game_has_fixtures() -> None:
    for name in games.BUILT_IN:
        folder = FIXTURES / name
        assert folder.is_dir(), f"game {name} has no fixture folder {folder}"
        assert [p for p in ALL if p.parent == folder], f"game {name} has no fixture log in {folder}"


def test_every_fixture_folder_is_a_built_in_game() -> None:
    assert {p.parent.name for p in ALL} <= set(games.BUILT_IN)


@pytest.mark.parametrize("path", ALL, ids=_id)
def test_fixture_is_canonical_and_says_its_case(path: Path) -> None:
    """Each fixture is in the exported JSON form (dict events, checkpoints) and names its case."""
    opened = logs.open_log(path)
    assert logs.to_json(opened.log) == path.read_text()
    case = opened.log.header.meta.get("case")
    assert isinstance(case, str)
    assert case.strip()
