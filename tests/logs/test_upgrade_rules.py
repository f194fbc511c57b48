"""``tribes upgrade --rules``: intact logs carried forward to the running rules on purpose,
after saying what changes; the originals kept; a log with a move the running rules refuse left
alone and named. The rule change is a test double (:mod:`tribes.testing.rulechange`)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tribes.events import logfile
from tribes.replay import logs
from tribes.testing import rulechange

pytestmark = pytest.mark.skipif(
    rulechange.compiled(), reason="a compiled build folds the constants a test double changes"
)
V2 = Path(__file__).parent / "v2"


@pytest.fixture
def runs(cli) -> Path:
    """A folder of three simulated Clans games, each ended by its 12th village."""
    cli.ok("simulate", "clans", "--games", "3", "--seed", "5", "--save", "runs")
    return cli.path("runs")


def test_upgrade_rules_says_what_changes_reseals_and_keeps_the_originals(cli, runs):
    paths = sorted(runs.glob("*.tribes"))
    before = {p: p.read_bytes() for p in paths}
    digests = {p: logfile.log_digest(logs.open_log(p).log) for p in paths}
    with rulechange.twelfth_bonus(4, rules_version=2):
        out = cli.ok("upgrade", "--rules", runs).splitlines()
        assert len(out) == 4 and out[-1].startswith("3 logs re-recorded, 0 consistent")
        first = out[0]
        assert "rules differ after event 48 (differ: scores, track, villages)" in first
        assert "outcome p1 60, p2 55, p3 56 (p1 wins) -> p1 59, p2 54, p3 55 (p1 wins)" in first
        assert "re-recorded under clans rules version 2" in first and ".tribes.rules" in first
        assert cli.ok("verify", runs).count("ok    ") == 3  # consistent again, exit 0
        again = cli.ok("upgrade", "--rules", runs)
        assert again.count("nothing to re-record") == 3
    for path in paths:
        assert path.with_name(path.name + ".rules").read_bytes() == before[path]
        log = logs.open_log(path).log
        assert logfile.log_digest(log) == digests[path]  # the same game: header, events
        assert {c.rules for c in log.checkpoints} == {2}  # re-sealed under version 2
    # under the rules they were written with, the carried logs now differ the other way
    result = cli.run("verify", paths[0])
    assert result.exit_code == 3 and "written under clans rules version 2, running version 1" in (
        result.stdout
    )


def test_dry_run_writes_nothing(cli, runs):
    path = min(runs.glob("*.tribes"))
    data = path.read_bytes()
    with rulechange.twelfth_bonus(4):
        line = cli.ok("upgrade", "--rules", "--dry-run", path)
    assert "would be re-recorded under clans rules version 1 (dry run)" in line
    assert path.read_bytes() == data and not path.with_name(path.name + ".rules").exists()


def test_a_log_with_a_move_the_running_rules_refuse_is_left_alone(cli):
    path = cli.new()
    for _ in range(3):
        cli.ok("act", path, cli.moves(path)[0])
    data = path.read_bytes()
    source = logs.open_log(path).log.events[1].source
    with rulechange.refused_source(source, rules_version=2):
        result = cli.run("upgrade", "--rules", path)
    assert result.exit_code == 1
    assert "left as it is: the running rules (version 2) refuse event 2" in result.stdout
    assert "(C99)" in result.stdout
    assert path.read_bytes() == data and not path.with_name(path.name + ".rules").exists()


def test_a_damaged_log_is_refused_and_untouched(cli, runs):
    path = min(runs.glob("*.tribes"))
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))
    with rulechange.twelfth_bonus(4):
        line = cli.fails_untouched(path, "upgrade", "--rules", path)
    assert "corrupt" in line or "does not match" in line


def test_a_consistent_log_of_version_2_is_written_in_version_3(cli):
    path = cli.path("old.tribes")
    shutil.copy(V2 / "hand-played.tribes", path)
    line = cli.ok("upgrade", "--rules", path)
    assert "consistent with clans rules version 1; format version 2 -> 3" in line
    assert logs.open_log(path).log.version == 3
    assert (
        path.with_name("old.tribes.rules").read_bytes() == (V2 / "hand-played.tribes").read_bytes()
    )


def test_a_json_fixture_is_resealed_in_its_form(cli):
    """A fixture of version 1 (its checkpoints only: no commit to tell an alteration by)
    carried forward after a rule change: written as version 3 JSON, its states re-recorded."""
    path = cli.path("fixture.json")
    shutil.copy(Path(__file__).parents[2] / "fixtures/clans/twelfth-and-thirteenth.json", path)
    with rulechange.twelfth_bonus(4, rules_version=2):
        line = cli.ok("upgrade", "--rules", path)
        assert "rules differ after event" in line and "parts not recorded" in line
        assert cli.ok("verify", path).startswith("ok")
    assert '"version": 3' in path.read_text()


def test_usage(cli, runs):
    assert "takes no -o" in cli.fails("upgrade", "--rules", runs, "-o", "x.tribes", code=2)
    assert "--dry-run goes with --rules" in cli.fails(
        "upgrade", runs, "-o", "x.tribes", "--dry-run", code=2
    )
    assert "writes one log" in cli.fails("upgrade", runs, code=2)
