"""``python -m tribes.testing.rulechange``: ``tribes`` and ``pytest`` run under the rule-change
doubles, in a real process, as docs/rule-changes.md runs them; and bad input in one line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tribes.testing import rulechange
from tribes.testing.cli import Cli

pytestmark = pytest.mark.skipif(
    rulechange.compiled(), reason="a compiled build folds the constants a test double changes"
)


def runner(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tribes.testing.rulechange", *args],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )


def test_tribes_under_the_fix_and_under_a_state_field(cli: Cli) -> None:
    cli.ok("simulate", "clans", "--games", "1", "--seed", "5", "--save", "sim")
    (log,) = sorted(cli.path("sim").glob("*.tribes"))
    shipped = runner(cli.path("."), "tribes", "verify", str(log))  # the real chart: consistent
    assert shipped.returncode == 0 and shipped.stdout.startswith("ok    "), shipped
    fixed = runner(
        cli.path("."), "--twelfth-bonus", "4", "--rules-version", "2", "tribes", "verify", str(log)
    )
    assert fixed.returncode == 3, fixed
    assert "intact, rules differ" in fixed.stdout
    assert "written under clans rules version 1, running version 2" in fixed.stdout
    field = runner(cli.path("."), "--state-field", "tribes", "verify", str(log))
    assert field.returncode == 0 and field.stdout == shipped.stdout  # no digest changed
    shown = runner(cli.path("."), "--twelfth-bonus", "4", "tribes", "log", str(log))
    assert shown.returncode == 0 and "black +14; chip to p3" in shown.stdout


def test_pytest_under_the_fix(tmp_path: Path) -> None:
    (tmp_path / "test_chart.py").write_text(
        "from tribes.games.clans import board\n\n\n"
        "def test_the_bonus():\n"
        "    assert board.packaged('tribes.games.clans', 'epochs.json')['epochs'][4]['bonus'] == 4\n"
    )
    done = runner(tmp_path, "--twelfth-bonus", "4", "pytest", "-q", "-p", "no:cacheprovider")
    assert done.returncode == 0 and "1 passed" in done.stdout, done
    assert runner(tmp_path, "pytest", "-q", "-p", "no:cacheprovider").returncode == 1


@pytest.mark.parametrize(
    "args", [(), ("--twelfth-bonus", "x", "tribes"), ("make",), ("--rules-version", "tribes")]
)
def test_bad_input_is_one_line(tmp_path: Path, args: tuple[str, ...]) -> None:
    done = runner(tmp_path, *args)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("python -m tribes.testing.rulechange: ")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
