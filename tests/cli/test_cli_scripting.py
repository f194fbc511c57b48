"""Scripting through the CLI: ``log --json`` streams a record per step (with ``--states`` the
state and legal moves too), ``moves --json``; a script checking every state needs one process."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "iwari" / "feat-honour-first.json"


@pytest.fixture
def played(cli) -> str:
    cli.ok("new", "clans", "--names", "ann,bob", "--seed", "3", "-o", "g.tribes")
    for _ in range(4):
        cli.ok("act", "g.tribes", cli.ok("moves", "g.tribes").split()[0])
    return "g.tribes"


def test_log_json_is_one_record_per_event(cli, played):
    lines = cli.ok("log", played, "--json").splitlines()
    records = [json.loads(line) for line in lines]
    assert [r["index"] for r in records] == [1, 2, 3, 4]
    text = cli.ok("log", played).splitlines()
    for record, line in zip(records, text, strict=True):
        assert record["move"] in line and record["seat"] in line
        assert record["event"]["type"] == "move"
        assert set(record) == {"index", "seat", "move", "event", "effects", "note"}


def test_log_states_match_show_and_moves_at_every_step(cli):
    lines = cli.ok("log", str(FIXTURE), "--json", "--states").splitlines()
    records = [json.loads(line) for line in lines]
    assert records[0]["index"] == 0 and records[0]["move"] is None
    assert len(records) == json.loads(cli.ok("show", str(FIXTURE), "--json"))["events"] + 1
    for record in records[:: max(1, len(records) // 6)]:
        at = str(record["index"])
        shown = json.loads(cli.ok("show", str(FIXTURE), "--json", "--at", at))
        assert shown.pop("tags") == {} and shown.pop("note") is None  # of the log, not the state
        assert record["state"] == shown
        assert record["legal"] == cli.ok("moves", str(FIXTURE), "--at", at).splitlines()
    effects = [e for r in records for e in r["effects"]]
    assert effects and all({"type", "text"} <= set(e) for e in effects)


def test_log_states_as_a_seat_hide_what_it_may_not_see(cli, played):
    (start, *_) = [
        json.loads(x)
        for x in cli.ok("log", played, "--json", "--states", "--as", "ann").splitlines()
    ]
    assert set(start["state"]["clans"]) == {"ann"}
    assert start["state"]["scores"]["bob"] is None


def test_states_without_json_is_a_usage_error(cli, played):
    assert "--states goes with --json" in cli.fails("log", played, "--states", code=2)


def test_moves_json(cli, played):
    doc = json.loads(cli.ok("moves", played, "--json"))
    assert doc["events"] == 4
    assert doc["moves"] == cli.ok("moves", played).splitlines()
    assert doc["to_move"] in ("ann", "bob")
    start = json.loads(cli.ok("moves", played, "--json", "--at", "0"))
    assert start["events"] == 0 and start["moves"] == cli.ok("moves", played, "--at", "0").split()


def test_log_as_a_seat_hides_the_cards_others_drew(cli):
    everything = cli.ok("log", str(FIXTURE))
    as_first = cli.ok("log", str(FIXTURE), "--as", "spectator")
    assert "draws a card from the deck" in as_first
    assert "draws a card from the deck" not in everything
    records = [
        json.loads(x)
        for x in cli.ok("log", str(FIXTURE), "--json", "--as", "spectator").splitlines()
    ]
    drawn = [e for r in records for e in r["effects"] if e["type"] == "CardTaken"]
    assert drawn and all("card" not in e for e in drawn)


def test_verify_json_reports_every_log(cli, played, tmp_path):
    (tmp_path / "bad.tribes").write_bytes((tmp_path / played).read_bytes()[:-3])
    ran = cli.run("verify", played, "bad.tribes", "--json")
    assert ran.exit_code == 1
    doc = json.loads(ran.stdout)
    assert doc["ok"] == 1 and doc["failed"] == 1
    good, bad = doc["logs"]
    assert good["ok"] and good["game"] == "clans" and good["events"] == 4 and good["version"] == 3
    assert len(good["digest"]) == 32 and good["digest"] in cli.ok("verify", played)
    assert not bad["ok"] and "bad.tribes" in bad["error"]
    assert json.loads(cli.ok("verify", played, "--json"))["failed"] == 0
