"""docs/commands.md, "Hunt": each command line run as a user types it (in a folder holding the
checkout's examples/boards), and the output the page shows is the commands' real output, the
seconds aside."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TITLE = "## Hunt: steer play toward a rare case"
SECONDS = re.compile(r"in \d+\.\d s")


def section() -> str:
    text = (ROOT / "docs" / "commands.md").read_text()
    start = text.index(TITLE)
    end = text.find("\n## ", start + 1)
    return text[start:end]


def test_the_hunt_commands_run_and_print_what_the_page_shows(tmp_path: Path) -> None:
    commands, printed = re.findall(r"^```(?:sh)?\n(.*?)^```", section(), re.DOTALL | re.MULTILINE)[
        :2
    ]
    shutil.copytree(ROOT / "examples" / "boards", tmp_path / "examples" / "boards")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "TRIBES_DEBUG"))}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"
    out = []
    for line in [line.split("  #")[0].strip() for line in commands.splitlines() if line.strip()]:
        done = subprocess.run(
            ["bash", "-c", line], cwd=tmp_path, env=env, capture_output=True, text=True
        )
        assert "Traceback" not in done.stderr + done.stdout, line
        assert done.returncode == (1 if "--closest" in line else 0), (line, done.stderr)
        out.append(done.stdout)
    shown = SECONDS.sub("in S s", printed)
    assert SECONDS.sub("in S s", out[0] + out[1]) == shown
    move, ordered = out[2].splitlines()  # the move that founds the four, then their order
    assert move.split()[:2] == ["1", "p3"] and ordered.split()[:4] == ["2", "p3", "order", "8"]
    assert out[3].startswith("found: 'over and max(scores) == min(scores)' holds at event ")
    assert "not shrunk: dice has no position form" in out[4]
