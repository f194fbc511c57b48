"""docs/games/clans.md, "Finding the 12th and 13th": the commands that find the case among
simulated games and shrink it, run line by line as a user types them; the reproducer holds the
move that founds both villages, not only the order that numbers them (C19)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
TITLE = "## Finding the 12th and 13th"


def commands() -> list[str]:
    text = (ROOT / "docs" / "games" / "clans.md").read_text()
    start = text.index(TITLE)
    end = text.find("\n## ", start + 1)
    (block,) = re.findall(
        r"^```sh\n(.*?)^```", text[start : end if end != -1 else None], re.DOTALL | re.MULTILINE
    )
    return [line.split("  #")[0].strip() for line in block.splitlines() if line.strip()]


def test_the_page_finds_and_shrinks_the_twelfth_and_thirteenth(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "TRIBES_"))}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"
    said = []
    for line in commands():
        done = subprocess.run(
            ["bash", "-c", line], cwd=tmp_path, env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, (line, done.stdout[-800:], done.stderr[-800:])
        said.append(done.stdout)
    _, found, counted, shrunk, log = said
    assert found.splitlines()[0] == "runs.corpus#2 event 43: VillageUnscored"
    assert counted.startswith("20 events in 20 of 200 games match")
    assert "from the position after event 41, 2 events" in shrunk
    reproducer = json.loads((tmp_path / "twelfth.json").read_text())
    first, second = reproducer["events"]
    assert (first["type"], second["type"]) == ("move", "order")
    lines = log.splitlines()
    assert "must choose the order" in lines[0]
    assert "village 12 at" in lines[1] and "is beyond the 12th" in lines[1]


def test_shrink_keeps_the_move_that_asked_for_the_order(cli) -> None:
    """The fixture's event 2 (``order 36 38``) founds the 13th; its reproducer starts before
    event 1 (``37-36``), the move that founds both, never at the pending order."""
    fixture = ROOT / "fixtures" / "clans" / "twelfth-and-thirteenth.json"
    cli.ok("shrink", str(fixture), "--until", "VillageUnscored", "-o", "r.json")
    log = cli.ok("log", "r.json").splitlines()
    assert [line.split()[2] for line in log] == ["37-36", "order"]
