"""Rules versions that mean something: a change to a game's rules that alters the states a
pinned fixture recorded (its checkpoints) bumps the game's ``rules_version``. A rule change never
slips in silently: this fails, saying to bump it, when a fixture's recorded states change under
the running rules while the version is still the one the fixture was recorded under."""

from __future__ import annotations

from pathlib import Path

import pytest

from tribes import games
from tribes.replay import logs
from tribes.replay.marks import recorded_digest
from tribes.testing import rulechange

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = sorted((ROOT / "fixtures").glob("*/*.json"))


def drift(path: Path) -> str | None:
    """Why the fixture at ``path`` says the rules changed silently, or None: its recorded states
    (checkpoints) differ from those the running rules give while the game's rules version is
    the one they were recorded under (a newer version is a change said out loud: then
    ``tribes upgrade --rules`` re-records the fixture)."""
    opened = logs.open_log(path)
    game, log = opened.game, opened.log
    steps = logs.steps_of(game, log, verify=False)
    for mark in log.checkpoints:
        recorded_under = mark.rules or log.header.rules_version
        if recorded_digest(steps[mark.events].state, mark) == mark.digest:
            continue
        if recorded_under != game.rules_version:
            return None
        where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        return (
            f"{where}: the state after event {mark.events} differs from the one recorded under "
            f"{game.name} rules version {recorded_under}, and the running rules are still "
            f"version {game.rules_version}: bump rules_version (the game's class) and say what "
            f"changed in its rules.md's 'Rules versions', then re-record the fixtures with "
            f"'tribes upgrade --rules fixtures/'"
        )
    return None


def test_every_fixture_records_states():
    """Every fixture with events has checkpoints to compare (and so is covered below)."""
    assert len(FIXTURES) > 40
    for path in FIXTURES:
        log = logs.open_log(path).log
        assert log.checkpoints or not log.events, path


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_no_fixture_changed_under_the_same_rules_version(path):
    why = drift(path)
    assert why is None, why


@pytest.mark.skipif(rulechange.compiled(), reason="a compiled build folds the constant")
def test_a_silent_rule_change_fails_saying_bump_rules_version():
    """The double of a rules fix (the 12th village worth its huts + 4) changes the recorded
    states of the fixture that founds it: without a new version that is a failure that says
    what to do; with one, it is a change said out loud."""
    fixture = ROOT / "fixtures" / "clans" / "twelfth-and-thirteenth.json"
    with rulechange.twelfth_bonus(4):
        why = drift(fixture)
        others = [p for p in FIXTURES if p.parent.name != "clans" and drift(p)]
    assert why is not None and "bump rules_version" in why
    assert "clans rules version 1, and the running rules are still version 1" in why
    assert not others  # other games are untouched by a Clans rule
    with rulechange.twelfth_bonus(4, rules_version=2):
        assert drift(fixture) is None
    assert games.get("clans").rules_version == 1
