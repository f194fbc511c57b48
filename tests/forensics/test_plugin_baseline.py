"""The pytest plugin's ``tribes_baseline`` (issue 17 §4): one test pins a whole corpus; run as a
user would, pytest in a real process in a folder holding a corpus and a test file."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

FLAGS = ("-p", "no:cacheprovider", "--strict-markers", "-W", "error", "-p", "no:hypothesispytest")

USER_TEST = """
def test_corpus(tribes_baseline):
    assert tribes_baseline("runs.corpus") == 40
"""

RULE_CHANGED = """
from forensics_doubles import ThirdVillageScoresMore

from tribes import games

_real = games.get
games.get = lambda name: ThirdVillageScoresMore() if name == "clans" else _real(name)
"""


@pytest.fixture
def user(pytester: pytest.Pytester, made: Path, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.delenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", raising=False)
    for name in [n for n in os.environ if n.startswith("PYTEST_XDIST_")]:
        monkeypatch.delenv(name)
    shutil.copyfile(made / "runs.corpus", pytester.path / "runs.corpus")
    shutil.copyfile(
        Path(__file__).with_name("forensics_doubles.py"), pytester.path / "forensics_doubles.py"
    )
    pytester.makepyfile(test_user=USER_TEST)
    return pytester


def run(user: pytest.Pytester, *args: str) -> pytest.RunResult:
    return user.runpytest_subprocess(*FLAGS, *args)


def test_record_pass_and_fail_when_a_rule_changes(user: pytest.Pytester) -> None:
    missing = run(user)
    missing.assert_outcomes(failed=1)
    missing.stdout.fnmatch_lines(
        ["*tribes_baseline: no baseline at *test_corpus.baseline: record it*"]
    )
    run(user, "--snapshot-update").assert_outcomes(passed=1)
    stored = user.path / "__baselines__" / "test_user" / "test_corpus.baseline"
    assert stored.is_file()
    run(user).assert_outcomes(passed=1)
    recorded = stored.read_bytes()
    user.makeconftest(RULE_CHANGED)
    changed = run(user)
    changed.assert_outcomes(failed=1)
    changed.stdout.fnmatch_lines(
        [
            (
                "*the games differ from the baseline *test_corpus.baseline: * of 40 games changed; "
                "first differences at events *"
            ),
            "winners changed in * game*; 0 games now illegal",
            "CHANGED  *runs.corpus#*: first difference at event * (*): *; outcome before: *",
        ]
    )
    assert stored.read_bytes() == recorded  # a failing run leaves the baseline alone


def test_a_baseline_made_by_the_command(user: pytest.Pytester) -> None:
    from tribes.testing.cli import run_process

    run_process("baseline", "runs.corpus", "-o", "runs.baseline", cwd=user.path)
    user.makepyfile(
        test_user="""
def test_corpus(tribes_baseline):
    tribes_baseline("runs.corpus", baseline="runs.baseline")
"""
    )
    run(user).assert_outcomes(passed=1)
    (user.path / "runs.baseline").write_bytes(b"damaged")
    broken = run(user)
    broken.assert_outcomes(failed=1)
    broken.stdout.fnmatch_lines(["*tribes_baseline: baseline *runs.baseline: *"])
