"""``log --json``: an effect's ``type`` is always its type's name (``FeatureScored``), whatever
its fields are called; a field named as one of the record's own keys (Hunters' ``type``, the
feature scored) comes under another key (``kind``), for every effect type of every game."""

from __future__ import annotations

import json

import pytest

from tribes import games
from tribes.replay import logs
from tribes.replay.records import RECORD_KEYS, effect_record, field_keys
from tribes.testing.playouts import playout

EVERY_EFFECT = [
    pytest.param(name, kind, id=f"{name}-{kind.__name__}")
    for name in games.names()
    for kind in games.get(name).events.effects.values()
]


def test_every_game_is_covered():
    assert {"clans", "iwari", "hunters", "dice"} <= {p.values[0] for p in EVERY_EFFECT}


@pytest.mark.parametrize(("name", "kind"), EVERY_EFFECT)
def test_no_field_of_an_effect_takes_a_key_of_the_record(name, kind):
    keys = field_keys(kind)
    assert not set(keys.values()) & set(RECORD_KEYS), (name, kind.__name__, keys)
    assert len(set(keys.values())) == len(keys)


def test_a_field_whose_renaming_is_taken_too_gets_another_key():
    import attrs

    from tribes.core.events import Effect

    @attrs.frozen(kw_only=True)
    class Clash(Effect):
        type: str
        kind: str
        text: str

        def describe(self, seats):
            return "clash"

    assert field_keys(Clash) == {"type": "kind_", "kind": "kind", "text": "words"}
    record = effect_record(Clash(type="a", kind="b", text="c"), ("p1",), "all")
    assert record == {"type": "Clash", "text": "clash", "kind_": "a", "kind": "b", "words": "c"}


@pytest.mark.parametrize("name", games.names())
def test_every_effect_record_of_seeded_games_keeps_its_type(name):
    game = games.get(name)
    seen = set()
    for seed in range(4):
        played = playout(name, seed)
        for step in played.steps:
            for effect in step.effects:
                record = effect_record(effect, played.seats, "all")
                kind = type(effect)
                assert record["type"] == kind.__name__ in game.events.effects
                assert set(record) == {*RECORD_KEYS, *field_keys(kind).values()}
                seen.add(kind.__name__)
    assert seen


def test_hunters_feature_scored_comes_out_of_log_json_as_its_type(cli, tmp_path):
    """The report: ``"type": "meadow"`` in place of ``"type": "FeatureScored"``."""
    played = playout("hunters", 1)
    logs.create(tmp_path / "h.tribes", played.log, played.game)
    lines = cli.ok("log", str(tmp_path / "h.tribes"), "--json").splitlines()
    effects = [e for line in lines for e in json.loads(line)["effects"]]
    scored = [e for e in effects if e["type"] == "FeatureScored"]
    assert scored, "a seeded game scores features"
    assert {e["kind"] for e in scored} <= {"meadow", "river", "forest", "system"}
    assert {e["type"] for e in effects} <= set(played.game.events.effects)
    found = cli.ok(
        "find", str(tmp_path / "h.tribes"), "--where", 'FeatureScored[0].kind == "river"'
    )
    assert "event" in found
