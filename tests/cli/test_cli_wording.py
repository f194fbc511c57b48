"""Words of issue 29 §6: a count and its verb agree, and an out-of-range ``--at`` of a log with
no event offers no range "0 to 0"."""

from __future__ import annotations


def test_baseline_says_one_game_left_out_in_the_singular(cli, tmp_path):
    cli.ok("new", "clans", "--seats", "3", "--seed", "1", "-o", "g.tribes")
    (tmp_path / "bad.tribes").write_bytes(b"garbage")
    result = cli.run("baseline", "g.tribes", "bad.tribes", "-o", "b.baseline")
    assert result.exit_code == 1
    assert "; 1 game could not be replayed and is not in it" in result.stdout
    (tmp_path / "worse.tribes").write_bytes(b"junk")
    result = cli.run("baseline", "g.tribes", "bad.tribes", "worse.tribes", "-o", "c.baseline")
    assert "; 2 games could not be replayed and are not in it" in result.stdout


def test_at_of_a_log_without_events_names_the_only_choice(cli):
    cli.ok("new", "clans", "--seats", "3", "--seed", "1", "-o", "g.tribes")
    line = cli.fails("show", "g.tribes", "--at", "5", code=2)
    assert line == (
        "tribes: --at 5 is out of range: the log has no event yet; the only choice is 0 (the start)"
    )
    assert "0 to 0" not in line
    line = cli.fails("diff", "g.tribes", "--at", "1", code=2)
    assert line == "tribes: --at 1 is out of range: the log has no event yet"
    line = cli.fails("diff", "g.tribes", code=2)  # no --at typed: none is named
    assert line == (
        "tribes: g.tribes has no event yet: diff shows what an event changed; "
        "'tribes act LOG MOVE' plays one"
    )
    cli.ok("act", "g.tribes", cli.ok("moves", "g.tribes").split()[0])
    line = cli.fails("show", "g.tribes", "--at", "5", code=2)
    assert line.endswith("the log has event 1; choose 0 (the start) to 1")
