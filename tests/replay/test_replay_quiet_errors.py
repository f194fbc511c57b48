"""Commands that used to be quietly wrong: an expression path that is in no state is warned of,
``diff --at`` with ``--from`` is a usage error, two logs that start apart are said to, and
``whatif`` says with its exit status whether a later event became illegal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tribes.replay import questions
from tribes.replay.cursor import Cursor


def test_bisect_warns_of_a_path_in_no_state(cli: Any, demo_log: Path) -> None:
    ran = cli.run("bisect", demo_log, "--until", "track.pink > 3")
    assert ran.exit_code == 1
    assert "warning: 'track.pink' is in no state of" in ran.stderr
    assert "never holds" in ran.stdout


def test_bisect_warns_of_an_index_beyond_every_list(cli: Any, demo_log: Path) -> None:
    ran = cli.run("bisect", demo_log, "--until", "villages[-40].number > 3")
    assert ran.exit_code == 1
    assert "'villages[-40].number' is in no state" in ran.stderr


def test_no_warning_for_a_path_that_exists_somewhere(cli: Any, demo_log: Path) -> None:
    ran = cli.run("bisect", demo_log, "--until", "track.red > 900 or villages[-1].number > 99")
    assert ran.exit_code == 1 and "warning" not in ran.stderr
    assert questions.never_present(Cursor.open(demo_log), "villages[-1].number > 99") == []
    found = cli.ok("bisect", demo_log, "--until", "villages[-1].number >= 3")
    assert found.startswith(f"{questions.bisect(Cursor.open(demo_log), 'len(villages) >= 3')}:")


def test_diff_at_with_from_or_to_is_a_usage_error(cli: Any, demo_log: Path) -> None:
    for extra in (("--from", 1), ("--to", 9)):
        line = cli.fails("diff", demo_log, "--at", 5, *extra, code=2)
        assert "--from and --to go without it" in line


def test_two_logs_with_other_seeds_are_said_to_start_apart(cli: Any) -> None:
    cli.ok("new", "clans", "--names", "ann,bob", "--seed", "3", "-o", "a.tribes")
    cli.ok("new", "clans", "--names", "ann,bob", "--seed", "4", "-o", "b.tribes")
    result = cli.run("diff", "a.tribes", "b.tribes")
    assert result.exit_code == 1  # they differ: diff(1)'s status
    out = result.stdout
    assert out.splitlines()[0] == "the logs start differently: seed 3 in a.tribes, 4 in b.tribes"
    assert "part at event" not in out
    doc = json.loads(cli.run("diff", "a.tribes", "b.tribes", "--json").stdout)
    assert doc["header"] == {"seed": {"a": 3, "b": 4}}
    assert doc["state"] == 0


def test_whatif_exit_status_tells_scripts(cli: Any, demo_log: Path) -> None:
    cursor = Cursor.open(demo_log)
    assert questions.whatif(cursor, 5, "3-9").illegal_at is not None
    assert cli.run("whatif", demo_log, "--at", 5, "3-9").exit_code == 3
    assert cli.run("whatif", demo_log, "--at", 5, "3-9", "--json").exit_code == 3
    assert cli.run("whatif", demo_log, "--at", 7, cursor.notation(7)).exit_code == 0
    assert cli.run("whatif", demo_log, "--at", 5, "99-1").exit_code == 1
