"""docs/rule-changes.md, the walk-through of a rule fix (issue 27, "Done when"): every line of
its shell blocks run in order as a user types it, in bash, in a scratch folder, the shell
functions it defines (the fix, made by the test double of ``tribes.testing.rulechange``) kept
for the lines after them; what each block prints compared with the output the page shows
under it. The page's corpus has 2,000 games; here 600 (a third of the time), so the numbers on the corpus's lines are read as any numbers."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tribes.testing import rulechange

pytestmark = pytest.mark.skipif(
    rulechange.compiled(), reason="a compiled build folds the constants a test double changes"
)

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "rule-changes.md"
GAMES = int(os.environ.get("TRIBES_WALK_THROUGH_GAMES", "600"))
"""The games of the corpus here: the page plays 2,000 (set this variable to 2000 to check its
own figures); 600 hold games of each kind its summary names (the first game the fix makes
illegal is the 421st)."""

_BLOCK = re.compile(r"^```(\w+)\n(.*?)^```", re.DOTALL | re.MULTILINE)
_FUNCTION = re.compile(r"^(\w+)\(\) \{.*\}$")


def walk_through() -> list[tuple[str, str]]:
    """The page's blocks from its walk-through on, in order: (language, text)."""
    text = PAGE.read_text()
    return _BLOCK.findall(text[text.index("## The walk-through") :])


def expected(text: str, reduced: bool) -> re.Pattern[str]:
    """The pattern of a block's output: ``…`` alone on a line stands for any lines, within a
    line for any text; with a reduced corpus, the numbers and digests on the corpus's lines
    (those naming the corpus or one of its games, a baseline or a count of games) for any."""
    parts = []
    for line in text.rstrip("\n").split("\n"):
        if line == "…":
            parts.append(r"(?:[^\n]*\n)*?")
            continue
        pattern = r".*".join(re.escape(piece) for piece in line.split("…"))
        if reduced and re.search(r"runs\.corpus|baseline|games", line):
            pattern = re.sub(r"[0-9a-f]{16,}|\d(?:[\d,.]|\\\.)*\d", r"[0-9a-f.,]+", pattern)
        parts.append(pattern + r"\n")
    return re.compile("".join(parts))


def test_the_walk_through_runs_as_written(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "TRIBES_DEBUG"))}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"
    functions: dict[str, str] = {}
    said = ""
    ran = 0
    for language, text in walk_through():
        if language == "python":  # the test file the page shows
            (tmp_path / "tests").mkdir(exist_ok=True)
            (tmp_path / "tests" / "test_twelfth.py").write_text(text)
        elif language == "sh":
            said = ""
            for line in text.strip().split("\n"):
                defined = _FUNCTION.match(line)
                if defined:
                    functions[defined[1]] = line
                    continue
                line = line.replace("--games 2000", f"--games {GAMES}")
                script = "\n".join([*functions.values(), line])
                done = subprocess.run(
                    ["bash", "-c", script],
                    cwd=tmp_path,
                    env=env,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT,
                    text=True,
                    check=False,
                )
                assert done.returncode == 0, (line, done.stdout[-2000:])
                assert "Traceback" not in done.stdout, (line, done.stdout[-2000:])
                said += done.stdout
                ran += 1
        elif language == "text":
            pattern = expected(text, reduced=GAMES != 2000)
            assert pattern.fullmatch(said), (
                f"the page shows:\n{text}\nthe commands printed:\n{said}"
            )
    assert ran >= 20 and functions  # the walk-through was read, and the fix was made
    # the fixture was re-sealed by upgrade --rules alone, the original kept beside it
    fixtures = tmp_path / "tests" / "fixtures"
    assert sorted(p.name for p in fixtures.iterdir()) == ["twelfth.tribes", "twelfth.tribes.rules"]
    assert (fixtures / "twelfth.tribes").read_bytes() != (
        fixtures / "twelfth.tribes.rules"
    ).read_bytes()
