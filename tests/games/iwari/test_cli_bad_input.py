"""Iwari through the CLI: illegal plays, bad notation, invalid positions and maps get one line on
stderr, exit 1 (2 for usage) and leave the log byte-identical."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tribes.testing.cli import Cli

ROOT = Path(__file__).parents[3]
BASE = json.loads((ROOT / "fixtures" / "iwari" / "totem-limit-opened-by-tent.json").read_text())
POSITION = BASE["header"]["position"]


@pytest.fixture
def log(cli: Cli) -> Path:
    """ann to play, hand f f g; territory 6 (forest): ann tent 22, bob tent 23, 1 totem."""
    return cli.from_position(POSITION, "g.tribes", game="iwari")


@pytest.mark.parametrize(
    ("move", "message"),
    [
        ("6 totem f", "would hold 2 totems but no tribe has more than 1 tents there (I8)"),
        ("6 tent22 f", "tent space 22 is taken (I8)"),
        ("6 tent40 f", "tent space 40 is not in territory 6 (I8)"),
        ("6 tent24 c", "1 coast card played, 0 in hand (I8)"),
        ("6 tent24 fg", "cannot pay for 1 piece on forest"),
        ("1 tent1 fg", "cannot pay for 1 piece on glacier"),
        ("1 totem ff", "unexplored: it takes exactly one piece, a tent (I8)"),
        ("6 tent24 tent25 totem ffg", "cannot read move"),
        ("99 tent1 f", "there is no territory 99 (I1)"),
        ("draw deck", "the turn begins with a play, an exchange or"),
        ("third pass", "the third tribe plays only right after"),
        ("feat union 6", "the turn begins with a play"),
        ("swap c deck", "no coast card in hand to discard (I9)"),
        ("swap f d9", "unknown place to draw from 'd9'; deck, or a display slot d1 to d4"),
        ("swap x deck", "unknown card 'x'; the cards are t (tundra), f (forest), g (glacier)"),
        ("6 tent24 xf", "unknown card 'x'; the cards are t (tundra), f (forest)"),
        ("feat glory 6", "unknown feat 'glory'; feats: union, discovery, honour, respect"),
        ("6 tent24 fff", "3 forest cards played, 2 in hand (I8)"),
    ],
)
def test_an_illegal_move_is_one_line_and_changes_nothing(
    cli: Cli, log: Path, move: str, message: str
) -> None:
    line = cli.fails_untouched(log, "act", log, move)  # one "tribes: " line, exit 1
    if message == "cannot read move":  # bad notation: what a move looks like
        assert line.startswith(f"tribes: event 1: cannot read move '{move}': an Iwari move is ")
    elif message.startswith("unknown"):  # the right form naming what does not exist: only that
        assert line == f"tribes: event 1: cannot read move '{move}': " + line.split(": ", 3)[3]
        assert "an Iwari move is" not in line
    else:  # a rule broken: the move, its event and the reason
        assert line.startswith(f"tribes: illegal move '{move}' at event 1: "), line
    assert message in line


def test_a_batch_with_a_late_illegal_move_appends_nothing(cli: Cli, log: Path) -> None:
    batch = ("6 tent24 totem ff", "draw deck", "draw deck")
    line = cli.fails_untouched(log, "act", log, *batch, "draw deck")
    assert line.startswith("tribes: illegal move 'draw deck' at event 4: ")
    assert "the turn begins with a play" in line
    cli.ok("act", log, *batch)
    assert cli.show_json(log)["events"] == 3


def test_a_legal_move_passes_and_the_totem_limit_opens(cli: Cli, log: Path) -> None:
    out = cli.ok("act", log, "6 tent24 totem ff")
    assert "tent on 24, totem in territory 6" in out
    doc = cli.show_json(log)
    assert doc["totems"]["6"] == {"ann": 1, "bob": 1}
    assert doc["tents"]["6"] == {"ann": [22, 24], "bob": [23]}
    assert doc["pending"]["decision"] == "refill"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"hands": {"ann": "fffx", "bob": "tcd", "cy": "ggc"}}, "must be terrain letters"),
        ({"hands": {"ann": "ffff", "bob": "tcd", "cy": "ggc"}}, "a hand holds at most 3 cards"),
        ({"deck": "tfgcdtfgc"}, "hold 46 cards; a 3-player game has 47"),
        ({"tents": {"ann": [22, 22]}}, "tent space 22 holds two tents"),
        ({"tents": {"ann": [99]}}, "unknown tent space 99"),
        ({"totems": {"ann": {"6": 5}}}, "holds 5 totems but no tribe has more than 1 tents"),
        ({"to_move": "zed"}, "to_move 'zed' is not a seat"),
        ({"bogus": 1}, "unknown position key 'bogus'"),
        ({"deck_outs": 3}, "'deck_outs' is 0, 1 or 2"),
        ({"deck_outs": 2}, "the deck ran out twice (deck_outs 2): it holds no card"),
        ({"phase": "bidding"}, "unknown phase 'bidding'"),
        ({"played": 2}, "phase 'action' has played no card yet"),
        ({"half_journey_scored": True}, "scored once the deck ran out"),
        ({"feats": {}}, "'feats' in a game without feats"),
        ({"display": "t-gx"}, "the display must be terrain letters"),
    ],
)
def test_an_invalid_position_is_refused_in_one_line(cli: Cli, change: dict, message: str) -> None:
    pos = cli.path("pos.json")
    pos.write_text(json.dumps({**POSITION, **change}))
    out_log = cli.path("g.tribes")
    line = cli.fails("new", "iwari", "--position", pos, "-o", out_log)
    assert message in line
    assert not out_log.exists()


def test_an_invalid_map_or_variant_is_a_usage_error(cli: Cli, tmp_path: Path) -> None:
    data = json.loads((ROOT / "games" / "iwari" / "data" / "map.json").read_text())
    data["connections"][0]["a"] = 99
    bad = tmp_path / "map.json"
    bad.write_text(json.dumps(data))
    for option, message in (
        (f"map={bad}", "connection 1 does not join two territories"),
        ("variant=moon-base", "unknown variant 'moon-base'"),
        ("feats=maybe", "option feats is on or off"),
    ):
        out = tmp_path / "a.tribes"
        assert message in cli.fails("new", "iwari", "--option", option, "-o", out, code=2)
        assert not out.exists()
    line = cli.fails("new", "iwari", "--seats", "6", "-o", tmp_path / "d.tribes", code=2)
    assert line == "tribes: iwari is for 2 to 5 seats, not 6"


def test_a_game_over_refuses_moves(cli: Cli) -> None:
    path = ROOT / "fixtures" / "iwari" / "end-by-last-tent-mid-round.json"
    copy = cli.path("end.json")
    copy.write_bytes(path.read_bytes())
    line = cli.fails_untouched(copy, "act", copy, "pass")
    assert line.endswith("the game is over (I14)")
