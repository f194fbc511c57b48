"""Iwari through the CLI: illegal plays, bad notation, invalid positions and maps get one line on
stderr, exit 1 (2 for usage) and leave the log byte-identical."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tribes.cli.main import main

ROOT = Path(__file__).parents[3]
BASE = json.loads((ROOT / "fixtures" / "iwari" / "totem-limit-opened-by-tent.json").read_text())
POSITION = BASE["header"]["position"]


def run(*args: object) -> tuple[int, str]:
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert "Traceback" not in result.output
    return result.exit_code, result.output


@pytest.fixture
def log(tmp_path: Path) -> Path:
    """ann to play, hand f f g; territory 6 (forest): ann tent 22, bob tent 23, 1 totem."""
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps(POSITION))
    path = tmp_path / "g.tribes"
    code, out = run("new", "iwari", "--position", pos, "-o", path)
    assert code == 0, out
    return path


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
        ("swap f d9", "cannot read move"),
        ("6 tent24 fff", "3 forest cards played, 2 in hand (I8)"),
    ],
)
def test_an_illegal_move_is_one_line_and_changes_nothing(
    log: Path, move: str, message: str
) -> None:
    before = log.read_bytes()
    code, out = run("act", log, move)
    assert code == 1
    assert out.count("\n") == 1 and out.startswith("tribes: ")
    assert message in out
    assert log.read_bytes() == before


def test_a_batch_with_a_late_illegal_move_appends_nothing(log: Path) -> None:
    before = log.read_bytes()
    code, out = run("act", log, "6 tent24 totem ff", "draw deck", "draw deck", "draw deck")
    assert code == 1
    assert "event 4" in out and "the turn begins with a play" in out
    assert log.read_bytes() == before
    code, out = run("act", log, "6 tent24 totem ff", "draw deck", "draw deck")
    assert code == 0, out


def test_a_legal_move_passes_and_the_totem_limit_opens(log: Path) -> None:
    code, out = run("act", log, "6 tent24 totem ff")
    assert code == 0, out
    assert "tent on 24, totem in territory 6" in out
    code, out = run("show", log, "--json")
    doc = json.loads(out)
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
        ({"deck_outs": 2}, "'deck_outs' is 0 or 1"),
    ],
)
def test_an_invalid_position_is_refused_in_one_line(
    tmp_path: Path, change: dict, message: str
) -> None:  # type: ignore[type-arg]
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps({**POSITION, **change}))
    out_log = tmp_path / "g.tribes"
    code, out = run("new", "iwari", "--position", pos, "-o", out_log)
    assert code == 1
    assert out.count("\n") == 1 and message in out
    assert not out_log.exists()


def test_an_invalid_map_or_variant_is_a_usage_error(tmp_path: Path) -> None:
    data = json.loads((ROOT / "games" / "iwari" / "data" / "map.json").read_text())
    data["connections"][0]["a"] = 99
    bad = tmp_path / "map.json"
    bad.write_text(json.dumps(data))
    code, out = run("new", "iwari", "--option", f"map={bad}", "-o", tmp_path / "a.tribes")
    assert code == 2 and "connection 1 does not join two territories" in out
    code, out = run("new", "iwari", "--option", "variant=moon-base", "-o", tmp_path / "b.tribes")
    assert code == 2 and "unknown variant 'moon-base'" in out
    code, out = run("new", "iwari", "--option", "feats=maybe", "-o", tmp_path / "c.tribes")
    assert code == 2 and "option feats is on or off" in out
    code, out = run("new", "iwari", "--seats", "6", "-o", tmp_path / "d.tribes")
    assert code == 2 and "iwari is for 2 to 5 seats" in out


def test_a_game_over_refuses_moves(tmp_path: Path) -> None:
    path = ROOT / "fixtures" / "iwari" / "end-by-last-tent-mid-round.json"
    copy = tmp_path / "end.json"
    copy.write_bytes(path.read_bytes())
    before = copy.read_bytes()
    code, out = run("act", copy, "pass")
    assert code == 1 and "the game is over (I14)" in out
    assert copy.read_bytes() == before
