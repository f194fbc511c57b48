"""Spec 4: ``tribes fork`` (the events before N, the parent in the header, the same states) and
``tribes verify`` (every event legal, every checkpoint; the first failure with its index and
reason; a summary line and a status for many files)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tribes.events import codec
from tribes.replay import logs, questions

DEMO_EVENTS = 36


def states(path: Path) -> list[str]:
    opened = logs.open_log(path)
    return [
        codec.state_hash(s.state) for s in logs.steps_of(opened.game, opened.log, path=str(path))
    ]


# --- fork ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("at", [1, 2, 20, DEMO_EVENTS, DEMO_EVENTS + 1])
def test_fork_keeps_the_events_before_n_and_their_states(cli: Any, demo_log: Path, at: int) -> None:
    new = demo_log.with_name(f"fork-{at}.tribes")
    cli.ok("fork", demo_log, "--at", at, "-o", new)
    parent = logs.open_log(demo_log)
    child = logs.open_log(new)
    assert child.log.events == parent.log.events[: at - 1]
    assert child.log.header.seed == parent.log.header.seed
    assert child.log.header.seats == parent.log.header.seats
    assert states(new) == states(demo_log)[:at]  # exactly the original's states 0..N-1
    cli.ok("verify", new)


def test_fork_records_the_parent_in_the_header(cli: Any, demo_log: Path) -> None:
    new = demo_log.with_name("fork.tribes")
    cli.ok("fork", demo_log, "--at", 12, "-o", new)
    meta = logs.open_log(new).log.header.meta
    parent = meta["parent"]
    assert parent["at"] == 12
    assert re.fullmatch(r"[0-9a-f]{16,}", parent["log"]), parent
    assert parent["log"] == questions.log_digest(logs.open_log(demo_log).log)
    assert meta["made-by"] == "tribes demo"  # the rest of the header's meta is kept
    # visible in the JSON form too
    doc = cli.json("export", new, "--json")
    assert doc["header"]["meta"]["parent"] == {"log": parent["log"], "at": 12}


def test_forks_of_different_parents_name_different_parents(
    cli: Any, demo_log: Path, random_logs: list[Path]
) -> None:
    a, b = demo_log.with_name("a.tribes"), demo_log.with_name("b.tribes")
    cli.ok("fork", demo_log, "--at", 3, "-o", a)
    cli.ok("fork", random_logs[0], "--at", 3, "-o", b)
    digest_a = logs.open_log(a).log.header.meta["parent"]["log"]
    digest_b = logs.open_log(b).log.header.meta["parent"]["log"]
    assert digest_a != digest_b
    # the same parent in its JSON form is the same log
    as_json = demo_log.with_name("demo.json")
    cli.ok("export", demo_log, "--json", "-o", as_json)
    c = demo_log.with_name("c.json")
    cli.ok("fork", as_json, "--at", 3, "-o", c)
    assert logs.open_log(c).log.header.meta["parent"]["log"] == digest_a


def test_a_fork_can_be_played_on(cli: Any, demo_log: Path) -> None:
    new = demo_log.with_name("fork.tribes")
    cli.ok("fork", demo_log, "--at", 5, "-o", new)
    moves = cli.ok("moves", new).split()
    original = cli.ok("log", demo_log).splitlines()[4].split()[2]
    other = next(m for m in moves if m != original)
    before = demo_log.read_bytes()
    cli.ok("act", new, other)
    cli.ok("verify", new)
    forked, parent = logs.open_log(new).log, logs.open_log(demo_log).log
    assert forked.events[:4] == parent.events[:4]  # events 1..4 kept
    assert [forked.header.seats, len(forked.events)] == [parent.header.seats, 5]
    assert cli.ok("log", new).splitlines()[4].split()[2] == other != original
    assert demo_log.read_bytes() == before  # the parent is untouched
    assert len(logs.open_log(new).log.events) == 5


def test_a_fork_of_a_fork_names_its_own_parent(cli: Any, demo_log: Path) -> None:
    first, second = demo_log.with_name("f1.tribes"), demo_log.with_name("f2.tribes")
    cli.ok("fork", demo_log, "--at", 20, "-o", first)
    cli.ok("fork", first, "--at", 10, "-o", second)
    parent = logs.open_log(second).log.header.meta["parent"]
    assert parent == {"log": questions.log_digest(logs.open_log(first).log), "at": 10}
    assert states(second) == states(demo_log)[:10]


@pytest.mark.parametrize("at", [0, -1, DEMO_EVENTS + 2, 500])
def test_fork_out_of_range_is_one_line(cli: Any, demo_log: Path, at: int) -> None:
    new = demo_log.with_name("fork.tribes")
    line = cli.fails("fork", demo_log, "--at", at, "-o", new, code=2)
    assert str(at) in line
    assert not new.exists()


def test_fork_usage_errors(cli: Any, demo_log: Path) -> None:
    new = demo_log.with_name("fork.tribes")
    cli.usage("fork", demo_log, "-o", new)  # no --at
    cli.usage("fork", demo_log, "--at", 3)  # no -o
    cli.usage("fork", demo_log, "--at", "three", "-o", new)
    assert not new.exists()


def test_fork_does_not_overwrite_without_force(cli: Any, demo_log: Path) -> None:
    new = demo_log.with_name("fork.tribes")
    new.write_text("mine")
    cli.fails("fork", demo_log, "--at", 3, "-o", new, code=2)
    assert new.read_text() == "mine"
    cli.ok("fork", demo_log, "--at", 3, "-o", new, "--force")
    assert len(logs.open_log(new).log.events) == 2


def test_fork_of_a_damaged_log_is_one_line(cli: Any, demo_log: Path, damage: Any) -> None:
    folder = demo_log.parent
    new = folder / "fork.tribes"
    for broken in (
        damage.flip(demo_log, 50),
        damage.cut(demo_log, 30),
        damage.garbage(folder),
        damage.empty(folder),
        damage.bad_json(folder),
        damage.other_version(demo_log),
        damage.other_version_json(demo_log),
        damage.bad_checkpoint(demo_log),
        damage.illegal_event(demo_log, 4),
        folder / "missing.tribes",
    ):
        cli.fails("fork", broken, "--at", 3, "-o", new)
        assert not new.exists(), broken


# --- verify --------------------------------------------------------------------------------------


def test_verify_a_good_log(cli: Any, demo_log: Path) -> None:
    out = cli.ok("verify", demo_log)
    assert out.startswith("ok")
    assert f"{DEMO_EVENTS} events" in out


def test_verify_every_fixture_and_every_form(cli: Any, fixture_log: Any, demo_log: Path) -> None:
    names = ["full-game-3p", "two-players", "twelfth-and-thirteenth", "epoch-boundary-order-a"]
    paths = [fixture_log(n) for n in names]
    out = cli.ok("verify", *paths, demo_log)
    assert out.splitlines()[-1] == f"{len(paths) + 1} ok, 0 failed"


def test_verify_many_files_gives_a_summary_and_a_status(
    cli: Any, demo_log: Path, damage: Any
) -> None:
    bad = damage.flip(demo_log, 80)
    result = cli.run("verify", demo_log, bad, demo_log)
    assert result.exit_code == 1
    lines = (result.stdout + result.stderr).splitlines()
    assert "2 ok, 1 failed" in lines
    fails = [line for line in lines if line.startswith("FAIL")]
    assert len(fails) == 1 and bad.name in fails[0]
    assert sum(line.startswith("ok") for line in lines) == 2


def failure_line(cli: Any, path: Path) -> str:
    """verify of one bad log: status 1, one line reporting it (on either stream)."""
    result = cli.run("verify", path)
    assert result.exit_code == 1, (result.stdout, result.stderr)
    lines = [line for line in (result.stdout + result.stderr).splitlines() if line.strip()]
    assert len(lines) == 1, lines
    assert path.name in lines[0], lines[0]
    return lines[0]


def test_verify_names_the_first_illegal_event_and_why(
    cli: Any, demo_log: Path, damage: Any
) -> None:
    line = failure_line(cli, damage.illegal_event(demo_log, 9))
    assert "illegal move '1-60' at event 9: " in line
    # the reason and its rule: territory 1 is a village by then, and villages never move
    assert line.endswith(": territory 1 is a village: villages never move (C11)")


def test_verify_names_the_checkpoint_that_does_not_match(
    cli: Any, demo_log: Path, damage: Any
) -> None:
    """A recorded checkpoint changed is bytes changed: the commit after it no longer matches
    (the log was altered), whatever the rules."""
    line = failure_line(cli, damage.bad_checkpoint(demo_log))
    assert f"the commit after event {DEMO_EVENTS} does not match" in line
    assert "altered" in line


def test_verify_names_where_a_damaged_file_breaks(cli: Any, demo_log: Path, damage: Any) -> None:
    size = len(demo_log.read_bytes())
    line = failure_line(cli, damage.flip(demo_log, size - 20))
    assert re.search(r"after event \d+", line) and "byte" in line
    line = failure_line(cli, damage.cut(demo_log, size - 3))
    assert "truncated" in line


def test_verify_refuses_another_format_version(cli: Any, demo_log: Path, damage: Any) -> None:
    for broken in (damage.other_version(demo_log), damage.other_version_json(demo_log)):
        line = failure_line(cli, broken)
        assert "version 99 cannot be read" in line
        assert "reads versions 1, 2" in line


def test_verify_of_unreadable_files(cli: Any, demo_log: Path, damage: Any) -> None:
    folder = demo_log.parent
    for broken, why in (
        (damage.garbage(folder), "not a tribes log"),
        (damage.empty(folder), "is empty"),
        (damage.bad_json(folder), "is not valid JSON"),
        (folder / "nope.tribes", "no such file"),
    ):
        line = failure_line(cli, broken)
        assert f"{broken.name}: {why}" in line, (why, line)


def test_verify_without_a_file_is_a_usage_error(cli: Any) -> None:
    cli.usage("verify")


def test_verify_simulated_games(cli: Any, tmp_path: Path) -> None:
    folder = tmp_path / "runs"
    cli.ok("simulate", "clans", "--games", 3, "--seed", 5, "--save", folder)
    paths = sorted(folder.glob("*.tribes"))
    assert len(paths) == 3
    out = cli.ok("verify", *paths)
    assert out.splitlines()[-1] == "3 ok, 0 failed"
