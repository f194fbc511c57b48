"""Spec 4: ``tribes whatif LOG --at N MOVE [-o NEW]`` — replace event N, re-check every later
event, report the first that became illegal (with the reason) and the state diff at the end of the
still-legal part; ``-o`` writes the new log up to the last legal event, and it verifies."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tribes.core.engine import play
from tribes.core.errors import IllegalMove, TribesError
from tribes.core.game import EVERYTHING
from tribes.events import codec
from tribes.replay import logs, questions
from tribes.replay.cursor import Cursor
from tribes.replay.diff import diff

DEMO_EVENTS = 36
DEMO_PENDING = 35


def alternative(replay: Cursor, at: int) -> str:
    """A legal move at event ``at`` other than the one the log played."""
    state = replay.at(at - 1).state
    played = replay.log.events[at - 1]
    moves = [m for m in replay.game.legal_moves(state) if m != played]
    assert moves, at
    return replay.game.format_move(moves[len(moves) // 2])


def check_result(replay: Cursor, at: int, move: str, result: questions.WhatIf) -> None:
    """Everything the spec says of a what-if result, checked against an independent replay."""
    game = replay.game
    new_events = result.log.events
    assert new_events[: at - 1] == replay.log.events[: at - 1]
    before = replay.at(at - 1).state  # the move read where it is played
    assert new_events[at - 1] == game.parse_move(before, move)
    end = len(new_events)
    # every kept later event is the original one
    assert new_events[at:] == replay.log.events[at:end]
    # replay the new log independently
    steps = logs.steps_of(game, result.log, verify=False)
    if result.illegal_at is None:
        assert end == len(replay)
        assert result.reason is None
    else:
        assert result.illegal_at == end + 1
        assert result.reason
        with pytest.raises(IllegalMove):
            play(game, steps[-1].state, replay.log.events[result.illegal_at - 1], result.illegal_at)
    # the state diff at the end of the legal part, against the original at that point
    head = replay.log.header
    new_doc = {
        "game": head.game,
        "events": end,
        **game.document(steps[-1].state, head.seats, EVERYTHING),
    }
    expected = diff(game, replay.document(EVERYTHING, end), new_doc)
    assert [c.to_json() for c in result.changes] == [c.to_json() for c in expected]


# --- library ------------------------------------------------------------------------------------


def test_the_same_move_changes_nothing(demo_log: Path) -> None:
    replay = Cursor.open(demo_log)
    for at in (1, 5, DEMO_PENDING, DEMO_EVENTS):
        move = replay.notation(at)
        result = questions.whatif(replay, at, move)
        assert result.illegal_at is None and result.reason is None
        assert result.changes == []
        assert result.log.events == replay.log.events


def test_another_move_reports_the_first_illegal_event(demo_log: Path) -> None:
    replay = Cursor.open(demo_log)
    result = questions.whatif(replay, 5, "3-9")
    assert result.illegal_at is not None
    assert result.illegal_at > 5
    check_result(replay, 5, "3-9", result)


def test_whatif_on_every_event_of_the_demo(demo_log: Path) -> None:
    replay = Cursor.open(demo_log)
    for at in range(1, DEMO_EVENTS + 1):
        move = alternative(replay, at)
        check_result(replay, at, move, questions.whatif(replay, at, move))


def test_whatif_does_not_move_the_cursor_or_change_the_replay(demo_log: Path) -> None:
    replay = Cursor.open(demo_log)
    replay.seek(12)
    before = [codec.state_hash(replay.at(n).state) for n in range(len(replay) + 1)]
    questions.whatif(replay, 5, "3-9")
    assert replay.index == 12
    assert [codec.state_hash(replay.at(n).state) for n in range(len(replay) + 1)] == before


@pytest.mark.parametrize("at", [0, -2, DEMO_EVENTS + 1])
def test_library_out_of_range(demo_log: Path, at: int) -> None:
    with pytest.raises(TribesError):
        questions.whatif(Cursor.open(demo_log), at, "1-2")


# --- command ------------------------------------------------------------------------------------


def made_illegal(cli: Any, *args: Any) -> str:
    """whatif where a later event became illegal: exit status 3, the report on stdout."""
    ran = cli.run("whatif", *args)
    assert ran.exit_code == 3, (args, ran.exit_code, ran.stdout, ran.stderr)
    return str(ran.stdout)


def test_command_reports_the_illegal_event_and_the_diff(cli: Any, demo_log: Path) -> None:
    replay = Cursor.open(demo_log)
    result = questions.whatif(replay, 5, "3-9")
    out = made_illegal(cli, demo_log, "--at", 5, "3-9")
    assert f"event {result.illegal_at}" in out
    assert replay.notation(result.illegal_at) in out  # the event that became illegal
    assert result.reason in out  # and why
    for change in result.changes:
        assert change.text in out
    assert f"after event {len(result.log.events)}" in out


def test_command_json(cli: Any, demo_log: Path) -> None:
    replay = Cursor.open(demo_log)
    result = questions.whatif(replay, 5, "3-9")
    doc = json.loads(made_illegal(cli, demo_log, "--at", 5, "3-9", "--json"))
    assert doc["illegal_at"] == result.illegal_at
    assert doc["reason"] == result.reason
    assert doc["legal_until"] == len(result.log.events)
    assert doc["changes"] == [c.to_json() for c in result.changes]


def test_command_the_same_move_is_still_legal_throughout(cli: Any, demo_log: Path) -> None:
    same = Cursor.open(demo_log).notation(7)
    out = cli.ok("whatif", demo_log, "--at", 7, same)  # exit 0
    assert out.splitlines() == [
        f"event 7 replaced by {same}",
        f"every later event is still legal ({DEMO_EVENTS} events)",
        f"state after event {DEMO_EVENTS}, compared with the original:",
        "  no change",
    ]


def test_output_writes_the_legal_part_and_it_verifies(cli: Any, demo_log: Path) -> None:
    replay = Cursor.open(demo_log)
    new = demo_log.with_name("whatif.tribes")
    made_illegal(cli, demo_log, "--at", 5, "3-9", "-o", new)
    written = logs.open_log(new).log
    assert written.events == questions.whatif(replay, 5, "3-9").log.events
    assert cli.ok("verify", new).startswith("ok")
    # the written log can be played on from where it stopped
    assert cli.ok("moves", new).strip()


def test_output_as_json_verifies(cli: Any, demo_log: Path) -> None:
    new = demo_log.with_name("whatif.json")
    move = alternative(Cursor.open(demo_log), 20)
    cli.ok("whatif", demo_log, "--at", 20, move, "-o", new)
    assert cli.ok("verify", new).startswith("ok")
    written = logs.open_log(new).log  # the JSON form of the what-if's log
    assert written.events == questions.whatif(Cursor.open(demo_log), 20, move).log.events
    assert new.read_text().startswith("{")


def test_output_is_not_overwritten_without_force(cli: Any, demo_log: Path) -> None:
    new = demo_log.with_name("whatif.tribes")
    new.write_text("mine")
    cli.fails("whatif", demo_log, "--at", 5, "3-9", "-o", new, code=2)
    assert new.read_text() == "mine"
    made_illegal(cli, demo_log, "--at", 5, "3-9", "-o", new, "--force")
    assert cli.ok("verify", new).startswith("ok")


def test_an_illegal_replacement_is_one_line(cli: Any, demo_log: Path) -> None:
    new = demo_log.with_name("whatif.tribes")
    line = cli.fails("whatif", demo_log, "--at", 5, "99-1", "-o", new)
    assert line.startswith("tribes: illegal move '99-1' at event 5: ")
    assert line.endswith("there is no territory 99; territories are 1 to 60 (C1)")
    line = cli.fails("whatif", demo_log, "--at", 5, "1-60", "-o", new)
    assert line.startswith("tribes: illegal move '1-60' at event 5: ")
    assert line.endswith("(C11)")  # territory 1 is a village by then
    line = cli.fails("whatif", demo_log, "--at", 5, "order 1 2", "-o", new)
    assert (
        line == "tribes: illegal move 'order 1 2' at event 5: no order of villages is awaited (C18)"
    )
    assert not new.exists()


def test_a_move_that_cannot_be_read_is_one_line(cli: Any, demo_log: Path) -> None:
    line = cli.fails("whatif", demo_log, "--at", 5, "twelve-to-thirteen")
    assert "twelve-to-thirteen" in line


@pytest.mark.parametrize("at", [0, -1, DEMO_EVENTS + 1, 999])
def test_out_of_range_is_one_line_exit_2(cli: Any, demo_log: Path, at: int) -> None:
    line = cli.fails("whatif", demo_log, "--at", at, "1-2", code=2)
    assert str(at) in line


def test_usage_errors(cli: Any, demo_log: Path) -> None:
    cli.usage("whatif", demo_log, "1-2")  # no --at
    cli.usage("whatif", demo_log, "--at", 3)  # no move
    cli.usage("whatif", demo_log, "--at", "x", "1-2")


def test_damaged_logs_are_one_line(cli: Any, demo_log: Path, damage: Any) -> None:
    folder = demo_log.parent
    for broken in (
        damage.flip(demo_log, 90),
        damage.cut(demo_log, 40),
        damage.garbage(folder),
        damage.empty(folder),
        damage.bad_json(folder),
        damage.other_version(demo_log),
        damage.other_version_json(demo_log),
        damage.newer_rules(demo_log),
        damage.bad_checkpoint(demo_log),
        damage.illegal_event(demo_log, 12),
        folder / "missing.tribes",
    ):
        cli.fails("whatif", broken, "--at", 3, "1-2")
