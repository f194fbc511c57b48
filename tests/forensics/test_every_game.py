"""Every forensics command works for every built-in game through the Game contract alone:
find, baseline, regress and coverage over each game's fixtures; and the progress bar shows on a
terminal only."""

from __future__ import annotations

import os
import pty
import subprocess
from pathlib import Path

import pytest

from tribes import games
from tribes.testing.cli import Cli, tribes_command

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.mark.parametrize("name", games.BUILT_IN)  # the games with fixtures
def test_every_command_reads_every_game(cli: Cli, name: str) -> None:
    folder = FIXTURES / name
    effect = min(games.get(name).events.effects)
    report = cli.json("find", folder, "--where", f"len({effect}) >= 0", "--first", "--json")
    logs = sorted(p for p in folder.rglob("*") if p.suffix in (".json", ".tribes"))
    assert report["games"] == len(logs) and report["matched_games"] == len(logs)
    assert all(m["event"] == 0 for m in report["matches"])  # true at the start already
    cli.ok("baseline", folder, "-o", "b.baseline")
    assert cli.ok("regress", folder, "--baseline", "b.baseline").strip() == (
        f"0 of {len(logs)} games changed"
    )
    assert cli.ok("coverage", folder).startswith(f"{name}: {len(logs)} games, ")


def test_a_progress_bar_on_a_terminal_only(tmp_path: Path) -> None:
    """stderr a terminal: a bar of games; stdout still the matches alone."""
    primary, secondary = pty.openpty()
    done = subprocess.run(
        [*tribes_command(), "find", str(FIXTURES / "clans"), "--where", "VillageUnscored"],
        stdout=subprocess.PIPE,
        stderr=secondary,
        env={**os.environ, "COLUMNS": "80"},
        check=False,
        timeout=120,
    )
    os.close(secondary)
    seen = b""
    while True:
        try:
            chunk = os.read(primary, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    os.close(primary)
    assert done.returncode == 0, seen
    assert b"find" in seen and b"100%" in seen
    assert done.stdout.decode().endswith(": VillageUnscored\n")
    assert b"find" not in done.stdout
