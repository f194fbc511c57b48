"""The model of ``tribes replay``: keys in, screens out. No terminal here, so it is tested
directly; ``tribes.cli.tui`` only reads keys and paints the lines this returns."""

from __future__ import annotations

import attrs

from tribes.core.game import EVERYTHING, SPECTATOR, Viewer
from tribes.replay.cursor import Cursor
from tribes.replay.diff import diff

HELP = (
    "→ l n  next event        ← h p  previous event",
    "Home g  first            End G  last",
    "123 Enter  jump to event 123",
    "d  toggle the diff against the previous step",
    "v  change the point of view (everything, spectator, each seat)",
    "/text Enter  next event whose move or effects match",
    "?  this help             q  quit",
)

RIGHT, LEFT, HOME, END, ENTER, ESCAPE, BACKSPACE = (
    "RIGHT",
    "LEFT",
    "HOME",
    "END",
    "ENTER",
    "ESC",
    "BACKSPACE",
)


@attrs.define
class Stepper:
    """What the screen shows and how keys change it."""

    cursor: Cursor
    name: str = "log"
    show_diff: bool = False
    show_help: bool = False
    viewer: Viewer = EVERYTHING
    typing: str | None = None
    """Text being typed: digits for a jump, or '/...' for a search."""
    message: str = ""

    def viewers(self) -> list[Viewer]:
        return [EVERYTHING, SPECTATOR, *range(len(self.cursor.seats))]

    def press(self, key: str) -> bool:
        """Handle one key; False means quit."""
        self.message = ""
        if self.typing is not None:
            self._type(key)
            return True
        if self.show_help and key not in ("q",):
            self.show_help = False
            return True
        r = self.cursor
        if key in (RIGHT, "l", "n", " "):
            r.forward()
        elif key in (LEFT, "h", "p"):
            r.back()
        elif key in (HOME, "g"):
            r.first()
        elif key in (END, "G"):
            r.last()
        elif key == "d":
            self.show_diff = not self.show_diff
        elif key == "v":
            options = self.viewers()
            self.viewer = options[(options.index(self.viewer) + 1) % len(options)]
        elif key == "?":
            self.show_help = True
        elif key == "q":
            return False
        elif key.isdigit():
            self.typing = key
        elif key == "/":
            self.typing = "/"
        else:
            self.message = f"unknown key {key!r}; ? for help"
        return True

    def _type(self, key: str) -> None:
        assert self.typing is not None
        if key == ESCAPE:
            self.typing = None
        elif key == BACKSPACE:
            self.typing = self.typing[:-1] or None
        elif key == ENTER:
            text, self.typing = self.typing, None
            self._submit(text)
        elif len(key) == 1 and (self.typing.startswith("/") or key.isdigit()):
            self.typing += key

    def _submit(self, text: str) -> None:
        r = self.cursor
        if text.startswith("/"):
            needle = text[1:].strip()
            found = r.find(needle) if needle else None
            if found is None:
                self.message = f"no event matches '{needle}'"
            else:
                r.seek(found)
            return
        target = int(text)
        if target > len(r):
            self.message = f"event {target} is beyond the last ({len(r)})"
        else:
            r.seek(target)

    def viewer_name(self) -> str:
        if self.viewer == EVERYTHING:
            return "everything"
        if self.viewer is SPECTATOR:
            return "spectator"
        return self.cursor.seats[self.viewer]

    def screen(self, width: int = 80, height: int = 24) -> list[str]:
        """The lines to paint, at most ``height`` of at most ``width`` characters."""
        r = self.cursor
        title = f"{r.game.name} {self.name}  event {r.index}/{len(r)}  view: {self.viewer_name()}"
        hint = "? help  q quit"
        top = [_fit(f"{title}{' ' * max(2, width - len(title) - len(hint))}{hint}", width)]
        step = r.step
        event = "the start" if step.event is None else r.describe(r.index)
        top.extend(_wrap(event, width, max(1, min(EVENT_LINES, (height - 6) // 2))))
        if self.show_help:
            body = list(HELP)
        elif self.show_diff:
            body = self._diff_lines()
        else:
            body = r.game.render(r.state, r.seats, self.viewer, width).splitlines()
        bottom = []
        if self.typing is not None:
            bottom.append(
                f"jump to: {self.typing}"
                if not self.typing.startswith("/")
                else f"search: {self.typing[1:]}"
            )
        elif self.message:
            bottom.append(self.message)
        room = max(0, height - len(top) - len(bottom))
        body = _trim(body, room)
        return [*top, *(_fit(line, width) for line in body), *(_fit(b, width) for b in bottom)][
            :height
        ]

    def _diff_lines(self) -> list[str]:
        r = self.cursor
        if r.index == 0:
            return ["(the start: nothing before it to compare with)"]
        changes = diff(
            r.game, r.document(self.viewer, r.index - 1), r.document(self.viewer, r.index)
        )
        return (
            [f"changes made by event {r.index}:", *(f"  {c.text}" for c in changes or ())]
            if changes
            else [f"event {r.index} changed nothing this view shows"]
        )


EVENT_LINES = 5
"""The event and its effects may take this many lines; the board gives way (see ``_trim``)."""


def _wrap(text: str, width: int, most: int) -> list[str]:
    """``text`` in lines of ``width``, broken at spaces, indented after the first; at most
    ``most`` lines, the last ending in … when cut."""
    words = text.split(" ")
    lines: list[str] = []
    line = ""
    for word in words:
        candidate = f"{line} {word}" if line else word
        if len(candidate) <= width or not line:
            line = candidate
        else:
            lines.append(line)
            line = "  " + word
    lines.append(line)
    if len(lines) > most:
        lines = lines[:most]
        lines[-1] = (
            _fit(lines[-1] + " …", width) if len(lines[-1]) + 2 <= width else _fit(lines[-1], width)
        )
    return [_fit(line, width) for line in lines]


def _fit(line: str, width: int) -> str:
    return line if len(line) <= width else line[: max(0, width - 1)] + "…"


def _trim(lines: list[str], room: int) -> list[str]:
    """Keep what fits: drop blank lines first, then cut the middle of the board, keeping the
    status lines at the end."""
    if len(lines) <= room:
        return lines
    lines = [line for line in lines if line.strip()]
    if len(lines) <= room:
        return lines
    if room <= 1:
        return lines[-room:] if room else []
    keep_end = min(4, room // 2)
    return [*lines[: room - keep_end - 1], "⋮", *lines[-keep_end:]]
