"""Issue 10: the seat names ``--as`` reserves are refused; a hand-written JSON log's missing
and bad header fields are all named at once, in one line."""

from __future__ import annotations

import json

import pytest


@pytest.mark.parametrize("name", ["spectator", "all", "Spectator", "ALL"])
def test_a_reserved_seat_name_is_refused_in_one_line(cli, name):
    line = cli.fails("new", "clans", "--names", f"ann,{name}", "-o", "g.tribes", code=2)
    assert f"seat name '{name}' is reserved" in line
    assert not cli.path("g.tribes").exists()


def test_a_position_with_a_reserved_seat_name_is_refused(cli, position):
    doc = position({12: {"red": 2}, 13: {"blue": 1}}, seats=["ann", "all"])
    pos = cli.path("pos.json")
    pos.write_text(json.dumps(doc))
    line = cli.fails("new", "clans", "--position", pos, "-o", "g.tribes", code=2)
    assert "seat name 'all' is reserved" in line


def test_every_other_seat_name_can_be_viewed_with_as(cli):
    path = cli.new(names="ann,everyone")
    assert cli.show_json(path, "--as", "everyone")["seats"] == ["ann", "everyone"]


def scenario(cli, header, events=()):
    doc = {"format": "tribes-log", "version": 2, "header": header, "events": list(events)}
    path = cli.path("s.json")
    path.write_text(json.dumps(doc))
    return path


def test_import_names_every_missing_header_field_at_once(cli):
    path = scenario(cli, {"game": "clans"})
    line = cli.fails("import", path, "-o", "s.tribes")
    assert "'rules_version', 'seed', 'seats' are missing" in line


def test_import_names_missing_and_bad_fields_together(cli):
    path = scenario(cli, {"game": "clans", "seed": -1, "seats": ["ann", "bob"], "colour": 1})
    line = cli.fails("import", path, "-o", "s.tribes")
    assert "unknown field 'colour'" in line
    assert "'rules_version' is missing" in line
    assert "'seed' must be a whole number" in line


def test_a_hand_written_scenario_with_moves_in_notation_imports(cli):
    head = {"game": "clans", "rules_version": 1, "seed": 7, "seats": ["ann", "bob"]}
    path = scenario(cli, head)
    cli.ok("import", path, "-o", "empty.tribes")
    first = cli.moves(cli.path("empty.tribes"))[0]
    path = scenario(cli, head, [first])
    cli.ok("import", path, "-o", "s.tribes")
    cli.ok("verify", "s.tribes")


def test_a_hand_written_scenario_may_carry_tags_and_notes(cli):
    head = {"game": "clans", "rules_version": 1, "seed": 7, "seats": ["ann", "bob"]}
    doc = {
        "format": "tribes-log",
        "version": 2,
        "header": head,
        "events": [],
        "annotations": [
            {"at": 0, "tag": "event", "value": "Puzzle 3"},
            {"at": 0, "note": 0, "text": "red to win"},
        ],
    }
    cli.path("s.json").write_text(json.dumps(doc))
    cli.ok("import", "s.json", "-o", "s.tribes")
    assert cli.ok("tag", "s.tribes") == "event=Puzzle 3\n"
    assert cli.ok("note", "s.tribes", "0") == "red to win\n"
    doc["annotations"][1]["note"] = 1  # an event that is not there
    cli.path("s.json").write_text(json.dumps(doc))
    assert "annotation 2: it notes event 1" in cli.fails("import", "s.json", "-o", "t.tribes")
