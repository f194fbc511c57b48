"""C1: the engine takes any board file that passes validation (``--option board=PATH``)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from tribes.cli.main import main

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


def test_c1_another_board_file_is_played_on(tmp_path: Path) -> None:
    board = renumbered_board(tmp_path)
    log = tmp_path / "g.json"
    runner = CliRunner()
    made = runner.invoke(
        main, ["new", "clans", "--seed", "3", "--option", f"board={board}", "-o", str(log)]
    )
    assert made.exit_code == 0, made.output
    assert json.loads(log.read_text())["header"]["options"] == {"board": str(board)}
    moves = runner.invoke(main, ["moves", str(log)]).output.split()
    # On the standard board 1 borders 2, 6 and 7; reversed, 60 borders 59, 55 and 54.
    assert {m for m in moves if m.startswith("60-")} == {"60-59", "60-55", "60-54"}
    acted = runner.invoke(main, ["act", str(log), "60-59"])
    assert acted.exit_code == 0, acted.output


def test_c1_a_board_that_fails_validation_is_refused_in_one_line(tmp_path: Path) -> None:
    data = json.loads(STANDARD.read_text())
    data["territories"] = data["territories"][:59]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    result = CliRunner().invoke(
        main, ["new", "clans", "--option", f"board={bad}", "-o", str(tmp_path / "g.tribes")]
    )
    assert result.exit_code == 2
    assert "territories must be numbered 1 to 60" in result.output
    assert not (tmp_path / "g.tribes").exists()


def test_unknown_clans_option_is_a_usage_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main, ["new", "clans", "--option", "speed=fast", "-o", str(tmp_path / "g.tribes")]
    )
    assert result.exit_code == 2
    assert "clans takes no option 'speed'" in result.output
