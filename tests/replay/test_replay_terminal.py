"""Spec 2 through a real terminal: ``tribes replay LOG`` in tmux (80×24 and smaller), driven by
keys, and what it does without a terminal. Each test runs its own tmux server (``-L``), killed at
the end; the pane is polled until the expected text shows, never read after a fixed sleep."""

from __future__ import annotations

import re
import shlex
import subprocess
import time
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from tribes.cli.main import main
from tribes.replay.cursor import Cursor

DEMO_EVENTS = 36
DEMO_STRIFE = 31
DEMO_PENDING = 35


def assert_fits(lines: list[str], width: int, height: int) -> None:
    assert len(lines) <= height, lines
    for line in lines:
        assert len(line) <= width, (len(line), line)


def test_keys_step_jump_and_fit_80x24(tmux: Any, demo_log: Path) -> None:
    term = tmux("replay", demo_log)
    lines = term.wait_for("event 0/36")
    assert_fits(lines, 80, 24)
    text = "\n".join(lines)
    assert "the start" in text
    assert "track" in text and "cy to move" in text
    for keys, index in [
        (["Right"], 1),
        (["l"], 2),
        (["n"], 3),
        (["Left"], 2),
        (["h"], 1),
        (["p"], 0),
        (["End"], DEMO_EVENTS),
        (["Home"], 0),
        (["G"], DEMO_EVENTS),
        (["g"], 0),
        (["3", "1", "Enter"], 31),
        (["1", "2", "Enter"], 12),
    ]:
        term.send(*keys)
        lines = term.wait_for(f"event {index}/36")
        assert_fits(lines, 80, 24)
    assert lines[1].startswith("12: ")  # the event just applied
    term.send("End")
    lines = term.wait_for("game over: ann wins with 31")
    assert "ann [black] 4 chips = 31" in "\n".join(lines)  # the scores


def test_search_jumps_to_the_next_match(tmux: Any, demo_log: Path) -> None:
    term = tmux("replay", demo_log)
    term.wait_for("event 0/36")
    term.send("/", "strife", "Enter")
    lines = term.wait_for(f"event {DEMO_STRIFE}/36")
    assert lines[1].startswith(f"{DEMO_STRIFE}: cy 14-15")
    term.send("/", "nothing like this", "Enter")
    term.wait_for("no event matches")
    assert f"event {DEMO_STRIFE}/36" in term.text()


def test_the_screen_shows_the_effects_after_a_search(tmux: Any, demo_log: Path) -> None:
    """After '/strife', the screen should show the effect that matched: event 31's strife and the
    start of epoch 4 (the spec: the screen shows the event just applied and its effects)."""
    term = tmux("replay", demo_log)
    term.wait_for("event 0/36")
    term.send("/", "strife", "Enter")
    term.wait_for(f"event {DEMO_STRIFE}/36")
    lines = term.settle()
    assert "strife" in "\n".join(lines), "\n".join(lines)
    assert "epoch 4 begins" in "\n".join(lines), "\n".join(lines)


def test_diff_view_and_help_keys(tmux: Any, demo_log: Path) -> None:
    term = tmux("replay", demo_log, "--at", 4)
    term.wait_for("event 4/36")
    term.send("d")
    lines = term.wait_for("track red: 0 → 5")
    assert "chips cy: 0 → 1" in "\n".join(lines)
    assert_fits(lines, 80, 24)
    term.send("d")
    term.wait_for("track  red 5")
    term.send("v")
    lines = term.wait_for("view: spectator")
    assert "[?]" in "\n".join(lines)
    term.send("v")
    term.wait_for("view: ann")
    term.send("v", "v", "v")
    term.wait_for("view: everything")
    term.send("?")
    lines = term.wait_for("jump to event")  # the title already says "q quit"
    assert "previous" in "\n".join(lines)
    term.send("x")
    lines = term.wait_for("track  red 5")  # the help hides the board; x brought it back
    assert "jump to event" not in "\n".join(lines)


def test_at_opens_there_and_shows_a_pending_decision(tmux: Any, demo_log: Path) -> None:
    term = tmux("replay", demo_log, "--at", DEMO_PENDING)
    lines = term.wait_for(f"event {DEMO_PENDING}/36")
    assert_fits(lines, 80, 24)
    assert "ann must choose the order of villages 19 35" in "\n".join(lines)


def test_a_smaller_terminal_trims_and_keeps_the_status_lines(tmux: Any, demo_log: Path) -> None:
    term = tmux("replay", demo_log, width=60, height=15)
    lines = term.wait_for("event 0/36")
    assert_fits(lines, 60, 15)
    assert "track" in "\n".join(lines) and "cy to move" in "\n".join(lines)
    term.send("End")
    lines = term.wait_for("event 36/36")
    assert_fits(lines, 60, 15)
    assert "game over" in "\n".join(lines)
    term.send("d")
    lines = term.wait_for("changes made by event 36")
    assert_fits(lines, 60, 15)


def test_q_ends_the_process(tmux: Any, demo_log: Path) -> None:
    term = tmux("replay", demo_log)
    term.wait_for("event 0/36")
    term.send("Right", "q")
    term.wait_gone()


def test_q_from_the_help_ends_the_process(tmux: Any, demo_log: Path) -> None:
    term = tmux("replay", demo_log)
    term.wait_for("event 0/36")
    term.send("?")
    term.wait_for("jump to event")
    term.send("q")
    term.wait_gone()


def test_bad_input_in_a_terminal_is_one_line_and_a_status(
    tmux: Any, demo_log: Path, damage: Any, tribes_argv: list[str]
) -> None:
    base = shlex.join([*tribes_argv, "replay"])
    cases = [
        (f"{base} {shlex.quote(str(demo_log))} --at 99", 2),
        (f"{base} {shlex.quote(str(demo_log))} --at -1", 2),
        (f"{base} {shlex.quote(str(damage.flip(demo_log, 40)))}", 1),
        (f"{base} {shlex.quote(str(damage.other_version(demo_log)))}", 1),
        (f"{base} {shlex.quote(str(demo_log.with_name('missing.tribes')))}", 1),
    ]
    for command, status in cases:
        term = tmux(shell=f"bash -c {shlex.quote(command + '; echo EXIT=$?; sleep 30')}")
        lines = term.wait_for("EXIT=", joined=True)
        text = "\n".join(lines).strip()
        assert f"EXIT={status}" in text, text
        said = [line for line in lines if line.strip() and not line.startswith("EXIT=")]
        assert len(said) == 1, text
        assert said[0].startswith("tribes: "), text
        assert "Traceback" not in text
        term.kill()


def test_without_a_terminal_it_says_so_in_one_line_and_exits_2(
    tmux: Any, demo_log: Path, tribes_argv: list[str]
) -> None:
    # stdin is the terminal, stdout a pipe
    command = shlex.join([*tribes_argv, "replay", str(demo_log)])
    term = tmux(
        shell=f"bash -c {shlex.quote(command + ' | cat; echo EXIT=${PIPESTATUS[0]}; sleep 30')}"
    )
    lines = term.wait_for("EXIT=", joined=True)
    said = [line for line in lines if line.strip() and not line.startswith("EXIT=")]
    assert "EXIT=2" in "\n".join(lines)
    assert len(said) == 1 and said[0].startswith("tribes: ") and "terminal" in said[0]


def test_without_a_terminal_in_a_subprocess(demo_log: Path, tribes_argv: list[str]) -> None:
    done = subprocess.run(
        [*tribes_argv, "replay", str(demo_log)],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=30,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("tribes: ") and "terminal" in lines[0]


def test_without_a_terminal_in_process(demo_log: Path) -> None:
    result = CliRunner().invoke(main, ["replay", str(demo_log), "--at", "3"])
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1
    assert "terminal" in result.stderr


# --- resizing, colour, panning, the panes beside the board ----------------------------------------

IWARI_FEATS = Path(__file__).resolve().parents[2] / "fixtures" / "iwari" / "full-game-3p-feats.json"
IWARI_FINAL = 118


def resize(term: Any, width: int, height: int) -> None:
    term._tmux("resize-window", "-t", term.name, "-x", str(width), "-y", str(height))


def with_escapes(term: Any) -> str:
    """The pane with its colours, as the ANSI sequences tmux keeps."""
    return term._tmux("capture-pane", "-t", term.name, "-p", "-e", check=False).stdout


def wait_without(term: Any, text: str, timeout: float = 8.0) -> list[str]:
    """Poll the pane until ``text`` no longer shows; the lines then."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        lines = term.capture()
        if text not in "\n".join(lines):
            return lines
        time.sleep(0.05)
    raise AssertionError(f"{text!r} still shows after {timeout}s:\n" + term.text())


def replay_line(tribes_argv: list[str], *args: Any, env: str = "") -> str:
    return f"env -u NO_COLOR {env} " + shlex.join([*tribes_argv, "replay", *map(str, args)])


def test_a_resized_terminal_is_redrawn_at_its_new_size(tmux: Any, demo_log: Path) -> None:
    term = tmux("replay", demo_log, "--at", DEMO_STRIFE)
    lines = term.wait_for(f"event {DEMO_STRIFE}/36")
    assert "▶" not in "\n".join(lines)  # 80 columns: no room for the move list
    resize(term, 120, 30)
    lines = term.wait_for(f"▶ {DEMO_STRIFE} cy  14-15")  # wider: the move list beside the board
    assert_fits(lines, 120, 30)
    assert "track  red" in "\n".join(lines)
    resize(term, 60, 20)
    lines = term.wait_for("HJKL pan")  # narrower: the board is cut, and can be panned
    assert_fits([line.rstrip() for line in lines], 60, 20)
    assert "▶" not in "\n".join(lines)
    assert "ann to move" in "\n".join(lines)


def test_colour_on_a_terminal_and_none_with_no_color(
    tmux: Any, demo_log: Path, tribes_argv: list[str]
) -> None:
    coloured = tmux(shell=replay_line(tribes_argv, demo_log))
    coloured.wait_for("event 0/36")
    assert "\x1b[" in with_escapes(coloured)
    for line in (
        replay_line(tribes_argv, demo_log, env="NO_COLOR=1"),
        replay_line(tribes_argv, demo_log, "--no-color"),
    ):
        plain = tmux(shell=line)
        plain.wait_for("event 0/36")
        plain.send("Right")  # a redraw after a key, too
        plain.wait_for("event 1/36")
        assert "\x1b[" not in with_escapes(plain), line


def test_search_wraps_and_enter_repeats_it(tmux: Any, demo_log: Path) -> None:
    term = tmux("replay", demo_log, "--at", DEMO_STRIFE + 1)
    term.wait_for(f"event {DEMO_STRIFE + 1}/36")
    term.send("/", "strife", "Enter")
    lines = term.wait_for(f"event {DEMO_STRIFE}/36")
    assert "went on from the first" in "\n".join(lines)
    cursor = Cursor.open(demo_log)
    villages = [i for i in range(1, DEMO_EVENTS + 1) if "village" in cursor.describe(i)]
    term.send("Home")
    term.wait_for("event 0/36")
    term.send("/", "village", "Enter")
    term.wait_for(f"event {villages[0]}/36")
    for index in villages[1:3]:
        term.send("Enter")  # the same search again
        lines = term.wait_for(f"event {index}/36")
        assert lines[1].startswith(f"{index}: ")


def test_the_board_pans_at_60x20(tmux: Any, demo_log: Path) -> None:
    term = tmux("replay", demo_log, "--at", DEMO_STRIFE, width=60, height=20)
    lines = term.wait_for("HJKL pan")
    assert "34g" not in "\n".join(lines)  # the right of the board is cut
    term.send("S-Right", "S-Right")
    lines = term.wait_for("34g")
    assert_fits(lines, 60, 20)
    term.send("H", "H")
    lines = wait_without(term, "34g")  # back to the left edge
    assert "1f V1" in "\n".join(lines)
    term.send("J", "J", "J", "J", "J", "J", "J", "J")
    lines = term.wait_for("57f V3")  # the bottom rows of the board
    assert "ann to move" in "\n".join(lines)


def test_e_expands_the_effects_of_a_final_scoring(tmux: Any) -> None:
    term = tmux("replay", IWARI_FEATS, "--at", IWARI_FINAL)
    lines = term.wait_for("e: all")
    assert "settlement of ann" not in "\n".join(lines)
    term.send("e")
    lines = term.wait_for("game over: ann 78, bob 83, cy 68; bob wins")
    text = "\n".join(lines)
    assert "the 19 effects of event 118" in text and "settlement of ann (4 tents): +4" in text
    assert_fits(lines, 80, 24)
    term.send("e")
    term.wait_for("e: all")


def test_d_shows_the_board_and_the_diff_at_200x50(tmux: Any, demo_log: Path) -> None:
    term = tmux("replay", demo_log, "--at", 4, width=200, height=50)
    term.wait_for("event 4/36")
    term.send("d")
    lines = term.wait_for("track red: 0 → 5")
    text = "\n".join(lines)
    assert "track  red 5" in text and "1f V1" in text  # the board stays
    assert "▶  4 cy  2-1" in text  # and the move list


class _Stream:
    def __init__(self, tty: bool) -> None:
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def test_colour_only_on_a_terminal_without_no_color_or_the_flag() -> None:
    from tribes.cli.tui import wants_colour

    assert wants_colour(_Stream(True), False, {}) is True
    assert wants_colour(_Stream(True), False, {"NO_COLOR": ""}) is True
    assert wants_colour(_Stream(True), False, {"NO_COLOR": "1"}) is False
    assert wants_colour(_Stream(True), True, {}) is False
    assert wants_colour(_Stream(False), False, {}) is False


def test_paint_adds_colour_around_styled_text_only_when_asked() -> None:
    from tribes.cli.tui import RESET, STYLES, paint

    rows = [(("title", "title"),), (("a board", "board"), (" │ ", "rule"), ("▶ 1", "current"))]
    assert paint(rows, False) == ["title", "a board │ ▶ 1"]
    coloured = paint(rows, True)
    assert coloured[0] == f"{STYLES['title']}title{RESET}"
    assert coloured[1].startswith("a board") and f"{STYLES['current']}▶ 1{RESET}" in coloured[1]


def test_the_last_move_is_coloured_on_the_board(
    tmux: Any, demo_log: Path, tribes_argv: list[str]
) -> None:
    term = tmux(shell=replay_line(tribes_argv, demo_log, "--at", 4))
    term.wait_for("event 4/36")
    escaped = with_escapes(term)
    green = r"\x1b\[(?:[0-9;]*;)?32m(?:\x1b\[[0-9;]*m)*"  # tmux may split the SGR codes
    bold = r"(?:\x1b\[[0-9;]*m)*?"
    assert re.search(r"1f " + bold + green + r"V1", escaped), escaped  # village 1, by event 4
    assert not re.search(green + r"3g", escaped)  # territory 3: untouched


def test_typed_search_text_is_shown_escaped(tmux: Any, demo_log: Path) -> None:
    """Issue 31 §3: what a user types (pastes) into the search line is echoed with its control
    and bidirectional characters escaped, as the line being typed and in the answer."""
    term = tmux("replay", demo_log)
    term.wait_for("event 0/36")
    term.send("/")
    term.send("-l", "ab\x01\u202ecd")  # Ctrl-A, then RIGHT-TO-LEFT OVERRIDE (UTF-8, 3 bytes)
    lines = term.wait_for("search: ab\\x01\\u202ecd")
    assert "\u202e" not in "\n".join(lines)
    term.send("Enter")
    lines = term.wait_for("no event matches 'ab\\x01\\u202ecd'")
    assert "\u202e" not in "\n".join(lines)
    term.send("/")
    term.send("-l", "ü")  # a character of two bytes is one character, not two
    term.wait_for("search: ü")


def test_a_log_name_is_shown_escaped(tmux: Any, demo_log: Path) -> None:
    hostile = demo_log.with_name("e\x1b[31mvil\u202e.tribes")
    hostile.write_bytes(demo_log.read_bytes())
    term = tmux("replay", hostile, width=100)
    lines = term.wait_for("event 0/36")
    assert "e\\x1b[31mvil\\u202e.tribes" in lines[0]
