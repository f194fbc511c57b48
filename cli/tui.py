"""``tribes replay LOG``: the interactive stepper in a terminal: raw keys, a full-screen redraw
after every key and whenever the terminal is resized (SIGWINCH), and colour when the output is a
terminal, ``NO_COLOR`` is not set (https://no-color.org) and ``--no-color`` is not given."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import sys
import termios
import tty
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO

import click

from tribes.cli.common import WHOLE, warn
from tribes.cli.quick import viewer_of
from tribes.core.errors import UsageError
from tribes.replay import panes, stepper
from tribes.replay.cursor import Cursor

_SEQUENCES = {
    "\x1b[C": stepper.RIGHT, "\x1bOC": stepper.RIGHT,
    "\x1b[D": stepper.LEFT, "\x1bOD": stepper.LEFT,
    "\x1b[A": stepper.PAN_UP, "\x1bOA": stepper.PAN_UP,
    "\x1b[B": stepper.PAN_DOWN, "\x1bOB": stepper.PAN_DOWN,
    "\x1b[H": stepper.HOME, "\x1bOH": stepper.HOME, "\x1b[1~": stepper.HOME, "\x1b[7~": stepper.HOME,
    "\x1b[F": stepper.END, "\x1bOF": stepper.END, "\x1b[4~": stepper.END, "\x1b[8~": stepper.END,
}  # fmt: skip
# An arrow with a modifier (Shift 2, Alt 3, Ctrl 5, ...: ESC [ 1 ; m X) pans the board.
_SEQUENCES.update(
    (f"\x1b[1;{m}{letter}", pan)
    for m in range(2, 9)
    for letter, pan in (
        ("A", stepper.PAN_UP),
        ("B", stepper.PAN_DOWN),
        ("C", stepper.PAN_RIGHT),
        ("D", stepper.PAN_LEFT),
    )
)

RESIZED = "RESIZED"
"""Not a key: the terminal changed size (read_key returns it to have the screen redrawn)."""

STYLES = {
    "title": "\x1b[1;7m",  # bold, reverse
    "event": "\x1b[1m",
    "effects": "\x1b[1m",
    "current": "\x1b[1;7m",
    "moves": "\x1b[2m",
    "diff": "\x1b[33m",
    "rule": "\x1b[2m",
    "message": "\x1b[1;36m",
    "help": "",
    "board": "",
    "changed": "\x1b[1;32m",  # bold green: what the last event changed on the board
}
"""ANSI SGR of each style of ``tribes.replay.panes.Row``."""
RESET = "\x1b[0m"


def wants_colour(stream: TextIO, no_color: bool, environ: dict[str, str] | None = None) -> bool:
    """Colour only on a terminal, without ``--no-color`` and without ``NO_COLOR`` set to
    anything but the empty string (https://no-color.org)."""
    env = os.environ if environ is None else environ
    return not no_color and not env.get("NO_COLOR") and stream.isatty()


def paint(rows: Sequence[panes.Row], colour: bool) -> list[str]:
    """The rows as terminal lines, with ANSI colour or without."""
    if not colour:
        return panes.lines_of(rows)
    lines = []
    for row in rows:
        parts = []
        for text, style in row:
            code = STYLES.get(style, "")
            parts.append(f"{code}{text}{RESET}" if code and text else text)
        lines.append("".join(parts))
    return lines


def read_key(fd: int, wake: int | None = None) -> str:
    """One key from a raw terminal: a character, or a name for arrows, Home, End, Enter, …;
    RESIZED when ``wake`` (a pipe the SIGWINCH handler writes to) has something first."""
    watched = [fd] if wake is None else [fd, wake]
    while True:
        try:
            ready = select.select(watched, [], [])[0]
        except InterruptedError:  # a signal came: its handler wrote to ``wake``
            continue
        if wake is not None and wake in ready:
            with contextlib.suppress(BlockingIOError):
                os.read(wake, 64)
            return RESIZED
        if fd in ready:
            break
    first = _character(fd)
    if first == "\x1b":
        seq = first
        while True:
            if not _readable(fd, 0.05):
                break
            seq += os.read(fd, 1).decode(errors="replace")
            if seq in _SEQUENCES or (len(seq) > 2 and (seq[-1].isalpha() or seq[-1] == "~")):
                break
        return _SEQUENCES.get(seq, stepper.ESCAPE if seq == "\x1b" else "")
    if first in ("\r", "\n"):
        return stepper.ENTER
    if first in ("\x7f", "\x08"):
        return stepper.BACKSPACE
    if first in ("\x03", "\x04"):
        return "q"
    return first


def _character(fd: int) -> str:
    """One character from a raw terminal: a byte, or the bytes of one UTF-8 character (what
    a key or a paste of text other than ASCII sends), read as one."""
    data = os.read(fd, 1)
    more = _UTF8_MORE.get(data[0] >> 4, 0) if data else 0
    while more and _readable(fd, 0.05):
        data += os.read(fd, 1)
        more -= 1
    return data.decode(errors="replace")


_UTF8_MORE = {0xC: 1, 0xD: 1, 0xE: 2, 0xF: 3}
"""How many bytes follow the first of a UTF-8 character, by its high four bits."""


def _readable(fd: int, timeout: float) -> bool:
    return bool(select.select([fd], [], [], timeout)[0])


@contextlib.contextmanager
def _on_resize() -> Iterator[int]:
    """A pipe that gets a byte whenever the terminal is resized."""
    read, write = os.pipe()
    os.set_blocking(read, False)
    os.set_blocking(write, False)

    def handler(signum: int, frame: Any) -> None:
        with contextlib.suppress(BlockingIOError):
            os.write(write, b"w")

    previous = signal.signal(signal.SIGWINCH, handler)
    try:
        yield read
    finally:
        signal.signal(signal.SIGWINCH, previous)
        os.close(read)
        os.close(write)


def _size(fd: int) -> tuple[int, int]:
    try:
        size = os.get_terminal_size(fd)
    except OSError:
        return 80, 24
    return size.columns or 80, size.lines or 24


@click.command()
@click.argument("log", type=click.Path(path_type=Path))
@click.option("--at", type=WHOLE, help="Open at event N.")
@click.option("--no-color", is_flag=True, help="No colour (also when NO_COLOR is set).")
@click.option(
    "--as",
    "who",
    metavar="SEAT",
    help="See as this seat ('v' then shows it or a spectator's view only), 'spectator' or "
    "'all' (default: $TRIBES_SEAT's seat, else all, and 'v' goes through every view).",
)
def replay(log: Path, at: int | None, no_color: bool, who: str | None) -> None:
    """Step through a log interactively: → next, ← previous, g/G first/last, N Enter jump,
    d diff, e all effects, v point of view, /text search (Enter again: the next match),
    H J K L or Shift+arrows pan, ? help, q quit."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise UsageError(
            "replay needs a terminal; for scripts use 'tribes log' or 'tribes show --at N'"
        )
    said: list[str] = []
    cursor = Cursor.open(log, said.append)
    viewer = viewer_of(cursor.seats, who)
    if at is not None:
        cursor.seek(at)
    else:
        cursor.first()
    model = stepper.Stepper(
        cursor,
        name=log.name,
        message=" ".join(said),
        viewer=viewer,
        views=stepper.views_from(viewer),
    )
    colour = wants_colour(sys.stdout, no_color)
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    out = sys.stdout
    try:
        tty.setraw(fd)
        out.write("\x1b[?1049h\x1b[?25l")  # the alternate screen, no cursor
        with _on_resize() as wake:
            while True:
                width, height = _size(out.fileno())
                lines = paint(model.rows(width, height), colour)
                out.write("\x1b[H\x1b[2J" + "\r\n".join(lines))
                out.flush()
                key = read_key(fd, wake)
                if key != RESIZED and not model.press(key):
                    break
    finally:
        out.write("\x1b[?25h\x1b[?1049l")
        out.flush()
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        for line in said:  # said again once the screen is back, where it stays
            warn(line)
