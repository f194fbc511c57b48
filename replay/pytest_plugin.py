"""A pytest plugin (entry point ``pytest11``): any game log becomes a regression test in one line.

    def test_my_game(tribes_playthrough):
        tribes_playthrough("logs/my-game.tribes")   # beside this test file

The first run with ``--snapshot-update`` records, through syrupy, every step of the log — the
event, its effects, the number of legal moves and the rendered board; later runs fail on any
difference. Review a changed snapshot before updating it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tribes.core.game import EVERYTHING, Viewer
from tribes.replay.playthrough import transcript


@pytest.fixture
def tribes_playthrough(snapshot: Any, request: pytest.FixtureRequest) -> Callable[..., list[str]]:
    """Call it with a log path — relative to the test file's folder — and optionally a viewer (a
    seat number, None for a spectator); it asserts the log's transcript against the test's
    snapshot and returns the transcript."""
    here = request.path.parent

    def check(path: str | Path, viewer: Viewer = EVERYTHING) -> list[str]:
        blocks = transcript(here / path, viewer)
        if snapshot != blocks:  # syrupy records the comparison; the diff says what changed
            diff = "\n".join(snapshot.get_assert_diff())
            pytest.fail(
                f"the playthrough of {path} differs from its snapshot:\n{diff}", pytrace=False
            )
        return blocks

    return check
