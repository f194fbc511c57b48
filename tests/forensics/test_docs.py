"""docs/commands.md, "Forensics": the issue's walkthrough (simulate, find, shrink, keep under
fixtures/, pin with the pytest plugin, baseline, regress, coverage) and the demo's commands, each
line run as a user types it, with the test file the page shows."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TITLE = "## Forensics: from many games to the one case, and from a rule fix to what it changed"


def section() -> str:
    text = (ROOT / "docs" / "commands.md").read_text()
    start = text.index(TITLE)
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", section(), re.DOTALL | re.MULTILINE)


def run_lines(block: str, folder: Path) -> dict[str, subprocess.CompletedProcess[str]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "TRIBES_DEBUG"))}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"
    ran = {}
    for line in [line.split("  #")[0].strip() for line in block.splitlines() if line.strip()]:
        done = subprocess.run(
            ["bash", "-c", line], cwd=folder, env=env, capture_output=True, text=True, check=False
        )
        assert done.returncode == 0, (line, done.stdout[-800:], done.stderr[-800:])
        assert "Traceback" not in done.stderr + done.stdout, line
        ran[line] = done
    return ran


def test_the_walkthrough_runs_step_by_step(tmp_path: Path) -> None:
    walkthrough, _ = blocks("sh")
    (test_file,) = blocks("python")
    (tmp_path / "test_fixtures.py").write_text(test_file)
    ran = run_lines(walkthrough, tmp_path)
    out = {line.split()[1]: done.stdout for line, done in ran.items() if line.startswith("tribes")}
    assert out["find"].splitlines()[0] == "runs.corpus#1 event 32: len(VillageFounded) >= 2"
    shrunk = json.loads((tmp_path / "fixtures" / "two-villages.json").read_text())
    assert len(shrunk["events"]) == 1 and shrunk["header"]["meta"]["shrink"]["at"] == 32
    assert out["log"].count("village ") >= 2
    assert (tmp_path / "__snapshots__" / "test_fixtures").is_dir()
    assert (tmp_path / "__baselines__" / "test_fixtures" / "test_the_corpus.baseline").is_file()
    assert out["baseline"].startswith("runs.baseline: 300 games, ")
    assert out["regress"].strip() == "0 of 300 games changed"
    assert out["coverage"].startswith("clans: 301 games, ")


def test_the_demo_commands_run(tmp_path: Path) -> None:
    _, demo = blocks("sh")
    ran = run_lines(demo, tmp_path)
    said = [done.stdout for done in ran.values()]
    assert said[1] == "out/demo.tribes event 21: len(VillageFounded) >= 2\n"
    assert json.loads(said[2])["matches"]
    assert said[3].startswith("out/demo.tribes event 36: ")
    assert said[5].splitlines() == ["ok       out/demo.tribes: unchanged", "0 of 1 game changed"]
    assert said[6].splitlines()[-1] == "never happened: C21"
