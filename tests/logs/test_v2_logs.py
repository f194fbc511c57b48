"""Logs of format version 2, as tribes wrote them before version 3: kept byte for byte, read,
verified, upgraded (``upgrade``, ``act``, ``tag``), and what they cannot tell under other rules."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from tribes.events import logfile
from tribes.replay import logs
from tribes.testing import rulechange

V2 = Path(__file__).parent / "v2"
AS_WRITTEN = {
    "clans-simulated.tribes": "a92e63bdfca56206e7fa1229aaef24cc358c31c4beabe413953f1015f2395add",
    "hand-played.json": "c0533da3cf48bd8e7a9d9997003600d70abe91dbdb43d79bef0de635dce3fefe",
    "hand-played.tribes": "a245759a9c1c4da907b7bc2983f2edd3753fd6e86cc1bd4c19459aff527c5c61",
    "iwari-simulated.tribes": "26ef3e7a38358cbebee736c53ffa4bc608f54cdbd3ac49365fa4e9bd1d42c0a8",
}


@pytest.mark.parametrize("name", sorted(AS_WRITTEN))
def test_v2_fixture_is_kept_as_it_was_written(name: str) -> None:
    assert hashlib.sha256((V2 / name).read_bytes()).hexdigest() == AS_WRITTEN[name]


@pytest.mark.parametrize("name", sorted(AS_WRITTEN))
def test_v2_log_reads_and_verifies(cli, name: str) -> None:
    opened = logs.open_log(V2 / name)
    assert opened.log.version == 2
    line = cli.ok("verify", V2 / name)
    assert line.startswith("ok") and "format version 2: 'tribes upgrade'" in line
    for command in ("show", "log"):
        result = cli.run(command, V2 / name)
        assert result.exit_code == 0 and result.stderr == ""


def test_both_forms_of_a_v2_log_have_one_digest(cli) -> None:
    a = cli.ok("verify", V2 / "hand-played.tribes").split("digest ")[1].split()[0]
    b = cli.ok("verify", V2 / "hand-played.json").split("digest ")[1].split()[0]
    assert a == b


@pytest.mark.parametrize("name", sorted(AS_WRITTEN))
def test_upgrade_writes_version_3_with_the_same_content(cli, name: str) -> None:
    old = logs.open_log(V2 / name)
    for out in ("up.tribes", "up.json"):
        path = cli.path(out)
        cli.ok("upgrade", V2 / name, "-o", path, "--force")
        new = logs.open_log(path)
        assert new.log.version == 3
        assert (new.log.header, new.log.events, new.log.annotations) == (
            old.log.header,
            old.log.events,
            old.log.annotations,
        )
        assert [(c.events, c.annotations) for c in new.log.commits] == [
            (c.events, c.annotations) for c in old.log.commits
        ]
        assert logfile.log_digest(new.log) == logfile.log_digest(old.log)
        assert {c.events for c in new.log.commits} <= {c.events for c in new.log.checkpoints}
        assert cli.ok("verify", path).startswith("ok") and "format version" not in cli.ok(
            "verify", path
        )


def test_act_and_tag_on_a_v2_log_rewrite_it_in_version_3(cli) -> None:
    path = cli.path("old.tribes")
    shutil.copy(V2 / "hand-played.tribes", path)
    cli.ok("act", path, cli.moves(path)[0])
    opened = logs.open_log(path)
    assert opened.log.version == 3 and len(opened.log.events) == 7
    assert opened.log.tags == {"site": "Bonn"} and opened.log.notes == {2: "a fine move"}
    again = cli.path("again.tribes")
    shutil.copy(V2 / "hand-played.tribes", again)
    cli.ok("tag", again, "round=2")
    assert logs.open_log(again).log.version == 3
    assert cli.ok("verify", path).startswith("ok") and cli.ok("verify", again).startswith("ok")


@pytest.mark.skipif(rulechange.compiled(), reason="a compiled build folds the constant")
def test_a_v2_log_under_other_rules_cannot_tell_them_from_an_alteration(cli) -> None:
    """A version 2 commit covers the replayed state: under a changed rule it no longer matches,
    and nothing in the log tells a rule change from an altered byte. ``upgrade`` under the
    rules it was written with is the way forward."""
    with rulechange.twelfth_bonus(4):
        result = cli.run("verify", V2 / "clans-simulated.tribes")
    assert result.exit_code == 1
    assert "a log of format version 2 cannot tell which" in result.stdout
    up = cli.path("up.tribes")
    cli.ok("upgrade", V2 / "clans-simulated.tribes", "-o", up)
    with rulechange.twelfth_bonus(4):
        result = cli.run("verify", up)
    assert result.exit_code == 3 and "intact, rules differ" in result.stdout
