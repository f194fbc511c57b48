"""Spec 2, the model of ``tribes replay`` without a terminal: every key of the Stepper, and the
screen it paints (board, event and effects, scores, whose turn, pending decision; 80×24 or less)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tribes.replay import stepper
from tribes.replay.cursor import Cursor
from tribes.replay.stepper import Stepper

DEMO_EVENTS = 36
DEMO_STRIFE = 31
DEMO_PENDING = 35


@pytest.fixture
def model(demo_log: Path) -> Stepper:
    return Stepper(Cursor.open(demo_log), name="demo.tribes")


def press(model: Stepper, *keys: str) -> None:
    for key in keys:
        assert model.press(key) is True, key


def screen_text(model: Stepper, width: int = 80, height: int = 24) -> str:
    return "\n".join(model.screen(width, height))


def assert_fits(lines: list[str], width: int, height: int) -> None:
    assert len(lines) <= height, lines
    for line in lines:
        assert len(line) <= width, (len(line), line)


# --- moving -------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", [stepper.RIGHT, "l", "n"])
def test_next_event_keys(model: Stepper, key: str) -> None:
    press(model, key)
    assert model.cursor.index == 1
    press(model, key, key)
    assert model.cursor.index == 3


@pytest.mark.parametrize("key", [stepper.LEFT, "h", "p"])
def test_previous_event_keys(model: Stepper, key: str) -> None:
    model.cursor.seek(10)
    press(model, key)
    assert model.cursor.index == 9
    model.cursor.seek(0)
    press(model, key)
    assert model.cursor.index == 0  # stays at the start


@pytest.mark.parametrize("key", [stepper.HOME, "g"])
def test_first_keys(model: Stepper, key: str) -> None:
    model.cursor.seek(17)
    press(model, key)
    assert model.cursor.index == 0


@pytest.mark.parametrize("key", [stepper.END, "G"])
def test_last_keys(model: Stepper, key: str) -> None:
    press(model, key)
    assert model.cursor.index == DEMO_EVENTS
    press(model, stepper.RIGHT)
    assert model.cursor.index == DEMO_EVENTS  # stays at the end


def test_a_number_then_enter_jumps_there(model: Stepper) -> None:
    press(model, "3", "1")
    assert model.cursor.index == 0  # nothing happens before Enter
    assert "31" in model.screen()[-1]  # what is being typed shows
    press(model, stepper.ENTER)
    assert model.cursor.index == 31
    press(model, "0", stepper.ENTER)
    assert model.cursor.index == 0
    press(model, "1", "2", stepper.BACKSPACE, stepper.ENTER)
    assert model.cursor.index == 1
    press(model, "9", stepper.ESCAPE)
    assert model.cursor.index == 1
    assert model.typing is None


def test_jumping_beyond_the_end_says_so_and_stays(model: Stepper) -> None:
    model.cursor.seek(4)
    press(model, "9", "9", stepper.ENTER)
    assert model.cursor.index == 4
    assert "99" in screen_text(model)
    assert "36" in model.screen()[-1]


def test_search_jumps_to_the_next_matching_event(model: Stepper) -> None:
    press(model, "/", "s", "t", "r", "i", "f", "e")
    assert model.cursor.index == 0
    assert "strife" in model.screen()[-1]
    press(model, stepper.ENTER)
    assert model.cursor.index == DEMO_STRIFE
    press(model, "/", "1", "4", "-", "1", "5", stepper.ENTER)  # notation, not only effects
    assert model.cursor.index == DEMO_STRIFE
    model.cursor.seek(0)
    press(model, "/", "o", "r", "d", "e", "r", " ", "1", "9", stepper.ENTER)
    assert model.cursor.index == DEMO_EVENTS


def test_a_search_without_a_match_says_so_and_stays(model: Stepper) -> None:
    model.cursor.seek(6)
    press(model, "/", "z", "z", "z", stepper.ENTER)
    assert model.cursor.index == 6
    assert "zzz" in screen_text(model)


# --- what the screen shows ------------------------------------------------------------------------


def test_d_toggles_the_diff_against_the_previous_step(model: Stepper) -> None:
    model.cursor.seek(4)  # cy 2-1 founds village 1: red, yellow, blue +5; chip to cy
    board = screen_text(model)
    press(model, "d")
    shown = screen_text(model)
    assert shown != board
    assert "track red: 0 → 5" in shown
    assert "chips cy: 0 → 1" in shown
    assert "territory 2:" in shown
    press(model, stepper.RIGHT)  # the diff stays on while stepping
    assert "to move:" in screen_text(model)
    press(model, "d")
    assert "track  red" in screen_text(model)  # the board again
    assert "to move:" not in screen_text(model)


def test_the_diff_at_the_start_has_nothing_to_compare(model: Stepper) -> None:
    press(model, "d")
    lines = model.screen()
    assert_fits(lines, 80, 24)
    assert lines[2:] == ["(the start: nothing before it to compare with)"]
    assert "track" not in "\n".join(lines)  # the diff replaces the board, empty as it is


def test_v_cycles_every_point_of_view_and_back(model: Stepper) -> None:
    model.cursor.seek(10)
    names = []
    for _ in range(len(model.cursor.seats) + 2):
        names.append(model.screen()[0].split("view: ")[1].split()[0])
        press(model, "v")
    assert sorted(names) == sorted(["everything", "spectator", "ann", "bob", "cy"])
    assert model.screen()[0].split("view: ")[1].split()[0] == names[0]  # round again


def test_the_view_changes_what_the_board_shows(model: Stepper) -> None:
    model.cursor.seek(10)
    seen = {}
    for _ in range(5):
        name = model.screen()[0].split("view: ")[1].split()[0]
        seen[name] = screen_text(model)
        press(model, "v")
    assert "[?]" not in seen["everything"]
    assert seen["spectator"].count("[?]") == 3
    assert seen["ann"].count("[?]") == 2
    assert "ann [black]" in seen["ann"]  # her own clan
    assert "bob [blue]" in seen["bob"] and "ann [?]" in seen["bob"]


def test_question_mark_shows_the_help_and_any_key_closes_it(model: Stepper) -> None:
    press(model, "?")
    help_text = screen_text(model)
    for word in ("next", "previous", "first", "last", "jump", "diff", "view", "quit"):
        assert word in help_text, word
    press(model, "x")
    assert model.cursor.index == 0  # the key closed the help, nothing else
    assert screen_text(model) != help_text


def test_q_quits(model: Stepper) -> None:
    assert model.press("q") is False
    model.press("?")
    assert model.press("q") is False  # from the help too


def test_an_unknown_key_is_explained_not_fatal(model: Stepper) -> None:
    press(model, "z")
    assert model.cursor.index == 0
    assert "?" in model.screen()[-1]


def test_the_screen_has_the_board_event_scores_turn_and_fits_80x24(model: Stepper) -> None:
    model.cursor.seek(4)
    lines = model.screen(80, 24)
    assert_fits(lines, 80, 24)
    text = "\n".join(lines)
    assert "event 4/36" in lines[0]
    assert lines[1].startswith("4: cy 2-1")  # the event just applied
    assert "village 1 at 1" in lines[1]  # and its effects
    assert "1f V1" in text  # the board, with the new village
    assert "track  red 5" in text  # the track
    assert "cy [red] 1 chip = 6" in text  # the scores (5 on the track, 1 chip)
    assert "ann to move" in text  # whose turn


def test_the_screen_shows_a_pending_decision(model: Stepper) -> None:
    model.cursor.seek(DEMO_PENDING)
    text = screen_text(model)
    assert "ann must choose the order of villages 19 35" in text


def test_the_screen_shows_the_end_of_the_game(model: Stepper) -> None:
    press(model, "G")
    text = screen_text(model)
    assert "game over: ann wins with 31" in text


def test_the_screen_shows_all_the_effects_of_the_event(model: Stepper) -> None:
    """The spec: the screen shows the event just applied *and its effects*. Event 31's line is
    longer than 80 columns; its effects (the strife, the new epoch) must still be readable."""
    model.cursor.seek(DEMO_STRIFE)
    text = screen_text(model, 80, 24)
    assert "strife at 15" in text
    assert "epoch 4 begins" in text


@pytest.mark.parametrize(("width", "height"), [(60, 15), (40, 10), (80, 12), (100, 30)])
def test_a_smaller_screen_trims_but_keeps_the_status_lines(
    model: Stepper, width: int, height: int
) -> None:
    for index in (0, 4, DEMO_PENDING, DEMO_EVENTS):
        model.cursor.seek(index)
        lines = model.screen(width, height)
        assert_fits(lines, width, height)
        text = "\n".join(lines)
        assert f"event {index}/36" in lines[0]
        assert "track" in text
        if index == DEMO_PENDING:
            assert "must choose the order" in text
        elif index == DEMO_EVENTS:
            assert "game over" in text
        else:
            assert "to move" in text


def test_every_step_fits_80x24_in_every_view_and_mode(model: Stepper) -> None:
    for mode in ("", "d", "?"):
        for _ in range(5):
            for index in range(0, DEMO_EVENTS + 1, 3):
                model.cursor.seek(index)
                if mode:
                    model.press(mode)
                assert_fits(model.screen(80, 24), 80, 24)
                if mode:
                    model.press(mode if mode == "d" else "x")
            model.press("v")
