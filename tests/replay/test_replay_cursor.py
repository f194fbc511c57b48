"""Spec 1: a cursor over a log — open, seek, forward, back, the state, the event and effects that
led to it, the view for a seat — that never replays from the start to step back or jump."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tribes.core.errors import TribesError
from tribes.core.game import EVERYTHING, SPECTATOR
from tribes.events import codec
from tribes.replay import logs
from tribes.replay.cursor import Cursor

# Facts of the demo log (the conftest's DemoFacts; conftest modules cannot be imported by name).
DEMO_EVENTS = 36
DEMO_STRIFE = 31
DEMO_PENDING = 35
DEMO_EPOCH_3 = 25


@pytest.fixture
def applies(monkeypatch: pytest.MonkeyPatch) -> Callable[[Cursor], list[int]]:
    """Count the calls to the game's apply from now on: ``calls = applies(replay)``; ``len(calls)``
    is the number of events applied since."""

    def watch(replay: Cursor) -> list[int]:
        calls: list[int] = []
        game = replay.game
        original = game.apply

        def counting(state: Any, event: Any) -> Any:
            calls.append(1)
            return original(state, event)

        monkeypatch.setattr(game, "apply", counting)
        return calls

    return watch


def reference(path: Path) -> list[Any]:
    opened = logs.open_log(path)
    return logs.steps_of(opened.game, opened.log, path=str(path))


# --- the demo log is what the other tests take it to be --------------------------------------------


def test_the_demo_log_has_the_events_the_tests_rely_on(demo_log: Path, demo: Any) -> None:
    assert (demo.EVENTS, demo.STRIFE, demo.PENDING, demo.EPOCH_3) == (
        DEMO_EVENTS,
        DEMO_STRIFE,
        DEMO_PENDING,
        DEMO_EPOCH_3,
    )
    replay = Cursor.open(demo_log)
    assert len(replay) == DEMO_EVENTS
    assert "strife" in replay.describe(DEMO_STRIFE)
    assert replay.find("strife", 0) == DEMO_STRIFE
    assert replay.document(EVERYTHING, DEMO_PENDING)["pending"] is not None
    assert replay.document(EVERYTHING, DEMO_EPOCH_3 - 1)["epoch"] == 2
    assert replay.document(EVERYTHING, DEMO_EPOCH_3)["epoch"] == 3
    assert replay.document(EVERYTHING, DEMO_EVENTS)["over"] is True


# --- moving -----------------------------------------------------------------------------------------


def test_open_starts_at_the_start(demo_log: Path) -> None:
    replay = Cursor.open(demo_log)
    assert replay.index == 0
    assert replay.step.index == 0
    assert replay.step.event is None
    assert replay.step.seat is None
    assert replay.step.effects == ()
    assert replay.seats == ("ann", "bob", "cy")


def test_seek_gives_the_state_event_and_effects_of_that_step(demo_log: Path) -> None:
    steps = reference(demo_log)
    replay = Cursor.open(demo_log)
    for n in (5, DEMO_STRIFE, 0, DEMO_EVENTS, 1):
        step = replay.seek(n)
        assert replay.index == n
        assert step.index == n == replay.step.index
        assert step.event == steps[n].event
        assert step.seat == steps[n].seat
        assert step.effects == steps[n].effects
        assert codec.state_hash(replay.state) == codec.state_hash(steps[n].state)


def test_forward_and_back_step_by_one_and_stop_at_the_ends(demo_log: Path) -> None:
    replay = Cursor.open(demo_log)
    assert replay.back().index == 0  # stays at the start
    assert replay.forward().index == 1
    assert replay.forward().index == 2
    assert replay.back().index == 1
    assert replay.last().index == DEMO_EVENTS
    assert replay.forward().index == DEMO_EVENTS  # stays at the end
    assert replay.first().index == 0


def test_walking_forward_then_back_visits_every_state_of_the_log(demo_log: Path) -> None:
    hashes = [codec.state_hash(s.state) for s in reference(demo_log)]
    replay = Cursor.open(demo_log)
    seen = [codec.state_hash(replay.state)]
    for _ in range(DEMO_EVENTS):
        replay.forward()
        seen.append(codec.state_hash(replay.state))
    assert seen == hashes
    backwards = []
    for _ in range(DEMO_EVENTS):
        replay.back()
        backwards.append(codec.state_hash(replay.state))
    assert backwards == hashes[-2::-1]


def test_at_reads_a_step_without_moving(demo_log: Path) -> None:
    replay = Cursor.open(demo_log)
    replay.seek(7)
    assert replay.at(DEMO_STRIFE).index == DEMO_STRIFE
    assert "strife" in " ".join(e.describe(replay.seats) for e in replay.at(DEMO_STRIFE).effects)
    assert replay.index == 7


@pytest.mark.parametrize("bad", [-1, DEMO_EVENTS + 1, 1000])
def test_an_index_out_of_range_is_a_clear_error(demo_log: Path, bad: int) -> None:
    replay = Cursor.open(demo_log)
    replay.seek(3)
    for call in (replay.seek, replay.at, lambda n: replay.document(EVERYTHING, n)):
        with pytest.raises(TribesError) as caught:
            call(bad)
        assert str(bad) in str(caught.value)
        assert "\n" not in str(caught.value)
    assert replay.index == 3  # the cursor did not move


def test_opening_a_damaged_log_is_a_tribes_error(demo_log: Path, damage: Any) -> None:
    for broken in (
        damage.flip(demo_log, 40),
        damage.cut(demo_log, len(demo_log.read_bytes()) - 3),
        damage.garbage(demo_log.parent),
        damage.other_version(demo_log),
    ):
        with pytest.raises(TribesError):
            Cursor.open(broken)


# --- what a step shows ------------------------------------------------------------------------------


def test_describe_names_the_seat_the_move_and_the_effects(demo_log: Path) -> None:
    replay = Cursor.open(demo_log)
    line = replay.describe(DEMO_STRIFE)
    assert line.startswith(f"{DEMO_STRIFE}: cy 14-15")
    assert "strife at 15" in line
    assert "epoch 4 begins" in line
    assert replay.notation(DEMO_STRIFE) == "14-15"
    assert replay.notation(0) == "start"


def test_the_document_is_the_show_json_document(demo_log: Path, cli: Any) -> None:
    replay = Cursor.open(demo_log)

    def state_of(*args: Any) -> Any:  # show --json less the log's tags and note
        shown = cli.json("show", demo_log, "--json", *args)
        del shown["tags"], shown["note"]
        return shown

    for n in (0, 12, DEMO_PENDING, DEMO_EVENTS):
        shown = state_of("--at", n)
        assert replay.document(EVERYTHING, n) == shown
        assert replay.document(1, n) == state_of("--at", n, "--as", "bob")
    replay.seek(12)
    assert replay.document() == state_of("--at", 12)


def test_the_view_for_a_seat_hides_the_other_clans(demo_log: Path) -> None:
    replay = Cursor.open(demo_log)
    replay.seek(10)
    everything = replay.document(EVERYTHING)
    assert set(everything["clans"]) == {"ann", "bob", "cy"}
    ann = replay.document(0)
    assert set(ann["clans"]) == {"ann"}
    assert ann["scores"]["bob"] is None and ann["scores"]["ann"] is not None
    spectator = replay.document(SPECTATOR)
    assert spectator["clans"] == {}
    assert all(v is None for v in spectator["scores"].values())
    # the rendered board, likewise
    assert "[?]" not in replay.render(EVERYTHING)
    assert replay.render(0).count("[?]") == 2
    assert replay.render(SPECTATOR).count("[?]") == 3


def test_find_looks_after_the_cursor_and_wraps_around(demo_log: Path) -> None:
    replay = Cursor.open(demo_log)
    assert replay.find("STRIFE") == DEMO_STRIFE  # case-insensitive
    replay.seek(DEMO_STRIFE + 1)
    assert replay.find("strife") == DEMO_STRIFE  # after the end, round from the start
    replay.seek(DEMO_PENDING)
    assert replay.find("village 1 at") == 4  # in the effects, found after wrapping
    assert replay.find("14-15") == DEMO_STRIFE  # in the notation
    assert replay.find("no such text anywhere") is None
    assert replay.index == DEMO_PENDING  # find does not move the cursor


# --- never replaying from the start ------------------------------------------------------------------


def test_stepping_back_or_jumping_to_visited_points_applies_nothing(
    demo_log: Path, applies: Any
) -> None:
    opened = logs.open_log(demo_log)
    replay = Cursor(opened.game, opened.log)  # lazy: nothing replayed yet
    calls = applies(replay)
    replay.seek(20)
    assert len(calls) == 20  # each event once, not from the start for each step
    for move in (
        replay.back,
        replay.back,
        replay.first,
        lambda: replay.seek(20),
        lambda: replay.seek(7),
    ):
        move()
    replay.document(EVERYTHING, 13)
    replay.describe(19)
    replay.render(0)
    replay.at(20)
    assert len(calls) == 20
    replay.seek(25)  # only the five events not yet replayed
    assert len(calls) == 25
    replay.forward()
    assert len(calls) == 26
    replay.last()
    assert len(calls) == DEMO_EVENTS
    for n in (0, 35, 3, 36, 18):
        replay.seek(n)
        replay.back()
        replay.forward()
    replay.find("strife")
    assert len(calls) == DEMO_EVENTS


def test_an_opened_log_is_replayed_once_then_never_again(demo_log: Path, applies: Any) -> None:
    replay = Cursor.open(demo_log)
    calls = applies(replay)
    replay.last()
    for n in range(DEMO_EVENTS, -1, -1):
        replay.seek(n)
        replay.document(1)
    for _ in range(DEMO_EVENTS):
        replay.forward()
    replay.find("village 12")
    assert calls == []


def test_the_cursor_agrees_with_a_full_replay_on_random_games(random_logs: list[Path]) -> None:
    for path in random_logs:
        steps = reference(path)
        replay = Cursor.open(path)
        order = [len(steps) - 1, 0, *range(len(steps) - 1, -1, -3), *range(0, len(steps), 5)]
        for n in order:
            step = replay.seek(n)
            assert step.event == steps[n].event, (path, n)
            assert step.effects == steps[n].effects, (path, n)
            assert codec.state_hash(step.state) == codec.state_hash(steps[n].state), (path, n)
