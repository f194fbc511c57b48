"""``tribes replay LOG``: the interactive stepper in a terminal (raw keys, full-screen redraw)."""

from __future__ import annotations

import os
import shutil
import sys
import termios
import tty
from pathlib import Path

import click

from tribes.core.errors import UsageError
from tribes.replay import stepper
from tribes.replay.cursor import Cursor

_SEQUENCES = {
    "\x1b[C": stepper.RIGHT, "\x1bOC": stepper.RIGHT,
    "\x1b[D": stepper.LEFT, "\x1bOD": stepper.LEFT,
    "\x1b[H": stepper.HOME, "\x1bOH": stepper.HOME, "\x1b[1~": stepper.HOME, "\x1b[7~": stepper.HOME,
    "\x1b[F": stepper.END, "\x1bOF": stepper.END, "\x1b[4~": stepper.END, "\x1b[8~": stepper.END,
}  # fmt: skip


def read_key(fd: int) -> str:
    """One key from a raw terminal: a character, or a name for arrows, Home, End, Enter, …"""
    first = os.read(fd, 1).decode(errors="replace")
    if first == "\x1b":
        seq = first
        while True:
            ready = _readable(fd, 0.05)
            if not ready:
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


def _readable(fd: int, timeout: float) -> bool:
    import select

    return bool(select.select([fd], [], [], timeout)[0])


@click.command(short_help="Step through a log in the terminal.")
@click.argument("log", type=click.Path(path_type=Path))
@click.option("--at", type=int, help="Open at event N.")
def replay(log: Path, at: int | None) -> None:
    """Step through a log interactively: → next, ← previous, g/G first/last, N Enter jump,
    d diff, v point of view, /text search, ? help, q quit."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise UsageError(
            "replay needs a terminal; for scripts use 'tribes log' or 'tribes show --at N'"
        )
    cursor = Cursor.open(log)
    if at is not None:
        cursor.seek(at)
    else:
        cursor.first()
    model = stepper.Stepper(cursor, name=log.name)
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    out = sys.stdout
    try:
        tty.setraw(fd)
        out.write("\x1b[?1049h\x1b[?25l")  # the alternate screen, no cursor
        while True:
            size = shutil.get_terminal_size((80, 24))
            lines = model.screen(size.columns, size.lines)
            out.write("\x1b[H\x1b[2J" + "\r\n".join(lines))
            out.flush()
            if not model.press(read_key(fd)):
                break
    finally:
        out.write("\x1b[?25h\x1b[?1049l")
        out.flush()
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
