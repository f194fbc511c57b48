"""Spec 5: the pytest plugin (entry point ``pytest11``, module ``tribes.replay.pytest_plugin``)
and its fixture ``tribes_playthrough``, run as a user would, in pytester's folder."""

from __future__ import annotations

import importlib.metadata
import shutil
from pathlib import Path
from typing import Any

import pytest

from tribes.replay import logs, questions
from tribes.replay.playthrough import transcript

FLAGS = ("-p", "no:cacheprovider", "--strict-markers", "-W", "error", "-p", "no:hypothesispytest")

USER_TEST = """
from pathlib import Path


def test_my_game(tribes_playthrough):
    tribes_playthrough(Path(__file__).parent / "logs" / "game.tribes")
"""


@pytest.fixture
def user(
    pytester: pytest.Pytester, demo_source: Path, monkeypatch: pytest.MonkeyPatch
) -> pytest.Pytester:
    """A user's project: a copied log and one test using the fixture; nothing else (the plugin
    must come from its entry point, not from a conftest)."""
    monkeypatch.delenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", raising=False)
    (pytester.path / "logs").mkdir()
    shutil.copyfile(demo_source, pytester.path / "logs" / "game.tribes")
    pytester.makepyfile(test_user=USER_TEST)
    return pytester


def test_the_plugin_is_registered_by_its_entry_point() -> None:
    points = [
        e
        for e in importlib.metadata.entry_points(group="pytest11")
        if e.value == "tribes.replay.pytest_plugin"
    ]
    assert len(points) == 1


def test_record_then_pass_then_fail_when_the_log_changes(user: pytest.Pytester) -> None:
    recorded = user.runpytest("--snapshot-update", *FLAGS)
    recorded.assert_outcomes(passed=1)
    snapshots = list((user.path / "__snapshots__").glob("*.ambr"))
    assert len(snapshots) == 1
    text = snapshots[0].read_text()
    assert "event 36: ann order 19 35" in text  # the transcript: every step
    assert "legal moves" in text
    user.runpytest(*FLAGS).assert_outcomes(passed=1)  # and again, unchanged
    # the log forked shorter: the snapshot no longer matches
    log = user.path / "logs" / "game.tribes"
    opened = logs.open_log(log)
    logs.create(log, questions.fork(opened.log, 20), opened.game, force=True)
    changed = user.runpytest(*FLAGS)
    changed.assert_outcomes(failed=1)
    assert snapshots[0].read_text() == text  # a failing run does not rewrite the snapshot


def test_a_changed_move_fails_too(user: pytest.Pytester) -> None:
    user.runpytest("--snapshot-update", *FLAGS).assert_outcomes(passed=1)
    log = user.path / "logs" / "game.tribes"
    opened = logs.open_log(log)
    from tribes.replay.cursor import Cursor

    replay = Cursor.open(log)
    result = questions.whatif(replay, 5, "3-9")
    logs.create(log, result.log, opened.game, force=True)
    user.runpytest(*FLAGS).assert_outcomes(failed=1)


def test_without_a_snapshot_it_fails(user: pytest.Pytester) -> None:
    user.runpytest(*FLAGS).assert_outcomes(failed=1)


def test_a_viewer_and_the_transcript_returned(user: pytest.Pytester) -> None:
    user.makepyfile(
        test_views="""
from pathlib import Path

LOG = Path(__file__).parent / "logs" / "game.tribes"


def test_as_ann(tribes_playthrough):
    blocks = tribes_playthrough(LOG, 0)
    assert len(blocks) == 37
    assert blocks[0].startswith("event 0")


def test_as_spectator(tribes_playthrough):
    blocks = tribes_playthrough(LOG, None)
    assert "[?]" in blocks[1]
"""
    )
    user.runpytest("--snapshot-update", *FLAGS, "test_views.py").assert_outcomes(passed=2)
    user.runpytest(*FLAGS, "test_views.py").assert_outcomes(passed=2)


def test_a_damaged_log_fails_the_test_with_a_clear_message(
    user: pytest.Pytester, damage: Any
) -> None:
    user.runpytest("--snapshot-update", *FLAGS).assert_outcomes(passed=1)
    log = user.path / "logs" / "game.tribes"
    broken = damage.flip(log, 50)
    broken.replace(log)
    result = user.runpytest(*FLAGS)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*game.tribes*corrupt*"])


def test_the_transcript_has_one_block_per_step(demo_source: Path) -> None:
    blocks = transcript(demo_source)
    assert len(blocks) == 37
    assert blocks[0].startswith("event 0: - start")
    assert blocks[31].startswith("event 31: cy 14-15")
    assert "effect: " in blocks[31] and "strife" in blocks[31]
    assert "legal moves: " in blocks[31]
    assert "track" in blocks[31]  # the rendered board and status
    assert transcript(demo_source) == blocks  # stable
