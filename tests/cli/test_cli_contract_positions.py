"""``tribes new --position``: a valid position starts a game; an invalid one is refused with
exit 1 and one line saying what is wrong, and no log is written."""

from __future__ import annotations

import json

import pytest

from tribes.replay import logs

FILLER = {59: {"green": 1}, 60: {"green": 1}}


def test_a_position_starts_the_game_there(cli, position):
    doc = position(
        {12: {"red": 2, "blue": 1}, 13: {"green": 1}, **FILLER},
        seats=("ann", "bob", "cy"),
        to_move="bob",
        chips={"ann": 1},
        track={"red": 4},
    )
    path = cli.from_position(doc)
    shown = cli.show_json(path)
    assert shown["to_move"] == "bob"
    assert shown["huts"] == {
        "12": {"red": 2, "blue": 1},
        "13": {"green": 1},
        **{str(t): c for t, c in FILLER.items()},
    }
    assert shown["chips"] == {"ann": 1, "bob": 0, "cy": 0}
    assert shown["track"]["red"] == 4
    assert shown["clans"] == {"ann": "red", "bob": "blue", "cy": "green"}
    assert shown["scores"] == {"ann": 5, "bob": 0, "cy": 0}
    assert sorted(cli.moves(path)) == sorted(["12-13", "13-12", "59-60", "60-59"])
    cli.ok("verify", path)


def test_the_seats_come_from_the_position(cli, position):
    pos = cli.path("pos.json")
    pos.write_text(json.dumps(position({**FILLER}, seats=("x", "y"))))
    out = cli.ok("new", "clans", "--position", pos, "-o", cli.path("p.tribes"))
    assert ", seats x, y; x to move" in out
    assert logs.open_log(cli.path("p.tribes")).log.header.seats == ("x", "y")
    assert cli.show_json(cli.path("p.tribes"))["clans"] == {"x": "red", "y": "blue"}


def test_a_position_log_round_trips_through_json(cli, position):
    path = cli.from_position(position({12: {"red": 2}, 13: {"blue": 1}, **FILLER}))
    cli.ok("act", path, "13-12")
    exported = cli.path("p.json")
    exported.write_text(cli.ok("export", path, "--json"))
    back = cli.path("back.tribes")
    cli.ok("import", exported, "-o", back)
    assert back.read_bytes() == path.read_bytes()


BAD = {
    "13 huts of one colour": (
        {"huts": {"12": {"red": 13}, "13": {"blue": 1}}},
        ["13 red huts", "12"],
    ),
    "13 huts of one colour over two territories": (
        {"huts": {"12": {"red": 7}, "13": {"red": 6}}},
        ["13 red huts"],
    ),
    "unknown territory": (
        {"huts": {"61": {"red": 1}, "13": {"blue": 1}}},
        ["'61'", "1 to 60"],
    ),
    "territory zero": ({"huts": {"0": {"red": 1}, "13": {"blue": 1}}}, ["'0'"]),
    "territory not a number": ({"huts": {"x": {"red": 1}, "13": {"blue": 1}}}, ["'x'"]),
    "unknown colour": (
        {"huts": {"12": {"pink": 1}, "13": {"blue": 1}}},
        ["'pink'", "red, yellow, green, blue, black"],
    ),
    "unknown clan colour": ({"clans": {"ann": "pink", "bob": "blue"}}, ["'pink'"]),
    "duplicate clan colour": ({"clans": {"ann": "red", "bob": "red"}}, ["same clan colour"]),
    "a seat without a clan": ({"clans": {"ann": "red"}}, ["'clans'"]),
    "negative huts": ({"huts": {"12": {"red": -1}, "13": {"blue": 1}}}, ["-1"]),
    "fractional huts": ({"huts": {"12": {"red": 1.5}, "13": {"blue": 1}}}, ["1.5"]),
    "too few chips for the villages on the board": (
        {"huts": {"1": {"red": 1}, "30": {"blue": 1}, "45": {"green": 1}}},
        ["3 territories are villages", "0 chips"],
    ),
    "twelve chips taken": ({"chips": {"ann": 12}}, ["12 chips"]),
    "chips of an unknown seat": ({"chips": {"zed": 1}}, ["'chips'"]),
    "chips not a number": ({"chips": {"ann": "x"}}, ["chips of ann", "'x'"]),
    "track of an unknown colour": ({"track": {"pink": 1}}, ["'pink'"]),
    "track not a map": ({"track": [1, 2]}, ["'track'"]),
    "to_move not a seat": ({"to_move": "zed"}, ["'zed'"]),
    "missing seats": ({"seats": None}, ["'seats'"]),
    "missing clans": ({"clans": None}, ["'clans'"]),
    "missing to_move": ({"to_move": None}, ["'to_move'"]),
    "missing huts": ({"huts": None}, ["'huts'"]),
    "an unknown key": ({"colour": "red"}, ["'colour'"]),
    "one seat": ({"seats": ["ann"], "clans": {"ann": "red"}}, ["'seats'", "2 to 4"]),
    "five seats": (
        {
            "seats": ["a", "b", "c", "d", "e"],
            "clans": dict(zip("abcde", ("red", "yellow", "green", "blue", "black"), strict=True)),
            "to_move": "a",
        },
        ["'seats'", "2 to 4"],
    ),
    "duplicate seats": ({"seats": ["ann", "ann"], "clans": {"ann": "red"}}, ["differ"]),
    "huts not a map": ({"huts": [1, 2]}, ["'huts'"]),
    "a territory's huts not a map": ({"huts": {"12": 3, "13": {"blue": 1}}}, ["territory 12"]),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_an_invalid_position(cli, position, case):
    change, fragments = BAD[case]
    doc = position({12: {"red": 1}, 13: {"blue": 1}, **FILLER})
    for key, value in change.items():
        if value is None:
            del doc[key]
        else:
            doc[key] = value
    pos = cli.path("pos.json")
    pos.write_text(json.dumps(doc))
    out = cli.path("p.tribes")
    line = cli.fails("new", "clans", "--position", pos, "-o", out)
    for fragment in fragments:
        assert fragment in line, line
    assert not out.exists()


@pytest.mark.parametrize("text", ["not json", "{", '{"seats": ["ann", "bob"],}', ""])
def test_a_position_that_is_not_json(cli, text):
    pos = cli.path("pos.json")
    pos.write_text(text)
    out = cli.path("p.tribes")
    line = cli.fails("new", "clans", "--position", pos, "-o", out)
    assert "pos.json" in line and "JSON" in line
    assert not out.exists()


@pytest.mark.parametrize("doc", [[1, 2], "ann", 3, None])
def test_a_position_that_is_not_an_object(cli, doc):
    pos = cli.path("pos.json")
    pos.write_text(json.dumps(doc))
    line = cli.fails("new", "clans", "--position", pos, "-o", cli.path("p.tribes"))
    assert "position" in line


def test_a_missing_position_file(cli):
    line = cli.fails(
        "new", "clans", "--position", cli.path("nope.json"), "-o", cli.path("p.tribes")
    )
    assert "nope.json" in line


def test_a_position_with_a_score_too_large_for_a_log(cli, position):
    doc = position({12: {"red": 1}, 13: {"blue": 1}, **FILLER}, track={"red": 2**70})
    pos = cli.path("pos.json")
    pos.write_text(json.dumps(doc))
    out = cli.path("p.tribes")
    line = cli.fails("new", "clans", "--position", pos, "-o", out)
    assert "track" in line
    assert not out.exists()


def test_position_seats_differ_from_names(cli, position):
    """The seats are the position's: --names that differ from them, in names or in order, are
    refused naming both, and no log is written; the position's own names are accepted."""
    pos = cli.path("pos.json")
    pos.write_text(json.dumps(position({**FILLER})))
    out = cli.path("p.tribes")
    for names in ("x,y", "bob,ann", "ann,bob,cy"):
        line = cli.fails("new", "clans", "--position", pos, "--names", names, "-o", out)
        given = ", ".join(f"'{n}'" for n in names.split(","))
        assert line == (
            f"tribes: the position's seats ['ann', 'bob'] differ from the game's [{given}]"
        )
        assert not out.exists()
    cli.ok("new", "clans", "--position", pos, "--names", "ann,bob", "-o", out)
    assert logs.open_log(out).log.header.seats == ("ann", "bob")
