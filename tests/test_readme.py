"""The README's examples are tests: its command-line tour runs line by line as a user would type
it, and every Python example runs against the demo's log."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCK = re.compile(r"^```(\w+)\n(.*?)^```", re.S | re.M)


def blocks(language: str) -> list[str]:
    return [body for lang, body in BLOCK.findall(README.read_text()) if lang == language]


def section(title: str) -> str:
    text = README.read_text()
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def env_with_tribes() -> dict[str, str]:
    return {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}


def test_the_command_line_tour_runs_line_by_line(tmp_path):
    (tour,) = [b for lang, b in BLOCK.findall(section("Command line")) if lang == "sh"][:1]
    lines = [line.split("  #")[0].strip() for line in tour.splitlines() if line.strip()]
    assert lines[0].startswith("tribes new")
    for line in lines:
        ran = subprocess.run(
            ["bash", "-c", line],
            cwd=tmp_path,
            env=env_with_tribes(),
            capture_output=True,
            text=True,
        )
        assert ran.returncode == 0, (line, ran.stdout[-500:], ran.stderr[-500:])
        assert "Traceback" not in ran.stderr


@pytest.fixture(scope="module")
def demo_folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("readme")
    subprocess.run(
        ["tribes", "demo"], cwd=folder, env=env_with_tribes(), check=True, capture_output=True
    )
    return folder


@pytest.mark.parametrize(
    "example",
    [b for b in blocks("python") if "def test_" not in b],
    ids=lambda b: b.split("\n")[1][:40],
)
def test_python_examples_run(example, demo_folder, monkeypatch, capsys):
    monkeypatch.chdir(demo_folder)
    exec(compile(example, "README.md", "exec"), {"__name__": "readme_example"})
    capsys.readouterr()


def test_there_are_examples_to_run():
    assert len([b for b in blocks("python") if "def test_" not in b]) >= 2
