"""C1: the engine takes any board file that passes validation (``--option board=PATH``)."""

from __future__ import annotations

import json
from pathlib import Path

from tribes.testing.cli import Cli

STANDARD = Path(__file__).parents[3] / "games" / "clans" / "data" / "board.json"


def renumbered_board(tmp_path: Path) -> Path:
    """The standard board with territory numbers reversed (t -> 61 - t): a different map."""
    data = json.loads(STANDARD.read_text())
    for t in data["territories"]:
        t["id"] = 61 - t["id"]
    for key in ("adjacent", "rivers", "lakes"):
        data[key] = [[61 - a, 61 - b] for a, b in data[key]]
    data["name"] = "reversed"
    path = tmp_path / "reversed.json"
    path.write_text(json.dumps(data))
    return path


def test_c1_another_board_file_is_played_on(cli: Cli, tmp_path: Path) -> None:
    board = renumbered_board(tmp_path)
    log = tmp_path / "g.json"
    cli.ok("new", "clans", "--seed", "3", "--option", f"board={board}", "-o", log)
    assert json.loads(log.read_text())["header"]["options"] == {"board": str(board)}
    moves = cli.moves(log)
    # On the standard board 1 borders 2, 6 and 7; reversed, 60 borders 59, 55 and 54.
    assert {m for m in moves if m.startswith("60-")} == {"60-59", "60-55", "60-54"}
    cli.ok("act", log, "60-59")
    assert cli.show_json(log)["events"] == 1


def test_c1_a_board_that_fails_validation_is_refused_in_one_line(cli: Cli, tmp_path: Path) -> None:
    data = json.loads(STANDARD.read_text())
    data["territories"] = data["territories"][:59]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    line = cli.fails(
        "new", "clans", "--option", f"board={bad}", "-o", tmp_path / "g.tribes", code=2
    )
    assert "territories must be numbered 1 to 60" in line
    assert not (tmp_path / "g.tribes").exists()


def test_unknown_clans_option_is_a_usage_error(cli: Cli, tmp_path: Path) -> None:
    line = cli.fails("new", "clans", "--option", "speed=fast", "-o", tmp_path / "g.tribes", code=2)
    assert line == "tribes: clans takes no option 'speed'; options: board=PATH"
