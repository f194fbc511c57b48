"""Baselines and a field added to a game's state (issue 27 §4): a baseline recorded before the
field was added shows no game changed; set to other than its default, every game changed at
the start. A baseline of version 1 (digests of the states' full form) is still compared as it
was written."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

import pytest

from tribes import games
from tribes.core.game import Game
from tribes.replay import baseline, baseline_file
from tribes.testing.cli import Cli
from tribes.testing.identity import GameWithField


def test_a_field_added_at_its_default_changes_no_game_of_a_baseline(
    cli: Cli, here: Path, replace_game: Callable[[Game], None]
) -> None:
    inputs = (here / "runs.corpus", here / "demo.tribes")
    cli.ok("baseline", *inputs, "-o", "b.baseline")
    replace_game(GameWithField(games.get("clans")))  # type: ignore[arg-type]  # a Game by delegation
    assert cli.ok("regress", *inputs, "--baseline", "b.baseline").strip() == "0 of 41 games changed"


def test_a_field_set_otherwise_changes_every_game_at_the_start(
    cli: Cli, here: Path, replace_game: Callable[[Game], None]
) -> None:
    cli.ok("baseline", here / "demo.tribes", "-o", "b.baseline")
    replace_game(GameWithField(games.get("clans"), 1))  # type: ignore[arg-type]  # (above)
    result = cli.run("regress", here / "demo.tribes", "--baseline", "b.baseline")
    assert result.exit_code == 1
    assert "the start differs (the setup changed)" in result.stdout


def test_a_baseline_of_version_1_is_compared_by_the_full_form(
    cli: Cli, here: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As the tribes before identities wrote it: version 1, every state's full form."""
    with monkeypatch.context() as old:
        old.setattr(baseline, "VERSION", 1)
        old.setattr(baseline, "Recorder", functools.partial(baseline.Recorder, full=True))
        cli.ok("baseline", here / "runs.corpus", "-o", "old.baseline")
    assert baseline_file.read(here / "old.baseline").version == 1
    out = cli.ok("regress", here / "runs.corpus", "--baseline", "old.baseline")
    assert out.strip() == "0 of 40 games changed"
    cli.ok("baseline", here / "runs.corpus", "-o", "new.baseline")
    assert baseline_file.read(here / "new.baseline").version == 3
    old_digests = {
        e.record.log_id: e.record.digests
        for e in baseline_file.read(here / "old.baseline").entries()
    }
    new_digests = {
        e.record.log_id: e.record.digests
        for e in baseline_file.read(here / "new.baseline").entries()
    }
    assert old_digests.keys() == new_digests.keys() and old_digests != new_digests
