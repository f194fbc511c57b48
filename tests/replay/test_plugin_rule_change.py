"""Issue 27 §6: the pytest plugin after a rule fix, run as a user would (pytest in a real
process, in pytester's folder, the plugin from its entry point). A sealed fixture replays under
the running rules and fails only where its snapshot does, telling at the event what the effects
and the board were and are now, and under which rules version its checkpoints were recorded;
``--snapshot-update`` re-records the snapshot and never the fixture; a move the running rules
refuse and a damaged fixture each fail in one line. The rule fix is a test double
(:mod:`tribes.testing.rulechange`), made in the user's conftest."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tribes.testing import rulechange
from tribes.testing.cli import Cli

pytestmark = pytest.mark.skipif(
    rulechange.compiled(), reason="a compiled build folds the constants a test double changes"
)

FLAGS = ("-p", "no:cacheprovider", "--strict-markers", "-W", "error", "-p", "no:hypothesispytest")

USER_TEST = """
def test_the_twelfth_village(tribes_playthrough):
    tribes_playthrough("fixtures/twelfth.tribes", compact=True)


def test_before_it(tribes_playthrough):
    tribes_playthrough("fixtures/before.tribes", compact=True)
"""

FIXED = """
import pytest

from tribes.testing.rulechange import {double}


@pytest.fixture(autouse=True)
def the_rule_fix():
    with {double}({args}):
        yield
"""

BONUS_FIXED = FIXED.format(double="twelfth_bonus", args="4, rules_version=2")
SOURCE_REFUSED = FIXED.format(double="refused_source", args="25, rules_version=2")


@pytest.fixture(scope="module")
def sealed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two sealed Clans fixtures: a simulated game ended by its 12th village at event 48
    (``25-18``, red, yellow, green, blue and black +15), and the same game forked before it."""
    cli = Cli(tmp_path_factory.mktemp("sealed"))
    cli.ok("simulate", "clans", "--games", "1", "--seed", "5", "--save", "sim")
    (game,) = sorted(cli.path("sim").glob("*.tribes"))
    assert cli.ok("log", game).splitlines()[-1].split()[:3] == ["48", "p3", "25-18"]
    game.rename(cli.path("twelfth.tribes"))
    cli.ok("fork", "twelfth.tribes", "--at", "41", "-o", "before.tribes")
    return cli.path(".")


@pytest.fixture
def user(
    pytester: pytest.Pytester, sealed: Path, monkeypatch: pytest.MonkeyPatch
) -> pytest.Pytester:
    """A user's project: two sealed fixtures and a test file pinning them; snapshots recorded
    under the rules as shipped."""
    monkeypatch.delenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", raising=False)
    for name in [n for n in os.environ if n.startswith("PYTEST_XDIST_")]:
        monkeypatch.delenv(name)
    (pytester.path / "fixtures").mkdir()
    for name in ("twelfth.tribes", "before.tribes"):
        shutil.copyfile(sealed / name, pytester.path / "fixtures" / name)
    pytester.makepyfile(test_user=USER_TEST)
    run(pytester, "--snapshot-update").assert_outcomes(passed=2)
    return pytester


def run(user: pytest.Pytester, *args: str) -> pytest.RunResult:
    return user.runpytest_subprocess(*FLAGS, "--color=no", *args)


def text(result: pytest.RunResult) -> str:
    return "\n".join(result.outlines + result.errlines)


def fixture_bytes(user: pytest.Pytester) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((user.path / "fixtures").iterdir())}


def snapshots(user: pytest.Pytester) -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted(user.path.rglob("__snapshots__/**/*.txt"))}


def test_a_rule_fix_fails_only_where_the_snapshot_differs_and_tells_what_changed(
    user: pytest.Pytester,
) -> None:
    user.makeconftest(BONUS_FIXED)
    result = run(user)
    result.assert_outcomes(passed=1, failed=1)  # the game forked before event 48 still reads so
    said = text(result)
    assert (
        "the playthrough of fixtures/twelfth.tribes differs from its snapshot: the snapshot has "
        "48 events, the log now 48 events; the first difference is at event 48 (p3 25-18): its "
        "digest, effects and board differ"
    ) in said
    # at the event, the effects and the board then and now, word by word
    assert (
        "effects: village 12 at 18 (epoch 5, 2 red, 2 yellow, 2 green, 2 blue, 2 black): red, "
        "yellow, green, blue, black +15 → +14; chip to p3"
    ) in said
    assert "game over (the 12th village is founded): p1 (green) 60 → 59, " in said
    assert "board: line 20: epoch 5 (+5 → +4 on every terrain)  villages 12/12" in said
    assert "line 21: track  red 48 → 47  yellow 47 → 46  green 57 → 56" in said
    # one line: under which rules the fixture's checkpoints were recorded, and the running ones
    (rules,) = [line for line in result.outlines if line.lstrip().startswith("rules: ")]
    assert rules.strip() == (
        "rules: the checkpoints of fixtures/twelfth.tribes were recorded under clans rules "
        "version 1, running version 2; the running rules give another state after event 48 "
        "(scores, track, villages differ): a rule change, not damage; review, then --snapshot-update "
        "('tribes upgrade --rules fixtures/twelfth.tribes' re-seals the fixture)"
    )
    for word in ("damaged", "altered", "restore", "repair", "Traceback"):
        assert word not in said, word


def test_snapshot_update_records_the_snapshot_and_never_the_fixture(
    user: pytest.Pytester,
) -> None:
    sealed, before = fixture_bytes(user), snapshots(user)
    user.makeconftest(BONUS_FIXED)
    run(user).assert_outcomes(passed=1, failed=1)
    assert fixture_bytes(user) == sealed and snapshots(user) == before  # a failing run
    updated = run(user, "--snapshot-update")
    updated.assert_outcomes(passed=2)
    assert fixture_bytes(user) == sealed  # the fixture is never rewritten by the plugin
    now = snapshots(user)
    assert now["test_before_it.txt"] == before["test_before_it.txt"]
    assert "+14; chip to p3" in now["test_the_twelfth_village.txt"]
    # passing, the run still names the fixture that other rules recorded, and what re-seals it
    updated.stdout.fnmatch_lines(
        [
            "*tribes: fixtures recorded under other rules*",
            (
                "fixtures/twelfth.tribes: checkpoints recorded under clans rules version 1, running "
                "version 2; 'tribes upgrade --rules fixtures/twelfth.tribes' re-seals it"
            ),
        ]
    )
    assert "before.tribes: checkpoints" not in text(updated)
    run(user).assert_outcomes(passed=2)
    # re-sealed on purpose, under the fix, by the command: then nothing more is said
    cli = Cli(user.path)
    with rulechange.twelfth_bonus(4, rules_version=2):
        cli.ok("upgrade", "--rules", "fixtures/twelfth.tribes")
    again = run(user)
    again.assert_outcomes(passed=2)
    assert "other rules" not in text(again)
    assert fixture_bytes(user)["before.tribes"] == sealed["before.tribes"]


USER_TESTS_TWICE = """
def test_the_twelfth_village_again(tribes_playthrough):
    tribes_playthrough("fixtures/twelfth.tribes", compact=True)


def test_before_it_again(tribes_playthrough):
    tribes_playthrough("fixtures/before.tribes", compact=True)
"""


@pytest.mark.parametrize("workers", [(), ("-n", "2")], ids=["one-process", "xdist"])
def test_the_list_of_fixtures_under_other_rules_is_printed_under_xdist_too(
    user: pytest.Pytester, workers: tuple[str, ...]
) -> None:
    """The end-of-run list is gathered from the tests' reports, so pytest-xdist's workers,
    which run the tests, send it to the process that prints: the same lines with ``-n 2``,
    each fixture once however many tests replay it."""
    user.makepyfile(test_again=USER_TESTS_TWICE)
    user.makeconftest(BONUS_FIXED)
    result = run(user, "--snapshot-update", *workers)
    result.assert_outcomes(passed=4)
    if workers:
        assert "2 workers" in text(result)
    head = [i for i, line in enumerate(result.outlines) if "fixtures recorded under other" in line]
    assert head, text(result)  # the end-of-run list's heading
    listed = result.outlines[head[0] + 1 :]
    assert listed[0] == (
        "fixtures/twelfth.tribes: checkpoints recorded under clans rules version 1, running "
        "version 2; 'tribes upgrade --rules fixtures/twelfth.tribes' re-seals it"
    )
    assert not any("twelfth.tribes: checkpoints" in line for line in listed[1:])
    assert "before.tribes: checkpoints" not in text(result)


def test_a_move_the_running_rules_refuse_names_the_event_the_rule_and_both_versions(
    user: pytest.Pytester,
) -> None:
    sealed, before = fixture_bytes(user), snapshots(user)
    user.makeconftest(SOURCE_REFUSED)
    for args in ((), ("--snapshot-update",)):
        result = run(user, *args)
        result.assert_outcomes(passed=1, failed=1)
        (line,) = [x for x in result.outlines if x.startswith("tribes_playthrough: ")]
        assert line.endswith(
            "twelfth.tribes: intact, but the running rules refuse event 48 ('25-18'): huts "
            "may no longer leave territory 25 (C99); written under clans rules version 1, "
            "running version 2; the game stops after event 47 ('tribes fork "
            f"{user.path}/fixtures/twelfth.tribes --at 48 -o NEW' plays on from there) "
            "(its snapshot is kept)"
        ), line
        assert "restore" not in text(result) and "damaged" not in text(result)
        assert fixture_bytes(user) == sealed and snapshots(user) == before


def test_a_damaged_fixture_is_damaged_whatever_the_rules(user: pytest.Pytester) -> None:
    path = user.path / "fixtures" / "twelfth.tribes"
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))
    before = snapshots(user)
    for conftest in ("", BONUS_FIXED):
        user.makeconftest(conftest)
        result = run(user)
        result.assert_outcomes(passed=1, failed=1)
        (line,) = [x for x in result.outlines if x.startswith("tribes_playthrough: ")]
        assert "twelfth.tribes: the record after event " in line and "is corrupt" in line
        assert line.endswith("(its snapshot is kept; fix or restore the log)")
        assert "rules differ" not in text(result) and "other rules" not in text(result)
        assert snapshots(user) == before


BASELINE_TEST = """
def test_the_corpus(tribes_baseline):
    tribes_baseline("runs.corpus")
"""


def test_a_baseline_under_a_rule_fix_says_what_changed(
    user: pytest.Pytester,
) -> None:
    cli = Cli(user.path)
    cli.ok("simulate", "clans", "--games", "12", "--seed", "1", "--save", "runs.corpus")
    user.makepyfile(test_user=BASELINE_TEST)
    run(user, "--snapshot-update").assert_outcomes(passed=1)
    stored = (user.path / "__baselines__" / "test_user" / "test_the_corpus.baseline").read_bytes()
    corpus = (user.path / "runs.corpus").read_bytes()
    user.makeconftest(BONUS_FIXED)
    result = run(user)
    result.assert_outcomes(failed=1)
    said = text(result)
    assert "the games differ from the baseline " in said and " of 12 games changed" in said
    assert "CHANGED  " in said and "rules version 1, this tribes plays version 2" in said
    assert "tribes_baseline: " not in said and ": damaged" not in said
    assert (user.path / "runs.corpus").read_bytes() == corpus
    assert (
        user.path / "__baselines__" / "test_user" / "test_the_corpus.baseline"
    ).read_bytes() == stored
